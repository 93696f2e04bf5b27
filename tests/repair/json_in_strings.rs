//! JSON quoted inside a string value with its quotes unescaped (docs/recovery.md,
//! "Unescaped quotes inside strings"): `"the answer is {"blank_1": "music"}, which is
//! wrong"` is one string, its inner quotes kept as characters; valid JSON whose strings
//! hold JSON text or brackets is read as it is.

use proptest::prelude::*;
use serde_json::{Value, json};
use toolschema::repair::{FixKind, repair};

use super::FixKind::*;
use super::reads;

/// The fixes of reading a document whose strings hold these many unescaped quotes.
fn quotes(n: usize) -> Vec<FixKind> {
    vec![UnescapedQuote; n]
}

#[test]
fn json_inside_a_string_value_is_the_strings_text() {
    let reason = r#"the answer is {"blank_1": "music"}, which is wrong"#;
    reads(
        &format!(r#"{{"reason": "{reason}", "score": 0}}"#),
        json!({"reason": reason, "score": 0}),
        &quotes(4),
    );
    // A list, several members, brackets nested, at the end of the string, at its start.
    for inner in [
        r#"got ["x", "y"] back"#,
        r#"got {"a": "b", "c": "d"} and more"#,
        r#"got {"a": {"b": "c"}} then {"d": ["e"]} too"#,
        r#"the answer is {"blank_1": "music"}"#,
        r#"{"a": "b"} is what I found"#,
        r#"["a", "b"]"#,
        r#"see {"a": "b"}: that"#,
        "pretty {\n  \"a\": \"b\"\n}\nthen more",
    ] {
        let n = inner.matches('"').count();
        for (text, value) in [
            (
                format!(r#"{{"reason": "{inner}", "score": 0}}"#),
                json!({"reason": inner, "score": 0}),
            ),
            (
                format!(r#"{{"score": 0, "reason": "{inner}"}}"#),
                json!({"score": 0, "reason": inner}),
            ),
            (format!(r#"["{inner}", 2]"#), json!([inner, 2])),
            (format!(r#"[1, "{inner}"]"#), json!([1, inner])),
        ] {
            let raw = text.matches('\n').count();
            let mut kinds = quotes(n);
            kinds.extend(vec![ControlCharacter; raw]);
            let (found, fixes) = repair(&text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            assert_eq!(found, value, "value of {text:?}");
            let mut found: Vec<FixKind> = fixes.iter().map(|f| f.kind().clone()).collect();
            found.sort_by_key(|k| *k != UnescapedQuote);
            assert_eq!(found, kinds, "fixes of {text:?}");
        }
    }
}

#[test]
fn a_quoted_word_inside_a_string_is_kept_as_before() {
    for inner in [
        r#"he said "hi" to me"#,
        r#"he said "hi", to me"#,
        r#"he said "hi": to me"#,
        r#"he said "hi" to "me" twice"#,
    ] {
        let n = inner.matches('"').count();
        reads(
            &format!(r#"{{"note": "{inner}", "n": 1}}"#),
            json!({"note": inner, "n": 1}),
            &quotes(n),
        );
        reads(
            &format!(r#"{{"note": "{inner}"}}"#),
            json!({"note": inner}),
            &quotes(n),
        );
    }
}

#[test]
fn a_string_that_holds_brackets_ends_where_the_document_goes_on() {
    // The brackets in the string do not close in it: its end quote is its end.
    for text in [
        r#"{"a": "{", "b": {"c": 1}}"#,
        r#"[{"a": "{"}, {"b": 1}]"#,
        r#"{"a": {"b": "[{"}, "c": "d e"}"#,
        r#"[{"a": "x {"}, true, "y"]"#,
        r#"{"a": "f() {", "b": "}"}"#,
        r#"[{"a": "[["}]"#,
    ] {
        let strict: Value = serde_json::from_str(text).expect("valid JSON");
        reads(text, strict, &[]);
    }
    // The inner JSON closes, and what follows it can follow a container's end: no
    // evidence that the string goes on, and the reading where it ends there leaves the
    // text after the object. Two guesses (an end quote missing, or a comma and a brace
    // too many), none taken.
    assert!(repair(r#"{"a": "x {"b": "c"}, "d": 1}"#).is_err());
}

/// Words of prose, none a literal or a number.
const WORD: &str = "[a-z]{1,7}";

fn words(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(WORD, 1..=max).prop_map(|w| w.join(" "))
}

/// Small JSON values, as a model quotes them inside its text.
fn inner_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        words(2).prop_map(Value::String),
        (0u32..1000).prop_map(Value::from),
        any::<bool>().prop_map(Value::Bool),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..3).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,6}", inner, 1..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
    .prop_filter("a container", |v| v.is_array() || v.is_object())
}

/// Text around the quoted JSON: nothing, words, or a comma and words.
fn around() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        words(3).prop_map(|w| format!(" {w}")),
        words(3).prop_map(|w| format!(", {w}")),
        words(3).prop_map(|w| format!(": {w}")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn quoted_json_in_values_and_items_is_kept(
        before in words(3),
        inner in inner_json(),
        after in around(),
        pretty in any::<bool>(),
        in_array in any::<bool>(),
        last in any::<bool>(),
    ) {
        let quoted = if pretty {
            serde_json::to_string_pretty(&inner).expect("JSON")
        } else {
            inner.to_string()
        };
        let s = format!("{before} {quoted}{after}");
        let raw = format!("\"{s}\"");
        let (text, doc) = match (in_array, last) {
            (true, true) => (format!("[1, {raw}]"), json!([1, s])),
            (true, false) => (format!("[{raw}, 1]"), json!([s, 1])),
            (false, true) => (format!("{{\"n\": 1, \"s\": {raw}}}"), json!({"n": 1, "s": s})),
            (false, false) => (format!("{{\"s\": {raw}, \"n\": 1}}"), json!({"s": s, "n": 1})),
        };
        let (value, fixes) = repair(&text).map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
        prop_assert_eq!(&value, &doc, "{}", text);
        let inner_quotes = quoted.matches('"').count();
        let kept = fixes.iter().filter(|f| *f.kind() == UnescapedQuote).count();
        prop_assert_eq!(kept, inner_quotes, "{}: {:?}", text, fixes);
        let others: Vec<_> = fixes
            .iter()
            .filter(|f| !matches!(f.kind(), UnescapedQuote | ControlCharacter))
            .collect();
        prop_assert!(others.is_empty(), "{}: {:?}", text, others);
    }

    #[test]
    fn valid_documents_whose_strings_hold_json_are_read_as_they_are(
        members in prop::collection::vec(
            ("[a-z_{}]{1,6}", prop_oneof![
                inner_json().prop_map(|v| Value::String(v.to_string())),
                inner_json(),
                prop::sample::select(vec!["{", "[", "x {", "[[", "{\"a\": [", "f() {", "}", "]"])
                    .prop_map(Value::from),
                words(2).prop_map(Value::String),
            ]),
            1..5,
        ),
        in_array in any::<bool>(),
        pretty in any::<bool>(),
    ) {
        let doc = if in_array {
            Value::Array(members.into_iter().map(|(_, v)| v).collect())
        } else {
            Value::Object(members.into_iter().collect())
        };
        let text = if pretty { serde_json::to_string_pretty(&doc).expect("JSON") } else { doc.to_string() };
        let (value, fixes) = repair(&text).map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
        prop_assert_eq!(&value, &doc, "{}", text);
        prop_assert!(fixes.is_empty(), "{}: {:?}", text, fixes);
    }
}
