//! Local syntax repair: reads JSON as models write it and reports every fix.
//!
//! The repairer is a tolerant recursive-descent parser that builds a
//! [`serde_json::Value`] directly. It accepts what strict JSON rejects when the intent is
//! clear (trailing commas, single or typographic quotes, unquoted keys, comments, Python
//! literals, raw newlines in strings, missing commas and colons, `...` ellipses, strings
//! joined with `+`) and records a [`Fix`] for each.
//!
//! # Truncated replies
//!
//! A reply cut off by the token limit is closed, not completed by guesswork:
//!
//! - an open string is closed where the text ends (`["Hello, wor` gives `["Hello, wor"]`),
//!   and open arrays and objects are closed; but when the text ends with a `]` or `}` that
//!   the string did not open, the reply is whole and the string lost its end quote: it ends
//!   at its first delimiter (`["abc, def]` gives `["abc", "def"]`, as jsonrepair reads it);
//! - a member or item whose value was cut off before it could be read whole is **dropped**,
//!   never invented: `{"a": 1, "b": tr` gives `{"a": 1}`, as do `{"a": 1, "b":` and
//!   `{"a": 1, "b"`; a number with a dangling `.`, `e` or sign at the very end, or a
//!   prefix of `true`/`false`/`null`, counts as cut off;
//! - a complete-looking number or bare word at the end is kept;
//! - a reply that is a single number or word has nothing to drop it from: `2.` and `2e`
//!   are completed to `2` (a reply may end a sentence so), a word is text (`t` stays the
//!   string `"t"`), and a lone `-` is an error.
//!
//! Every such decision is reported ([`FixKind::ClosedString`], [`FixKind::ClosedBrackets`],
//! [`FixKind::DroppedMember`], [`FixKind::DroppedItem`]) so the caller can tell the model
//! its reply was cut off.
//!
//! Work is linear in the input and nesting is limited to [`MAX_NESTING`] levels, so no
//! input can exhaust the stack. A string is re-read at most once; once a string has run to
//! the end of the text without its end quote, later strings in the same kind of quotes end
//! at their first quote or delimiter, as that string's second reading did.

mod document;
mod fix;
mod string;

pub use fix::{Fix, FixKind, Location};

use serde_json::{Map, Number, Value};

use crate::Error;
use crate::error::{Violation, ViolationKind};
use string::{Stop, is_quote};

/// How deep arrays and objects may nest in a repaired reply.
pub const MAX_NESTING: usize = 128;

/// Repairs `text` into a JSON value, with the fixes applied.
pub fn repair(text: &str) -> Result<(Value, Vec<Fix>), Error> {
    let mut repairer = Repairer {
        text,
        pos: 0,
        depth: 0,
        fixes: Vec::new(),
        unterminated: [false; 4],
    };
    match repairer.document() {
        Ok(value) => Ok((value, repairer.fixes)),
        Err(failure) => Err(failure.into_error(text)),
    }
}

/// Why a text could not be repaired, and where.
#[derive(Debug)]
pub(crate) struct Failure {
    offset: usize,
    message: String,
}

