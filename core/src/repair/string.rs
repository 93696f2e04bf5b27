//! Strings as models write them: any quotes, missing or stray quotes, escapes, strings
//! joined with `+`.

use serde_json::Value;

use super::member::embedded_json_end;
use super::{Failure, FixKind, Repairer, Role, is_delimiter};

/// Where a string missing its end quote is taken to end: not at `:` or parentheses,
/// which prose inside strings is full of.
fn ends_unquoted(c: char) -> bool {
    matches!(c, ',' | '[' | ']' | '{' | '}' | '\n' | '+' | '/')
}

/// `before`, a prefix of `text`, without the `/* … */` comments at its end; `opens` are
/// the offsets, in order, where `/*` opened in the string being read.
fn without_comments<'t>(text: &'t str, mut before: &'t str, opens: &[usize]) -> &'t str {
    let mut k = opens.len();
    while before.ends_with("*/") {
        // The last `/*` that ends before this `*/` starts.
        while k > 0 && opens[k - 1] + 4 > before.len() {
            k -= 1;
        }
        let Some(i) = k.checked_sub(1) else { break };
        k = i;
        before = text[..opens[i]].trim_end();
    }
    before
}

/// What reading an escape gave.
pub(super) enum Escape {
    /// The escape, read.
    Read,
    /// The text ended inside the escape, which starts at this offset.
    CutOff(usize),
}

/// Where a string that lost its end quote stops.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Stop {
    /// At its end quote.
    Quote,
    /// At the first delimiter (`["hello, world]`).
    Delimiter,
    /// At a given offset: the last delimiter before a quote that cannot end it.
    At(usize),
    /// At the quote at a given offset, every quote before it inside the string: a reply
    /// that is one string with unescaped quotes inside (`"He said "hi", then left"`).
    Last(usize),
}

fn is_double_quote_like(c: char) -> bool {
    matches!(c, '"' | '“' | '”' | '„' | '‟' | '″' | '＂')
}

fn is_single_quote_like(c: char) -> bool {
    matches!(c, '\'' | '‘' | '’' | '‚' | '‛' | '′' | '`' | '´')
}

/// A byte of a string that needs no decision: printable ASCII that is no quote, escape,
/// bracket, delimiter or comment start. (Every byte of a multi-byte character needs a
/// look, as some are quotes.)
fn is_plain(b: u8) -> bool {
    (b' '..0x7f).contains(&b) && !b"\"'`\\()[]{}/,+".contains(&b)
}

/// The kind of quote a string opens with, which decides the quotes that end it: `"`,
/// `'`, other single quotes, other double quotes.
fn quote_kind(open: char) -> usize {
    match open {
        '"' => 0,
        '\'' => 1,
        c if is_single_quote_like(c) => 2,
        _ => 3,
    }
}

pub(super) fn is_quote(c: char) -> bool {
    is_double_quote_like(c) || is_single_quote_like(c)
}

