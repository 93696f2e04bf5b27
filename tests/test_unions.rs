//! Untagged unions nested deep: two alternatives that both recurse into the same key, with
//! nothing to tell them apart up front, must be checked, coerced and parsed in time that
//! grows with the document, not doubles per level, and say exactly what is wrong.
//!
//! The work itself is counted by unit tests inside the core crate (`validate::alternatives`
//! and `coerce`); here the public routes are held to their answers, and to a time limit so
//! generous that only the doubling could break it: 2^30 tries take days.

use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};
use toolschema::{Parser, Schema, ToolSchema};

const DEPTH: usize = 30;

/// Runs `f` on its own thread and fails the test if it takes longer than the limit.
fn within<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(f());
    });
    match receive.recv_timeout(Duration::from_secs(10)) {
        Ok(out) => out,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{what}: still running after 10 s"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{what}: panicked"),
    }
}

#[derive(ToolSchema, Debug, PartialEq)]
#[serde(untagged)]
enum Chain {
    Left { next: Box<Chain>, left: bool },
    Right { next: Box<Chain>, right: bool },
    Leaf { value: u32 },
}

/// The run-time twin of `Chain`.
fn runtime_schema() -> Schema {
    let step = |flag: &str| {
        json!({
            "type": "object",
            "properties": { "next": { "$ref": "#/$defs/chain" }, flag: { "type": "boolean" } },
            "required": ["next", flag],
            "additionalProperties": false
        })
    };
    let leaf = json!({
        "type": "object",
        "properties": { "value": { "type": "integer", "minimum": 0 } },
        "required": ["value"],
        "additionalProperties": false
    });
    Schema::from_json(json!({
        "$defs": { "chain": { "anyOf": [step("left"), step("right"), leaf] } },
        "$ref": "#/$defs/chain"
    }))
    .expect("the schema loads")
}

/// `depth` levels of `{"next": …, "right": true}` around `{"value": leaf}`. `next` comes
/// first, so `Left` checks all of it before it meets `right` and fails.
fn document(depth: usize, leaf: Value) -> Value {
    let mut value = json!({ "value": leaf });
    for _ in 0..depth {
        value = json!({ "next": value, "right": true });
    }
    value
}

fn leaf_pointer(depth: usize) -> String {
    format!("{}/value", "/next".repeat(depth))
}

fn chain(depth: usize, value: u32) -> Chain {
    let mut chain = Chain::Leaf { value };
    for _ in 0..depth {
        chain = Chain::Right {
            next: Box::new(chain),
            right: true,
        };
    }
    chain
}

/// Pointer and kind of each violation, the kind as its `Debug` form.
fn violations(err: &toolschema::Error) -> Vec<(String, String)> {
    err.violations()
        .iter()
        .map(|v| (v.pointer().to_owned(), format!("{:?}", v.kind())))
        .collect()
}

/// What every route reports for the leaf `-1`: the minimum of the one alternative that
/// fits everywhere else, at the leaf.
fn below_minimum(depth: usize) -> Vec<(String, String)> {
    let kind = r#"OutOfRange { found: "-1", bound: Minimum("0") }"#;
    vec![(leaf_pointer(depth), kind.to_owned())]
}

#[test]
fn runtime_union_30_deep_is_checked_exactly() {
    let (valid, invalid, schema) = within("validate", || {
        let schema = runtime_schema();
        let valid = schema
            .validate(&document(DEPTH, json!(1)))
            .map_err(|e| e.to_string());
        let invalid = schema
            .validate(&document(DEPTH, json!(-1)))
            .expect_err("invalid");
        (valid, invalid, schema)
    });
    assert_eq!(valid, Ok(()));
    assert_eq!(violations(&invalid), below_minimum(DEPTH));
    let verdicts = within("is_valid", move || {
        [json!(1), json!(-1)].map(|leaf| schema.is_valid(&document(DEPTH, leaf)))
    });
    assert_eq!(verdicts, [true, false]);
}

#[test]
fn runtime_union_30_deep_parses_and_coerces_at_the_leaf() {
    let (coerced, invalid) = within("parse_value", || {
        let schema = runtime_schema();
        let parser = Parser::new();
        let coerced = parser.parse_value(&schema, &document(DEPTH, json!("7")).to_string());
        let invalid = parser.parse_value(&schema, &document(DEPTH, json!(-1)).to_string());
        (coerced, invalid)
    });
    let coerced = coerced.expect("the string at the leaf is read as its number");
    assert_eq!(coerced.value, document(DEPTH, json!(7)));
    let fixes: Vec<String> = coerced.fixes.iter().map(ToString::to_string).collect();
    assert_eq!(
        fixes,
        [format!(
            "{}: read a string holding a number as the number",
            leaf_pointer(DEPTH)
        )]
    );
    assert_eq!(
        violations(&invalid.expect_err("invalid")),
        below_minimum(DEPTH)
    );
}

#[test]
fn derived_untagged_enum_30_deep_is_checked_exactly() {
    let (valid, invalid, verdicts) = within("validate", || {
        let schema = Schema::of::<Chain>();
        let valid = schema
            .validate(&document(DEPTH, json!(1)))
            .map_err(|e| e.to_string());
        let invalid = schema
            .validate(&document(DEPTH, json!(-1)))
            .expect_err("invalid");
        let verdicts = [json!(1), json!(-1)].map(|leaf| schema.is_valid(&document(DEPTH, leaf)));
        (valid, invalid, verdicts)
    });
    assert_eq!(valid, Ok(()));
    assert_eq!(violations(&invalid), below_minimum(DEPTH));
    assert_eq!(verdicts, [true, false]);
}

#[test]
fn derived_untagged_enum_30_deep_parses() {
    let (coerced, invalid) = within("parse", || {
        let coerced = Parser::new().parse::<Chain>(&document(DEPTH, json!("7")).to_string());
        let invalid = toolschema::parse::<Chain>(&document(DEPTH, json!(-1)).to_string());
        (coerced, invalid)
    });
    let coerced = coerced.expect("the string at the leaf is read as its number");
    assert_eq!(coerced.value, chain(DEPTH, 7));
    assert_eq!(coerced.fixes.len(), 1);
    assert_eq!(
        coerced.fixes[0].to_string(),
        format!(
            "{}: read a string holding a number as the number",
            leaf_pointer(DEPTH)
        )
    );
    assert_eq!(
        violations(&invalid.expect_err("invalid")),
        below_minimum(DEPTH)
    );
}
