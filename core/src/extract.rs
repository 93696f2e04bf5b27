//! Finds the JSON in what a model wrote: code fences, XML-style wrappers, prose around
//! the value, `<think>` blocks, several values in one reply.
//!
//! Extraction proposes candidates; [`crate::Parser`] repairs and validates each and keeps
//! the one that fits the target. Scanning is linear in the reply, and at most
//! [`MAX_CANDIDATES`] candidates are proposed.

mod fence;

use crate::repair::{Fix, FixKind, Location};
use fence::{fences, without_fences};

/// The most candidates taken from one reply.
pub const MAX_CANDIDATES: usize = 16;

/// Tags whose content is taken as a candidate.
const WRAPPERS: &[&str] = &[
    "tool_call",
    "tool_calls",
    "function_call",
    "function_calls",
    "invoke",
    "json",
    "answer",
    "output",
    "result",
    "response",
    "arguments",
    "parameters",
    "tool_use",
];

/// Text that may hold the value, and how it was found.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Candidate {
    pub text: String,
    pub fixes: Vec<Fix>,
}

fn reply_fix(kind: FixKind) -> Fix {
    Fix::new(kind, Location::Reply)
}

/// The candidates in a reply, most specific first, without duplicates: the reply when it
/// is strict JSON, the contents of code fences, of wrapper tags, the JSON spans of the
/// text, the whole text. Of the fences, and of the spans of a text, those that cover the
/// most of it come first: an example given before the answer is not the answer.
pub(crate) fn candidates(raw: &str) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = Vec::new();
    // A reply that is strict JSON as a whole means exactly that, even when a string in it
    // mentions `<think>` or holds a code fence. An object or a list is the one candidate:
    // its strings are its own, and what they hold (a call in a `<tool_call>` block, a
    // value in a fence) is text, not the reply.
    if is_strict_json(raw) {
        let text = raw.trim();
        out.push(Candidate {
            text: text.to_owned(),
            fixes: Vec::new(),
        });
        if text.starts_with(['{', '[']) {
            return out;
        }
    }
    let mut base_fixes = Vec::new();
    let visible = strip_thinking(raw, &mut base_fixes);
    let mut push = |text: &str, fixes: Vec<Fix>| {
        let text = text.trim();
        if text.is_empty() || out.len() >= MAX_CANDIDATES || out.iter().any(|c| c.text == text) {
            return;
        }
        let mut all = base_fixes.clone();
        all.extend(fixes);
        out.push(Candidate {
            text: text.to_owned(),
            fixes: all,
        });
    };

    if visible.len() != raw.len() && is_strict_json(&visible) {
        push(&visible, Vec::new());
    }
    let fences = fences(&visible);
    let mut blocks: Vec<&str> = fences.iter().map(|f| &visible[f.body.clone()]).collect();
    longest_first(&mut blocks);
    for block in blocks {
        push(block, vec![reply_fix(FixKind::CodeFence)]);
        let mut spans = json_spans(block);
        longest_first(&mut spans);
        for span in spans {
            if span.trim() != block.trim() {
                push(
                    span,
                    vec![reply_fix(FixKind::CodeFence), reply_fix(FixKind::Prose)],
                );
            }
        }
    }
    // A wrapper inside a string of a JSON value the text writes whole is that string's
    // text: `{"note": "<tool_call>…</tool_call>"}` holds a note, not a call.
    let whole_values: Vec<std::ops::Range<usize>> = json_spans(&visible)
        .into_iter()
        .filter(|span| is_strict_json(span))
        .map(|span| {
            let start = span.as_ptr() as usize - visible.as_ptr() as usize;
            start..start + span.len()
        })
        .collect();
    for (tag, inner) in wrapped(&visible) {
        let at = inner.as_ptr() as usize - visible.as_ptr() as usize;
        if whole_values.iter().any(|v| v.start < at && at < v.end) {
            continue;
        }
        push(
            inner,
            vec![reply_fix(FixKind::Wrapper { tag: tag.clone() })],
        );
        for span in json_spans(inner) {
            push(
                span,
                vec![
                    reply_fix(FixKind::Wrapper { tag: tag.clone() }),
                    reply_fix(FixKind::Prose),
                ],
            );
        }
    }
    let (unfenced, cuts) = without_fences(&visible, &fences);
    let whole = unfenced.trim();
    let mut spans = json_spans(&unfenced);
    longest_first(&mut spans);
    for span in spans {
        // Where the span lost fence markers, the fence is reported.
        let start = span.as_ptr() as usize - unfenced.as_ptr() as usize;
        let mut fixes = Vec::new();
        if cuts
            .iter()
            .any(|&cut| start < cut && cut < start + span.len())
        {
            fixes.push(reply_fix(FixKind::CodeFence));
        }
        if span.trim() != whole {
            fixes.push(reply_fix(FixKind::Prose));
        }
        push(span, fixes);
    }
    let fixes = if cuts.is_empty() {
        Vec::new()
    } else {
        vec![reply_fix(FixKind::CodeFence)]
    };
    push(whole, fixes);
    out
}

