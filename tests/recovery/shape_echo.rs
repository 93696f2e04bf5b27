//! The shape sent back: asked for a value "in this shape", a small model writes the shape
//! in the prompt's notation back, with types where the values go (`{ answer: string }`,
//! `{ city: string, guests?: int }`). Local repair quotes bare words, so read as written
//! its types would pass for values: `{"answer": "string"}` for a union's answer, a call
//! for the city `"string"`. A candidate that writes a type as a bare word inside an
//! object or a list is the schema sent back (`SchemaEchoed`), not data; a quoted type word
//! is a value as written, and any other bare word is still read as the string it spells.

use proptest::prelude::*;
use serde_json::json;
use toolschema::{Parser, Schema, ToolSchema, Toolset, ViolationKind, render};

use super::shapes::City;

const ECHOED: &str =
    "(root): this is the schema sent back, not data; reply with a value that matches the schema";

/// The words of the types the compact notation writes.
const TYPES: &[&str] = &[
    "string", "number", "int", "integer", "boolean", "bool", "any", "object", "float", "unknown",
];

#[derive(ToolSchema, Debug, PartialEq)]
struct Booking {
    city: String,
    nights: u32,
    guests: Option<u8>,
    breakfast: bool,
}

/// Two tools and the answer, as a server hands them over.
fn hotels_or_answer() -> Toolset {
    Toolset::from_openai_tools(&json!([
        {"type": "function", "function": {
            "name": "travel.search_hotels",
            "description": "Hotels in a city.",
            "parameters": {"type": "object", "properties": {
                "city": {"type": "string"},
                "guests": {"type": "integer", "minimum": 1, "maximum": 8}
            }, "required": ["city"]}
        }},
        {"type": "function", "function": {
            "name": "travel.search_flights",
            "description": "Flights between two cities.",
            "parameters": {"type": "object", "properties": {
                "origin": {"type": "string"}, "destination": {"type": "string"}
            }, "required": ["origin", "destination"]}
        }}
    ]))
    .expect("the tools load")
    .with_answer()
}

/// The violations of a reply read against `schema`, one line each; panics if it is read.
#[track_caller]
fn refused_by(schema: &Schema, raw: &str) -> Vec<String> {
    match Parser::new().parse_value(schema, raw) {
        Ok(parsed) => panic!("{raw:?} was read as {}", parsed.value),
        Err(e) => e.violations().iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn the_shapes_the_prompts_show_are_refused_when_sent_back() {
    let tools = hotels_or_answer();
    let union = render::compact_schema(tools.schema());
    let booking = render::compact::<Booking>();
    for shape in [union.as_str(), booking.as_str()] {
        // As shown; without the comment lines of descriptions; on one line; in a fence.
        let bare: String = shape
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let one_line = bare.split_whitespace().collect::<Vec<_>>().join(" ");
        let fenced = format!("```json\n{bare}\n```");
        for echo in [shape, &bare, &one_line, &fenced] {
            let schema = if shape == union {
                tools.schema().clone()
            } else {
                Schema::of::<Booking>()
            };
            assert_eq!(refused_by(&schema, echo), [ECHOED], "{echo}");
        }
    }
}

#[test]
fn the_answer_of_a_union_written_as_its_type_is_not_an_answer() {
    let schema = hotels_or_answer().schema().clone();
    for echo in [
        "{ answer: string }",
        "| { answer: string }",
        "{answer: string}",
        "The reply: { answer: string }",
        r#"| { name: "travel_search_hotels", arguments: { city: string, guests?: int /* 1..=8 */, [key: string]: any, }, } | { answer: string }"#,
    ] {
        assert_eq!(refused_by(&schema, echo), [ECHOED], "{echo}");
    }
    // The word as a value, quoted, is the model's to write; a real answer beside an echo
    // is read.
    let quoted = Parser::new()
        .parse_value(&schema, r#"{"answer": "string"}"#)
        .expect("quoted");
    assert_eq!(quoted.value, json!({"answer": "string"}));
    let answered = Parser::new()
        .parse_value(
            &schema,
            r#"{ answer: string } Sorry: {"answer": "Bugsy Siegel's Flamingo opened in 1946."}"#,
        )
        .expect("the real answer");
    assert_eq!(
        answered.value["answer"],
        "Bugsy Siegel's Flamingo opened in 1946."
    );
}

#[test]
fn a_call_whose_arguments_are_types_is_refused_and_one_of_values_is_read() {
    let schema = hotels_or_answer().schema().clone();
    let echo = r#"{ name: "travel_search_hotels", arguments: { city: string, guests: int } }"#;
    assert_eq!(refused_by(&schema, echo), [ECHOED]);
    let call = r#"{ name: "travel_search_hotels", arguments: { city: Lisbon, guests: 2 } }"#;
    let read = Parser::new().parse_value(&schema, call).expect("a call");
    assert_eq!(
        read.value["arguments"],
        json!({"city": "Lisbon", "guests": 2})
    );
}

proptest! {
    /// A bare type word anywhere among an object's values sends the reply back; the same
    /// object with that word quoted is read as written.
    #[test]
    fn a_bare_type_word_is_an_echo_and_a_quoted_one_a_value(
        which in 0..TYPES.len(),
        country in prop::option::of("[A-Z][a-z]{2,10}"),
    ) {
        let word = TYPES[which];
        let country_part = country.as_ref().map(|c| format!(", country: \"{c}\"")).unwrap_or_default();
        let bare = format!("{{city: {word}{country_part}}}");
        let schema = Schema::of::<City>();
        prop_assert_eq!(refused_by(&schema, &bare), [ECHOED]);
        let quoted = format!("{{\"city\": \"{word}\"{}}}", country.as_ref().map(|c| format!(", \"country\": \"{c}\"")).unwrap_or_default());
        let read = Parser::new().parse::<City>(&quoted).expect("quoted");
        prop_assert!(read.fixes.is_empty());
    }

    /// Any other bare word is read as the string it spells, as before.
    #[test]
    fn any_other_bare_word_is_read_as_its_string(word in "[A-Za-z][a-z_]{1,12}") {
        prop_assume!(!TYPES.contains(&word.to_lowercase().as_str()));
        prop_assume!(!["true", "false", "null", "none", "nan", "infinity"].contains(&word.to_lowercase().as_str()));
        let parsed = Parser::new().parse_value(&Schema::of::<City>(), &format!("{{city: {word}}}"));
        let parsed = parsed.map_err(|e| TestCaseError::fail(format!("{word}: {e}")))?;
        prop_assert_eq!(&parsed.value["city"], &json!(word));
    }
}

#[test]
fn the_violation_is_the_schema_echo() {
    let err = Parser::new()
        .parse_value(&Schema::of::<City>(), "{ city: string, country?: string }")
        .expect_err("an echo");
    assert!(matches!(
        err.violations()[0].kind(),
        ViolationKind::SchemaEchoed
    ));
}
