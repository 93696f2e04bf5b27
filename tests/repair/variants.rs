//! Generated variants of the syntax and extraction classes (docs/recovery.md): documents
//! written with the damage of one class are read as the document, with that class's fix
//! reported; valid documents whose strings hold what the classes look for (quotes,
//! backslashes, fences, braces, `TRUE`, `1_000`) are read as they are, with no fix,
//! alone, in prose or in a fence; and hostile inputs take linear time.

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use toolschema::repair::{FixKind, repair};

use super::parsed;

/// Words of prose, none a literal or a number.
const WORD: &str = "[a-z]{1,7}";

fn words(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(WORD, 1..=max).prop_map(|w| w.join(" "))
}

/// Strings that hold what the repair looks at, as valid JSON writes them.
fn tricky() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(r"C:\Users\ann\new".to_owned()),
        Just(r"^\d{4}-\d{2}$ and \w+".to_owned()),
        Just("she said \"wait\", then \"go\": ok".to_owned()),
        Just("\"\"\"triple\"\"\" and '''single'''".to_owned()),
        Just("```json\n{\"a\": [1, 2]}\n```".to_owned()),
        Just("use {braces} and [brackets], \"x\": 1}".to_owned()),
        Just("TRUE Null 1_000 2. none".to_owned()),
        Just("line 1\nline 2\ttab".to_owned()),
        Just("ends with a backslash \\".to_owned()),
        Just("<think>not this</think> ~~~".to_owned()),
        words(4),
    ]
}

/// Objects and arrays whose strings are [`tricky`], keys too.
fn document() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(Value::from),
        tricky().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((tricky(), inner), 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
    .prop_map(|v| if v.is_object() { v } else { json!({ "v": v }) })
}

/// Prose around JSON: no brackets, quotes or fences.
const PROSE: &str = "[A-Za-z ,.:]{0,20}";

/// The fixes of repairing `text`, or why it failed.
fn repaired(text: &str) -> Result<(Value, Vec<FixKind>), TestCaseError> {
    let (value, fixes) =
        repair(text).map_err(|e| TestCaseError::fail(format!("{text:?} not repaired: {e}")))?;
    Ok((value, fixes.iter().map(|f| f.kind().clone()).collect()))
}

/// A flat object of `members`, written as JSON with `value` writing each member's value.
fn written(members: &[(String, Value)], value: impl Fn(&Value) -> String) -> String {
    let parts: Vec<String> = members
        .iter()
        .map(|(k, v)| format!("{}: {}", Value::String(k.clone()), value(v)))
        .collect();
    format!("{{{}}}", parts.join(", "))
}

fn object(members: &[(String, Value)]) -> Value {
    Value::Object(members.iter().cloned().collect::<Map<_, _>>())
}

/// Distinct keys with their values.
fn members(values: impl Strategy<Value = Value>) -> impl Strategy<Value = Vec<(String, Value)>> {
    prop::collection::btree_map("[a-z_]{1,8}", values, 1..5).prop_map(|m| m.into_iter().collect())
}

