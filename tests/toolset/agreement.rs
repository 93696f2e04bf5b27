//! A call is accepted exactly when the `jsonschema` crate accepts its arguments.

use super::*;

/// Tool schemas of the kinds servers list, each checked by the `jsonschema` crate too.
fn schemas() -> Vec<Value> {
    vec![
        json!({
            "type": "object",
            "properties": {
                "name": { "type": "string", "minLength": 1, "maxLength": 12 },
                "domain": { "type": "array", "items": { "enum": ["light", "fan"] }, "uniqueItems": true },
                "brightness": { "type": "integer", "minimum": 0, "maximum": 100 }
            },
            "required": ["name"],
            "additionalProperties": false
        }),
        json!({
            "type": "object",
            "properties": {
                "query": { "type": "string", "pattern": "^[a-z ]+$" },
                // Bounded: past 2^53 the two read a float's `multipleOf` differently (toolschema
                // as the decimal the JSON text wrote, the crate as the binary value).
                "limit": { "type": ["integer", "null"], "exclusiveMinimum": 0, "maximum": 1000, "multipleOf": 5 },
                "filters": {
                    "type": "object",
                    "properties": { "lang": { "const": "en" } },
                    "additionalProperties": { "type": "boolean" }
                }
            },
            "required": ["query", "filters"]
        }),
        json!({
            "$defs": { "point": { "type": "object", "properties": { "x": { "type": "number" }, "y": { "type": "number" } }, "required": ["x", "y"] } },
            "type": "object",
            "properties": {
                "path": { "type": "array", "items": { "$ref": "#/$defs/point" }, "minItems": 2 },
                "shape": { "oneOf": [ { "const": "line" }, { "type": "object", "properties": { "radius": { "type": "number" } }, "required": ["radius"] } ] }
            },
            "required": ["path"]
        }),
    ]
}

/// For values generated from each tool's schema (a third meant to be valid, the rest
/// mutated where validators slip), the set accepts a call exactly when the `jsonschema`
/// crate accepts its arguments.
#[test]
fn a_call_is_accepted_exactly_when_jsonschema_accepts_its_arguments() {
    let schemas = schemas();
    let mut tools = Toolset::new();
    for (i, schema) in schemas.iter().enumerate() {
        tools = tools
            .tool(&format!("tool.{i}"), "", schema.clone())
            .unwrap();
    }
    for (i, schema) in schemas.iter().enumerate() {
        let theirs = jsonschema::validator_for(schema).unwrap();
        let name = tools.model_name(&format!("tool.{i}")).unwrap().to_owned();
        let config = proptest::test_runner::Config {
            cases: 400,
            failure_persistence: None,
            ..Default::default()
        };
        let mut runner = proptest::test_runner::TestRunner::new(config);
        let (accepted, rejected) = (std::cell::Cell::new(0), std::cell::Cell::new(0));
        let result = runner.run(&toolschema_tests::values(schema), |arguments| {
            let expected = theirs.is_valid(&arguments);
            let call = json!({ "name": name, "arguments": arguments });
            let ours = tools.choose(vec![call.clone()]);
            prop_assert_eq!(
                ours.is_ok(),
                expected,
                "tool {}: {} {:?}",
                i,
                arguments,
                ours.err()
            );
            // The lenient parse of the same call as text agrees on valid calls.
            if expected {
                prop_assert!(tools.parse(&call.to_string()).is_ok(), "{}", call);
                accepted.set(accepted.get() + 1);
            } else {
                rejected.set(rejected.get() + 1);
            }
            Ok(())
        });
        if let Err(failure) = result {
            panic!("{failure}");
        }
        let (accepted, rejected) = (accepted.get(), rejected.get());
        assert!(
            accepted > 40 && rejected > 40,
            "tool {i}: {accepted} accepted, {rejected} rejected"
        );
    }
}
