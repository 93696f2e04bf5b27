//! Coercion: the lossless changes that make a value fit its schema, each reported, and
//! the changes never made.

use serde_json::json;
use toolschema::{Coercion, Parser, ToolSchema, ViolationKind};

use super::{FixKind::*, at, listed, pointer, reply};

#[derive(ToolSchema, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Status {
    Open,
    InProgress,
    Done,
}

#[derive(ToolSchema, Debug, PartialEq)]
struct Task {
    title: String,
    points: u8,
    urgent: bool,
    status: Status,
    tags: Vec<String>,
}

const LOOSE_TASK: &str = r#"{"title": "Ship", "points": "3", "urgent": "true", "status": "In Progress", "tags": "release"}"#;

#[test]
fn safe_coercion_makes_lossless_changes_and_reports_each() {
    let parsed = Parser::new().parse::<Task>(LOOSE_TASK).expect("coerced");
    assert_eq!(
        parsed.value,
        Task {
            title: "Ship".into(),
            points: 3,
            urgent: true,
            status: Status::InProgress,
            tags: vec!["release".into()],
        }
    );
    let enum_case = EnumCase {
        from: "In Progress".into(),
        to: "in_progress".into(),
    };
    assert_eq!(
        listed(&parsed.fixes),
        [
            pointer(StringToNumber, "/points"),
            pointer(StringToBoolean, "/urgent"),
            pointer(enum_case, "/status"),
            pointer(WrappedInList, "/tags"),
        ]
    );
    // Safe is the default.
    assert_eq!(
        toolschema::parse::<Task>(LOOSE_TASK)
            .expect("coerced")
            .points,
        3
    );
}

#[test]
fn without_coercion_the_value_must_fit_as_written() {
    let err = Parser::new()
        .coercion(Coercion::None)
        .parse::<Task>(LOOSE_TASK)
        .expect_err("nothing is coerced");
    let pointers: Vec<&str> = err.violations().iter().map(|v| v.pointer()).collect();
    assert_eq!(pointers, ["/points", "/urgent", "/status", "/tags"]);
    assert_eq!(err.fixes(), []);
}

