//! The property every reading keeps: a valid document is read as it is, with no fix, at
//! every coercion level; and a document read without a fix is the document written.
//!
//! Documents come from the agreement test's generator, `toolschema_tests::values`: a third
//! built to be valid, the rest mutated where validators slip, for derived structs, enums,
//! a tool union and a run-time union of tools.

use std::collections::BTreeMap;

use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Value, json};
use toolschema::{Coercion, Parser, Schema, ToolSchema};

use super::envelopes::Step;
use super::shapes::{Basket, City, Invoice, Review, Tags};

/// Runs the properties on values generated for `schema`; returns how many were valid.
fn holds(name: &str, schema: &Schema, json_schema: &Value) -> usize {
    let cases = std::env::var("RECOVERY_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(600);
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let valid = std::cell::Cell::new(0);
    let result = runner.run(&toolschema_tests::values(json_schema), |value| {
        let raw = value.to_string();
        for level in [Coercion::Safe, Coercion::Lenient] {
            let parsed = Parser::new().coercion(level).parse_value(schema, &raw);
            if schema.is_valid(&value) {
                let parsed = parsed.map_err(|e| {
                    TestCaseError::fail(format!("{name}: valid {raw} refused at {level:?}: {e}"))
                })?;
                if parsed.value != value || !parsed.fixes.is_empty() {
                    return Err(TestCaseError::fail(format!(
                        "{name}: valid {raw} read at {level:?} as {} with {:?}",
                        parsed.value,
                        parsed
                            .fixes
                            .iter()
                            .map(ToString::to_string)
                            .collect::<Vec<_>>()
                    )));
                }
            } else if let Ok(parsed) = parsed
                && parsed.fixes.is_empty()
            {
                return Err(TestCaseError::fail(format!(
                    "{name}: invalid {raw} read at {level:?} as {} with no fix",
                    parsed.value
                )));
            }
        }
        if schema.is_valid(&value) {
            valid.set(valid.get() + 1);
        }
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
    valid.get()
}

fn derived<T: ToolSchema>(name: &str) {
    let schema = Schema::of::<T>();
    let valid = holds(name, &schema, &T::json_schema());
    // The generator builds a third valid: the property must have been tried on them.
    assert!(valid >= 100, "{name}: only {valid} valid documents");
}

#[test]
fn valid_documents_of_derived_types_are_read_as_they_are() {
    derived::<Tags>("Tags");
    derived::<Basket>("Basket");
    derived::<City>("City");
    derived::<Invoice>("Invoice");
    derived::<Review>("Review");
    derived::<Vec<Invoice>>("Vec<Invoice>");
    derived::<BTreeMap<String, City>>("BTreeMap<String, City>");
    derived::<super::keys::Meeting>("Meeting");
}

#[test]
fn valid_documents_of_a_tool_union_are_read_as_they_are() {
    derived::<Step>("Step");
}

#[test]
fn valid_documents_of_a_run_time_union_of_tools_are_read_as_they_are() {
    let json_schema = json!({
        "oneOf": [
            {
                "type": "object",
                "properties": {
                    "name": { "const": "turn_on" },
                    "arguments": {
                        "type": "object",
                        "properties": { "room": { "type": "string" }, "level": { "type": "integer" } },
                        "required": ["room"],
                        "additionalProperties": false
                    }
                },
                "required": ["name", "arguments"],
                "additionalProperties": false
            },
            {
                "type": "object",
                "properties": { "name": { "const": "status" }, "arguments": { "type": "object" } },
                "required": ["name", "arguments"],
                "additionalProperties": false
            },
            {
                "type": "object",
                "properties": { "answer": { "type": "string" } },
                "required": ["answer"],
                "additionalProperties": false
            }
        ]
    });
    let schema = Schema::from_json(json_schema.clone()).expect("the schema loads");
    let valid = holds("run-time union", &schema, &json_schema);
    assert!(valid >= 100, "only {valid} valid documents");
}

/// Runs `f` on its own thread and fails the test if it takes longer than the limit, which
/// only work growing faster than the reply could break.
fn within<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(f());
    });
    match receive.recv_timeout(std::time::Duration::from_secs(10)) {
        Ok(out) => out,
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            panic!("{what}: still running after 10 s")
        }
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => panic!("{what}: panicked"),
    }
}

