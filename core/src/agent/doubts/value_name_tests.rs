//! A value or an answer written where a call's name goes, to a request that asks to know
//! something: the reply calls none of the union's functions when none of its arguments is
//! one a tool declares, and the answer alone is asked for at once. Beside an argument of a
//! tool it is that tool's call, misnamed; to a command, or with no arguments, it is a slip
//! sent back as any other.

use proptest::prelude::*;
use serde_json::{Map, Value, json};

use super::tests::{NONE, music, question, union_of};
use super::{Doubts, no_function_fits};
use crate::agent::request::Target;

const QUESTIONS: [&str; 3] = [
    "Which planet has the most moons?",
    "Who composed The Four Seasons?",
    "What does the abbreviation ETF stand for?",
];
const COMMANDS: [&str; 3] = [
    "Play The Four Seasons.",
    "Turn it up a bit",
    "Can you put on something by Vivaldi?",
];

/// The doubts of a reply `raw` to `target` asked `request`, rejected with no violation of
/// its own.
fn doubts_to(target: &Target, request: &str, raw: &str) -> Doubts {
    let ask = question(target, request);
    Doubts::of(target, &ask, raw, &crate::Error::new(Vec::new()))
}

/// Replies with an answer or a value where the name goes, beside arguments no tool of
/// [`music`] declares.
const CALLING_NONE: [&str; 6] = [
    r#"{"name": "Jupiter", "arguments": {"moons": 95}}"#,
    r#"{"name": "BMI formula", "arguments": {"body weight in kilograms": 70, "age": 25}}"#,
    r#"{"name": "The Art of Cookery", "arguments": {"author": "Hannah Glasse"}}"#,
    r#"{"name": "Antonio Vivaldi", "arguments": {"era": "Baroque", "born": 1678}}"#,
    r#"{"name": "Exchange-Traded Fund", "arguments": {"abbreviation": "ETF"}}"#,
    r#"[{"name": "Danube", "arguments": {"city": "Budapest"}}, {"name": "Tisza", "arguments": {"length_km": 962}}]"#,
];

#[test]
fn to_a_question_a_value_as_the_name_beside_arguments_no_tool_declares_calls_none() {
    let target = music();
    for request in QUESTIONS {
        for raw in CALLING_NONE {
            let d = doubts_to(&target, request, raw);
            assert!(d.invented && d.missing, "{request} {raw}: {d:?}");
            assert!(no_function_fits(NONE, d), "{request} {raw}");
        }
    }
}

#[test]
fn to_a_command_the_same_reply_is_a_slip() {
    let target = music();
    for request in COMMANDS {
        for raw in CALLING_NONE {
            let d = doubts_to(&target, request, raw);
            assert!(d.invented && !d.missing, "{request} {raw}: {d:?}");
            assert!(!no_function_fits(NONE, d), "{request} {raw}");
        }
    }
}

#[test]
fn beside_an_argument_of_a_tool_or_with_none_it_is_a_slip() {
    let target = music();
    for raw in [
        r#"{"name": "Kind of Blue", "arguments": {"query": "Kind of Blue"}}"#,
        r#"{"name": "Living Room Speaker", "arguments": {"Level": 30, "room": "living room"}}"#,
        r#"{"name": "Loud", "arguments": {"DEVICE": "kitchen"}}"#,
        r#"{"name": "Jupiter", "arguments": {}}"#,
        r#"{"name": "Jupiter"}"#,
        // One call of the union beside one of nothing: sent back, to keep the one.
        r#"[{"name": "music.play", "arguments": {"query": "Vivaldi"}}, {"name": "Four Seasons", "arguments": {"era": "Baroque"}}]"#,
    ] {
        let d = doubts_to(&target, QUESTIONS[0], raw);
        assert!(!d.missing, "{raw}: {d:?}");
        assert!(!no_function_fits(NONE, d), "{raw}");
    }
}

/// A playlist tool whose arguments stand behind a `$ref` with a sibling, and a tool
/// that declares no arguments at all.
fn referenced_and_open() -> (Target, Target) {
    let playlist = json!({"type": "function", "function": {
        "name": "music.create_playlist",
        "parameters": {
            "$ref": "#/$defs/Playlist",
            "description": "The playlist to create.",
            "$defs": {"Playlist": {"type": "object", "properties": {
                "title": {"type": "string"},
                "tracks": {"type": "array", "items": {"type": "string"}}
            }, "required": ["title", "tracks"]}}
        }
    }});
    let open = json!({"type": "function", "function": {
        "name": "home.call_service",
        "parameters": {"type": "object"}
    }});
    (
        union_of(json!([playlist.clone()])),
        union_of(json!([playlist, open])),
    )
}

#[test]
fn arguments_are_read_behind_references_and_an_open_tool_takes_any() {
    let (referenced, with_open) = referenced_and_open();
    let request = "What should I call my road trip playlist?";
    let tracks = r#"{"name": "Road Trip", "arguments": {"tracks": ["Holiday"]}}"#;
    assert!(!doubts_to(&referenced, request, tracks).missing);
    let none = r#"{"name": "Road Trip", "arguments": {"mood": "sunny"}}"#;
    assert!(doubts_to(&referenced, request, none).missing);
    // Beside a tool that may take any key, no argument is no tool's.
    assert!(!doubts_to(&with_open, request, none).missing);
}

/// A name not written as functions are: words with a capital and a space.
fn value_name() -> impl Strategy<Value = String> {
    "[A-Z][a-z]{1,8}( [A-Za-z]{1,8}){1,3}"
}

/// Keys of arguments that none of the music union's tools declares.
fn other_key() -> impl Strategy<Value = String> {
    "[a-z][a-z_ ]{0,12}".prop_filter("not a tool's argument", |k| {
        !["level", "device", "query"].contains(&k.replace([' ', '_'], "").as_str())
    })
}

/// An argument of the music union's tools, in any case and with separators.
fn tool_key() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["level", "device", "query"]),
        any::<bool>(),
        prop::sample::select(vec!["", "_", "-"]),
    )
        .prop_map(|(key, upper, sep)| {
            let (head, tail) = key.split_at(2);
            let key = format!("{head}{sep}{tail}");
            if upper { key.to_uppercase() } else { key }
        })
}

fn arguments(keys: Vec<String>) -> Map<String, Value> {
    keys.into_iter().map(|k| (k, json!(1))).collect()
}

proptest! {
    /// Whatever is asked, a value written where the name goes beside an argument a tool
    /// declares is never taken for a call of none of the union's functions.
    #[test]
    fn never_fires_beside_a_tools_argument(
        name in value_name(),
        key in tool_key(),
        others in prop::collection::vec(other_key(), 0..4),
        request in prop::sample::select(QUESTIONS.iter().chain(&COMMANDS).copied().collect::<Vec<_>>()),
    ) {
        let mut args = arguments(others);
        args.insert(key, json!("x"));
        let call = json!({"name": name, "arguments": args});
        prop_assert!(!doubts_to(&music(), request, &call.to_string()).missing, "{call}");
    }

    /// To a command, a value written where the name goes is never taken for a call of
    /// none of the union's functions, whatever its arguments.
    #[test]
    fn never_fires_on_a_command(
        name in value_name(),
        others in prop::collection::vec(other_key(), 0..4),
        request in prop::sample::select(COMMANDS.to_vec()),
    ) {
        let call = json!({"name": name, "arguments": arguments(others)});
        prop_assert!(!doubts_to(&music(), request, &call.to_string()).missing, "{call}");
    }
}
