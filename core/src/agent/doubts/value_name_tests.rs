//! A value or an answer written where a call's name goes: the reply calls none of the
//! union's functions when no tool takes any of its arguments, and the answer alone is
//! asked for at once; beside an argument of a tool it is that tool's call, misnamed.

use proptest::prelude::*;
use serde_json::{Map, Value, json};

use super::tests::{NONE, music};
use super::{Doubts, no_function_fits};

/// The doubts of a reply `raw` to the music union, rejected with no violation of its own.
fn doubts(raw: &str) -> Doubts {
    Doubts::of(&music(), raw, &crate::Error::new(Vec::new()))
}

#[test]
fn a_value_where_the_name_goes_with_arguments_no_tool_takes_calls_none() {
    for raw in [
        r#"{"name": "Jupiter", "arguments": {"moons": 95}}"#,
        r#"{"name": "BMI formula", "arguments": {"body weight in kilograms": 70, "age": 25}}"#,
        r#"{"name": "The Art of Cookery", "arguments": {"author": "Hannah Glasse"}}"#,
        r#"{"name": "Antonio Vivaldi", "arguments": {"era": "Baroque", "born": 1678}}"#,
        r#"{"name": "Chardonnay", "arguments": {"dish": "mushroom risotto"}}"#,
        r#"[{"name": "Danube", "arguments": {"city": "Budapest"}}, {"name": "Tisza", "arguments": {"length_km": 962}}]"#,
    ] {
        let d = doubts(raw);
        assert!(d.invented && d.missing, "{raw}: {d:?}");
        assert!(no_function_fits(NONE, d), "{raw}");
    }
}

#[test]
fn a_value_where_the_name_goes_beside_an_argument_of_a_tool_is_that_tools_call() {
    for raw in [
        r#"{"name": "Kind of Blue", "arguments": {"query": "Kind of Blue"}}"#,
        r#"{"name": "Living Room Speaker", "arguments": {"level": 30, "room": "living room"}}"#,
        r#"{"name": "Loud", "arguments": {"device": "kitchen"}}"#,
        // With no arguments it says nothing either way.
        r#"{"name": "Jupiter", "arguments": {}}"#,
        r#"{"name": "Jupiter"}"#,
        // One call of the union beside one of nothing: sent back, to keep the one.
        r#"[{"name": "music.play", "arguments": {"query": "Vivaldi"}}, {"name": "Four Seasons", "arguments": {"era": "Baroque"}}]"#,
    ] {
        let d = doubts(raw);
        assert!(!d.missing, "{raw}: {d:?}");
        assert!(!no_function_fits(NONE, d), "{raw}");
    }
}

/// Keys of arguments that none of the music union's tools takes.
fn other_key() -> impl Strategy<Value = String> {
    "[a-z][a-z_ ]{0,12}".prop_filter("not a tool's argument", |k| {
        !["level", "device", "query"].contains(&k.as_str())
    })
}

fn arguments(keys: Vec<String>) -> Value {
    let map: Map<String, Value> = keys.into_iter().map(|k| (k, json!(1))).collect();
    Value::Object(map)
}

proptest! {
    /// Whatever is written where the name goes, a call that passes an argument of one of
    /// the union's tools is never taken for a call of none of them; nor is an answer.
    #[test]
    fn never_fires_on_a_call_with_a_tools_argument_or_on_an_answer(
        name in "\\PC{0,30}",
        tool_key in prop::sample::select(vec!["level", "device", "query"]),
        others in prop::collection::vec(other_key(), 0..4),
        answer in "\\PC{0,40}",
    ) {
        let mut args = arguments(others);
        args[tool_key] = json!("x");
        let call = json!({"name": name, "arguments": args});
        prop_assert!(!doubts(&call.to_string()).missing, "{call}");
        let answer = json!({"answer": answer});
        prop_assert!(!doubts(&answer.to_string()).missing, "{answer}");
    }

    /// A call of one of the union's tools by its own name is never taken for a call of
    /// none, whatever its arguments.
    #[test]
    fn never_fires_on_a_tool_called_by_its_name(
        name in prop::sample::select(vec!["music.set_volume", "music_set_volume", "music.play"]),
        keys in prop::collection::vec(other_key(), 0..4),
    ) {
        let call = json!({"name": name, "arguments": arguments(keys)});
        prop_assert!(!doubts(&call.to_string()).missing, "{call}");
    }
}