#[test]
fn coercion_never_rounds_or_guesses() {
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Count {
        n: u8,
    }
    let parse = |raw: &str| Parser::new().parse::<Count>(raw);
    assert_eq!(parse(r#"{"n": "42"}"#).expect("a number").value.n, 42);
    // 3.0 is the integer 3; 1.5 is not rounded, as a number or in a string.
    assert_eq!(parse(r#"{"n": "3.0"}"#).expect("an integer").value.n, 3);
    for (raw, found) in [
        (r#"{"n": 1.5}"#, "the number 1.5"),
        (r#"{"n": "1.5"}"#, r#"the string "1.5""#),
        (r#"{"n": "forty"}"#, r#"the string "forty""#),
    ] {
        let err = parse(raw).expect_err("not an integer");
        let expected = format!("/n: expected an integer, found {found}");
        assert_eq!(err.to_string(), expected, "{raw}");
    }
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Price {
        eur: f64,
    }
    let parsed = Parser::new()
        .parse::<Price>(r#"{"eur": "361474139.24914324"}"#)
        .expect("a number");
    assert_eq!(parsed.value.eur, 361474139.24914324);
    // A number read from a string is still checked against its range.
    let err = parse(r#"{"n": "300"}"#).expect_err("out of range");
    assert_eq!(err.to_string(), "/n: 300 is above the maximum of 255");
    assert_eq!(listed(err.fixes()), [pointer(StringToNumber, "/n")]);
}

/// An integer where text is expected is read as the digits the model wrote; a fraction
/// (whose digits the parse does not keep), a number where a number may go, a boolean, or
/// a value that then breaks another rule is not changed.
#[test]
fn numbers_are_read_as_text_where_text_is_expected() {
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Address {
        zip: String,
        note: Option<String>,
        floor: Option<i32>,
    }
    for (raw, zip) in [
        (r#"{"zip": 2134}"#, "2134"),
        (r#"{"zip": -7}"#, "-7"),
        (r#"{"zip": 18446744073709551615}"#, "18446744073709551615"),
    ] {
        let parsed = Parser::new().parse::<Address>(raw).expect("read as text");
        assert_eq!(parsed.value.zip, zip, "{raw}");
        assert_eq!(listed(&parsed.fixes), [pointer(NumberToString, "/zip")]);
    }
    // Valid as written: nothing changes.
    let parsed = Parser::new()
        .parse::<Address>(r#"{"zip": "02134", "note": null, "floor": 3}"#)
        .expect("valid");
    assert_eq!(parsed.value.floor, Some(3));
    assert_eq!(parsed.fixes, []);
    // `1.10` and `1e3` are read as 1.1 and 1000.0: their digits are gone, so a fraction
    // stays a violation.
    for (raw, found) in [(r#"{"zip": 1.10}"#, "1.1"), (r#"{"zip": 1e3}"#, "1000.0")] {
        let err = Parser::new().parse::<Address>(raw).expect_err("a fraction");
        let expected = format!("/zip: expected a string, found the number {found}");
        assert_eq!(err.to_string(), expected, "{raw}");
    }
    // A union that takes numbers: the number is judged as a number, not read as text to
    // fit the string alternative.
    let schema = toolschema::Schema::from_json(json!({
        "anyOf": [{"type": "integer", "minimum": 1}, {"type": "string"}]
    }))
    .expect("a schema");
    let err = Parser::new()
        .parse_value(&schema, "0")
        .expect_err("too small");
    assert!(
        err.to_string().contains("0 is below the minimum of 1"),
        "{err}"
    );
    // A boolean is not text for a string, and without coercion nothing is read.
    let err = Parser::new()
        .parse::<Address>(r#"{"zip": true}"#)
        .expect_err("a boolean");
    assert_eq!(
        err.to_string(),
        "/zip: expected a string, found the boolean true"
    );
    let err = Parser::new()
        .coercion(Coercion::None)
        .parse::<Address>(r#"{"zip": 2134}"#)
        .expect_err("as written");
    assert_eq!(
        err.to_string(),
        "/zip: expected a string, found the number 2134"
    );
    // In a union: a text answer, and a tool's text argument.
    let tools = toolschema::Toolset::from_openai_tools(&json!([{"type": "function", "function": {
        "name": "find", "description": "Finds a room.",
        "parameters": {"type": "object", "properties": {"room": {"type": "string"}}, "required": ["room"]}
    }}]))
    .expect("tools")
    .with_answer();
    let answer = tools.parse(r#"{"answer": 144}"#).expect("an answer");
    assert_eq!(answer, toolschema::Choice::Answer(json!("144")));
    let Ok(toolschema::Choice::Calls(calls)) =
        tools.parse(r#"{"name": "find", "arguments": {"room": 101}}"#)
    else {
        panic!("a call");
    };
    assert_eq!(calls[0].arguments(), &json!({"room": "101"}));
    // Read as text, the value still meets the string's own rules.
    #[derive(ToolSchema, Debug)]
    #[allow(dead_code)]
    struct Code {
        #[schema(pattern = "^[A-Z]{3}$")]
        code: String,
    }
    let err = Parser::new()
        .parse::<Code>(r#"{"code": 123}"#)
        .expect_err("not letters");
    assert!(
        err.to_string()
            .starts_with(r#"/code: "123" does not match the pattern ^[A-Z]{3}$"#),
        "{err}"
    );
}

#[test]
fn near_miss_keys_stay_violations_with_a_suggestion() {
    #[derive(ToolSchema, Debug)]
    struct Person {
        name: String,
        age: u8,
    }
    let err =
        toolschema::parse::<Person>(r#"{"nmae": "Ann", "age": 31}"#).expect_err("not renamed");
    let found: Vec<(&str, &ViolationKind, Option<&str>)> = err
        .violations()
        .iter()
        .map(|v| (v.pointer(), v.kind(), v.suggestion()))
        .collect();
    assert_eq!(
        found,
        [
            ("/nmae", &ViolationKind::UnknownField, Some("name")),
            ("/name", &ViolationKind::MissingField, None),
        ]
    );
}

#[test]
fn enum_values_match_ignoring_case_and_separators_only_when_unambiguous() {
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Ticket {
        status: Status,
    }
    let parsed = Parser::new()
        .parse::<Ticket>(r#"{"status": "DONE"}"#)
        .expect("matched");
    assert_eq!(parsed.value.status, Status::Done);
    let enum_case = EnumCase {
        from: "DONE".into(),
        to: "done".into(),
    };
    assert_eq!(listed(&parsed.fixes), [pointer(enum_case, "/status")]);
    let err = toolschema::parse::<Ticket>(r#"{"status": "finished"}"#).expect_err("no match");
    assert_eq!(
        err.to_string(),
        r#"/status: "finished" is not one of "open", "in_progress", "done""#
    );
    // Two allowed values that differ only in separators: no guess.
    let schema = toolschema::Schema::from_json(json!({"enum": ["in_progress", "in-progress"]}))
        .expect("a schema");
    assert_eq!(
        schema.parse("\"in_progress\"").expect("as written"),
        "in_progress"
    );
    let err = schema.parse("\"In Progress\"").expect_err("ambiguous");
    let not_allowed = ViolationKind::NotAllowed {
        found: r#""In Progress""#.into(),
        allowed: vec![r#""in_progress""#.into(), r#""in-progress""#.into()],
    };
    let found: Vec<_> = err
        .violations()
        .iter()
        .map(|v| (v.pointer(), v.kind()))
        .collect();
    assert_eq!(found, [("", &not_allowed)]);
}

#[test]
fn fixes_are_kept_on_the_error() {
    #[derive(ToolSchema, Debug)]
    struct Small {
        #[schema(range(max = 10))]
        n: u8,
    }
    let err = toolschema::parse::<Small>("```json\n{'n': 30,}\n```").expect_err("too big");
    assert_eq!(err.to_string(), "/n: 30 is above the maximum of 10");
    assert_eq!(
        listed(err.fixes()),
        [reply(CodeFence), at(SingleQuotes, 1), at(TrailingComma, 8),]
    );
}
