//! The Python literals a call's arguments are written in: `"Paris"`, `'desk'`, `3`, `-1.5`,
//! `True`, `None`, `[1, 2]`, `(1, 2)`, `{'a': 1}`; and a call, `name(key=value, …)`.
//!
//! A hand-written reader of that subset and nothing more: no expressions, no names, no
//! calls inside calls, no string prefixes (`f"…"`). JSON's `true`, `false` and `null` are
//! read too (models mix the two). Values keep what was written: an integer that does not
//! fit 64 bits, a number that is not finite or a dict key that is not a string is refused,
//! never rounded or rewritten. Nesting is capped at [`MAX_NESTING`], so the reader, which
//! recurses into lists and dicts, stays shallow on any input; it reads each byte once.

use serde_json::{Map, Number, Value};

/// The deepest a literal may nest lists, tuples and dicts.
pub(super) const MAX_NESTING: usize = 32;

/// Why a literal could not be read: what, and at which byte of the text.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct LiteralError {
    pub at: usize,
    pub message: String,
}

/// A call as written: its name and its arguments, by name or by position.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct PyCall {
    pub name: String,
    pub keyword: Vec<(String, Value)>,
    pub positional: Vec<Value>,
    /// The byte after the closing parenthesis.
    pub end: usize,
}

/// A cursor over the text.
pub(super) struct Reader<'t> {
    text: &'t str,
    pub at: usize,
}

impl<'t> Reader<'t> {
    pub fn new(text: &'t str, at: usize) -> Self {
        Reader { text, at }
    }

    fn rest(&self) -> &'t str {
        &self.text[self.at..]
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    pub fn skip_blank(&mut self) {
        let rest = self.rest();
        self.at += rest.len() - rest.trim_start().len();
    }

    fn error<T>(&self, message: impl Into<String>) -> Result<T, LiteralError> {
        Err(LiteralError {
            at: self.at,
            message: message.into(),
        })
    }

    /// `expected` next, after blank.
    fn expect(&mut self, expected: u8) -> Result<(), LiteralError> {
        self.skip_blank();
        if self.peek() == Some(expected) {
            self.at += 1;
            Ok(())
        } else {
            let found = self.found();
            self.error(format!("expected `{}`, found {found}", expected as char))
        }
    }

    fn found(&self) -> String {
        match self.rest().chars().next() {
            Some(c) => format!("`{c}`"),
            None => "the end of the text".into(),
        }
    }

