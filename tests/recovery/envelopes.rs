//! Tool calls written in the envelopes models are trained on, read as `{"name",
//! "arguments"}`; and the shape to write when a reply to a union is no call and no answer.

use proptest::prelude::*;
use serde_json::{Value, json};
use toolschema::{Parser, Schema, ToolSchema};

use super::{read, refused, root, text};

#[derive(ToolSchema, Debug, PartialEq, Clone)]
pub(crate) struct GetWeather {
    city: String,
    days: Option<u8>,
}

#[derive(ToolSchema, Debug, PartialEq, Clone)]
pub(crate) enum Step {
    /// Look up the weather.
    #[tool]
    GetWeather(GetWeather),
    /// List the rooms of the house.
    #[tool]
    ListRooms,
    /// Add an item to the shopping list.
    #[tool]
    AddToList { item: String },
    #[answer]
    Answer(String),
}

fn weather(city: &str) -> Step {
    Step::GetWeather(GetWeather {
        city: city.into(),
        days: None,
    })
}

/// The fix reported for a call in the envelope `shape`.
fn envelope(shape: &str) -> String {
    root(&format!(
        "read a tool call written as {shape} as {{\"name\": …, \"arguments\": …}}"
    ))
}

const PARIS: &str = r#"{"city": "Paris"}"#;

