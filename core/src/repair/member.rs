//! Where a string that is a member's value or an array's item ends, and which words
//! between members are stray: a look ahead at what follows a quote.
//!
//! A quote that would end such a string ends it only when what follows can follow it: in
//! `{"note": "the sign read "closed", so we left", "n": 1}` the quote after `closed` is
//! inside the string, as `so we left"` starts no member; in `["he said "yes": no"]` the
//! quote after `yes` is inside it, as no item is followed by a colon. A value is never
//! followed by a colon or a parenthesis; after a comma, a member (or item) must start;
//! after a quote, a key and its colon (or, in an array, an item: the comma missing); on
//! the next line, a comma and a member, or a member (`"say "hi"\nthen go"` is one string).
//!
//! A string that holds brackets it has not closed may hold JSON quoted with its quotes
//! unescaped: in `{"reason": "the answer is {"blank_1": "music"}, which is wrong"}` the
//! quote after `music` is followed by `}`, which may follow a value, but the `}` closes
//! the brace of the string, and `, which is wrong"` can follow no object. Where the
//! brackets the string opened close a little further on, and what follows their closing
//! can follow no container's end, the quotes up to there are inside the string
//! ([`embedded_json_end`]). In valid JSON what follows a container's end always can.
//!
//! Each look ahead reads at most a few words, one short key or a bounded stretch of
//! quoted JSON, so the repair stays linear.

use super::string::is_quote;
use super::{Repairer, Role, line_comment};

/// The most bytes of stray words looked at before a key.
const WORDS_LIMIT: usize = 64;
/// The most bytes of a quoted key, or of a bare item, looked at.
const KEY_LIMIT: usize = 256;
/// The most bytes of JSON quoted inside a string looked at.
const EMBEDDED_LIMIT: usize = 512;

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '-' || c == '$'
}

impl Repairer<'_> {
    /// Whether a quote that would end a string of `role`, followed by `next` (at the
    /// current position), may end it; `open` when the string holds a quote that no other
    /// closes (`"labelled "A`).
    pub(super) fn value_may_end(&self, role: Role, next: Option<char>, open: bool) -> bool {
        let rest = &self.text[self.pos..];
        match next {
            Some(':' | '(') => false,
            Some(',') => self.may_follow(role, ',', self.pos + 1, open),
            // Another line: its comma, or a member (an item) with the comma missing.
            Some('\n') => {
                let line = rest.trim_start();
                let after = self.text.len() - line.strip_prefix(',').unwrap_or(line).len();
                self.may_follow(role, ',', after, open)
            }
            Some(c) if is_quote(c) => {
                // `"X""` ends at the second quote: the first opens nothing.
                let after = rest[c.len_utf8()..].trim_start();
                let closes = after.is_empty() || after.starts_with([',', ']', '}', ':']);
                !closes && (role == Role::Item || quoted_key_then_colon(rest, true))
            }
            _ => true,
        }
    }

    /// Whether a string of `role` may end before the delimiter `b`, followed by the text
    /// from `after`: not before what never follows a value (`{`, `[`, `(`, `:`); before a
    /// comma, where a member (or an item; `open` as for [`Self::value_may_end`]) starts.
    pub(super) fn may_follow(&self, role: Role, b: char, after: usize, open: bool) -> bool {
        match (role, b) {
            (_, '{' | '[' | '(' | ':') => false,
            (Role::Member, ',') => member_starts(&self.text[after..]),
            (Role::Item, ',') => item_starts(&self.text[after..], open),
            _ => true,
        }
    }
}

/// Whether `text`, past blank, is a comma and a member (`close` being `}`) or an item
/// (`]`): what goes on in a container.
pub(super) fn continues(close: char, text: &str) -> bool {
    let Some(rest) = text.trim_start().strip_prefix(',') else {
        return false;
    };
    let rest = rest.trim_start();
    !rest.is_empty()
        && !rest.starts_with(['}', ']'])
        && if close == '}' {
            member_starts(rest)
        } else {
            item_starts(rest, false)
        }
}

/// Whether `text`, past blank, starts a member or ends the object: a quoted or bare key
/// and its colon, stray words before a quoted key and its colon, a `}`, a comment, an
/// ellipsis, or the end of the text, which may have cut the member off.
fn member_starts(text: &str) -> bool {
    let rest = text.trim_start();
    let Some(c) = rest.chars().next() else {
        return true;
    };
    match c {
        '}' | '/' => true,
        '#' => line_comment(rest),
        '.' => rest.starts_with("..."),
        c if is_quote(c) => quoted_key_then_colon(rest, true),
        c if is_word(c) => {
            // A bare key, or one missing its opening quote (`b": 1`).
            let word = rest.trim_start_matches(is_word);
            let after = word.strip_prefix(is_quote).unwrap_or(word).trim_start();
            after.is_empty() || after.starts_with(':') || stray_words(rest).is_some()
        }
        _ => false,
    }
}