    /// A dotted name here: `get_weather`, `math.triangle_area`.
    pub fn name(&mut self) -> Option<&'t str> {
        let start = self.at;
        loop {
            let len = identifier_len(self.rest());
            if len == 0 {
                self.at = start;
                return None;
            }
            self.at += len;
            let rest = self.rest();
            if rest.starts_with('.') && identifier_len(&rest[1..]) > 0 {
                self.at += 1;
            } else {
                return Some(&self.text[start..self.at]);
            }
        }
    }

    /// A call here: `name(key=value, …)`, its name already known to start here.
    pub fn call(&mut self) -> Result<PyCall, LiteralError> {
        let Some(name) = self.name() else {
            return self.error("expected a tool name");
        };
        self.expect(b'(')?;
        let mut call = PyCall {
            name: name.to_owned(),
            keyword: Vec::new(),
            positional: Vec::new(),
            end: 0,
        };
        loop {
            self.skip_blank();
            if self.peek() == Some(b')') {
                self.at += 1;
                call.end = self.at;
                return Ok(call);
            }
            let start = self.at;
            match self.name() {
                // `key=value`; `key==` is a comparison, not an argument.
                Some(key) if self.keyword_follows() => {
                    self.skip_blank();
                    self.at += 1;
                    if call.keyword.iter().any(|(k, _)| k == key) {
                        self.at = start;
                        return self.error(format!("the argument `{key}` is given twice"));
                    }
                    let value = self.value(0)?;
                    call.keyword.push((key.to_owned(), value));
                }
                _ => {
                    self.at = start;
                    let value = self.value(0)?;
                    if !call.keyword.is_empty() {
                        self.at = start;
                        return self.error("an argument without a name after named ones");
                    }
                    call.positional.push(value);
                }
            }
            self.skip_blank();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b')') => {}
                _ => {
                    let found = self.found();
                    return self.error(format!("expected `,` or `)`, found {found}"));
                }
            }
        }
    }

    /// Whether `=` (and not `==`) follows, past blank.
    fn keyword_follows(&self) -> bool {
        let rest = self.rest().trim_start();
        rest.starts_with('=') && !rest.starts_with("==")
    }

    /// One literal value.
    pub fn value(&mut self, depth: usize) -> Result<Value, LiteralError> {
        if depth >= MAX_NESTING {
            return self.error(format!("nested more than {MAX_NESTING} deep"));
        }
        self.skip_blank();
        match self.peek() {
            Some(b'"' | b'\'') => self.string().map(Value::String),
            Some(b'[') => {
                self.at += 1;
                self.items(b']', depth)
                    .map(|(items, _)| Value::Array(items))
            }
            Some(b'(') => {
                self.at += 1;
                match self.items(b')', depth)? {
                    // `(x)` is `x`; `(x,)` and `(x, y)` are tuples.
                    (mut items, false) if items.len() == 1 => Ok(items.remove(0)),
                    (items, _) => Ok(Value::Array(items)),
                }
            }
            Some(b'{') => {
                self.at += 1;
                self.dict(depth)
            }
            Some(b'-' | b'+' | b'.' | b'0'..=b'9') => self.number(),
            Some(_) => {
                let start = self.at;
                let word = self.name().unwrap_or("");
                let value = match word {
                    "True" | "true" => Value::Bool(true),
                    "False" | "false" => Value::Bool(false),
                    "None" | "null" => Value::Null,
                    _ => {
                        self.at = start;
                        let what = if word.is_empty() {
                            self.found()
                        } else if self.rest()[word.len()..].trim_start().starts_with('(') {
                            format!("a call to `{word}` (a call inside a call is not read)")
                        } else {
                            format!("the name `{word}`")
                        };
                        return self.error(format!("expected a value, found {what}"));
                    }
                };
                Ok(value)
            }
            None => self.error("expected a value, found the end of the text"),
        }
    }

    /// Items up to `close`, and whether a comma followed the last.
    fn items(&mut self, close: u8, depth: usize) -> Result<(Vec<Value>, bool), LiteralError> {
        let mut items = Vec::new();
        let mut comma = false;
        loop {
            self.skip_blank();
            if self.peek() == Some(close) {
                self.at += 1;
                return Ok((items, comma));
            }
            items.push(self.value(depth + 1)?);
            self.skip_blank();
            comma = self.peek() == Some(b',');
            if comma {
                self.at += 1;
            } else if self.peek() != Some(close) {
                let found = self.found();
                return self.error(format!(
                    "expected `,` or `{}`, found {found}",
                    close as char
                ));
            }
        }
    }

    fn dict(&mut self, depth: usize) -> Result<Value, LiteralError> {
        let mut map = Map::new();
        loop {
            self.skip_blank();
            if self.peek() == Some(b'}') {
                self.at += 1;
                return Ok(Value::Object(map));
            }
            let start = self.at;
            let Value::String(key) = self.value(depth + 1)? else {
                self.at = start;
                return self.error("a dict key that is not a string");
            };
            self.expect(b':')?;
            let value = self.value(depth + 1)?;
            if map.insert(key.clone(), value).is_some() {
                self.at = start;
                return self.error(format!("the key {key:?} is given twice"));
            }
            self.skip_blank();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {}
                _ => {
                    let found = self.found();
                    return self.error(format!("expected `,` or `}}`, found {found}"));
                }
            }
        }
    }

    /// A string in single, double or triple quotes, with Python's escapes.
    fn string(&mut self) -> Result<String, LiteralError> {
        let start = self.at;
        let bytes = self.text.as_bytes();
        let quote = bytes[self.at];
        let triple = self.rest().as_bytes().starts_with(&[quote; 3]);
        self.at += if triple { 3 } else { 1 };
        let mut out = String::new();
        loop {
            let rest = self.rest();
            let Some(i) = rest.find([quote as char, '\\']) else {
                self.at = start;
                return self.error("a string with no closing quote");
            };
            out.push_str(&rest[..i]);
            self.at += i;
            if bytes[self.at] == quote {
                if !triple {
                    self.at += 1;
                    return Ok(out);
                }
                if self.rest().as_bytes().starts_with(&[quote; 3]) {
                    self.at += 3;
                    return Ok(out);
                }
                out.push(quote as char);
                self.at += 1;
                continue;
            }
            self.at += 1;
            self.escape(&mut out)?;
        }
    }

    /// The escape after a backslash.
    fn escape(&mut self, out: &mut String) -> Result<(), LiteralError> {
        let Some(c) = self.rest().chars().next() else {
            return self.error("a string with no closing quote");
        };
        self.at += c.len_utf8();
        let simple = match c {
            '\\' => Some('\\'),
            '\'' => Some('\''),
            '"' => Some('"'),
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            '0' => Some('\0'),
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            'f' => Some('\u{c}'),
            'v' => Some('\u{b}'),
            _ => None,
        };
        if let Some(s) = simple {
            out.push(s);
            return Ok(());
        }
        let digits = match c {
            'x' => 2,
            'u' => 4,
            'U' => 8,
            // A line continuation.
            '\n' => return Ok(()),
            // Python keeps the backslash of an escape it does not know: `\d` is `\d`.
            other => {
                out.push('\\');
                out.push(other);
                return Ok(());
            }
        };
        let code = |text: &str| {
            text.get(..digits)
                .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
                .and_then(|h| u32::from_str_radix(h, 16).ok())
        };
        let mut ch = code(self.rest()).and_then(char::from_u32);
        // JSON writes a character beyond U+FFFF as two `\u` escapes (a surrogate pair).
        if let (None, Some(high @ 0xD800..=0xDBFF)) = (ch, code(self.rest()))
            && let Some(pair) = self.rest()[digits..].strip_prefix("\\u")
            && let Some(low @ 0xDC00..=0xDFFF) = code(pair)
        {
            ch = char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00));
            self.at += digits + 2;
        }
        let Some(ch) = ch else {
            self.at -= 2;
            return self.error(format!(
                "a `\\{c}` escape without {digits} hex digits of a character"
            ));
        };
        self.at += digits;
        out.push(ch);
        Ok(())
    }

    /// An integer or a float, as Python writes them: `-3`, `1_000`, `2.5`, `.5`, `1e-3`.
    fn number(&mut self) -> Result<Value, LiteralError> {
        let start = self.at;
        let bytes = self.text.as_bytes();
        let mut end = self.at;
        if matches!(bytes.get(end), Some(b'-' | b'+')) {
            end += 1;
        }
        let mut float = false;
        while let Some(&b) = bytes.get(end) {
            match b {
                b'0'..=b'9' | b'_' => {}
                b'.' | b'e' | b'E' => float = true,
                b'-' | b'+' if matches!(bytes[end - 1], b'e' | b'E') => {}
                _ => break,
            }
            end += 1;
        }
        let written = &self.text[start..end];
        let digits: String = written.chars().filter(|&c| c != '_').collect();
        let separators_fit = !written.contains('_')
            || written
                .split(|c: char| !c.is_ascii_digit() && c != '_')
                .all(|part| {
                    part.is_empty()
                        || !(part.starts_with('_') || part.ends_with('_') || part.contains("__"))
                });
        let unsigned = digits.trim_start_matches(['-', '+']);
        let leading_zero = !float && unsigned.len() > 1 && unsigned.starts_with('0');
        let number = if !separators_fit || leading_zero {
            None
        } else if float {
            digits
                .parse::<f64>()
                .ok()
                .filter(|f| f.is_finite())
                .and_then(Number::from_f64)
        } else if let Ok(n) = digits.parse::<i64>() {
            Some(Number::from(n))
        } else {
            digits.parse::<u64>().ok().map(Number::from)
        };
        match number {
            Some(n) => {
                self.at = end;
                Ok(Value::Number(n))
            }
            None => self.error(format!(
                "`{written}` is not a number this reader keeps as written"
            )),
        }
    }
}

