//! Arrays and objects: their separators, keys, members and items.

use serde_json::{Map, Value};

use super::member::{continues, stray_words};
use super::string::{Stop, is_quote};
use super::{Blank, Failure, FixKind, Read, Repairer, Role, Slot};

impl Repairer<'_> {
    /// Skips `...` standing for elided items, and a comma after it.
    fn skip_ellipsis(&mut self, blank: Blank) {
        self.skip(blank);
        if self.text[self.pos..].starts_with("...") {
            self.fix(FixKind::Ellipsis, self.pos);
            self.pos += 3;
            self.skip(blank);
            if self.peek() == Some(',') {
                self.bump();
                self.skip(blank);
            }
        }
    }

    /// Reads what stands between the members or items of a container: its closing
    /// bracket (or, mismatched, the other kind, which closes it too), a comma (reporting
    /// one that trails, leads or is missing) and an ellipsis.
    fn separator(&mut self, close: char, first: &mut bool) -> Slot {
        // In an array, an item may start with `#` (`[#fff, #000]`).
        let blank = if close == ']' {
            Blank::Item
        } else {
            Blank::Lines
        };
        self.skip(blank);
        match self.peek() {
            None => {
                self.fix(FixKind::ClosedBrackets { count: 1 }, self.pos);
                return Slot::Closed;
            }
            Some(c) if c == close => {
                // `{"a": {"b": 1}}, "c": 2}`: the document's own bracket, the document
                // going on after it.
                if self.depth == 1
                    && continues(close, &self.text[self.pos + 1..])
                    && self.drop_extra(c, None)
                {
                    return Slot::Skip;
                }
                self.bump();
                return Slot::Closed;
            }
            Some(c @ ('}' | ']')) => {
                // `[{"a": 1}},{"a": 2}]`: one too many, where `]` is not short.
                if self.drop_extra(c, Some(close)) {
                    return Slot::Skip;
                }
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
                self.skip(blank);
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
        self.skip_ellipsis(blank);
        if self.peek().is_none_or(|c| c == close) {
            return Slot::Skip;
        }
        Slot::Next
    }

    /// Drops the closing bracket `c` here as one too many, if the text holds more of its
    /// kind than opening ones (and, for a bracket standing where `instead` should, no
    /// fewer of that kind than opening ones: then `c` stands for it).
    fn drop_extra(&mut self, c: char, instead: Option<char>) -> bool {
        let kind = |c: char| usize::from(c == ']');
        let excess = *self
            .excess_closers
            .get_or_insert_with(|| excess_closers(self.text));
        let extra = excess[kind(c)] > 0 && instead.is_none_or(|k| excess[kind(k)] >= 0);
        if extra {
            if let Some(counts) = &mut self.excess_closers {
                counts[kind(c)] -= 1;
            }
            self.fix(FixKind::ExtraClosingBracket, self.pos);
            self.bump();
        }
        extra
    }

    pub(super) fn object(&mut self) -> Result<Read, Failure> {
        self.enter()?;
        self.bump(); // {
        let doubled = self.doubled_open();
        if doubled {
            self.doubled_around += 1;
        }
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
            match self.value_as(Role::Member)? {
                Read::Value(value) => {
                    if map.contains_key(&key) {
                        self.fix(FixKind::DuplicateKey { key: key.clone() }, key_at);
                    }
                    map.insert(key, value);
                }
                Read::CutOff => self.fix(FixKind::DroppedMember { key }, key_at),
                Read::Nothing if self.at_end() => self.fix(FixKind::DroppedMember { key }, key_at),
                // `{"a": , "b": 1}`: no value to read, none invented.
                Read::Nothing if matches!(self.peek(), Some(',' | '}')) => {
                    self.fix(FixKind::MissingValue { key }, key_at);
                }
                Read::Nothing => {
                    let c = self.peek().unwrap_or(' ');
                    return self.fail(format!("expected a value for {key:?}, found {c:?}"));
                }
            }
        }
        if doubled {
            self.doubled_around -= 1;
            self.doubled_close();
        }
        self.depth -= 1;
        Ok(Read::Value(Value::Object(map)))
    }

    /// Reads `{{`, an object's brace doubled as templates escape it (`{{"name": …}}`), as
    /// one brace: where a quoted key or `}}` follows it, or the text ends before `}}` does
    /// (cut off inside it). Valid JSON never holds `{{` outside a string; other text after it
    /// (`[{{]`) is read as objects left open, as before.
    fn doubled_open(&mut self) -> bool {
        let after = self.text[self.pos..].strip_prefix('{').map(str::trim_start);
        let doubled = after.is_some_and(|rest| {
            rest.starts_with(is_quote) || rest.starts_with("}}") || "}}".starts_with(rest)
        });
        if doubled {
            self.fix(FixKind::DoubledBraces, self.pos);
            self.bump();
        }
        doubled
    }

    /// Reads the second `}` of an object opened with `{{`, where it stands right after
    /// the first, and either another object around this one was opened with `{{` (the
    /// text doubles its braces throughout, as a format string does, so its `}}` close one
    /// object however the text ends) or the text holds no fewer `}` than `{` (each brace
    /// of a `{{` counted). Otherwise the object was closed with one brace, and the `}`
    /// here closes the container around it.
    fn doubled_close(&mut self) {
        if self.peek() != Some('}') {
            return;
        }
        let excess = *self
            .excess_closers
            .get_or_insert_with(|| excess_closers(self.text));
        if self.doubled_around > 0 || excess[0] >= 0 {
            self.bump();
        }
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
        if let Some(len) = stray_words(&self.text[self.pos..]) {
            let words = self.text[self.pos..self.pos + len].trim().to_owned();
            self.fix(FixKind::StrayWords { words }, self.pos);
            self.pos += len;
            return self.key();
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

    pub(super) fn array(&mut self) -> Result<Read, Failure> {
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
            match self.value_as(Role::Item)? {
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
}

/// How many more `}` and `]` than `{` and `[` `text` holds outside strings in double
/// quotes.
fn excess_closers(text: &str) -> [isize; 2] {
    let mut counts = [0isize; 2];
    let (mut in_string, mut escaped) = (false, false);
    for b in text.bytes() {
        match b {
            _ if escaped => escaped = false,
            b'\\' if in_string => escaped = true,
            b'"' => in_string = !in_string,
            _ if in_string => {}
            b'{' => counts[0] -= 1,
            b'}' => counts[0] += 1,
            b'[' => counts[1] -= 1,
            b']' => counts[1] += 1,
            _ => {}
        }
    }
    counts
}