#[test]
fn calls_under_other_keys_are_read() {
    for (raw, shape) in [
        (
            format!(r#"{{"tool": "get_weather", "args": {PARIS}}}"#),
            r#"{"tool", "args"}"#,
        ),
        (
            format!(r#"{{"name": "get_weather", "parameters": {PARIS}}}"#),
            r#"{"name", "parameters"}"#,
        ),
        (
            format!(
                r#"{{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {PARIS}}}"#
            ),
            r#"{"type", "id", "name", "input"}"#,
        ),
        (
            format!(r#"{{"type": "function", "name": "get_weather", "arguments": {PARIS}}}"#),
            r#"{"type", "name", "arguments"}"#,
        ),
        (
            format!(r#"{{"function": "get_weather", "arguments": {PARIS}}}"#),
            r#"{"function", "arguments"}"#,
        ),
    ] {
        assert_eq!(
            read::<Step>(&raw),
            (weather("Paris"), vec![envelope(shape)]),
            "{raw}"
        );
    }
}

#[test]
fn calls_inside_other_envelopes_are_read() {
    let call = format!(r#"{{"name": "get_weather", "arguments": {PARIS}}}"#);
    let openai = format!(r#"{{"id": "call_1", "type": "function", "function": {call}}}"#);
    for (raw, shape) in [
        (
            format!(r#"{{"function": {call}}}"#),
            r#"{"function": {"name", "arguments"}}"#,
        ),
        (openai.clone(), r#"{"function": {"name", "arguments"}}"#),
        (
            format!(r#"{{"tool_calls": [{openai}]}}"#),
            r#"{"tool_calls": [{"function": {"name", "arguments"}}]}"#,
        ),
        (
            format!(r#"{{"toolCalls": [{call}]}}"#),
            r#"{"toolCalls": [{"name", "arguments"}]}"#,
        ),
        (format!("[{call}]"), r#"[{"name", "arguments"}]"#),
        (
            format!(r#"{{"get_weather": {PARIS}}}"#),
            r#"{"<tool name>": {…}}"#,
        ),
    ] {
        assert_eq!(
            read::<Step>(&raw),
            (weather("Paris"), vec![envelope(shape)]),
            "{raw}"
        );
    }
}

#[test]
fn a_call_under_the_answer_is_read_as_the_call() {
    let raw = r#"{"answer": "add_to_list", "arguments": {"item": "milk"}}"#;
    assert_eq!(
        read::<Step>(raw),
        (
            Step::AddToList {
                item: "milk".into()
            },
            vec![envelope(r#"{"answer": "<tool name>", "arguments"}"#)]
        )
    );
}

#[test]
fn arguments_written_as_a_json_string_are_decoded() {
    let decoded = "/arguments: decoded JSON that was inside a JSON string";
    // As OpenAI sends them.
    let raw = r#"{"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}"#;
    assert_eq!(
        read::<Step>(raw),
        (weather("Paris"), vec![decoded.to_owned()])
    );
    // In another envelope, and needing repair.
    let raw = r#"{"function": {"name": "get_weather", "arguments": "{'city': 'Paris'}"}}"#;
    let (step, fixes) = read::<Step>(raw);
    assert_eq!(step, weather("Paris"));
    assert_eq!(
        fixes[..2],
        [
            envelope(r#"{"function": {"name", "arguments"}}"#),
            decoded.to_owned()
        ]
    );
    assert!(
        fixes[2..]
            .iter()
            .all(|f| f.starts_with("replaced single quotes")),
        "{fixes:?}"
    );
}

#[test]
fn a_tool_name_in_another_case_is_matched() {
    let raw = format!(r#"{{"name": "GetWeather", "arguments": {PARIS}}}"#);
    assert_eq!(
        read::<Step>(&raw),
        (
            weather("Paris"),
            vec![r#"/name: matched "GetWeather" to the allowed value "get_weather""#.to_owned()]
        )
    );
}

#[test]
fn a_bare_tool_name_is_a_call_to_a_tool_that_takes_no_arguments() {
    for raw in [
        "list_rooms",
        r#""list_rooms""#,
        r#"{"name": "list_rooms"}"#,
        "ListRooms",
    ] {
        let (step, fixes) = read::<Step>(raw);
        assert_eq!(step, Step::ListRooms, "{raw}");
        assert!(
            fixes
                .iter()
                .any(|f| f.starts_with("(root): read a tool call written as")),
            "{fixes:?}"
        );
    }
    // A tool that needs arguments is not called without them, nor is its name the answer.
    let violations = refused::<Step>("get_weather");
    assert_eq!(violations.len(), 1);
    assert!(
        violations[0].contains("write a tool call as"),
        "{violations:?}"
    );
}

#[test]
fn calls_in_chat_template_markers_are_read() {
    let call = format!(r#"{{"name": "get_weather", "arguments": {PARIS}}}"#);
    for raw in [
        format!("<tool_call>\n{call}\n</tool_call>"),
        format!("[TOOL_CALLS] [{call}]"),
        format!(r#"<|python_tag|>{{"name": "get_weather", "parameters": {PARIS}}}"#),
    ] {
        let (step, _) = read::<Step>(&raw);
        assert_eq!(step, weather("Paris"), "{raw}");
    }
}

#[test]
fn envelopes_are_not_read_where_the_reply_fits_or_names_no_one_call() {
    // The answer, even when it is a tool's name.
    for answer in ["list_rooms", "get_weather", "tool_calls"] {
        let raw = text(&json!({ "answer": answer }));
        assert_eq!(
            read::<Step>(&raw),
            (Step::Answer(answer.into()), Vec::<String>::new())
        );
    }
    assert_eq!(
        read::<Step>(&format!(
            r#"{{"name": "get_weather", "arguments": {PARIS}}}"#
        )),
        (weather("Paris"), Vec::<String>::new())
    );
    // Two calls are not one.
    let call = format!(r#"{{"name": "get_weather", "arguments": {PARIS}}}"#);
    refused::<Step>(&format!(r#"{{"tool_calls": [{call}, {call}]}}"#));
    // A key that is no envelope's.
    refused::<Step>(&format!(
        r#"{{"tool": "get_weather", "args": {PARIS}, "note": "x"}}"#
    ));
    // Keys that can only be a call's, naming a tool that does not exist: the envelope is
    // read, and the name reported as a misspelled tool.
    assert_eq!(
        refused::<Step>(r#"{"tool": "add_to_lst", "args": {"item": "milk"}}"#),
        [
            r#"/name: "add_to_lst" is not one of "get_weather", "list_rooms", "add_to_list"; did you mean "add_to_list"?"#
        ]
    );
    refused::<Step>(r#"{"answer": "It is sunny", "arguments": {}}"#);
    // A misspelled tool in the usual envelope stays a misspelled tool.
    assert_eq!(
        refused::<Step>(&format!(
            r#"{{"name": "get_wether", "arguments": {PARIS}}}"#
        )),
        [
            r#"/name: "get_wether" is not one of "get_weather", "list_rooms", "add_to_list"; did you mean "get_weather"?"#
        ]
    );
}

#[test]
fn a_run_time_union_of_tools_reads_envelopes_too() {
    let schema = Schema::from_json(json!({
        "oneOf": [
            {
                "type": "object",
                "properties": {
                    "name": { "const": "turn_on" },
                    "arguments": {
                        "type": "object",
                        "properties": { "room": { "type": "string" } },
                        "required": ["room"]
                    }
                },
                "required": ["name", "arguments"]
            },
            {
                "type": "object",
                "properties": { "answer": { "type": "string" } },
                "required": ["answer"]
            }
        ]
    }))
    .expect("the schema loads");
    let parsed = Parser::new()
        .parse_value(
            &schema,
            r#"{"tool": "turn_on", "args": "{\"room\": \"hall\"}"}"#,
        )
        .expect("read");
    assert_eq!(
        parsed.value,
        json!({ "name": "turn_on", "arguments": { "room": "hall" } })
    );
    assert_eq!(parsed.fixes.len(), 2);
}

// The shape to write.

#[test]
fn a_union_reply_that_is_no_call_and_no_answer_is_told_the_shape_to_write() {
    let advice = r#"(root): matches none of the allowed shapes: a tool call; the answer; write a tool call as {"name": "get_weather", "arguments": {...}} or the answer as {"answer": "..."}"#;
    // The arguments without their envelope; prose; a list.
    assert_eq!(refused::<Step>(PARIS), [advice]);
    assert_eq!(refused::<Step>("I will check the weather."), [advice]);
    assert_eq!(refused::<Step>("[1, 2]"), [advice]);
    // The tool the reply seems to mean is the one shown.
    assert_eq!(
        refused::<Step>(r#"{"action": "add_to_lst", "item": "milk"}"#),
        [advice.replace("get_weather", "add_to_list")]
    );
    // Without an answer, only the call.
    #[derive(ToolSchema, Debug)]
    enum Only {
        #[tool]
        GetWeather(GetWeather),
        #[tool]
        ListRooms,
    }
    assert_eq!(
        refused::<Only>(PARIS),
        [
            r#"(root): matches none of the allowed shapes: a tool call; write a tool call as {"name": "get_weather", "arguments": {...}}"#
        ]
    );
    // A near miss of the envelope's keys is reported as such.
    assert_eq!(
        refused::<Step>(r#"{"answr": "x"}"#)[0],
        r#"/answr: unknown field; did you mean "answer"? The allowed keys are "answer"; remove the others."#
    );
}

/// A call to `get_weather` with these arguments, in one of the envelopes.
fn in_envelope(which: usize, arguments: &Value) -> String {
    let call = json!({ "name": "get_weather", "arguments": arguments });
    let value = match which {
        0 => json!({ "tool": "get_weather", "args": arguments }),
        1 => json!({ "name": "get_weather", "parameters": arguments }),
        2 => json!({ "function": call }),
        3 => {
            json!({ "id": "call_9", "type": "function", "function": { "name": "get_weather", "arguments": arguments.to_string() } })
        }
        4 => json!({ "tool_calls": [call] }),
        5 => json!({ "toolCalls": [{ "function": call }] }),
        6 => json!({ "get_weather": arguments }),
        7 => json!([call]),
        _ => json!({ "name": "get_weather", "arguments": arguments.to_string() }),
    };
    text(&value)
}

proptest! {
    #[test]
    fn any_call_in_any_envelope_is_read(
        which in 0usize..9,
        city in "[A-Za-z .'-]{0,16}",
        days in prop::option::of(0u8..=14),
    ) {
        let arguments = match days {
            Some(days) => json!({ "city": city, "days": days }),
            None => json!({ "city": city }),
        };
        let (step, fixes) = read::<Step>(&in_envelope(which, &arguments));
        prop_assert_eq!(step, Step::GetWeather(GetWeather { city, days }));
        prop_assert!(!fixes.is_empty());
    }
}
