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
//! - an open string is closed where the text ends, and open arrays and objects are closed;
//! - a member or item whose value was cut off before it could be read whole is **dropped**,
//!   never invented: `{"a": 1, "b": tr` gives `{"a": 1}`, as do `{"a": 1, "b":` and
//!   `{"a": 1, "b"`; a number with a dangling `.`, `e` or sign at the very end, or a
//!   prefix of `true`/`false`/`null`, counts as cut off;
//! - a complete-looking number or bare word at the end is kept.
//!
//! Every such decision is reported ([`FixKind::ClosedString`], [`FixKind::ClosedBrackets`],
//! [`FixKind::DroppedMember`], [`FixKind::DroppedItem`]) so the caller can tell the model
//! its reply was cut off.
//!
//! Work is linear in the input (a string is re-read at most once) and nesting is limited
//! to [`MAX_NESTING`] levels, so no input can exhaust the stack.

mod fix;

pub use fix::{Fix, FixKind, Location};

use serde_json::{Map, Number, Value};

use crate::Error;
use crate::error::{Violation, ViolationKind};

/// How deep arrays and objects may nest in a repaired reply.
pub const MAX_NESTING: usize = 128;

/// Repairs `text` into a JSON value, with the fixes applied.
pub fn repair(text: &str) -> Result<(Value, Vec<Fix>), Error> {
    let mut repairer = Repairer {
        text,
        pos: 0,
        depth: 0,
        fixes: Vec::new(),
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
}

/// Characters that may follow a value.
fn is_delimiter(c: char) -> bool {
    matches!(
        c,
        ',' | ':' | '[' | ']' | '{' | '}' | '(' | ')' | '\n' | '+' | '/'
    )
}

/// Where a string missing its end quote is taken to end: not at `:` or parentheses,
/// which prose inside strings is full of.
fn ends_unquoted(c: char) -> bool {
    matches!(c, ',' | '[' | ']' | '{' | '}' | '\n' | '+' | '/')
}

/// Whitespace a model may emit that JSON does not allow.
fn is_special_whitespace(c: char) -> bool {
    matches!(
        c,
        '\u{a0}' | '\u{1680}' | '\u{180e}' | '\u{2000}'
            ..='\u{200b}' | '\u{202f}' | '\u{205f}' | '\u{3000}' | '\u{feff}'
    )
}

/// Where a string that lost its end quote stops.
#[derive(Clone, Copy, PartialEq)]
enum Stop {
    /// At its end quote.
    Quote,
    /// At the first delimiter (`["hello, world]`).
    Delimiter,
    /// At a given offset: the last delimiter before a quote that cannot end it.
    At(usize),
}

fn is_double_quote_like(c: char) -> bool {
    matches!(c, '"' | '“' | '”' | '„' | '‟' | '″' | '＂')
}

fn is_single_quote_like(c: char) -> bool {
    matches!(c, '\'' | '‘' | '’' | '‚' | '‛' | '′' | '`' | '´')
}

fn is_quote(c: char) -> bool {
    is_double_quote_like(c) || is_single_quote_like(c)
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
        self.fixes.push(Fix::at(kind, offset));
    }

    fn fail<T>(&self, message: impl Into<String>) -> Result<T, Failure> {
        Err(Failure {
            offset: self.pos,
            message: message.into(),
        })
    }

    fn document(&mut self) -> Result<Value, Failure> {
        self.skip_blank();
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
        if !self.at_end() {
            // `"He is six feet (72") tall"`: a lone string whose inner quotes ended it early.
            let whole = self.text.trim();
            if value.is_string()
                && whole.len() >= 2
                && whole.starts_with('"')
                && whole.ends_with('"')
            {
                let inner = &whole[1..whole.len() - 1];
                self.fix(FixKind::UnescapedQuote, 0);
                return Ok(Value::String(inner.replace("\\\"", "\"")));
            }
            let c = self.peek().unwrap_or(' ');
            return self.fail(format!("unexpected {c:?} after the JSON value"));
        }
        Ok(value)
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

    fn object(&mut self) -> Result<Read, Failure> {
        self.enter()?;
        self.bump(); // {
        let mut map = Map::new();
        let mut first = true;
        loop {
            self.skip_blank();
            match self.peek() {
                None => {
                    self.fix(FixKind::ClosedBrackets { count: 1 }, self.pos);
                    break;
                }
                Some('}') => {
                    self.bump();
                    break;
                }
                Some(']') => {
                    // A mismatched bracket closes the object.
                    self.fix(FixKind::ClosedBrackets { count: 1 }, self.pos);
                    self.bump();
                    break;
                }
                _ => {}
            }
            if !first {
                if self.peek() == Some(',') {
                    let comma = self.pos;
                    self.bump();
                    self.skip_blank();
                    if matches!(self.peek(), Some('}')) {
                        self.fix(FixKind::TrailingComma, comma);
                        continue;
                    }
                    if self.at_end() {
                        continue;
                    }
                } else {
                    self.fix(FixKind::MissingComma, self.pos);
                }
            } else if self.peek() == Some(',') {
                // A comma before the first member.
                self.fix(FixKind::TrailingComma, self.pos);
                self.bump();
                continue;
            }
            first = false;
            self.skip_ellipsis();
            if matches!(self.peek(), Some('}') | None) {
                continue;
            }
            let key_at = self.pos;
            let key = match self.key()? {
                Some(Some(key)) => key,
                Some(None) => {
                    // The text ended inside the key.
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

    /// `Some(Some(key))`, `Some(None)` when the text ends inside the key, `None` when no
    /// key starts here.
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
            return Ok(Some(None));
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
            self.skip_blank();
            match self.peek() {
                None => {
                    self.fix(FixKind::ClosedBrackets { count: 1 }, self.pos);
                    break;
                }
                Some(']') => {
                    self.bump();
                    break;
                }
                Some('}') => {
                    self.fix(FixKind::ClosedBrackets { count: 1 }, self.pos);
                    self.bump();
                    break;
                }
                _ => {}
            }
            if !first {
                if self.peek() == Some(',') {
                    let comma = self.pos;
                    self.bump();
                    self.skip_blank();
                    if matches!(self.peek(), Some(']' | '}')) {
                        self.fix(FixKind::TrailingComma, comma);
                        continue;
                    }
                } else {
                    self.fix(FixKind::MissingComma, self.pos);
                }
            } else if self.peek() == Some(',') {
                self.fix(FixKind::TrailingComma, self.pos);
                self.bump();
                continue;
            }
            first = false;
            self.skip_ellipsis();
            if matches!(self.peek(), Some(']') | None) {
                continue;
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

    /// A quoted string, in any quotes. `None` when the text ends inside an escape that
    /// cannot be read (`"\u26`).
    ///
    /// A quote counts as the end of the string when what follows can follow a value;
    /// otherwise it is a quote inside the string, unless a delimiter precedes it, in which
    /// case the real end quote is missing and the string is read again, ending at that
    /// delimiter.
    fn string(&mut self, stop: Stop) -> Result<Option<Value>, Failure> {
        let begin = self.pos;
        let fixes_before = self.fixes.len();
        // `\"text\"`: quotes escaped outside a string.
        let escaped_quotes = self.peek() == Some('\\');
        if escaped_quotes {
            self.bump();
        }
        let Some(open) = self.bump() else {
            return Ok(None);
        };
        let ends = |c: char| {
            if open == '"' {
                c == '"'
            } else if open == '\'' {
                c == '\''
            } else if is_single_quote_like(open) {
                is_single_quote_like(c)
            } else {
                is_double_quote_like(c)
            }
        };
        if open == '\'' {
            self.fix(FixKind::SingleQuotes, begin);
        } else if open != '"' {
            self.fix(FixKind::SmartQuotes, begin);
        }
        let mut out = String::new();
        loop {
            if let Stop::At(limit) = stop
                && self.pos >= limit
            {
                let kept = out.trim_end().len();
                out.truncate(kept);
                self.fix(FixKind::ClosedString, self.pos);
                return Ok(Some(self.concatenated(out)?));
            }
            let Some(c) = self.peek() else {
                // The text ends inside the string.
                let last = self.text[begin..].trim_end().chars().last();
                if stop == Stop::Quote && last.is_some_and(is_delimiter) {
                    return self.retry_string(begin, fixes_before, Stop::Delimiter);
                }
                let kept = out.trim_end().len();
                out.truncate(kept);
                self.fix(FixKind::ClosedString, self.pos);
                return Ok(Some(Value::String(out)));
            };
            if ends(c) {
                let quote_at = self.pos;
                self.bump();
                if escaped_quotes && out.ends_with('\\') {
                    out.pop();
                }
                let after_quote = self.pos;
                let fixes_at_quote = self.fixes.len();
                self.skip_blank_on_line();
                let next = self.peek();
                if stop != Stop::Quote
                    || next.is_none_or(|n| is_delimiter(n) || is_quote(n) || n.is_ascii_digit())
                {
                    return Ok(Some(self.concatenated(out)?));
                }
                let mut before = self.text[..quote_at].trim_end();
                // Look past a comment right before the quote.
                while before.ends_with("*/")
                    && let Some(open_at) = before.rfind("/*")
                    && open_at > begin
                {
                    before = before[..open_at].trim_end();
                }
                if let Some(b) = before.chars().last()
                    && is_delimiter(b)
                    && before.len() > begin + open.len_utf8()
                {
                    // Not the end quote: one is missing before it.
                    let limit = before.len() - b.len_utf8();
                    return self.retry_string(begin, fixes_before, Stop::At(limit));
                }
                // A quote inside the string: keep it and read on.
                self.fixes.truncate(fixes_at_quote);
                self.pos = after_quote;
                self.fix(FixKind::UnescapedQuote, quote_at);
                out.push(c);
                continue;
            }
            if stop == Stop::Delimiter && ends_unquoted(c) {
                // A URL keeps its slashes: `"https://example.com/a`.
                if c == '/' && self.url_start(begin, &out) {
                    while let Some(u) = self.peek() {
                        if !(u.is_ascii_alphanumeric() || "-._~:/?#@!$&'()*+;=%".contains(u)) {
                            break;
                        }
                        out.push(u);
                        self.bump();
                    }
                    continue;
                }
                let kept = out.trim_end().len();
                out.truncate(kept);
                self.fix(FixKind::ClosedString, self.pos);
                return Ok(Some(self.concatenated(out)?));
            }
            if c == '\\' {
                let at = self.pos;
                self.bump();
                match self.bump() {
                    None => {
                        self.fix(FixKind::ClosedString, self.pos);
                        return Ok(Some(Value::String(out)));
                    }
                    Some('"') => out.push('"'),
                    Some('\\') => out.push('\\'),
                    Some('/') => out.push('/'),
                    Some('b') => out.push('\u{8}'),
                    Some('f') => out.push('\u{c}'),
                    Some('n') => out.push('\n'),
                    Some('r') => out.push('\r'),
                    Some('t') => out.push('\t'),
                    Some('u') => match self.unicode_escape(at)? {
                        Some(ch) => out.push(ch),
                        None => {
                            // Cut off inside \uXXXX: end the string before it.
                            self.pos = self.text.len();
                            self.fix(FixKind::ClosedString, at);
                            return Ok(Some(Value::String(out)));
                        }
                    },
                    Some(other) => {
                        self.fix(FixKind::InvalidEscape, at);
                        out.push(other);
                    }
                }
                continue;
            }
            if c < ' ' {
                self.fix(FixKind::ControlCharacter, self.pos);
            }
            out.push(c);
            self.bump();
        }
    }

    /// Whether the string read so far, with the `/` here, starts a URL (`https:/`).
    fn url_start(&self, begin: usize, out: &str) -> bool {
        let _ = begin;
        self.text[self.pos..].starts_with("//")
            && [
                "http:", "https:", "ftp:", "mailto:", "file:", "data:", "irc:",
            ]
            .iter()
            .any(|scheme| out.ends_with(scheme))
    }

    fn retry_string(
        &mut self,
        begin: usize,
        fixes_before: usize,
        stop: Stop,
    ) -> Result<Option<Value>, Failure> {
        self.pos = begin;
        self.fixes.truncate(fixes_before);
        self.string(stop)
    }

    /// `\uXXXX` after the `\u`, joining surrogate pairs. `Ok(None)` when the text ends
    /// inside the escape.
    fn unicode_escape(&mut self, at: usize) -> Result<Option<char>, Failure> {
        let Some(high) = self.hex4()? else {
            return Ok(None);
        };
        if (0xD800..0xDC00).contains(&high) {
            if self.text[self.pos..].starts_with("\\u") {
                let save = self.pos;
                self.pos += 2;
                match self.hex4()? {
                    Some(low) if (0xDC00..0xE000).contains(&low) => {
                        let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                        return Ok(char::from_u32(code).or(Some('\u{fffd}')));
                    }
                    None => return Ok(None),
                    Some(_) => self.pos = save,
                }
            } else if self.at_end() {
                return Ok(None);
            }
            self.fix(FixKind::InvalidEscape, at);
            return Ok(Some('\u{fffd}'));
        }
        Ok(Some(char::from_u32(high).unwrap_or('\u{fffd}')))
    }

    fn hex4(&mut self) -> Result<Option<u32>, Failure> {
        let rest = &self.text[self.pos..];
        let digits = rest
            .bytes()
            .take(4)
            .take_while(u8::is_ascii_hexdigit)
            .count();
        if digits == 4 {
            let code = u32::from_str_radix(&rest[..4], 16).unwrap_or(0xFFFD);
            self.pos += 4;
            return Ok(Some(code));
        }
        if digits == rest.len() {
            return Ok(None);
        }
        let shown: String = rest.chars().take(4).collect();
        self.fail(format!("invalid unicode escape \\u{shown}"))
    }

    /// `"a" + "b"` → `"ab"`.
    fn concatenated(&mut self, mut out: String) -> Result<Value, Failure> {
        loop {
            let save = self.pos;
            self.skip_blank();
            if self.peek() != Some('+') {
                self.pos = save;
                return Ok(Value::String(out));
            }
            let plus = self.pos;
            self.bump();
            self.skip_blank();
            if !self.peek().is_some_and(is_quote) {
                self.pos = save;
                return Ok(Value::String(out));
            }
            self.fix(FixKind::ConcatenatedStrings, plus);
            match self.string(Stop::Quote)? {
                Some(Value::String(more)) => out.push_str(&more),
                _ => return Ok(Value::String(out)),
            }
        }
    }

    /// A number, or `None` when the text here is not one (a date, say).
    fn number(&mut self) -> Result<Option<Read>, Failure> {
        let text = self.text;
        let bytes = text.as_bytes();
        let start = self.pos;
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
        let number = serde_json::from_str::<Number>(&canonical)
            .ok()
            .or_else(|| canonical.parse::<f64>().ok().and_then(Number::from_f64));
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
