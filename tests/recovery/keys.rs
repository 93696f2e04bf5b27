//! Keys: in another case or with other separators, renamed; unknown and no near miss of any
//! field, dropped under `Coercion::Lenient` when everything else fits.

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use toolschema::{Coercion, Parser, Schema, ToolSchema};

use super::{read, read_at, refused, refused_at, root, text};

#[derive(ToolSchema, Debug, PartialEq, Clone)]
pub(crate) struct Meeting {
    start_date: String,
    end_date: Option<String>,
    room_name: String,
}

#[derive(ToolSchema, Debug, PartialEq, Clone)]
struct Employee {
    name: String,
    title: String,
    manager: Option<String>,
}

fn meeting(end: Option<&str>) -> Meeting {
    Meeting {
        start_date: "2025-06-14".into(),
        end_date: end.map(Into::into),
        room_name: "B2".into(),
    }
}

fn renamed(from: &str, to: &str) -> String {
    root(&format!("renamed the key {} to {}", json!(from), json!(to)))
}

// Keys in another case or with other separators.

#[test]
fn keys_in_another_case_or_with_other_separators_are_renamed() {
    let raw = r#"{"startDate": "2025-06-14", "Room Name": "B2", "END-DATE": "2025-06-15"}"#;
    assert_eq!(
        read::<Meeting>(raw),
        (
            meeting(Some("2025-06-15")),
            vec![
                renamed("startDate", "start_date"),
                renamed("Room Name", "room_name"),
                renamed("END-DATE", "end_date")
            ]
        )
    );
    // Where a key may still be one of the object's own: a run-time schema that leaves
    // other keys open renames a key for a required field that is absent only.
    let schema = Schema::from_json(json!({
        "type": "object",
        "properties": { "start_date": { "type": "string" }, "end_date": { "type": "string" } },
        "required": ["start_date"]
    }))
    .expect("the schema loads");
    let parsed = Parser::new()
        .parse_value(&schema, r#"{"startDate": "a", "endDate": "b"}"#)
        .expect("read");
    assert_eq!(parsed.value, json!({ "start_date": "a", "endDate": "b" }));
}

#[test]
fn keys_are_not_renamed_when_the_field_is_there_or_two_keys_name_it() {
    assert_eq!(
        read::<Meeting>(r#"{"start_date": "2025-06-14", "room_name": "B2"}"#),
        (meeting(None), Vec::<String>::new())
    );
    // The field is there: the other key is a near miss, reported as such.
    let violations = refused::<Meeting>(
        r#"{"start_date": "2025-06-14", "startDate": "2025-06-15", "room_name": "B2"}"#,
    );
    assert_eq!(violations.len(), 1);
    assert!(
        violations[0].starts_with("/startDate: unknown field"),
        "{violations:?}"
    );
    // Two keys for one field: which is meant is not known.
    refused::<Meeting>(
        r#"{"startDate": "2025-06-14", "StartDate": "2025-06-15", "room_name": "B2"}"#,
    );
    // An open object whose field is optional: the key may be one of its own.
    let schema = Schema::from_json(json!({
        "type": "object",
        "properties": { "start_date": { "type": "string" }, "n": { "type": "integer" } },
        "required": ["n"]
    }))
    .expect("the schema loads");
    let err = Parser::new()
        .parse_value(&schema, r#"{"startDate": "a", "n": "x"}"#)
        .expect_err("n is no integer");
    assert!(err.fixes().is_empty(), "{:?}", err.fixes());
    // Two fields that fold to the same name: neither is chosen.
    #[derive(ToolSchema, Debug)]
    struct Twins {
        start_date: Option<String>,
        #[serde(rename = "start-date")]
        start_date_too: Option<String>,
    }
    refused::<Twins>(r#"{"StartDate": "a"}"#);
}

/// A way of writing the words of a name: their case and what joins them.
fn written(words: &[&str], style: usize, separator: &str) -> String {
    let cased: Vec<String> = words
        .iter()
        .enumerate()
        .map(|(i, w)| match style {
            0 => w.to_uppercase(),
            1 => {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                    .unwrap_or_default()
            }
            // camelCase
            _ if i == 0 => (*w).to_owned(),
            _ => {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                    .unwrap_or_default()
            }
        })
        .collect();
    cased.join(separator)
}

proptest! {
    #[test]
    fn any_case_and_separators_of_a_field_name_are_read(
        style in 0usize..3,
        separators in prop::collection::vec(prop::sample::select(vec!["", "_", "-", " "]), 3),
    ) {
        let keys: Vec<String> = [["start", "date"], ["end", "date"], ["room", "name"]]
            .iter()
            .zip(&separators)
            .map(|(words, sep)| written(words, style, sep))
            .collect();
        let mut map = Map::new();
        for (key, value) in keys.iter().zip(["2025-06-14", "2025-06-15", "B2"]) {
            map.insert(key.clone(), json!(value));
        }
        let (value, fixes) = read::<Meeting>(&text(&Value::Object(map)));
        prop_assert_eq!(value, meeting(Some("2025-06-15")));
        let expected: Vec<String> = keys
            .iter()
            .zip(["start_date", "end_date", "room_name"])
            .filter(|(key, name)| key.as_str() != *name)
            .map(|(key, name)| renamed(key, name))
            .collect();
        prop_assert_eq!(fixes, expected);
    }
}

// Unknown keys.

const EMPLOYEE: &str = r#"{"name": "Ann", "title": "CTO", "manager": null"#;

fn ann() -> Employee {
    Employee {
        name: "Ann".into(),
        title: "CTO".into(),
        manager: None,
    }
}

#[test]
fn unknown_keys_are_dropped_when_lenient_and_everything_else_fits() {
    let raw = format!(r#"{EMPLOYEE}, "comment": "all fields filled in", "confidence": 0.9}}"#);
    assert_eq!(
        read_at::<Employee>(Coercion::Lenient, &raw),
        (
            ann(),
            vec![
                root(r#"dropped the unknown key "comment""#),
                root(r#"dropped the unknown key "confidence""#)
            ]
        )
    );
    // The default keeps them: a dropped key may hold what was meant for an optional field.
    assert_eq!(
        refused::<Employee>(&raw),
        [
            r#"/comment: unknown field; the allowed keys are "name", "title", "manager"; remove the others"#,
            r#"/confidence: unknown field; the allowed keys are "name", "title", "manager"; remove the others"#
        ]
    );
    // Inside a union: the extra key beside a call.
    #[derive(ToolSchema, Debug, PartialEq)]
    enum Step {
        #[tool]
        Hire(Employee),
        #[answer]
        Answer(String),
    }
    let raw = r#"{"name": "hire", "arguments": {"name": "Ann", "title": "CTO", "manager": null}, "reasoning": "asked to"}"#;
    assert_eq!(
        read_at::<Step>(Coercion::Lenient, raw),
        (
            Step::Hire(ann()),
            vec![root(r#"dropped the unknown key "reasoning""#)]
        )
    );
}

#[test]
fn unknown_keys_stay_where_they_are_near_misses_or_something_else_is_wrong() {
    // A near miss of a field: its value may be the one the model meant for it.
    let raw = r#"{"name": "Ann", "title": "CTO", "manger": "Bob"}"#;
    let violations = refused_at::<Employee>(Coercion::Lenient, raw);
    assert_eq!(violations.len(), 1);
    assert!(
        violations[0].starts_with(r#"/manger: unknown field; did you mean "manager"?"#),
        "{violations:?}"
    );
    // A near miss of a field that is there: two values for one field, one of them not
    // known to be the right one.
    let raw = format!(r#"{EMPLOYEE}, "titel": "CEO"}}"#);
    let violations = refused_at::<Employee>(Coercion::Lenient, &raw);
    assert_eq!(violations.len(), 1);
    assert!(
        violations[0].starts_with("/titel: unknown field"),
        "{violations:?}"
    );
    // Something else is wrong: the unknown key is reported with it.
    let raw = r#"{"name": true, "title": "CTO", "manager": null, "comment": "x"}"#;
    let violations = refused_at::<Employee>(Coercion::Lenient, raw);
    let pointers: Vec<&str> = violations
        .iter()
        .map(|v| v.split(':').next().unwrap_or_default())
        .collect();
    assert_eq!(pointers, ["/name", "/comment"]);
    // A map's keys and the keys of an open object are data, never dropped.
    let (map, fixes) =
        read_at::<BTreeMap<String, u8>>(Coercion::Lenient, r#"{"a": 1, "comment": 2}"#);
    assert_eq!(map.len(), 2);
    assert!(fixes.is_empty());
}

proptest! {
    #[test]
    fn an_unknown_key_is_dropped_when_lenient_or_reported_with_its_near_miss(
        key in "[a-zA-Z_]{1,12}",
        value in prop::sample::select(vec![json!(1), json!("x"), json!(null), json!([true])]),
    ) {
        prop_assume!(!["name", "title", "manager"].contains(&key.as_str()));
        let mut document = json!({ "name": "Ann", "title": "CTO", "manager": null });
        document[key.as_str()] = value;
        let raw = text(&document);
        let pointer = format!("/{key}: unknown field");
        let safe = refused::<Employee>(&raw);
        prop_assert!(safe.iter().all(|v| v.starts_with(&pointer)), "{:?}", safe);
        match Parser::new().coercion(Coercion::Lenient).parse::<Employee>(&raw) {
            Ok(parsed) => {
                prop_assert_eq!(parsed.value, ann());
                let fixes: Vec<String> = parsed.fixes.iter().map(ToString::to_string).collect();
                let dropped = root(&format!("dropped the unknown key {}", json!(key)));
                prop_assert_eq!(fixes, vec![dropped]);
            }
            Err(e) => {
                // Kept: a near miss of a field (`nmae`, `TE` for `title`), reported as at
                // the default level.
                let lenient: Vec<String> =
                    e.violations().iter().map(ToString::to_string).collect();
                prop_assert_eq!(lenient, safe);
            }
        }
    }
}