/// The value of the first candidate that local repair reads, whatever its shape: what a
/// rejected reply said, for repair prompts and the best partial value.
pub(crate) fn closest_value(raw: &str) -> Option<serde_json::Value> {
    candidates(raw)
        .into_iter()
        .find_map(|c| crate::repair::repair(&c.text).ok().map(|(v, _)| v))
}

/// The reply as a model meant it to be read, for readers of text that is not JSON (tool
/// calls in a chat template's format): without `<think>` blocks and without code fence
/// markers, each reported.
pub(crate) fn visible(raw: &str) -> (String, Vec<Fix>) {
    let mut fixes = Vec::new();
    let visible = strip_thinking(raw, &mut fixes);
    let fences = fences(&visible);
    if fences.is_empty() {
        return (visible, fixes);
    }
    fixes.push(reply_fix(FixKind::CodeFence));
    (without_fences(&visible, &fences).0, fixes)
}

/// The JSON span (`{…}` or `[…]`, brackets inside strings not counted) that starts `text`;
/// one still open at the end runs to the end.
pub(crate) fn first_span(text: &str) -> Option<&str> {
    if !text.starts_with(['{', '[']) {
        return None;
    }
    spans_scanned(text, true, 1).into_iter().next()
}

/// The body of `text` where `text` is one Markdown fence and nothing else but spaces
/// (```` ```json\n{…}\n``` ````, its closing marker possibly cut off); `None` otherwise.
pub(crate) fn sole_fence_body(text: &str) -> Option<&str> {
    let found = fences(text);
    let [fence] = found.as_slice() else {
        return None;
    };
    let after = fence.close.as_ref().map_or(text.len(), |close| close.end);
    let alone = text[..fence.open.start].trim().is_empty() && text[after..].trim().is_empty();
    alone.then(|| &text[fence.body.clone()])
}

/// Sorts texts so that the longest come first; texts of one length keep their order.
fn longest_first(texts: &mut [&str]) {
    if texts.len() > 1 {
        texts.sort_by_cached_key(|t| std::cmp::Reverse(t.trim().len()));
    }
}

pub(crate) fn is_strict_json(text: &str) -> bool {
    serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
}

/// The reply without `<think>…</think>` blocks. An unclosed block hides everything after
/// it only if something is left before it.
fn strip_thinking(raw: &str, fixes: &mut Vec<Fix>) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    loop {
        let Some((open, open_tag, close)) = next_thinking(rest) else {
            out.push_str(rest);
            return out;
        };
        fixes.push(reply_fix(FixKind::Thinking));
        out.push_str(&rest[..open]);
        let after = &rest[open + open_tag.len()..];
        match after.find(close) {
            Some(end) => rest = &after[end + close.len()..],
            None => {
                if out.trim().is_empty() {
                    // Only reasoning, never closed: the answer may be inside it.
                    out.push_str(after);
                }
                return out;
            }
        }
    }
}

/// The first `<think>` or `<thinking>` tag that starts a line (or the text): its offset,
/// the tag and its closing tag. A tag inside a line is text, as in a JSON string that
/// mentions it. One scan, so a reply full of tags stays linear.
fn next_thinking(text: &str) -> Option<(usize, &'static str, &'static str)> {
    let mut from = 0;
    while let Some(i) = text[from..].find("<think") {
        let at = from + i;
        let before = text[..at].trim_end_matches([' ', '\t', '\r']);
        let line_start = before.is_empty() || before.ends_with('\n');
        for (open, close) in [("<think>", "</think>"), ("<thinking>", "</thinking>")] {
            if line_start && text[at..].starts_with(open) {
                return Some((at, open, close));
            }
        }
        from = at + "<think".len();
    }
    None
}

