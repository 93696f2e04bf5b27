//! Numbers and bare words: `true`, `None`, `1_000`, `2.`, `Q3 budget review`.

use serde_json::{Number, Value};

use super::string::is_quote;
use super::{Failure, FixKind, Read, Repairer, is_delimiter, line_comment};

impl Repairer<'_> {
    /// A number, or `None` when the text here is not one (a date, say).
    pub(super) fn number(&mut self) -> Result<Option<Read>, Failure> {
        let text = self.text;
        let bytes = text.as_bytes();
        let start = self.pos;
        let fixes_before = self.fixes.len();
        let mut i = start;
        // Digits, with `_` between two of them (`1_000`, `5_6`).
        let mut separated = false;
        let mut digits = |i: &mut usize| {
            let from = *i;
            loop {
                match bytes.get(*i) {
                    Some(b) if b.is_ascii_digit() => {}
                    Some(b'_')
                        if *i > from && bytes.get(*i + 1).is_some_and(u8::is_ascii_digit) =>
                    {
                        separated = true;
                    }
                    _ => break,
                }
                *i += 1;
            }
            from..*i
        };
        let negative = bytes.get(i) == Some(&b'-');
        if negative {
            i += 1;
        }
        let int = digits(&mut i);
        let int_separated = text[int.clone()].contains('_');
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
        // An integer's separators group thousands (`1_000_000`, as Python, Rust and
        // JavaScript write them); other underscores make a word, a date or a code
        // (`2024_01_15`, `1_00`). A fraction or an exponent makes it a number, whose
        // separators may stand between any two digits (`1_234.5_6`, `1e1_0`).
        if int_separated && frac.is_empty() && exp.is_empty() && !thousands(&text[int.clone()]) {
            return Ok(None);
        }
        // `1/3`, `2024/01/15`: a fraction or a date, the text the model wrote, never a
        // number it did not write (nor a number and a stray `/3`).
        let after = text[i..].trim_start_matches([' ', '\t']);
        if after.starts_with('/')
            && after[1..]
                .trim_start_matches([' ', '\t'])
                .starts_with(|c: char| c.is_ascii_digit())
        {
            return Ok(None);
        }
        let ends_here = match bytes.get(i) {
            None => true,
            // `10:30` is a time, not a number and a colon.
            Some(b':') => !bytes.get(i + 1).is_some_and(u8::is_ascii_digit),
            Some(&b) => {
                let c = b as char;
                is_delimiter(c) || c.is_ascii_whitespace() || c == '}' || c == ']'
            }
        };
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
        let unseparated = |range: std::ops::Range<usize>| text[range].replace('_', "");
        if int.is_empty() {
            canonical.push('0');
        } else {
            canonical.push_str(&unseparated(int.clone()));
        }
        if !frac.is_empty() {
            canonical.push('.');
            canonical.push_str(&unseparated(frac.clone()));
        }
        if !exp.is_empty() {
            canonical.push('e');
            canonical.extend(exp_sign);
            canonical.push_str(&unseparated(exp));
        }
        if dangling || int.is_empty() {
            self.fix(FixKind::IncompleteNumber, start);
        }
        if separated {
            self.fix(FixKind::DigitSeparators, start);
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
    pub(super) fn bare_word(&mut self) -> Read {
        let start = self.pos;
        while let Some(c) = self.peek() {
            let comment = c == '/' && {
                let rest = &self.text[self.pos..];
                rest.starts_with("/*")
                    || (rest.starts_with("//") && !self.text[..self.pos].ends_with(':'))
            };
            // `{title: Bob's review}`: an apostrophe between letters is part of a word in
            // a container (a reply that is one word is text, read whole elsewhere).
            let apostrophe = self.depth > 0
                && matches!(c, '\'' | '’')
                && self.text[start..self.pos]
                    .chars()
                    .next_back()
                    .is_some_and(char::is_alphanumeric)
                && self.peek_at(c.len_utf8()).is_some_and(char::is_alphabetic);
            // `true # yes`: a `#` after blank starts a comment before blank or after a
            // literal (`null #none`); in `issue #12` it is the word's.
            let hash_comment = c == '#' && {
                let rest = &self.text[self.pos..];
                let before = &self.text[start..self.pos];
                before.ends_with([' ', '\t'])
                    && (rest[1..]
                        .chars()
                        .next()
                        .is_none_or(|n| matches!(n, ' ' | '\t' | '\r' | '\n' | '#'))
                        || literal(before.trim_end()).is_some())
                    && line_comment(rest)
            };
            // `null: "b"`: a literal before a colon is a value the colon follows, never
            // the start of a longer word (`10:30` and `http://` are read whole).
            let after_literal =
                c == ':' && literal(self.text[start..self.pos].trim_end()).is_some();
            if matches!(c, ',' | '[' | ']' | '{' | '}' | '\n')
                || (is_quote(c) && !apostrophe)
                || comment
                || hash_comment
                || after_literal
            {
                break;
            }
            self.bump();
        }
        let word = self.text[start..self.pos].trim_end();
        self.pos = start + word.len();
        if word.is_empty() {
            return Read::Nothing;
        }
        if let Some((value, fix)) = literal(word) {
            if let Some(fix) = fix {
                self.fix(fix, start);
            }
            return Read::Value(value);
        }
        let at_end = self.text[self.pos..].trim().is_empty();
        if at_end && self.depth > 0 && LITERALS.iter().any(|k| k.starts_with(word)) {
            return Read::CutOff;
        }
        self.fix(FixKind::UnquotedString, start);
        if let Some(after) = self.text[self.pos..].strip_prefix('"') {
            // A missing opening quote: skip the closing one. But at the top level, where a
            // reply may be several values, a quote after a colon that the text goes on
            // after opens the next value (`"a",1:2:"b"`, `"a",null 1:"b"`): skipped, it
            // would glue the rest to this word, and the values be taken for one string. In
            // a container it may be the closing one (`[10:30:"]`).
            let opens_value = self.depth == 0 && word.ends_with(':') && !after.trim().is_empty();
            if !opens_value {
                self.bump();
            }
        }
        Read::Value(Value::String(word.to_owned()))
    }
}

/// Whether `digits`, with separators, groups thousands: one to three digits, not a
/// leading zero, then groups of three (`1_000`, `12_345_678`).
fn thousands(digits: &str) -> bool {
    let mut groups = digits.split('_');
    let first = groups.next().unwrap_or_default();
    (1..=3).contains(&first.len()) && !first.starts_with('0') && groups.all(|g| g.len() == 3)
}

/// The words read as JSON literals.
const LITERALS: [&str; 10] = [
    "true", "false", "null", "True", "False", "None", "TRUE", "FALSE", "NULL", "Null",
];

/// The JSON literal a word is, with the fix that reading it so needs: JSON's own, Python's
/// (`True`, `None`), or JSON's in capitals (`TRUE`, `Null`, as SQL and YAML write them).
/// `none`, `NONE`, `nil` and `yes` stay words: in prose they are words as often.
fn literal(word: &str) -> Option<(Value, Option<FixKind>)> {
    let value = match word {
        "true" | "True" | "TRUE" => Value::Bool(true),
        "false" | "False" | "FALSE" => Value::Bool(false),
        "null" | "None" | "NULL" | "Null" => Value::Null,
        _ => return None,
    };
    let fix = match word {
        "true" | "false" | "null" => None,
        "True" => Some(FixKind::PythonLiteral { literal: "True" }),
        "False" => Some(FixKind::PythonLiteral { literal: "False" }),
        "None" => Some(FixKind::PythonLiteral { literal: "None" }),
        "TRUE" => Some(FixKind::LiteralCase { literal: "TRUE" }),
        "FALSE" => Some(FixKind::LiteralCase { literal: "FALSE" }),
        "NULL" => Some(FixKind::LiteralCase { literal: "NULL" }),
        _ => Some(FixKind::LiteralCase { literal: "Null" }),
    };
    Some((value, fix))
}