#[test]
fn hostile_replies_are_read_or_refused_in_time_that_grows_with_them() {
    #[derive(ToolSchema, Debug)]
    struct Tree {
        label: String,
        children: Vec<Tree>,
    }
    // Wrapped 120 times: taken out once at most.
    let deep = format!(
        "{}{{\"label\": \"x\", \"children\": []}}{}",
        "{\"a\": ".repeat(120),
        "}".repeat(120)
    );
    let read = within("wrapped keys", move || {
        Parser::new()
            .coercion(Coercion::Lenient)
            .parse::<Tree>(&deep)
            .is_ok()
    });
    assert!(!read);
    // Envelopes inside envelopes: a few levels at most.
    let deep = format!(
        "{}{{\"name\": \"list_rooms\"}}{}",
        "{\"function\": ".repeat(120),
        "}".repeat(120)
    );
    assert!(!within("envelopes", move || Parser::new()
        .parse::<Step>(&deep)
        .is_ok()));
    // Many values, one per line or after a comma.
    let lines = "{\"item\": \"tea\", \"qty\": 2}\n".repeat(20_000);
    let count = within("lines", move || {
        Parser::new()
            .coercion(Coercion::Lenient)
            .parse::<Vec<super::shapes::Line>>(&lines)
            .map(|p| p.value.len())
    });
    assert_eq!(count.expect("read"), 20_000);
    let words = "\"x\", ".repeat(50_000);
    let count = within("values", move || {
        Parser::new()
            .coercion(Coercion::Lenient)
            .parse::<Vec<String>>(&words)
            .map(|p| p.value.len())
    });
    assert_eq!(count.expect("read"), 50_000);
    // A value followed by a book: no longer a value with a note.
    let long = format!("\"positive {}\"", "word ".repeat(200_000));
    let read = within("prose", move || {
        Parser::new()
            .parse::<super::shapes::Sentiment>(&long)
            .is_ok()
    });
    assert!(!read);
    // A schema that refers to itself through alternatives of one field each: a value is
    // put under a field once, not once per level.
    #[derive(ToolSchema, Debug, PartialEq)]
    #[serde(untagged)]
    enum Nest {
        Left { left: Box<Nest> },
        Right { right: Box<Nest> },
        Leaf { leaf: u32 },
    }
    let read = within("fields", || {
        ["\"x\"", "7", "[1, 2]", "{\"a\": {\"b\": 1}}"].map(|raw| {
            Parser::new()
                .coercion(Coercion::Lenient)
                .parse::<Nest>(raw)
                .map(|p| p.value)
                .ok()
        })
    });
    assert_eq!(read, [None, Some(Nest::Leaf { leaf: 7 }), None, None]);
    let (nested, fixes) = super::read::<Nest>(r#"{"left": 7}"#);
    assert_eq!(
        nested,
        Nest::Left {
            left: Box::new(Nest::Leaf { leaf: 7 })
        }
    );
    assert_eq!(
        fixes,
        [r#"/left: put the value under its one required key "leaf""#]
    );
    let deep = format!("{}\"x\"{}", "{\"left\": ".repeat(60), "}".repeat(60));
    let read = within("nested fields", move || {
        Parser::new().parse::<Nest>(&deep).is_ok()
    });
    assert!(!read);
    // Many keys, two of them renamed, the rest dropped.
    let keys: Vec<String> = (0..20_000).map(|i| format!("\"K{i}\": 1")).collect();
    let raw = format!(
        "{{{}, \"startDate\": \"a\", \"roomName\": \"b\"}}",
        keys.join(", ")
    );
    let fixes = within("keys", move || {
        Parser::new()
            .coercion(Coercion::Lenient)
            .parse::<super::keys::Meeting>(&raw)
            .map(|p| p.fixes.len())
    });
    assert_eq!(fixes.expect("read"), 20_002);
}