/// `(tag, content)` for each known wrapper tag; an unclosed tag runs to the end.
fn wrapped(text: &str) -> Vec<(String, &str)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find('<') {
        let at = from + i;
        from = at + 1;
        let rest = &text[at + 1..];
        let name_len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-' || c == ':'))
            .unwrap_or(rest.len());
        let name = &rest[..name_len];
        let local = name.rsplit(':').next().unwrap_or(name);
        if !WRAPPERS.contains(&local) {
            continue;
        }
        let Some(gt) = rest.find('>') else { break };
        let body = &rest[gt + 1..];
        let close = format!("</{name}>");
        let inner = match body.find(&close) {
            Some(end) => &body[..end],
            None => body,
        };
        out.push((local.to_owned(), inner));
        if out.len() >= MAX_CANDIDATES {
            break;
        }
    }
    out
}

/// Top-level `{…}` and `[…]` spans; a span still open at the end runs to the end of the
/// text (a truncated reply).
///
/// Brackets inside strings do not count. Inside a span, a string is in double quotes, or
/// in single quotes where a key or a value can start (after `{`, `[`, `,` or `:`); any
/// other single quote is an apostrophe (`Bob's`). A single-quoted string ends at a quote
/// followed by what can follow a value (`,`, `:`, `}`, `]` or the end of the text), as the
/// repairer reads it, so an apostrophe inside it (`'it's'`) does not end it. Outside spans
/// quotes do not count: prose is full of them.
///
/// A single-quoted string that runs to the end of the text was no string: its quote was an
/// apostrophe. The text after that quote is scanned again with single quotes taken as
/// apostrophes. Python's triple quotes (`"""` or `'''`) open a string that ends at the
/// next three; when none close it, the text from them is scanned again with quotes taken
/// one by one. So the text is scanned at most three times.
fn json_spans(text: &str) -> Vec<&str> {
    spans_scanned(text, true, MAX_CANDIDATES)
}

/// [`json_spans`], the first `most`, with `\"` read as an escaped quote when `escapes`. A double-quoted
/// string that runs to the end of the text may have ended at a quote after a backslash
/// that escapes nothing (`"C:\temp\", "n": 1`): the text is then scanned again with
/// such quotes ending strings, so at most twice as often.
fn spans_scanned(text: &str, escapes: bool, most: usize) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    // The last byte that is not blank, outside strings: whether a value can start here.
    let mut last = b' ';
    // The string the scan is in: its quote, where it opened, whether the quote is tripled
    // (Python's `"""` or `'''`), and `last` before it.
    let mut string: Option<(u8, usize, bool, u8)> = None;
    let mut escaped = false;
    let mut single_quotes = true;
    let mut triples = true;
    let mut i = 0;
    loop {
        let Some(&b) = bytes.get(i) else {
            match string {
                Some((_, open, true, before)) => {
                    // Three quotes that never close were not one: the text from them is
                    // scanned again with quotes taken one by one.
                    string = None;
                    escaped = false;
                    triples = false;
                    last = before;
                    i = open;
                    continue;
                }
                Some((b'\'', open, false, _)) => {
                    // Depth and spans do not change inside a string: the scan goes on as
                    // it stood at the quote.
                    string = None;
                    escaped = false;
                    single_quotes = false;
                    last = b'\'';
                    i = open + 1;
                    continue;
                }
                Some((b'"', _, false, _)) if escapes => return spans_scanned(text, false, most),
                _ => break,
            }
        };
        i += 1;
        if let Some((quote, _, tripled, _)) = string {
            match b {
                _ if escaped => escaped = false,
                b'\\' if escapes || quote != b'"' || bytes.get(i) != Some(&b'"') => {
                    escaped = true;
                }
                _ if b != quote => {}
                _ if tripled && bytes[i..].starts_with(&[quote, quote]) => {
                    i += 2;
                    string = None;
                    last = quote;
                }
                _ if tripled => {}
                _ if quote == b'"' || ends_single_quoted(&bytes[i..]) => {
                    string = None;
                    last = quote;
                }
                _ => {}
            }
            continue;
        }
        match b {
            b'"' | b'\''
                if depth > 0
                    && (b == b'"'
                        || (single_quotes && matches!(last, b'{' | b'[' | b',' | b':'))) =>
            {
                let tripled = triples && bytes[i..].starts_with(&[b, b]);
                string = Some((b, i - 1, tripled, last));
                if tripled {
                    i += 2;
                }
            }
            b'{' | b'[' => {
                if depth == 0 {
                    start = i - 1;
                }
                depth += 1;
            }
            b'}' | b']' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    spans.push(&text[start..i]);
                    if spans.len() >= most {
                        return spans;
                    }
                }
            }
            _ => {}
        }
        if !b.is_ascii_whitespace() {
            last = b;
        }
    }
    if depth > 0 {
        spans.push(&text[start..]);
    }
    spans
}

