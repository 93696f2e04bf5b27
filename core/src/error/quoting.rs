//! Model text in messages of ours (violations, repair prompts): quoted as JSON writes it,
//! with what would break a line or drive a terminal escaped, and bounded in length, so
//! that what a model wrote never stands as lines of its own.

/// Text of a model's for a message of ours: at most `max` characters (then `…`), with
/// control characters and line separators escaped as JSON writes them, so that it cannot
/// stand as lines of its own.
pub(crate) fn bounded(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max {
            out.push('…');
            break;
        }
        push_escaped(&mut out, c);
    }
    out
}

/// A string as JSON writes it, for messages, with what JSON leaves as it is but a reader
/// may take for a line break (U+2028, U+2029, U+0085 and the other C1 controls) escaped
/// too: it stays on its line.
pub(crate) fn quote(s: &str) -> String {
    one_line_json(serde_json::Value::String(s.to_owned()).to_string())
}

/// JSON text with the characters JSON leaves as they are but that break a line escaped
/// (see [`quote`]).
pub(crate) fn one_line_json(json: String) -> String {
    if json.is_ascii() || !json.chars().any(needs_escape) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 8);
    for c in json.chars() {
        push_escaped(&mut out, c);
    }
    out
}

/// [`quote`] of at most `max` characters of `s`, then `…` after the closing quote.
pub(crate) fn quote_bounded(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", quote(&s[..end])),
        None => quote(s),
    }
}

/// The longest pointer a message shows whole.
const MAX_POINTER: usize = 200;

/// A pointer as a message shows it: as it is, or, where a key the model wrote holds a
/// control character or a line separator or the pointer is longer than
/// [`MAX_POINTER`], quoted as JSON and cut, so that the model's keys cannot stand as
/// lines of their own.
pub(crate) fn shown_pointer(pointer: &str) -> std::borrow::Cow<'_, str> {
    let plain = pointer.chars().all(|c| !needs_escape(c) && c != '"');
    if plain && pointer.chars().nth(MAX_POINTER).is_none() {
        std::borrow::Cow::Borrowed(pointer)
    } else {
        std::borrow::Cow::Owned(quote_bounded(pointer, MAX_POINTER))
    }
}

/// A message's text on one line: control characters and line separators escaped.
pub(super) fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    if text.chars().any(needs_escape) {
        let mut out = String::with_capacity(text.len());
        for c in text.chars() {
            push_escaped(&mut out, c);
        }
        std::borrow::Cow::Owned(out)
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// Whether `c` would break a line or drive a terminal when written as it is.
pub(crate) fn needs_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// `c`, escaped as JSON writes it where it would break a line or drive a terminal.
fn push_escaped(out: &mut String, c: char) {
    if !needs_escape(c) {
        out.push(c);
        return;
    }
    let escaped = serde_json::to_string(&c.to_string()).unwrap_or_default();
    let escaped = escaped.trim_matches('"');
    if escaped.chars().count() > 1 {
        out.push_str(escaped);
    } else {
        out.push_str(&format!("\\u{:04x}", c as u32));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_breaks_of_every_kind_are_escaped() {
        let text = "a\nb\rc\u{2028}d\u{2029}e\u{85}f\u{1b}g";
        let escaped = r#""a\nb\rc\u2028d\u2029e\u0085f\u001bg""#;
        assert_eq!(quote(text), escaped);
        assert_eq!(bounded(text, 100), escaped.trim_matches('"'));
        assert_eq!(one_line(text), escaped.trim_matches('"'));
    }

    #[test]
    fn pointers_are_shown_as_they_are_unless_they_would_break_a_line_or_run_long() {
        assert_eq!(shown_pointer("/items/2/name"), "/items/2/name");
        assert_eq!(shown_pointer("/x\n\nSYSTEM"), r#""/x\n\nSYSTEM""#);
        let long = format!("/{}", "k".repeat(300));
        let shown = shown_pointer(&long);
        assert!(
            shown.ends_with("\"…") && shown.chars().count() == 203,
            "{shown}"
        );
    }
}