/// Whether `text`, past blank, starts an item or ends the array: anything but a bare word
/// that ends in a quote (`so we left"`, the rest of a string whose quote was inside it),
/// or, after a string that left a quote `open`, a string whose first end quote is followed
/// by a word (`"labelled "A", "B" and "C""`: the quotes come in pairs, the comma was
/// inside the string).
fn item_starts(text: &str, open: bool) -> bool {
    let rest = text.trim_start();
    if open && rest.starts_with('"') {
        let body = rest[1..]
            .char_indices()
            .take_while(|&(i, c)| i <= KEY_LIMIT && c != '\n');
        let mut escaped = false;
        for (i, c) in body {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => {
                    let after = rest[i + 2..].trim_start_matches([' ', '\t', '\r']);
                    return after.is_empty() || after.starts_with([',', ']', '}', '\n']);
                }
                _ => {}
            }
        }
        return true;
    }
    if !rest.starts_with(is_word) {
        return true;
    }
    let mut prev = ' ';
    for (i, c) in rest.char_indices().take_while(|&(i, _)| i <= KEY_LIMIT) {
        // A `#` after blank may start a comment after the item (`null # "a"`).
        if matches!(c, ',' | ']' | '[' | '{' | '}' | '\n') || (c == '#' && prev == ' ') {
            return true;
        }
        // An apostrophe between letters is part of the word (`Bob's`).
        let apostrophe = matches!(c, '\'' | '’')
            && prev.is_alphanumeric()
            && rest[i + c.len_utf8()..].starts_with(char::is_alphabetic);
        if is_quote(c) && !apostrophe {
            return false;
        }
        prev = c;
    }
    true
}

/// Whether `text` starts with a quoted key followed by a colon (`"b": `), or may: a key
/// longer than the look ahead reads, or, when `cut_off` is allowed, one the end of the
/// text cut off (`"b"`, `"b`). A key read whole with no colon after it is none, so that
/// valid JSON, whatever its keys, always reads as it is.
fn quoted_key_then_colon(text: &str, cut_off: bool) -> bool {
    let mut chars = text.char_indices();
    let Some((_, open)) = chars.next() else {
        return false;
    };
    let mut escaped = false;
    for (i, c) in chars {
        if i > KEY_LIMIT {
            return true;
        }
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == open || (open != '"' && open != '\'' && is_quote(c)) {
            let after = text[i + c.len_utf8()..].trim_start();
            return after.is_empty() || after.starts_with(':');
        } else if c == '\n' {
            // No key holds a raw newline.
            return false;
        }
    }
    cut_off
}

/// The length of the stray words at the start of `text` (`note "b": 2`, `and also 'b':`):
/// words and spaces on one line, then a quoted key and its colon. Reading the words as a
/// key would leave the quoted key and its colon with no place: they are the one reading.
pub(super) fn stray_words(text: &str) -> Option<usize> {
    let end = text
        .char_indices()
        .find(|&(i, c)| i > WORDS_LIMIT || !(is_word(c) || c == ' ' || c == '\t'))
        .map_or(text.len(), |(i, _)| i);
    let words = &text[..end];
    let quoted = text[end..].starts_with(is_quote) && quoted_key_then_colon(&text[end..], false);
    (words.contains(|c: char| c.is_alphanumeric()) && quoted).then_some(end)
}

/// Where JSON quoted inside a string ends, the quote just read (before `text`) being one
/// of its own: `open` brackets the string opened are closed in `text` within the look
/// ahead (strings in it skipped), and what follows their closing cannot follow the end of
/// a container. The offset in `text` right after the last of those closing brackets.
///
/// Were the quote the string's end, the brackets would close the containers around it;
/// and after a container's end come more closing brackets, then the end of the text, a
/// comment, or a comma and a member or item. Text (`, which is wrong"`) is the string
/// going on.
pub(super) fn embedded_json_end(text: &str, open: usize) -> Option<usize> {
    let mut depth = open;
    // The quote of the string of the quoted JSON being read, if any (it may be written as
    // Python writes it).
    let (mut in_string, mut escaped) = (None, false);
    for (i, c) in text.char_indices() {
        if i > EMBEDDED_LIMIT {
            return None;
        }
        if let Some(quote) = in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                c if c == quote => in_string = None,
                _ => {}
            }
            continue;
        }
        match c {
            '"' | '\'' => in_string = Some(c),
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth -= 1;
                if depth == 0 {
                    let end = i + 1;
                    return (!container_may_end(&text[end..])).then_some(end);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether `text` may follow the end of a container: more closing brackets, then the end
/// of the text, a comment, or a comma and a member or an item.
fn container_may_end(text: &str) -> bool {
    let rest = text.trim_start_matches(|c: char| c.is_whitespace() || c == '}' || c == ']');
    match rest.chars().next() {
        None | Some('/') => true,
        Some('#') => line_comment(rest),
        Some(',') => member_starts(&rest[1..]) || item_starts(&rest[1..], false),
        Some(_) => false,
    }
}