/// Whether a single quote followed by `rest` ends a string: what follows it, past blank,
/// can follow a value. Each quote looks only at the blank right after it, so the scan
/// stays linear.
fn ends_single_quoted(rest: &[u8]) -> bool {
    let next = rest.iter().find(|b| !b.is_ascii_whitespace());
    matches!(next, None | Some(b',' | b':' | b'}' | b']'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sole_fence_gives_its_body_and_anything_else_none() {
        let body = "{\"a\": 1}";
        for fenced in [
            format!("```json\n{body}\n```"),
            format!("  ~~~\n{body}\n~~~\n"),
            format!("```json\n{body}"),
        ] {
            assert_eq!(
                sole_fence_body(&fenced).map(str::trim),
                Some(body),
                "{fenced}"
            );
        }
        for other in [
            body.to_owned(),
            format!("Here it is:\n```json\n{body}\n```"),
            format!("```json\n{body}\n```\nDone."),
            format!("```\n{body}\n```\n```\n{body}\n```"),
            format!("{{\"code\": \"```json {body}```\"}}"),
        ] {
            assert_eq!(sole_fence_body(&other), None, "{other}");
        }
    }

    fn texts(raw: &str) -> Vec<String> {
        candidates(raw).into_iter().map(|c| c.text).collect()
    }

    #[test]
    fn finds_fenced_wrapped_and_prose_json() {
        assert_eq!(
            texts("Sure!\n```json\n{\"a\": 1}\n```\nDone."),
            ["{\"a\": 1}", "Sure!\n\n{\"a\": 1}\n\nDone."]
        );
        assert_eq!(texts("```{\"a\":\"b\"}```"), ["{\"a\":\"b\"}"]);
        assert_eq!(
            texts("<tool_call>{\"name\": \"x\"}</tool_call>")[0],
            "{\"name\": \"x\"}"
        );
        assert_eq!(
            texts("Here: {\"a\": [1, 2]} and [3]"),
            ["{\"a\": [1, 2]}", "[3]", "Here: {\"a\": [1, 2]} and [3]"]
        );
        assert_eq!(texts("{\"a\": \"}\"} tail")[0], "{\"a\": \"}\"}");
        assert_eq!(texts("cut {\"a\": [1, 2")[0], "{\"a\": [1, 2");
    }

    #[test]
    fn skips_thinking() {
        let found = candidates("<think>maybe {\"a\": 0}</think>{\"a\": 1}");
        assert_eq!(found[0].text, "{\"a\": 1}");
        assert!(
            found[0]
                .fixes
                .iter()
                .any(|f| *f.kind() == FixKind::Thinking)
        );
    }

    #[test]
    fn brackets_in_single_quoted_strings_do_not_count() {
        assert_eq!(json_spans("{'a': '}'}"), ["{'a': '}'}"]);
        assert_eq!(
            json_spans("x {'a': ']', 'b': '{'} y"),
            ["{'a': ']', 'b': '{'}"]
        );
        // An apostrophe inside a single-quoted string, or an escaped quote, does not end it.
        assert_eq!(
            json_spans("{'a': 'it's }', 'b': 'x\\'}'} [1]"),
            ["{'a': 'it's }', 'b': 'x\\'}'}", "[1]"]
        );
        // Apostrophes in prose, in double-quoted strings, and inside a span but not
        // where a value starts.
        assert_eq!(
            json_spans("it's {\"a\": \"it's\"} and [Bob's list] ['x']"),
            ["{\"a\": \"it's\"}", "[Bob's list]", "['x']"]
        );
        // A quote that never ends was an apostrophe: the text after it is read again.
        assert_eq!(
            json_spans("[1, 'a] and {\"b\": 2}"),
            ["[1, 'a]", "{\"b\": 2}"]
        );
    }

    #[test]
    fn pathological_input_is_linear() {
        let text = "[".repeat(1_000_000);
        assert_eq!(json_spans(&text).len(), 1);
        // Single quotes that never end a string: read twice, not once per quote.
        let text = "['a".repeat(300_000);
        assert_eq!(json_spans(&text).len(), 1);
        let text = format!("[{}", "'x' ".repeat(300_000));
        assert_eq!(json_spans(&text).len(), 1);
        let text = format!("[{}]", "'a',".repeat(300_000));
        assert_eq!(json_spans(&text).len(), 1);
    }
}