/// The length of a Python identifier at the start of `text`.
pub(super) fn identifier_len(text: &str) -> usize {
    let mut chars = text.char_indices();
    match chars.next() {
        Some((_, c)) if c == '_' || c.is_ascii_alphabetic() => {}
        _ => return 0,
    }
    chars
        .find(|(_, c)| !(*c == '_' || c.is_ascii_alphanumeric()))
        .map_or(text.len(), |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn value(text: &str) -> Result<Value, LiteralError> {
        let mut reader = Reader::new(text, 0);
        let value = reader.value(0)?;
        reader.skip_blank();
        assert_eq!(reader.at, text.len(), "{text}");
        Ok(value)
    }

    #[test]
    fn reads_python_literals() {
        for (text, expected) in [
            ("'desk'", json!("desk")),
            (r#""say \"hi\"\n""#, json!("say \"hi\"\n")),
            (r"'it\'s \d \x41\u00e9'", json!("it's \\d Aé")),
            ("'''a 'b' \"c\"'''", json!("a 'b' \"c\"")),
            ("-3", json!(-3)),
            ("1_000", json!(1000)),
            ("2.5", json!(2.5)),
            ("-.5", json!(-0.5)),
            ("1e3", json!(1000.0)),
            ("True", json!(true)),
            ("None", json!(null)),
            ("false", json!(false)),
            (
                "[1, 'a', (2, 3), (4,), (5)]",
                json!([1, "a", [2, 3], [4], 5]),
            ),
            (
                "{'a': {'b': [None]}, \"c\": 1,}",
                json!({"a": {"b": [null]}, "c": 1}),
            ),
            ("18446744073709551615", json!(18446744073709551615u64)),
        ] {
            assert_eq!(value(text), Ok(expected), "{text}");
        }
    }

    #[test]
    fn refuses_what_is_not_a_literal() {
        for text in [
            "'open",
            "x",
            "f(x=1)",
            "{1: 'a'}",
            "007",
            "1__0",
            "99999999999999999999999",
            "1e999",
            "[1 2]",
            "{'a': 1, 'a': 2}",
            "'\\x4'",
        ] {
            assert!(Reader::new(text, 0).value(0).is_err(), "{text}");
        }
        let deep = "[".repeat(10_000);
        let err = Reader::new(&deep, 0).value(0).unwrap_err();
        assert!(err.message.contains("nested"), "{err:?}");
    }

    #[test]
    fn reads_a_call() {
        let text = "math.area(base=10, h=-2.5, tags=['a, b)'])";
        let call = Reader::new(text, 0).call().unwrap();
        assert_eq!(call.name, "math.area");
        assert_eq!(
            call.keyword,
            [
                ("base".to_owned(), json!(10)),
                ("h".to_owned(), json!(-2.5)),
                ("tags".to_owned(), json!(["a, b)"]))
            ]
        );
        assert_eq!(call.end, text.len());
        let call = Reader::new("f('x')", 0).call().unwrap();
        assert_eq!(call.positional, [json!("x")]);
        for text in [
            "f(x=g(y=1))",
            "f(x=1, 'y')",
            "f(x=1, x=2)",
            "f(x=1",
            "f(x==1)",
        ] {
            assert!(Reader::new(text, 0).call().is_err(), "{text}");
        }
    }
}