impl Repairer<'_> {
    /// A quoted string, in any quotes, with the strings joined to it by `+`. `None` when
    /// the text ends inside an escape that cannot be read (`"\u26`).
    pub(super) fn string(&mut self, stop: Stop) -> Result<Option<Value>, Failure> {
        let Some(first) = self.quoted(stop)? else {
            return Ok(None);
        };
        Ok(Some(Value::String(self.concatenated(first)?)))
    }

    /// One quoted string, in any quotes.
    ///
    /// A quote counts as the end of the string when what follows can follow a value;
    /// otherwise it is a quote inside the string, unless a delimiter precedes it, in which
    /// case the real end quote is missing and the string is read again, ending at that
    /// delimiter.
    pub(super) fn quoted(&mut self, stop: Stop) -> Result<Option<String>, Failure> {
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
        let kind = quote_kind(open);
        // A string in these quotes already ran to the end of the text, finding no end
        // quote among the later quotes of its kind, and was read again up to a delimiter.
        // Later strings in these quotes are read that way at once: each would otherwise
        // read to the end of the text again, which makes the work quadratic.
        let stop = match stop {
            Stop::Quote if self.unterminated[kind] => Stop::Delimiter,
            stop => stop,
        };
        // A member's value or an item reads past a quote followed by what cannot follow it
        // (`member.rs`). `first_end` is how the string would have ended without the look
        // ahead, at the first quote so passed: when no later quote ends it as cleanly, it
        // ends there after all.
        let role = self.string_role;
        let looks_ahead =
            stop == Stop::Quote && role != Role::Other && begin >= self.no_look_before;
        let mut first_end: Option<Stop> = None;
        // Quotes taken to be inside the string so far: an odd count leaves one open. And
        // where the last quote passed (taken to be inside though it could end the string)
        // ends.
        let mut inner = 0usize;
        let mut passed = None;
        if open == '\'' {
            self.fix(FixKind::SingleQuotes, begin);
        } else if open != '"' {
            self.fix(FixKind::SmartQuotes, begin);
        }
        let mut out = String::new();
        // Unclosed `(`, `[` and `{` in the string so far, and where `/*` opened in it: read
        // as the string goes, so deciding whether a quote ends it takes constant time.
        let mut parens = 0usize;
        let (mut squares, mut curlies) = (0isize, 0isize);
        let mut comment_opens = Vec::new();
        // Where JSON quoted inside the string ends (`member.rs`): quotes before it are the
        // string's.
        let mut embedded_until = 0;
        loop {
            if let Stop::At(limit) = stop
                && self.pos >= limit
            {
                let kept = out.trim_end().len();
                out.truncate(kept);
                self.fix(FixKind::ClosedString, self.pos);
                return Ok(Some(out));
            }
            // Copy a run of characters that need no decision at once.
            let rest = &self.text.as_bytes()[self.pos..];
            let mut plain = rest
                .iter()
                .position(|&b| !is_plain(b))
                .unwrap_or(rest.len());
            if let Stop::At(limit) = stop {
                plain = plain.min(limit - self.pos);
            }
            if plain > 0 {
                out.push_str(&self.text[self.pos..self.pos + plain]);
                self.pos += plain;
                continue;
            }
            let Some(c) = self.peek() else {
                if let Some(first) = first_end {
                    self.no_look_before = self.pos;
                    return self.retry_string(begin, fixes_before, first);
                }
                // The text ends inside the string.
                // A closing bracket at the very end that the string did not open closes
                // the document (`["abc]`): the end quote is missing, and the string is
                // read again, ending at its first delimiter. Otherwise the reply was cut
                // off inside the string (`["Hello, wor` or `["Hello,`).
                let last = self.text[begin..].trim_end().chars().last();
                let closes_document = match last {
                    Some(']') => squares < 0,
                    Some('}') => curlies < 0,
                    _ => false,
                };
                if stop == Stop::Quote && closes_document {
                    self.unterminated[kind] = true;
                    return self.retry_string(begin, fixes_before, Stop::Delimiter);
                }
                let kept = out.trim_end().len();
                out.truncate(kept);
                self.fix(FixKind::ClosedString, self.pos);
                return Ok(Some(out));
            };
            if ends(c) {
                let quote_at = self.pos;
                if let Stop::Last(end) = stop
                    && quote_at < end
                {
                    self.fix(FixKind::UnescapedQuote, quote_at);
                    out.push(c);
                    self.bump();
                    continue;
                }
                if quote_at < embedded_until {
                    inner += 1;
                    self.fix(FixKind::UnescapedQuote, quote_at);
                    out.push(c);
                    self.bump();
                    continue;
                }
                self.bump();
                let after_quote = self.pos;
                let fixes_at_quote = self.fixes.len();
                self.skip_blank_on_line();
                let next = self.peek();
                // `"(5'3")"`: a `)` after the quote closes a parenthesis of the string.
                let closes_paren = next == Some(')') && parens > 0;
                let ends_here = stop != Stop::Quote
                    || (!closes_paren
                        && next
                            .is_none_or(|n| is_delimiter(n) || is_quote(n) || n.is_ascii_digit()));
                // Once a quote was passed, a later one ends the string only where the text
                // goes on: at the end of the text the first one is as likely the end.
                let may_end = !looks_ahead
                    || (self.value_may_end(role, next, inner % 2 == 1)
                        && (first_end.is_none() || next.is_some()));
                // JSON quoted inside the string: its brackets close further on, and the
                // string goes on after them. The quote closes one of its strings (one that
                // a quote kept inside opened), or, after a delimiter, opens one.
                let open_brackets = (curlies.max(0) + squares.max(0)) as usize;
                let opens_or_closes = inner % 2 == usize::from(ends_here);
                let embedded = (looks_ahead && open == '"' && open_brackets > 0 && opens_or_closes)
                    .then(|| {
                        let from = if ends_here { after_quote } else { quote_at };
                        let end = embedded_json_end(&self.text[from..], open_brackets)?;
                        Some(from + end)
                    })
                    .flatten();
                if let Some(end) = embedded {
                    embedded_until = end;
                    if !ends_here {
                        inner += 1;
                        self.fixes.truncate(fixes_at_quote);
                        self.pos = after_quote;
                        self.fix(FixKind::UnescapedQuote, quote_at);
                        out.push(c);
                        continue;
                    }
                }
                if ends_here && may_end && embedded.is_none() {
                    return Ok(Some(out));
                }
                if ends_here {
                    // Followed by what cannot follow a member's value: inside the string.
                    first_end.get_or_insert(Stop::Last(quote_at));
                    passed = Some(after_quote);
                    inner += 1;
                    self.fixes.truncate(fixes_at_quote);
                    self.pos = after_quote;
                    self.fix(FixKind::UnescapedQuote, quote_at);
                    out.push(c);
                    continue;
                }
                // Look past comments right before the quote.
                let text = self.text;
                let before = without_comments(text, text[..quote_at].trim_end(), &comment_opens);
                if let Some(b) = before.chars().last()
                    && is_delimiter(b)
                    && before.len() > begin + open.len_utf8()
                {
                    // Not the end quote: one is missing before the delimiter, and before
                    // comments right before it (`"abc/* c */+"def"`).
                    let cut = text[..before.len() - b.len_utf8()].trim_end();
                    let limit = without_comments(text, cut, &comment_opens).len();
                    // A member's value or an item ends only where what follows may follow
                    // it (`"```json\n{"a": 1}"`: no end quote is missing before `{`).
                    // Nor is one missing right after a quote that was passed: that quote
                    // was there, and was taken to be inside the string.
                    let after_passed = passed == Some(limit);
                    if !after_passed
                        && (!looks_ahead || self.may_follow(role, b, before.len(), inner % 2 == 1))
                    {
                        if let Some(first) = first_end {
                            self.no_look_before = quote_at;
                            return self.retry_string(begin, fixes_before, first);
                        }
                        return self.retry_string(begin, fixes_before, Stop::At(limit));
                    }
                    if !after_passed {
                        first_end.get_or_insert(Stop::At(limit));
                    }
                }
                // A quote inside the string: keep it and read on.
                inner += 1;
                self.fixes.truncate(fixes_at_quote);
                self.pos = after_quote;
                self.fix(FixKind::UnescapedQuote, quote_at);
                out.push(c);
                continue;
            }
            if stop == Stop::Delimiter && ends_unquoted(c) {
                // A URL keeps its slashes: `"https://example.com/a`.
                if c == '/' && self.url_start(&out) {
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
                return Ok(Some(out));
            }
            if escaped_quotes && c == '\\' && self.peek_at(1).is_some_and(ends) {
                // `\"text\"`: the escaped quote may be the end quote.
                self.bump();
                continue;
            }
            if c == '\\' {
                if let Some(end) = self.escaped_end_quote(stop, &ends) {
                    self.fix(FixKind::LiteralBackslash, self.pos);
                    out.push('\\');
                    self.pos = end;
                    return Ok(Some(out));
                }
                if let Escape::CutOff(at) = self.escape(&mut out)? {
                    self.fix(FixKind::ClosedString, at);
                    return Ok(Some(out));
                }
                continue;
            }
            match c {
                '(' => parens += 1,
                ')' => parens = parens.saturating_sub(1),
                '[' => squares += 1,
                ']' => squares -= 1,
                '{' => curlies += 1,
                '}' => curlies -= 1,
                '/' if self.peek_at(1) == Some('*') => comment_opens.push(self.pos),
                _ if c < ' ' => self.fix(FixKind::ControlCharacter, self.pos),
                _ => {}
            }
            out.push(c);
            self.bump();
        }
    }

    /// A Python triple-quoted string here, `"""…"""` or `'''…'''`, up to the first three
    /// quotes of its kind (quotes right before those are content: `"""say "hi""""`).
    /// Escapes read as in any string; raw newlines and quotes inside are content. `None`
    /// when none starts here, or when it has no end: it is then read as other strings are.
    pub(super) fn triple_quoted(&mut self) -> Result<Option<Value>, Failure> {
        let rest = &self.text[self.pos..];
        let kind = match () {
            _ if rest.starts_with("\"\"\"") => 0,
            _ if rest.starts_with("'''") => 1,
            _ => return Ok(None),
        };
        let quote = rest.as_bytes()[0];
        let (begin, body_start) = (self.pos, self.pos + 3);
        // Once a search finds no end, none starts later either: searched once, not once
        // per opening.
        if body_start >= self.no_triple_end[kind] {
            return Ok(None);
        }
        let Some(close) = self.text[body_start..].find(&rest[..3]) else {
            self.no_triple_end[kind] = body_start;
            return Ok(None);
        };
        let bytes = self.text.as_bytes();
        let mut body_end = body_start + close;
        while bytes.get(body_end + 3) == Some(&quote) {
            body_end += 1;
        }
        self.fix(FixKind::TripleQuotes, begin);
        let mut out = String::new();
        self.pos = body_start;
        while self.pos < body_end {
            let rest = &self.text[self.pos..body_end];
            let run = rest.find('\\').unwrap_or(rest.len());
            out.push_str(&rest[..run]);
            self.pos += run;
            if self.pos + 1 == body_end {
                // A backslash right before the end quotes escapes nothing.
                self.fix(FixKind::LiteralBackslash, self.pos);
                out.push('\\');
                self.pos = body_end;
            } else if self.pos < body_end {
                self.escape(&mut out)?;
            }
        }
        self.pos = body_end + 3;
        Ok(Some(Value::String(out)))
    }

    /// Reads the escape at the backslash here into `out`.
    ///
    /// A backslash before a character that starts no JSON escape is itself (`C:\\Users`,
    /// `\\d+`): a path or a pattern written without doubling its backslashes. The JSON
    /// escapes keep their meaning, also in a path (`C:\\temp` holds a tab): that text is
    /// valid JSON, and what valid JSON means is never changed.
    pub(super) fn escape(&mut self, out: &mut String) -> Result<Escape, Failure> {
        let at = self.pos;
        self.bump();
        let Some(c) = self.bump() else {
            return Ok(Escape::CutOff(self.pos));
        };
        match c {
            '"' => out.push('"'),
            '\\' => out.push('\\'),
            '/' => out.push('/'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'u' => match self.unicode_escape(at)? {
                Some(ch) => out.push(ch),
                // Cut off inside \uXXXX: the string ends before it.
                None => {
                    self.pos = self.text.len();
                    return Ok(Escape::CutOff(at));
                }
            },
            // `\'` is a quote escaped as Python and JavaScript escape it; a backslash
            // before a raw newline escapes the newline.
            '\'' | '\n' => {
                self.fix(FixKind::InvalidEscape, at);
                out.push(c);
            }
            other => {
                self.fix(FixKind::LiteralBackslash, at);
                out.push('\\');
                out.push(other);
            }
        }
        Ok(Escape::Read)
    }

    /// Where a string that lost its end quote ends when its last character before the
    /// delimiter it stops at is an escaped quote: `"C:\\temp\\", "n": 1` is the path
    /// `C:\\temp\\`, its backslash doubled by no one, its end quote read as escaped.
    fn escaped_end_quote(&self, stop: Stop, ends: &impl Fn(char) -> bool) -> Option<usize> {
        let quote = self.peek_at(1).filter(|&q| ends(q))?;
        let end = self.pos + 1 + quote.len_utf8();
        let ends_here = match stop {
            Stop::At(limit) => end == limit,
            Stop::Delimiter => self.text[end..]
                .trim_start_matches([' ', '\t', '\r'])
                .chars()
                .next()
                .is_none_or(ends_unquoted),
            Stop::Quote | Stop::Last(_) => false,
        };
        ends_here.then_some(end)
    }

    /// Whether the string read so far, with the `/` here, starts a URL (`https:/`).
    fn url_start(&self, out: &str) -> bool {
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
    ) -> Result<Option<String>, Failure> {
        self.pos = begin;
        self.fixes.truncate(fixes_before);
        self.quoted(stop)
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

    /// `"a" + "b"` → `"ab"`: the strings after `out` joined to it, read in a loop, not by
    /// recursion, so a long chain cannot exhaust the stack.
    fn concatenated(&mut self, mut out: String) -> Result<String, Failure> {
        loop {
            let save = self.pos;
            let fixes_before = self.fixes.len();
            self.skip_blank();
            let plus = self.pos;
            if self.peek() == Some('+') {
                self.bump();
                self.skip_blank();
            }
            if self.pos == plus || !self.peek().is_some_and(is_quote) {
                // Not a concatenation: the comments skipped are read again by the caller.
                self.pos = save;
                self.fixes.truncate(fixes_before);
                return Ok(out);
            }
            self.fix(FixKind::ConcatenatedStrings, plus);
            match self.quoted(Stop::Quote)? {
                Some(more) => out.push_str(&more),
                None => return Ok(out),
            }
        }
    }
}
