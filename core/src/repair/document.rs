//! The reply as a whole: one value, what may trail it, and a lone string whose inner
//! quotes ended it early.
//!
//! # A lone string
//!
//! A model may write its reply as one string literal and leave the quotes inside it
//! unescaped: `"He said "hi", then left"`. The quote after `hi` is followed by a comma,
//! which may follow a value, so it seems to end the string, and text is left after it.
//! When the reply starts and ends with a double quote, it is then read again as one string
//! from its first quote to its last, every quote between them inside the string and every
//! escape read as in any other string (`\t` is a tab, `\"` a quote).
//!
//! That reading is not taken when the reply reads as several values, each separated from
//! the next by a comma, a colon or blank, with no quote taken to be inside a string or
//! missing: `"yes", "no"` is two strings, `"key": "value"` a member without its object.
//! No one value is the reply, which is refused as `1, 2` is: joining them, or reading them
//! as the string `yes", "no`, would give a value the model did not write.

use serde_json::Value;

use super::string::{Stop, is_quote};
use super::{Failure, FixKind, Location, Read, Repairer, is_special_whitespace};

impl Repairer<'_> {
    pub(super) fn document(&mut self) -> Result<Value, Failure> {
        self.skip_blank();
        let start = self.pos;
        let fixes_before = self.fixes.len();
        let value = match self.value()? {
            Read::Value(v) => v,
            Read::CutOff => return self.fail("the reply ends before its value"),
            Read::Nothing if self.at_end() => return self.fail("the reply is empty"),
            Read::Nothing => {
                let c = self.peek().unwrap_or(' ');
                return self.fail(format!("unexpected character {c:?}"));
            }
        };
        self.skip_blank();
        if self.peek() == Some(',') {
            self.fix(FixKind::TrailingComma, self.pos);
            self.bump();
            self.skip_blank();
        }
        while let Some(c @ ('}' | ']')) = self.peek() {
            self.fix(FixKind::ExtraClosingBracket, self.pos);
            self.pos += c.len_utf8();
            self.skip_blank();
        }
        if self.at_end() {
            return Ok(value);
        }
        if value.is_string()
            && let Some(end) = self.lone_string_end(start)
        {
            let after = self.pos;
            self.pos = start;
            self.fixes.truncate(fixes_before);
            if let Some(whole) = self.quoted(Stop::Last(end))? {
                self.skip_blank();
                if self.at_end() {
                    return Ok(Value::String(whole));
                }
            }
            self.pos = after;
        }
        let c = self.peek().unwrap_or(' ');
        self.fail(format!("unexpected {c:?} after the JSON value"))
    }

    /// The offset of the last quote of a reply that may be one string from `start` to
    /// that quote: it starts and ends with a double quote and is not several values.
    fn lone_string_end(&mut self, start: usize) -> Option<usize> {
        let body = self
            .text
            .trim_end_matches(|c: char| c.is_whitespace() || is_special_whitespace(c));
        let end = body.len().checked_sub(1)?;
        let quoted = self.text[start..].starts_with('"') && body.ends_with('"');
        (quoted && end > start && !self.several_values(start)).then_some(end)
    }

    /// Whether the text from `start` reads as two or more whole values, each separated
    /// from the next by a comma, a colon or blank, with no quote taken to be inside a
    /// string or missing. Reads ahead and leaves no trace.
    fn several_values(&mut self, start: usize) -> bool {
        let (pos, depth, fixes) = (self.pos, self.depth, self.fixes.len());
        let unterminated = std::mem::take(&mut self.unterminated);
        let (no_look_before, doubled_around) = (self.no_look_before, self.doubled_around);
        self.pos = start;
        let mut count = 0;
        let several = loop {
            let from = self.fixes.len();
            if !matches!(self.value(), Ok(Read::Value(_))) {
                break false;
            }
            // A quote after a backslash taken for the end quote is a guess too.
            let text = self.text;
            let guessed = self.fixes[from..]
                .iter()
                .any(|f| match (f.kind(), f.location()) {
                    (FixKind::UnescapedQuote | FixKind::ClosedString, _) => true,
                    (FixKind::LiteralBackslash, Location::Offset(at)) => {
                        text[*at + 1..].starts_with(is_quote)
                    }
                    _ => false,
                });
            if guessed {
                break false;
            }
            count += 1;
            self.skip_blank();
            if matches!(self.peek(), Some(',' | ':')) {
                self.bump();
                self.skip_blank();
            }
            if self.at_end() {
                break count > 1;
            }
            // No value ends in blank, a comma or a colon; a string's end quote may be
            // followed by blank it has read.
            let before = &self.text[..self.pos];
            let separated = before.ends_with("*/")
                || before.ends_with(|c: char| {
                    c.is_whitespace() || is_special_whitespace(c) || c == ',' || c == ':'
                });
            if !separated {
                break false;
            }
        };
        self.pos = pos;
        self.depth = depth;
        self.fixes.truncate(fixes);
        self.unterminated = unterminated;
        self.no_look_before = no_look_before;
        self.doubled_around = doubled_around;
        several
    }
}
