//! One closing bracket too many (docs/recovery.md, "Extra closing brackets"): dropped where
//! the brackets of the reply do not balance, and only there; where they balance, a closing
//! bracket of the other kind closes the container as before.

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use toolschema::repair::{FixKind, repair};

use super::FixKind::*;
use super::{at, check, reads};

#[test]
fn an_extra_closing_bracket_is_dropped_where_the_brackets_do_not_balance() {
    let items = json!([{"a": 1}, {"a": 2}]);
    check(
        r#"[{"a": 1}},{"a": 2}]"#,
        items.clone(),
        &[at(ExtraClosingBracket, 9)],
    );
    check(
        r#"{"x": [{"a": 1}},{"a": 2}], "y": 1}"#,
        json!({"x": items, "y": 1}),
        &[at(ExtraClosingBracket, 15)],
    );
    reads(
        r#"[{"a": {"b": 1}}},{"a": 2}]"#,
        json!([{"a": {"b": 1}}, {"a": 2}]),
        &[ExtraClosingBracket],
    );
    reads(
        "[\n  {\"a\": 1}},\n  {\"a\": 2}},\n  {\"a\": 3}\n]",
        json!([{"a": 1}, {"a": 2}, {"a": 3}]),
        &[ExtraClosingBracket, ExtraClosingBracket],
    );
    reads(
        r#"{"a": [1, 2]], "b": 3}"#,
        json!({"a": [1, 2], "b": 3}),
        &[ExtraClosingBracket],
    );
    // The document's own closing bracket, with members after it.
    check(
        r#"{"a": {"b": 1}}, "c": 2}"#,
        json!({"a": {"b": 1}, "c": 2}),
        &[at(ExtraClosingBracket, 14)],
    );
    reads(
        r#"[[1, 2]], [3]]"#,
        json!([[1, 2], [3]]),
        &[ExtraClosingBracket],
    );
    // At the end, as before.
    check(
        r#"{"a": {"b": 1}}}"#,
        json!({"a": {"b": 1}}),
        &[at(ExtraClosingBracket, 15)],
    );
}

#[test]
fn a_closing_bracket_of_the_other_kind_closes_where_the_brackets_balance() {
    // `}` for `]`: one of each is short, the `}` stands for the `]`.
    reads(
        r#"[[1, 2}, [3]]"#,
        json!([[1, 2], [3]]),
        &[ClosedBrackets { count: 1 }],
    );
    reads(
        r#"{"a": [1, 2}, "b": 1}"#,
        json!({"a": [1, 2], "b": 1}),
        &[ClosedBrackets { count: 1 }],
    );
    // Brackets in strings are not counted.
    reads(
        r#"{"a": [1, 2}, "b": "}}"}"#,
        json!({"a": [1, 2], "b": "}}"}),
        &[ClosedBrackets { count: 1 }],
    );
    // Values one after another, their brackets balanced, stay several values.
    assert!(repair(r#"{"a": 1}, {"a": 2}"#).is_err());
    assert!(repair(r#"[1], [2]"#).is_err());
    // Before the end, the extra bracket may be there or at the end: the document's own
    // bracket closes it, and the one at the end is the extra one.
    reads(
        r#"{"a": {"b": 1}, "c": 2}}"#,
        json!({"a": {"b": 1}, "c": 2}),
        &[ExtraClosingBracket],
    );
}

/// An object item, written with one of its member lists closed twice if `twice`.
fn item(members: &[(String, Value)], twice: Option<usize>) -> String {
    let parts: Vec<String> = members
        .iter()
        .enumerate()
        .map(|(i, (k, v))| {
            let extra = if twice == Some(i) && v.is_array() {
                "]"
            } else {
                ""
            };
            format!("{}: {v}{extra}", Value::String(k.clone()))
        })
        .collect();
    format!("{{{}}}", parts.join(", "))
}

fn member_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i32>().prop_map(Value::from),
        prop::sample::select(vec!["x", "}", "]]", "a {b} [c]", "\"}\""]).prop_map(Value::from),
        prop::collection::vec(any::<u8>().prop_map(Value::from), 0..3).prop_map(Value::Array),
        prop::collection::vec(any::<bool>().prop_map(Value::Bool), 1..3)
            .prop_map(|v| json!({"in": v})),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn one_closing_bracket_too_many_in_a_list_of_objects_is_dropped(
        items in prop::collection::vec(
            prop::collection::btree_map("[a-z]{1,5}", member_value(), 1..4)
                .prop_map(|m| m.into_iter().collect::<Vec<_>>()),
            1..5,
        ),
        at in any::<prop::sample::Index>(),
        member in any::<prop::sample::Index>(),
        list_twice in any::<bool>(),
        wrapped in any::<bool>(),
        newlines in any::<bool>(),
    ) {
        let at = at.index(items.len());
        let member = member.index(items[at].len());
        // The item's `}` closed twice, or one of its member lists' `]` (if it is a list).
        let list_twice = list_twice && items[at][member].1.is_array();
        let written: Vec<String> = items
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let twice = (i == at && list_twice).then_some(member);
                let text = item(m, twice);
                if i == at && !list_twice { format!("{text}}}") } else { text }
            })
            .collect();
        let separator = if newlines { ",\n" } else { ", " };
        let list = format!("[{}]", written.join(separator));
        let value = Value::Array(
            items.iter().map(|m| Value::Object(m.iter().cloned().collect::<Map<_, _>>())).collect(),
        );
        let (text, doc) = if wrapped {
            (format!("{{\"items\": {list}, \"n\": 1}}"), json!({"items": value, "n": 1}))
        } else {
            (list, value)
        };
        let (found, fixes) = repair(&text).map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
        prop_assert_eq!(&found, &doc, "{}", text);
        let kinds: Vec<FixKind> = fixes.iter().map(|f| f.kind().clone()).collect();
        prop_assert_eq!(kinds, vec![ExtraClosingBracket], "{}", text);
    }

    #[test]
    fn valid_lists_of_objects_are_read_as_they_are(
        items in prop::collection::vec(
            prop::collection::btree_map("[a-z{}\\[\\]]{1,5}", member_value(), 0..4),
            0..5,
        ),
        pretty in any::<bool>(),
    ) {
        let doc = json!({"items": items, "n": [items.len()]});
        let text = if pretty { serde_json::to_string_pretty(&doc).expect("JSON") } else { doc.to_string() };
        let (found, fixes) = repair(&text).map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
        prop_assert_eq!(&found, &doc, "{}", text);
        prop_assert!(fixes.is_empty(), "{}: {:?}", text, fixes);
    }
}