impl Failure {
    pub(crate) fn into_error(self, text: &str) -> Error {
        let before = &text[..self.offset.min(text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Error::single(Violation::new(
            "",
            ViolationKind::Syntax {
                line,
                column,
                message: self.message,
            },
        ))
    }
}

/// Where a container's loop stands after a separator.
enum Slot {
    /// The container is closed.
    Closed,
    /// Nothing to read here; look again.
    Skip,
    /// A member or item starts here.
    Next,
}

/// What reading one value gave.
enum Read {
    /// A whole value (possibly closed at the end of the text).
    Value(Value),
    /// The text ended inside the value: it cannot be read without guessing.
    CutOff,
    /// No value starts here.
    Nothing,
}

struct Repairer<'a> {
    text: &'a str,
    pos: usize,
    depth: usize,
    fixes: Vec<Fix>,
    /// For each kind of quote (`string::quote_kind`): whether a string in those quotes ran to
    /// the end of the text without finding its end quote.
    unterminated: [bool; 4],
}

/// Characters that may follow a value.
fn is_delimiter(c: char) -> bool {
    matches!(
        c,
        ',' | ':' | '[' | ']' | '{' | '}' | '(' | ')' | '\n' | '+' | '/'
    )
}

/// Whitespace a model may emit that JSON does not allow.
fn is_special_whitespace(c: char) -> bool {
    matches!(
        c,
        '\u{a0}' | '\u{1680}' | '\u{180e}' | '\u{2000}'
            ..='\u{200b}' | '\u{202f}' | '\u{205f}' | '\u{3000}' | '\u{feff}'
    )
}

impl<'a> Repairer<'a> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.text.get(self.pos + offset..)?.chars().next()
    }

    fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn fix(&mut self, kind: FixKind, offset: usize) {
        // Brackets closed together at the end of the text are one fix.
        if let FixKind::ClosedBrackets { count } = kind
            && let Some(last) = self.fixes.last_mut()
            && *last.location() == Location::Offset(offset)
            && let FixKind::ClosedBrackets { count: closed } = last.kind_mut()
        {
            *closed += count;
            return;
        }
        self.fixes.push(Fix::at(kind, offset));
    }

    fn fail<T>(&self, message: impl Into<String>) -> Result<T, Failure> {
        Err(Failure {
            offset: self.pos,
            message: message.into(),
        })
    }

    /// Skips whitespace and comments, reporting each comment.
    fn skip_blank(&mut self) {
        self.skip(true);
    }

    /// Skips spaces, tabs and `//`/`/* */` comments, but not a newline, which may end a
    /// value.
    fn skip_blank_on_line(&mut self) {
        self.skip(false);
    }

    fn skip(&mut self, newlines: bool) {
        loop {
            let rest = &self.text[self.pos..];
            let trimmed = rest.trim_start_matches(|c: char| {
                (c.is_whitespace() && (newlines || c != '\n')) || is_special_whitespace(c)
            });
            self.pos += rest.len() - trimmed.len();
            let start = self.pos;
            if let Some(body) = trimmed.strip_prefix("/*") {
                self.pos += body.find("*/").map_or(trimmed.len(), |i| i + 4);
            } else if trimmed.starts_with("//") || (newlines && trimmed.starts_with('#')) {
                self.pos += trimmed.find('\n').unwrap_or(trimmed.len());
            } else {
                return;
            }
            self.fix(FixKind::Comment, start);
        }
    }

    fn value(&mut self) -> Result<Read, Failure> {
        self.skip_blank();
        let Some(c) = self.peek() else {
            return Ok(Read::Nothing);
        };
        match c {
            '{' => self.object(),
            '[' => self.array(),
            c if is_quote(c) || (c == '\\' && self.peek_at(1).is_some_and(is_quote)) => {
                Ok(self.string(Stop::Quote)?.map_or(Read::CutOff, Read::Value))
            }
            '-' | '0'..='9' | '.' => match self.number()? {
                Some(read) => Ok(read),
                None => Ok(self.bare_word()),
            },
            '}' | ']' | ',' | ':' => Ok(Read::Nothing),
            _ => Ok(self.bare_word()),
        }
    }

    fn enter(&mut self) -> Result<(), Failure> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return self.fail(format!("nested more than {MAX_NESTING} levels deep"));
        }
        Ok(())
    }

    /// Skips `...` standing for elided items, and a comma after it.
    fn skip_ellipsis(&mut self) {
        self.skip_blank();
        if self.text[self.pos..].starts_with("...") {
            self.fix(FixKind::Ellipsis, self.pos);
            self.pos += 3;
            self.skip_blank();
            if self.peek() == Some(',') {
                self.bump();
                self.skip_blank();
            }
        }
    }

    /// Reads what stands between the members or items of a container: its closing
    /// bracket (or, mismatched, the other kind, which closes it too), a comma (reporting
    /// one that trails, leads or is missing) and an ellipsis.
    fn separator(&mut self, close: char, first: &mut bool) -> Slot {
        self.skip_blank();
        match self.peek() {
            None => {
                self.fix(FixKind::ClosedBrackets { count: 1 }, self.pos);
                return Slot::Closed;
            }
            Some(c) if c == close => {
                self.bump();
                return Slot::Closed;
            }
            Some('}' | ']') => {
                self.fix(FixKind::ClosedBrackets { count: 1 }, self.pos);
                self.bump();
                return Slot::Closed;
            }
            _ => {}
        }
        if !*first {
            if self.peek() == Some(',') {
                let comma = self.pos;
                self.bump();
                self.skip_blank();
                if matches!(self.peek(), Some('}' | ']')) {
                    self.fix(FixKind::TrailingComma, comma);
                    return Slot::Skip;
                }
                if self.at_end() {
                    return Slot::Skip;
                }
            } else {
                self.fix(FixKind::MissingComma, self.pos);
            }
        } else if self.peek() == Some(',') {
            // A comma before the first member or item.
            self.fix(FixKind::TrailingComma, self.pos);
            self.bump();
            return Slot::Skip;
        }
        *first = false;
        self.skip_ellipsis();
        if self.peek().is_none_or(|c| c == close) {
            return Slot::Skip;
        }
        Slot::Next
    }

    fn object(&mut self) -> Result<Read, Failure> {
        self.enter()?;
        self.bump(); // {
        let mut map = Map::new();
        let mut first = true;
        loop {
            match self.separator('}', &mut first) {
                Slot::Closed => break,
                Slot::Skip => continue,
                Slot::Next => {}
            }
            let key_at = self.pos;
            let key = match self.key()? {
                Some(Some(key)) => key,
                Some(None) => {
                    // The text ended inside an escape in the key.
                    self.fix(FixKind::DroppedMember { key: String::new() }, key_at);
                    continue;
                }
                None => {
                    if matches!(self.peek(), Some('{' | '[' | ']')) {
                        // `[{"i":1{"i":2}]`: the object was never closed.
                        if self
                            .fixes
                            .last()
                            .is_some_and(|f| *f.kind() == FixKind::MissingComma)
                        {
                            self.fixes.pop();
                        }
                        self.fix(FixKind::ClosedBrackets { count: 1 }, self.pos);
                        if self.peek() == Some(']') {
                            self.bump();
                        }
                        break;
                    }
                    let c = self.peek().unwrap_or(' ');
                    return self.fail(format!("expected an object key, found {c:?}"));
                }
            };
            self.skip_blank();
            if self.peek() == Some(':') {
                self.bump();
            } else if self.at_end() {
                self.fix(FixKind::DroppedMember { key }, key_at);
                continue;
            } else if self.peek().is_some_and(|c| {
                is_quote(c) || c == '{' || c == '[' || c.is_alphanumeric() || c == '-'
            }) {
                self.fix(FixKind::MissingColon, self.pos);
            } else {
                let c = self.peek().unwrap_or(' ');
                return self.fail(format!("expected ':' after the key {key:?}, found {c:?}"));
            }
            match self.value()? {
                Read::Value(value) => {
                    if map.contains_key(&key) {
                        self.fix(FixKind::DuplicateKey { key: key.clone() }, key_at);
                    }
                    map.insert(key, value);
                }
                Read::CutOff => self.fix(FixKind::DroppedMember { key }, key_at),
                Read::Nothing if self.at_end() => self.fix(FixKind::DroppedMember { key }, key_at),
                Read::Nothing => {
                    let c = self.peek().unwrap_or(' ');
                    return self.fail(format!("expected a value for {key:?}, found {c:?}"));
                }
            }
        }
        self.depth -= 1;
        Ok(Read::Value(Value::Object(map)))
    }

    /// `Some(Some(key))`, `Some(None)` when the text ends inside an escape in the key,
    /// `None` when no key starts here.
    fn key(&mut self) -> Result<Option<Option<String>>, Failure> {
        let c = self.peek();
        if c.is_some_and(|c| is_quote(c) || c == '\\') {
            return Ok(Some(match self.string(Stop::Quote)? {
                Some(Value::String(s)) => Some(s),
                _ => None,
            }));
        }
        let start = self.pos;
        while let Some(c) = self.peek() {
            if c == ':'
                || c.is_whitespace()
                || is_quote(c)
                || matches!(c, ',' | '{' | '}' | '[' | ']')
            {
                break;
            }
            self.bump();
        }
        if self.pos == start {
            return Ok(None);
        }
        let key = self.text[start..self.pos].to_owned();
        if self.at_end() {
            // Cut off in the key: the member is dropped under the part that was read.
            return Ok(Some(Some(key)));
        }
        self.fix(FixKind::UnquotedKey, start);
        // A missing opening quote: skip the closing one.
        if self.peek() == Some('"') {
            self.bump();
        }
        Ok(Some(Some(key)))
    }

    fn array(&mut self) -> Result<Read, Failure> {
        self.enter()?;
        self.bump(); // [
        let mut items = Vec::new();
        let mut first = true;
        loop {
            match self.separator(']', &mut first) {
                Slot::Closed => break,
                Slot::Skip => continue,
                Slot::Next => {}
            }
            let item_at = self.pos;
            match self.value()? {
                Read::Value(value) => items.push(value),
                Read::CutOff => self.fix(FixKind::DroppedItem, item_at),
                Read::Nothing if self.at_end() => {}
                Read::Nothing => {
                    let c = self.peek().unwrap_or(' ');
                    return self.fail(format!("expected a value in the array, found {c:?}"));
                }
            }
        }
        self.depth -= 1;
        Ok(Read::Value(Value::Array(items)))
    }

    /// A number, or `None` when the text here is not one (a date, say).
    fn number(&mut self) -> Result<Option<Read>, Failure> {
        let text = self.text;
        let bytes = text.as_bytes();
        let start = self.pos;
        let fixes_before = self.fixes.len();
        let mut i = start;
        let digits = |i: &mut usize| {
            let from = *i;
            while bytes.get(*i).is_some_and(u8::is_ascii_digit) {
                *i += 1;
            }
            from..*i
        };
        let negative = bytes.get(i) == Some(&b'-');
        if negative {
            i += 1;
        }
        let int = digits(&mut i);
        let mut dot = false;
        let mut frac = i..i;
        if bytes.get(i) == Some(&b'.') && !text[i..].starts_with("...") {
            dot = true;
            i += 1;
            frac = digits(&mut i);
        }
        let mut exp_mark = false;
        let mut exp_sign = None;
        let mut exp = i..i;
        if (!int.is_empty() || !frac.is_empty()) && matches!(bytes.get(i), Some(b'e' | b'E')) {
            exp_mark = true;
            i += 1;
            if let Some(sign @ (b'+' | b'-')) = bytes.get(i) {
                exp_sign = Some(*sign as char);
                i += 1;
            }
            exp = digits(&mut i);
        }
        let ends_here = bytes.get(i).is_none_or(|b| {
            let c = *b as char;
            is_delimiter(c) || c.is_ascii_whitespace() || c == '}' || c == ']'
        });
        if !ends_here || (int.is_empty() && frac.is_empty() && !negative) {
            return Ok(None);
        }
        let dangling = (int.is_empty() && frac.is_empty())
            || (dot && frac.is_empty())
            || (exp_mark && exp.is_empty());
        self.pos = i;
        let no_digits = int.is_empty() && frac.is_empty();
        if dangling && i >= bytes.len() && (self.depth > 0 || no_digits) {
            return Ok(Some(Read::CutOff));
        }
        // Leading zeros carry meaning (codes, phone numbers): keep them as a string.
        if int.len() > 1 && bytes[int.start] == b'0' {
            self.fix(FixKind::UnquotedString, start);
            return Ok(Some(Read::Value(Value::String(text[start..i].to_owned()))));
        }
        let mut canonical = String::new();
        if negative {
            canonical.push('-');
        }
        canonical.push_str(if int.is_empty() {
            "0"
        } else {
            &text[int.clone()]
        });
        if !frac.is_empty() {
            canonical.push('.');
            canonical.push_str(&text[frac.clone()]);
        }
        if !exp.is_empty() {
            canonical.push('e');
            canonical.extend(exp_sign);
            canonical.push_str(&text[exp]);
        }
        if dangling || int.is_empty() {
            self.fix(FixKind::IncompleteNumber, start);
        }
        // Integers exactly; anything else as the nearest f64 (the standard library rounds
        // correctly, whatever serde_json's features are).
        let number = canonical
            .parse::<i64>()
            .ok()
            .map(Number::from)
            .or_else(|| canonical.parse::<u64>().ok().map(Number::from))
            .or_else(|| canonical.parse::<f64>().ok().and_then(Number::from_f64));
        if number.is_none() {
            // Beyond what a JSON number carries here (`1e999`): read it as a word.
            self.fixes.truncate(fixes_before);
            self.pos = start;
        }
        Ok(number.map(|n| Read::Value(Value::Number(n))))
    }

    /// `true`, `false`, `null`, Python's `True`, `False`, `None`, or any other bare word
    /// as a string.
    fn bare_word(&mut self) -> Read {
        let start = self.pos;
        while let Some(c) = self.peek() {
            let comment = c == '/' && {
                let rest = &self.text[self.pos..];
                rest.starts_with("/*")
                    || (rest.starts_with("//") && !self.text[..self.pos].ends_with(':'))
            };
            if matches!(c, ',' | '[' | ']' | '{' | '}' | '\n') || is_quote(c) || comment {
                break;
            }
            self.bump();
        }
        let word = self.text[start..self.pos].trim_end();
        self.pos = start + word.len();
        if word.is_empty() {
            return Read::Nothing;
        }
        let literal = match word {
            "true" => Some((Value::Bool(true), None)),
            "false" => Some((Value::Bool(false), None)),
            "null" => Some((Value::Null, None)),
            "True" => Some((Value::Bool(true), Some("True"))),
            "False" => Some((Value::Bool(false), Some("False"))),
            "None" => Some((Value::Null, Some("None"))),
            _ => None,
        };
        if let Some((value, python)) = literal {
            if let Some(literal) = python {
                self.fix(FixKind::PythonLiteral { literal }, start);
            }
            return Read::Value(value);
        }
        let at_end = self.text[self.pos..].trim().is_empty();
        if at_end
            && self.depth > 0
            && ["true", "false", "null", "True", "False", "None"]
                .iter()
                .any(|k| k.starts_with(word))
        {
            return Read::CutOff;
        }
        self.fix(FixKind::UnquotedString, start);
        // A missing opening quote: skip the closing one.
        if self.peek() == Some('"') {
            self.bump();
        }
        Read::Value(Value::String(word.to_owned()))
    }
}
