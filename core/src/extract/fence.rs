//! Markdown code fences (```` ``` ```` or `~~~`, with or without a language tag), found
//! so that a fence inside a JSON string is never taken for one.
//!
//! A fence marker inside a string of a bracketed span (in double quotes, in single quotes
//! where a value starts, or in Python's triple quotes) is the string's content: `{"a": "```json {\"x\": 1}```"}` holds no fence, nor does a string that
//! holds a code block written with raw newlines. Outside brackets quotes do not count:
//! prose is full of them. One exception: when a fence is open and the text ends without a
//! marker outside a string, a marker alone on its line inside a string closes the fence
//! (the JSON was cut off inside a string, then the fence closed); the rest of the text is
//! then scanned without strings, so the text is scanned at most twice.

use std::ops::Range;

/// One fence: its opening marker with its language tag, its body, and its closing marker
/// (none when it runs to the end of the text).
pub(super) struct Fence {
    pub open: Range<usize>,
    pub body: Range<usize>,
    pub close: Option<Range<usize>>,
}

/// The fences of `text`, in order.
pub(super) fn fences(text: &str) -> Vec<Fence> {
    let mut out = Vec::new();
    if !has_marker(text.as_bytes()) {
        return out;
    }
    let mut from = 0;
    let mut strings = true;
    while let Found::At(open) = marker(text, from, None, strings) {
        let fence = &text.as_bytes()[open..open + 3];
        let after = &text[open + 3..];
        // A language tag runs to the end of the line, when the line holds nothing else.
        // Only the tag is scanned: looking for the end of a long line at every fence
        // would make a reply with many fences on one line quadratic.
        let blank = |s: &str| s.len() - s.trim_start_matches([' ', '\t', '\r']).len();
        let lead = blank(after);
        let tag = after[lead..]
            .find(|c: char| !(c.is_alphanumeric() || "-_+.".contains(c)))
            .map_or(after.len(), |i| lead + i);
        let line_end = tag + blank(&after[tag..]);
        let (tag_end, body_start) = if after[line_end..].starts_with('\n') {
            (tag, line_end + 1)
        } else {
            let inline = after
                .find(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
                .filter(|&i| after[i..].trim_start().starts_with(['{', '[']))
                .unwrap_or(0);
            (inline, inline)
        };
        let open_range = open..open + 3 + tag_end;
        let body_start = open + 3 + body_start;
        let (close, next) = match marker(text, body_start, Some(fence), strings) {
            Found::At(close) => (Some(close), close + 3),
            Found::Fallback(close) => {
                strings = false;
                (Some(close), close + 3)
            }
            Found::None => (None, text.len()),
        };
        out.push(Fence {
            open: open_range,
            body: body_start..close.unwrap_or(text.len()),
            close: close.map(|c| c..c + 3),
        });
        from = next;
        if close.is_none() {
            break;
        }
    }
    out
}

/// What the search for a marker found.
enum Found {
    /// A marker outside strings, here.
    At(usize),
    /// None outside strings; this one, alone on its line inside a string, closes a fence.
    Fallback(usize),
    None,
}

/// The first marker at or after `from` outside strings inside brackets (when `strings`):
/// any marker, or for a closing one (`closing`), the opening one's kind. Strings are read
/// as `json_spans` reads them: in double quotes, in single quotes where a value starts,
/// and in Python's triple quotes.
fn marker(text: &str, from: usize, closing: Option<&[u8]>, strings: bool) -> Found {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    // The quote of the string the scan is in, and whether it is tripled.
    let mut string: Option<(u8, bool)> = None;
    let mut alone = None;
    let mut i = from;
    loop {
        // Skip what needs no decision at once: most of the text.
        let rest = bytes.get(i..).unwrap_or_default();
        let run = match string {
            _ if !strings => rest.iter().position(|&b| b == b'`' || b == b'~'),
            None => rest.iter().position(|&b| OUTSIDE[usize::from(b)]),
            Some((quote, _)) => rest
                .iter()
                .position(|&b| b == quote || INSIDE[usize::from(b)]),
        };
        let Some(run) = run else { break };
        i += run;
        let b = bytes[i];
        if (b == b'`' || b == b'~') && is_marker(&bytes[i..], closing) {
            if string.is_none() || !strings {
                return Found::At(i);
            }
            if closing.is_some() && alone.is_none() && alone_on_line(text, i) {
                alone = Some(i);
            }
            i += 3;
            continue;
        }
        i += 1;
        if let Some((quote, tripled)) = string {
            match b {
                b'\\' => i += 1,
                // A single-quoted string holds no raw newline: its quote was an apostrophe.
                b'\n' if quote == b'\'' && !tripled => string = None,
                _ if b != quote => {}
                _ if tripled && bytes[i..].starts_with(&[quote, quote]) => {
                    string = None;
                    i += 2;
                }
                _ if tripled => {}
                _ if quote == b'"' || super::ends_single_quoted(&bytes[i..]) => string = None,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' | b'\'' if depth > 0 && (b == b'"' || value_starts(&bytes[from..i - 1])) => {
                let tripled = bytes[i..].starts_with(&[b, b]);
                if tripled {
                    i += 2;
                }
                string = Some((b, tripled));
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    alone.map_or(Found::None, Found::Fallback)
}

/// The bytes that need a decision outside a string, and inside one (besides its quote).
const OUTSIDE: [bool; 256] = table(b"`~\"'{[}]");
const INSIDE: [bool; 256] = table(b"`~\\\n");

const fn table(bytes: &[u8]) -> [bool; 256] {
    let mut out = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        out[bytes[i] as usize] = true;
        i += 1;
    }
    out
}

/// Whether a value can start after `before`: its last byte that is not blank opens a
/// container or separates values.
fn value_starts(before: &[u8]) -> bool {
    let last = before.iter().rev().find(|b| !b.is_ascii_whitespace());
    matches!(last, Some(b'{' | b'[' | b',' | b':'))
}

/// Whether `bytes` hold a marker anywhere: one scan for its first byte.
fn has_marker(bytes: &[u8]) -> bool {
    let mut i = 0;
    while let Some(at) = bytes[i..].iter().position(|&b| b == b'`' || b == b'~') {
        if is_marker(&bytes[i + at..], None) {
            return true;
        }
        i += at + 1;
    }
    false
}

fn is_marker(bytes: &[u8], kind: Option<&[u8]>) -> bool {
    match kind {
        Some(kind) => bytes.starts_with(kind),
        None => bytes.starts_with(b"```") || bytes.starts_with(b"~~~"),
    }
}

/// Whether the marker at `at` stands alone on its line, blank around it.
fn alone_on_line(text: &str, at: usize) -> bool {
    let blank = [' ', '\t', '\r'];
    let before = text[..at].trim_end_matches(blank);
    let after = text[at + 3..].trim_start_matches(blank);
    (before.is_empty() || before.ends_with('\n')) && (after.is_empty() || after.starts_with('\n'))
}

/// `text` without its fence markers and language tags, and the offsets in what is left
/// where they were.
pub(super) fn without_fences(text: &str, fences: &[Fence]) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(text.len());
    let mut cuts = Vec::new();
    let mut from = 0;
    for fence in fences {
        for marker in std::iter::once(&fence.open).chain(&fence.close) {
            out.push_str(&text[from..marker.start]);
            cuts.push(out.len());
            from = marker.end;
        }
    }
    out.push_str(&text[from..]);
    (out, cuts)
}