/// Prose with quoted words in it, the way a reply leaves them unescaped: a quoted word
/// followed by a word, a comma and a word, a period, or nothing; the first one also by a
/// colon and a word. (After a comma, words, a quoted word and a colon read as stray words
/// and a member: `"a "b", c "d": e"` has two readings.)
fn quoted_prose() -> impl Strategy<Value = String> {
    let after = |colon: bool| {
        prop_oneof![
            WORD.prop_map(|w| format!(" {w}")),
            WORD.prop_map(|w| format!(", {w}")),
            WORD.prop_map(move |w| format!("{} {w}", if colon { ":" } else { " and" })),
            Just(".".to_owned()),
            Just(String::new()),
        ]
    };
    let part = |colon: bool| {
        (words(3), WORD, after(colon))
            .prop_map(|(before, q, after)| format!("{before} \"{q}\"{after}"))
    };
    (part(true), prop::collection::vec(part(false), 0..2)).prop_map(|(first, rest)| {
        std::iter::once(first)
            .chain(rest)
            .collect::<Vec<_>>()
            .join(" ")
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn valid_documents_are_read_as_they_are_alone_in_prose_or_fenced(
        doc in document(),
        before in PROSE,
        after in PROSE,
        pretty in any::<bool>(),
    ) {
        let text = if pretty {
            serde_json::to_string_pretty(&doc).expect("JSON")
        } else {
            doc.to_string()
        };
        let (value, fixes) = repaired(&text)?;
        prop_assert_eq!(&value, &doc, "{}", text);
        prop_assert!(fixes.is_empty(), "{text}: {fixes:?}");
        prop_assert_eq!(parsed(&text), (doc.clone(), vec![]));
        // Around prose, or in a fence: the document, whatever its strings hold.
        for reply in [format!("{before} {text} {after}"), format!("{before}\n```json\n{text}\n```\n{after}")] {
            let (value, _) = parsed(&reply);
            prop_assert_eq!(&value, &doc, "{}", reply);
        }
    }

    #[test]
    fn unescaped_quotes_in_values_and_items_are_kept(
        members in members(quoted_prose().prop_map(Value::String)),
        in_array in any::<bool>(),
    ) {
        let raw = |v: &Value| format!("\"{}\"", v.as_str().unwrap_or_default());
        let (text, doc) = if in_array {
            let items: Vec<Value> = members.iter().map(|(_, v)| v.clone()).collect();
            let list: Vec<String> = items.iter().map(raw).collect();
            (format!("[{}]", list.join(", ")), Value::Array(items))
        } else {
            (written(&members, raw), object(&members))
        };
        let (value, fixes) = repaired(&text)?;
        prop_assert_eq!(&value, &doc, "{}", text);
        let quotes = text.matches('"').count() - 2 * members.len() * (1 + usize::from(!in_array));
        prop_assert_eq!(fixes, vec![FixKind::UnescapedQuote; quotes], "{}", text);
    }

    #[test]
    fn backslashes_that_start_no_escape_are_kept(
        segments in prop::collection::vec("[A-Za-z0-9 ._]{1,6}", 1..5),
        regex in prop::sample::select(vec![r"\d+", r"\w*", r"\.", r"\s", r"\$", r"\(x\)"]),
    ) {
        let path = format!("C:\\{}", segments.join("\\"));
        let text = format!(r#"{{"path": "{path}", "re": "{regex}", "n": 1}}"#);
        // Each backslash is kept, but before `b`, `f`, `n`, `r`, `t`, `/`, `u`: JSON escapes.
        prop_assume!(!segments.iter().any(|s| s.starts_with(['b', 'f', 'n', 'r', 't', 'u'])));
        let (value, fixes) = repaired(&text)?;
        prop_assert_eq!(value, json!({"path": path, "re": regex, "n": 1}), "{}", text);
        let kept = text.matches('\\').count();
        prop_assert_eq!(fixes, vec![FixKind::LiteralBackslash; kept], "{}", text);
    }

    #[test]
    fn raw_newlines_tabs_and_triple_quotes_are_read(
        members in members(prop::collection::vec(prop_oneof![WORD.boxed(), "[\n\t\"']".boxed()], 1..8)
            .prop_map(|p| Value::String(p.concat()))),
        triple in any::<bool>(),
    ) {
        let value = |v: &Value| {
            let s = v.as_str().unwrap_or_default();
            if triple { format!("\"\"\"{s}\"\"\"") } else { Value::String(s.to_owned()).to_string() }
        };
        // Raw: written as JSON, its `\n` and `\t` escapes made raw again.
        let text = written(&members, value);
        let text = if triple { text } else { text.replace("\\n", "\n").replace("\\t", "\t") };
        prop_assume!(!triple || members.iter().all(|(_, v)| !v.as_str().unwrap_or_default().contains("\"\"\"")));
        let (found, fixes) = repaired(&text)?;
        prop_assert_eq!(&found, &object(&members), "{}", text);
        let expected = if triple {
            vec![FixKind::TripleQuotes; members.len()]
        } else {
            vec![FixKind::ControlCharacter; text.matches(['\n', '\t']).count()]
        };
        prop_assert_eq!(fixes, expected, "{}", text);
    }

    #[test]
    fn unquoted_words_literals_and_numbers_are_read(
        members in members(prop_oneof![
            words(4).prop_map(Value::String),
            any::<Option<bool>>().prop_map(|b| b.map_or(Value::Null, Value::Bool)),
            (1_000i64..10_000_000).prop_map(Value::from),
        ]),
        quote_keys in any::<bool>(),
    ) {
        let mut expected = Vec::new();
        let mut parts = Vec::new();
        for (k, v) in &members {
            let (written, fix) = match v {
                Value::String(s) => (s.clone(), FixKind::UnquotedString),
                Value::Bool(true) => ("TRUE".to_owned(), FixKind::LiteralCase { literal: "TRUE" }),
                Value::Bool(false) => ("FALSE".to_owned(), FixKind::LiteralCase { literal: "FALSE" }),
                Value::Null => ("Null".to_owned(), FixKind::LiteralCase { literal: "Null" }),
                Value::Number(n) => {
                    let digits = n.to_string();
                    let mut grouped = String::new();
                    for (i, c) in digits.chars().enumerate() {
                        if i > 0 && (digits.len() - i) % 3 == 0 {
                            grouped.push('_');
                        }
                        grouped.push(c);
                    }
                    (grouped, FixKind::DigitSeparators)
                }
                _ => unreachable!("generated"),
            };
            if !quote_keys {
                expected.push(FixKind::UnquotedKey);
            }
            expected.push(fix);
            let key = if quote_keys { Value::String(k.clone()).to_string() } else { k.clone() };
            parts.push(format!("{key}: {written}"));
        }
        let text = format!("{{{}}}", parts.join(", "));
        let (value, fixes) = repaired(&text)?;
        prop_assert_eq!(&value, &object(&members), "{}", text);
        prop_assert_eq!(fixes, expected, "{}", text);
    }

    #[test]
    fn empty_values_are_dropped_and_stray_words_left_out(
        members in members(any::<i32>().prop_map(Value::from)),
        at in any::<prop::sample::Index>(),
        stray in words(2),
        empty in any::<bool>(),
    ) {
        let at = at.index(members.len());
        let mut parts = Vec::new();
        for (i, (k, v)) in members.iter().enumerate() {
            let key = Value::String(k.clone());
            parts.push(match (i == at, empty) {
                (true, true) => format!("{key}: "),
                (true, false) => format!("{stray} {key}: {v}"),
                _ => format!("{key}: {v}"),
            });
        }
        let text = format!("{{{}}}", parts.join(", "));
        let (value, fixes) = repaired(&text)?;
        let (mut doc, fix) = (object(&members), if empty {
            FixKind::MissingValue { key: members[at].0.clone() }
        } else {
            FixKind::StrayWords { words: stray }
        });
        if empty {
            doc.as_object_mut().map(|m| m.remove(&members[at].0));
        }
        prop_assert_eq!(&value, &doc, "{}", text);
        prop_assert_eq!(fixes, vec![fix], "{}", text);
    }
}

fn parsed_or_error(text: &str) -> Result<Value, toolschema::Error> {
    toolschema::parse::<Value>(text)
}

/// Inputs that make a look ahead or a second reading start again and again, each piece
/// repeated in one container: read to a value or an error, never a panic. How the time
/// grows with their size is measured by `cargo bench -p toolschema --bench parse --
/// hostile` (ratios 10x/1x and 100x/1x), never timed in a test.
#[test]
fn hostile_inputs_end_in_a_value_or_an_error() {
    // Each piece, repeated in one container, makes a look ahead or a second reading start
    // again and again.
    let pieces = [
        ("{", r#""a": "x", y "#),
        ("{", r#""a": "x", "b" c, "#),
        ("{", r#""a": "x "y", z "#),
        ("[", r#""x "a", "b" c, "#),
        ("[", r#""""a", "#),
        ("", "```json {\"a\": \"```\"} "),
        ("{", r#""a": "C:\x\", "#),
        ("{", r#""a": "b": "c", "#),
        ("{", "note also and "),
        ("[", "1_000_0, "),
        ("[", "''', "),
        ("", "<think>{\"a\": \""),
        // JSON quoted inside strings: each quote after an open brace looks ahead.
        ("{", r#""a": "x {"b": "c"} d", "#),
        ("[", r#""x {"a": "#),
        ("{", r#""a": "[[[[{"b", "#),
        // `#` after a quote on one long line: each looks along the line, bounded.
        ("{", r#""a": "x" # "y", "#),
        ("[", "#a #b, "),
        // Closing brackets too many: counted once.
        ("[", r#"{"a": 1}}, "#),
        ("{", r#""a": [1]], "#),
    ];
    for (open, piece) in pieces {
        let text = format!("{open}{}", piece.repeat(16_000));
        let _ = repair(&text);
        let _ = parsed_or_error(&text);
    }
}
