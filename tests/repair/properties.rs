//! Properties of the lenient parse over generated text: valid JSON is read as it is, a
//! reply cut off anywhere is closed and gains nothing, and damaged JSON or any text is
//! repaired or refused with a reason, never a panic.

use proptest::prelude::*;
use serde_json::Value;
use toolschema::repair::{Fix, FixKind, Location, repair};
use toolschema::{ToolSchema, ViolationKind};

use super::parsed;

/// Strings full of the characters repair heuristics look at.
const TEXT: &str = "[a-z \"\\\\,:\\[\\]{}()/*'#+.\\-\\n\\té😀<>`]{0,12}";

/// An array or an object of `items`.
fn container_of(items: BoxedStrategy<Value>) -> impl Strategy<Value = Value> {
    prop_oneof![
        prop::collection::vec(items.clone(), 0..6).prop_map(Value::Array),
        prop::collection::vec((TEXT, items), 0..6)
            .prop_map(|members| Value::Object(members.into_iter().collect())),
    ]
}

/// JSON values, nested a few levels.
fn json_value() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1e9f64..1e9).prop_map(Value::from),
        TEXT.prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 48, 6, container_of).boxed()
}

/// A JSON array or object.
fn container() -> impl Strategy<Value = Value> {
    container_of(json_value())
}

/// JSON equality with numbers compared by value: `2 == 2.0`.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// Whether `cut` is what a reply cut off inside `whole` may give: everything before the
/// cut as it was, the last value possibly shortened (a string to a prefix, a number to
/// fewer digits), and nothing that `whole` does not have.
fn cut_from(cut: &Value, whole: &Value) -> bool {
    match (cut, whole) {
        (Value::String(c), Value::String(w)) => w.starts_with(c.as_str()),
        (Value::Number(_), Value::Number(_)) => true,
        (Value::Array(c), Value::Array(w)) => match c.split_last() {
            None => true,
            Some((last, before)) => {
                c.len() <= w.len()
                    && before.iter().zip(w).all(|(a, b)| same(a, b))
                    && cut_from(last, &w[before.len()])
            }
        },
        (Value::Object(c), Value::Object(w)) => {
            c.len() <= w.len()
                && c.iter()
                    .zip(w)
                    .enumerate()
                    .all(|(i, ((ck, cv), (wk, wv)))| {
                        ck == wk
                            && if i + 1 == c.len() {
                                cut_from(cv, wv)
                            } else {
                                same(cv, wv)
                            }
                    })
        }
        _ => cut == whole,
    }
}

/// The content of the string the text ends in, if it ends inside one (`text` is a prefix
/// of valid JSON).
fn open_string(text: &str) -> Option<&str> {
    let (mut start, mut inside, mut escaped) = (None, false, false);
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if inside => escaped = true,
            '"' => {
                inside = !inside;
                start = Some(i + 1);
            }
            _ => {}
        }
    }
    inside.then(|| &text[start.unwrap_or(0)..])
}

/// Every fix offset is a place in the text.
fn offsets_in(text: &str, fixes: &[Fix]) -> bool {
    fixes.iter().all(|f| match f.location() {
        Location::Offset(o) => *o <= text.len() && text.is_char_boundary(*o),
        _ => false,
    })
}

/// The checks every input must pass, whatever it is: the repairer's fixes point into the
/// text, its errors at a line of it, and the parse answers with a value or a reason.
fn handles(text: &str) -> Result<(), TestCaseError> {
    match repair(text) {
        Ok((_, fixes)) => prop_assert!(offsets_in(text, &fixes), "{fixes:?}"),
        Err(e) => {
            let lines = text.split('\n').count();
            prop_assert!(
                matches!(e.violations(), [v] if matches!(v.kind(),
                    ViolationKind::Syntax { line, column, .. } if *line <= lines && *column >= 1)),
                "{e:?}"
            );
        }
    }
    if let Err(e) = toolschema::parse::<Value>(text) {
        prop_assert!(!e.to_string().is_empty());
    }
    #[derive(ToolSchema, Debug)]
    struct Typed {
        name: String,
        n: Option<u8>,
        tags: Vec<String>,
    }
    if let Err(e) = toolschema::parse::<Typed>(text) {
        prop_assert!(!e.violations().is_empty());
    }
    Ok(())
}

/// Small edits of JSON text: the kinds of damage model replies have.
fn mutated() -> impl Strategy<Value = String> {
    let tokens = prop::sample::select(vec![
        "\"", "'", ",", ":", "[", "]", "{", "}", "\\", "//", "/*", "*/", "\n", "...", "+", "True",
        "“", "```", "<think>", "<json>", "#", " ", "-", ".", "e", "\u{0}", "(", ")", "tr",
    ]);
    let edit = (0..3u8, any::<prop::sample::Index>(), tokens);
    (json_value(), prop::collection::vec(edit, 1..5)).prop_map(|(value, edits)| {
        let mut text = value.to_string();
        for (op, at, token) in edits {
            let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
            let i = if bounds.is_empty() {
                0
            } else {
                bounds[at.index(bounds.len())]
            };
            match op {
                0 => text.insert_str(i, token),
                1 if i < text.len() => {
                    let c = text[i..].chars().next().map_or(0, char::len_utf8);
                    text.replace_range(i..i + c, "");
                }
                _ => text.truncate(i),
            }
        }
        text
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn valid_json_is_read_as_it_is(value in json_value()) {
        for text in [value.to_string(), serde_json::to_string_pretty(&value).expect("JSON")] {
            let (repaired, fixes) = repair(&text).expect("valid JSON");
            prop_assert!(same(&repaired, &value), "{text} gave {repaired}");
            prop_assert!(fixes.is_empty(), "{text}: {fixes:?}");
            let (parsed, fixes) = parsed(&text);
            prop_assert!(same(&parsed, &value) && fixes.is_empty(), "{text} gave {parsed}");
        }
    }

    #[test]
    fn a_cut_off_reply_is_closed_and_gains_nothing(
        value in container(),
        cut in any::<prop::sample::Index>(),
    ) {
        let text = value.to_string();
        let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).skip(1).collect();
        let end = bounds[cut.index(bounds.len())];
        let prefix = &text[..end];
        // Cut right after a `]` or `}` inside a string reads as a string missing its end
        // quote (`["hello, world]`): the one place where the reply's own text is read as
        // structure, so it may be refused or split. Everywhere else the reply is closed
        // and nothing is invented.
        if open_string(prefix).is_some_and(|s| s.trim_end().ends_with([']', '}'])) {
            return handles(prefix);
        }
        let (repaired, fixes) = repair(prefix).expect("a cut-off container is closed");
        prop_assert!(
            fixes.iter().any(|f| matches!(f.kind(), FixKind::ClosedBrackets { .. })),
            "{prefix}: {fixes:?}"
        );
        prop_assert!(cut_from(&repaired, &value), "{prefix} gave {repaired}, from {value}");
    }

    #[test]
    fn damaged_json_is_repaired_or_refused_with_a_reason(text in mutated()) {
        handles(&text)?;
    }

    #[test]
    fn any_text_is_repaired_or_refused_with_a_reason(text in any::<String>()) {
        handles(&text)?;
    }

    #[test]
    fn json_like_text_is_repaired_or_refused_with_a_reason(
        text in "[\\[\\]{}\"'“”,:0-9a-zA-Z \\n\\\\/*#+.\\-`<>~_]{0,48}",
    ) {
        handles(&text)?;
    }
}
