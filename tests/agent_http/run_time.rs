//! Tools known only at run time (a `Toolset`) through both providers in every mode: the
//! exact requests, names mapped on the way out (`time.get_current_time` →
//! `time_get_current_time`, `lights/turn on` → `lights_turn_on`) and back on the way in,
//! tool errors marked as errors, conversations resumed with results.

use serde_json::{Value, json};
use toolschema::agent::Toolbox;
use toolschema::provider::Mode;
use toolschema::{Agent, AskError, Choice, Dialect, Message, ToolCall, Toolset, ValidCall};
use wiremock::ResponseTemplate;

use crate::server::{
    Events, FAST, anthropic, bodies, chat, completion, contents, message, openai, tool_calls,
};

/// An OpenAI `tools` array as a gateway receives it, with names no provider accepts, and
/// the answer.
fn tools() -> Toolset {
    calls_only().with_answer()
}

/// The same tools, with no answer: a call is required.
fn calls_only() -> Toolset {
    Toolset::from_openai_tools(&json!([
        {
            "type": "function",
            "function": {
                "name": "time.get_current_time",
                "description": "The current time in a time zone.",
                "parameters": {
                    "type": "object",
                    "properties": { "timezone": { "type": "string" } },
                    "required": ["timezone"]
                }
            }
        },
        {
            "type": "function",
            "function": {
                "name": "lights/turn on",
                "description": "Turn on a light.",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "name": { "type": "string" },
                        "brightness": { "type": "integer", "minimum": 0, "maximum": 255 }
                    },
                    "required": ["name"]
                }
            }
        }
    ]))
    .expect("the tools load")
}

/// `(name as the server spells it, arguments)` of each call.
fn calls(choice: &Choice) -> Vec<(&str, &Value)> {
    match choice {
        Choice::Calls(calls) => calls.iter().map(|c| (c.name(), c.arguments())).collect(),
        Choice::Answer(answer) => panic!("expected calls, got the answer {answer}"),
    }
}

/// The two calls the replies make, under the servers' names.
fn assert_both_calls(choice: &Choice) {
    assert_eq!(
        calls(choice),
        [
            (
                "time.get_current_time",
                &json!({ "timezone": "Europe/Oslo" })
            ),
            ("lights/turn on", &json!({ "name": "bedroom" })),
        ]
    );
}

fn names(body: &Value, key: &str) -> Vec<String> {
    body["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| {
            t.pointer(key)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        })
        .collect()
}

/// The reply with calls to both tools, as each provider sends it.
const TIME_ARGS: &str = r#"{"timezone": "Europe/Oslo"}"#;
const LIGHT_ARGS: &str = r#"{"name": "bedroom", "brightness": null}"#;

#[tokio::test]
async fn openai_tools_mode_sends_mapped_names_and_maps_the_calls_back() {
    let (server, provider) = openai(vec![tool_calls(&[
        ("call_1", "time_get_current_time", TIME_ARGS),
        ("call_2", "lights_turn_on", LIGHT_ARGS),
    ])])
    .await;
    let agent = Agent::new(provider).mode(Mode::Tools);
    let choice = agent
        .ask_tools(&tools(), "Time in Oslo, and the bedroom light on")
        .await
        .expect("calls");
    // The strict dialect's null for an absent optional key is read back as absent.
    assert_both_calls(&choice);
    let Choice::Calls(made) = &choice else {
        unreachable!()
    };
    let shown: Vec<&str> = made.iter().map(ValidCall::model_name).collect();
    assert_eq!(shown, ["time_get_current_time", "lights_turn_on"]);

    let sent = bodies(&server).await;
    assert_eq!(sent.len(), 1);
    assert_eq!(
        names(&sent[0], "/function/name"),
        ["answer", "time_get_current_time", "lights_turn_on"]
    );
    assert_eq!(sent[0]["tool_choice"], "auto");
    assert_eq!(
        sent[0]["tools"][2],
        json!({
            "type": "function",
            "function": {
                "name": "lights_turn_on",
                "description": "Turn on a light.",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "name": { "type": "string" },
                        "brightness": { "type": ["integer", "null"], "minimum": 0, "maximum": 255 }
                    },
                    "required": ["name", "brightness"],
                    "additionalProperties": false
                },
                "strict": true
            }
        })
    );
    // The tools are the set's own definitions in the provider's dialect.
    let definitions: Vec<Value> = tools()
        .definitions(Dialect::OpenAiStrict)
        .expect("the dialect expresses every tool")
        .iter()
        .map(|d| {
            json!({
                "type": "function",
                "function": {
                    "name": d.name,
                    "description": d.description,
                    "parameters": d.parameters,
                    "strict": true
                }
            })
        })
        .collect();
    // `Toolset::definitions` are the tools; the answer's tool comes before them.
    let sent_tools = sent[0]["tools"].as_array().expect("tools");
    assert_eq!(sent_tools[0]["function"]["name"], "answer");
    assert_eq!(json!(sent_tools[1..]), json!(definitions));
    insta::assert_json_snapshot!("run_time_openai_tools", sent[0]);
}

#[tokio::test]
async fn anthropic_tools_mode_sends_mapped_names_and_maps_the_calls_back() {
    let (server, provider) = anthropic(vec![message(
        json!([
            { "type": "text", "text": "Checking." },
            { "type": "tool_use", "id": "toolu_1", "name": "time_get_current_time", "input": { "timezone": "Europe/Oslo" } },
            { "type": "tool_use", "id": "toolu_2", "name": "lights_turn_on", "input": { "name": "bedroom" } },
        ]),
        "tool_use",
    )])
    .await;
    // Mode::Auto starts with native tools for Anthropic.
    let agent = Agent::new(provider).backoff(FAST);
    let choice = agent
        .ask_tools(&tools(), "Time in Oslo, and the bedroom light on")
        .await
        .expect("calls");
    assert_both_calls(&choice);

    let sent = bodies(&server).await;
    assert_eq!(
        names(&sent[0], "/name"),
        ["answer", "time_get_current_time", "lights_turn_on"]
    );
    assert_eq!(sent[0]["tool_choice"], json!({ "type": "auto" }));
    assert_eq!(
        sent[0]["tools"][1],
        json!({
            "name": "time_get_current_time",
            "description": "The current time in a time zone.",
            "input_schema": {
                "type": "object",
                "properties": { "timezone": { "type": "string" } },
                "required": ["timezone"]
            }
        })
    );
    insta::assert_json_snapshot!("run_time_anthropic_tools", sent[0]);
}

/// Each text mode: the shape in the system prompt under the names the model is shown,
/// the reply's names mapped back.
#[tokio::test]
async fn openai_text_modes_show_mapped_names_and_map_the_reply_back() {
    let call = r#"{"name": "lights_turn_on", "arguments": {"name": "bedroom", "brightness": 80}}"#;
    for mode in [Mode::JsonSchema, Mode::JsonObject, Mode::Prompt] {
        // Under the strict dialect the root is an object: the union is wrapped.
        let reply = match mode {
            Mode::JsonSchema => format!(r#"{{"value": {call}}}"#),
            _ => call.to_owned(),
        };
        let (server, provider) = openai(vec![chat(&reply)]).await;
        let agent = Agent::new(provider).mode(mode);
        let choice = agent
            .ask_tools(&tools(), "Bedroom light on, dimmed to 80")
            .await
            .unwrap_or_else(|e| panic!("{mode}: {e}"));
        assert_eq!(
            calls(&choice),
            [(
                "lights/turn on",
                &json!({ "name": "bedroom", "brightness": 80 })
            )],
            "{mode}"
        );

        let body = &bodies(&server).await[0];
        assert!(body.get("tools").is_none(), "{mode}");
        let system = &contents(body)[0];
        assert!(system.contains("\nlights_turn_on: {"), "{mode}: {system}");
        assert!(!system.contains("lights/turn on"), "{mode}: {system}");
        match mode {
            Mode::JsonSchema => {
                let format = &body["response_format"];
                assert_eq!(format["type"], "json_schema");
                assert_eq!(format["json_schema"]["name"], "choice");
                let names: Vec<&Value> = format["json_schema"]["schema"]
                    .pointer("/properties/value/anyOf")
                    .and_then(Value::as_array)
                    .expect("a union under the strict dialect's wrapper")
                    .iter()
                    .filter_map(|alt| alt.pointer("/properties/name/const"))
                    .collect();
                assert_eq!(names, ["time_get_current_time", "lights_turn_on"]);
            }
            Mode::JsonObject => {
                assert_eq!(body["response_format"], json!({ "type": "json_object" }))
            }
            _ => assert!(body.get("response_format").is_none()),
        }
        insta::assert_json_snapshot!(format!("run_time_openai_{mode}"), body);
    }
}

#[tokio::test]
async fn anthropic_prompt_mode_reads_a_call_written_as_text() {
    let (server, provider) = anthropic(vec![message(
        json!([{ "type": "text", "text": "<tool_call>\n{\"name\": \"time_get_current_time\", \"arguments\": {\"timezone\": \"UTC\"}}\n</tool_call>" }]),
        "end_turn",
    )])
    .await;
    let agent = Agent::new(provider).mode(Mode::Prompt);
    let choice = agent.ask_tools(&tools(), "Time?").await.expect("a call");
    assert_eq!(
        calls(&choice),
        [("time.get_current_time", &json!({ "timezone": "UTC" }))]
    );
    let body = &bodies(&server).await[0];
    assert!(body.get("tools").is_none());
    insta::assert_json_snapshot!("run_time_anthropic_prompt", body);
}

/// The fallback chain is the same as for a derived union: a server that rejects the
/// `json_schema` format, then one that writes a native call as text. (A union with an
/// answer chooses in prose first: `tool_choice.rs`.)
#[tokio::test]
async fn auto_falls_back_down_the_same_chain() {
    let reply = r#"{"name": "time_get_current_time", "arguments": {"timezone": "UTC"}}"#;
    let (server, provider) = openai(vec![
        ResponseTemplate::new(400).set_body_string("response_format json_schema is not supported"),
        chat(reply),
    ])
    .await;
    let events = Events::default();
    let agent = Agent::new(provider)
        .backoff(FAST)
        .on_event(events.listener());
    let choice = agent
        .ask_tools(&calls_only(), "Time?")
        .await
        .expect("a call");
    assert_eq!(calls(&choice)[0].0, "time.get_current_time");
    assert_eq!(
        events.lines(),
        [
            "attempt 1 (json_schema)",
            "mode fallback json_schema -> json_object",
            "attempt 1 (json_object)",
            "reply 1 (Stop)",
            "done after 1",
        ]
    );
    let sent = bodies(&server).await;
    assert_eq!(sent[0]["response_format"]["type"], "json_schema");
    assert_eq!(sent[1]["response_format"]["type"], "json_object");

    let (server, provider) = anthropic(vec![
        message(json!([{ "type": "text", "text": reply }]), "end_turn"),
        message(json!([{ "type": "text", "text": reply }]), "end_turn"),
        message(
            json!([{ "type": "tool_use", "id": "toolu_1", "name": "clock_now", "input": {} }]),
            "tool_use",
        ),
    ])
    .await;
    let events = Events::default();
    let agent = Agent::new(provider)
        .backoff(FAST)
        .on_event(events.listener());
    agent.ask_tools(&tools(), "Time?").await.expect("a call");
    assert_eq!(
        events.lines()[..3],
        [
            "attempt 1 (tools)",
            "reply 1 (Stop)",
            "mode fallback tools -> prompt",
        ]
    );
    // The fallback is remembered: the next ask starts in the prompt mode.
    agent.ask_tools(&tools(), "Time?").await.expect("a call");
    // For this tool set only: another one starts with native tools again.
    let other = Toolset::from_openai_tools(&json!([{
        "type": "function",
        "function": { "name": "clock.now", "parameters": { "type": "object" } }
    }]))
    .expect("the tool loads")
    .with_answer();
    let choice = agent.ask_tools(&other, "Time?").await.expect("a call");
    assert_eq!(calls(&choice), [("clock.now", &json!({}))]);
    let sent = bodies(&server).await;
    assert!(sent[0].get("tools").is_some());
    assert!(sent[1].get("tools").is_none());
    assert_eq!(sent[2]["tools"][1]["name"], "clock_now");
}

#[tokio::test]
async fn arguments_that_break_a_tool_schema_get_a_repair_under_the_mapped_name() {
    let (server, provider) = openai(vec![
        tool_calls(&[(
            "call_1",
            "lights_turn_on",
            r#"{"name": "bedroom", "brightness": 300}"#,
        )]),
        tool_calls(&[(
            "call_2",
            "lights_turn_on",
            r#"{"name": "bedroom", "brightness": 255}"#,
        )]),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::Tools);
    let choice = agent
        .ask_tools(&tools(), "Full brightness")
        .await
        .expect("a call");
    assert_eq!(
        calls(&choice),
        [(
            "lights/turn on",
            &json!({ "name": "bedroom", "brightness": 255 })
        )]
    );
    let sent = bodies(&server).await;
    let messages = contents(&sent[1]);
    assert_eq!(
        messages[2],
        r#"{"name": "lights_turn_on", "arguments": {"name": "bedroom", "brightness": 300}}"#
    );
    assert!(
        messages[3].contains("- /arguments/brightness: 300 is above the maximum of 255"),
        "{}",
        messages[3]
    );
    assert_eq!(sent[1]["tools"], sent[0]["tools"]);
}

/// The tool loop with handlers registered by the names the server spells: a tool's
/// error goes back marked as one.
#[tokio::test]
async fn the_run_time_tool_loop_marks_a_tool_error_in_the_next_request() {
    let toolbox = || {
        Toolbox::new()
            .tool("time.get_current_time", |_: Value| async {
                Ok::<_, String>("14:00".to_owned())
            })
            .tool("lights/turn on", |args: Value| async move {
                Err::<String, _>(format!("{} is unreachable", args["name"]))
            })
    };

    let (server, provider) = openai(vec![
        tool_calls(&[
            ("call_1", "time_get_current_time", TIME_ARGS),
            ("call_2", "lights_turn_on", LIGHT_ARGS),
        ]),
        chat(r#"{"answer": "It is 14:00; the bedroom light is unreachable."}"#),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::Tools);
    let answer = agent
        .ask_tools(&tools(), "Time, and the bedroom light on")
        .run(&toolbox())
        .await
        .expect("an answer");
    assert_eq!(
        answer,
        json!("It is 14:00; the bedroom light is unreachable.")
    );
    let sent = bodies(&server).await;
    let messages = sent[1]["messages"].as_array().expect("messages");
    let called: Vec<&Value> = messages[2]["tool_calls"]
        .as_array()
        .expect("the calls")
        .iter()
        .map(|c| &c["function"]["name"])
        .collect();
    assert_eq!(called, ["time_get_current_time", "lights_turn_on"]);
    assert_eq!(
        messages[3..],
        [
            json!({ "role": "tool", "content": "Result of time_get_current_time: 14:00", "tool_call_id": "call_1" }),
            json!({ "role": "tool", "content": "Error from lights_turn_on: \"bedroom\" is unreachable", "tool_call_id": "call_2" }),
        ]
    );
    insta::assert_json_snapshot!("run_time_openai_tool_loop_after_results", sent[1]);

    let (server, provider) = anthropic(vec![
        message(
            json!([
                { "type": "tool_use", "id": "toolu_1", "name": "time_get_current_time", "input": { "timezone": "UTC" } },
                { "type": "tool_use", "id": "toolu_2", "name": "lights_turn_on", "input": { "name": "bedroom" } },
            ]),
            "tool_use",
        ),
        message(json!([{ "type": "text", "text": "It is 14:00." }]), "end_turn"),
    ])
    .await;
    let agent = Agent::new(provider).backoff(FAST);
    let answer = agent
        .ask_tools(&tools(), "Time, and the bedroom light on")
        .run(&toolbox())
        .await
        .expect("an answer");
    assert_eq!(answer, json!("It is 14:00."));
    let sent = bodies(&server).await;
    assert_eq!(
        sent[1]["messages"][1]["content"],
        json!([
            { "type": "tool_use", "id": "toolu_1", "name": "time_get_current_time", "input": { "timezone": "UTC" } },
            { "type": "tool_use", "id": "toolu_2", "name": "lights_turn_on", "input": { "name": "bedroom" } },
        ])
    );
    assert_eq!(
        sent[1]["messages"][2],
        json!({ "role": "user", "content": [
            { "type": "tool_result", "tool_use_id": "toolu_1", "content": "Result of time_get_current_time: 14:00" },
            { "type": "tool_result", "tool_use_id": "toolu_2", "content": "Error from lights_turn_on: \"bedroom\" is unreachable", "is_error": true },
        ]})
    );
}

/// What a bridge that runs the calls elsewhere keeps: the request, the calls under the
/// servers' names, the results with an error among them.
fn bridge_history() -> Vec<Message> {
    vec![
        Message::user("Time in Oslo, and the bedroom light on"),
        Message::assistant_calls(
            "",
            vec![
                ToolCall::new(
                    "call_1",
                    "time.get_current_time",
                    json!({ "timezone": "Europe/Oslo" }),
                ),
                ToolCall::new("call_2", "lights/turn on", json!({ "name": "bedroom" })),
            ],
        ),
        Message::tool_result(Some("call_1".into()), "14:00"),
        Message::tool_error(Some("call_2".into()), "the light is unreachable"),
    ]
}

#[tokio::test]
async fn a_conversation_resumes_with_results_in_each_provider_protocol() {
    let answer = "It is 14:00 in Oslo; the bedroom light is unreachable.";

    let (server, provider) = openai(vec![chat(&json!({ "answer": answer }).to_string())]).await;
    let agent = Agent::new(provider).mode(Mode::Tools);
    let choice = agent
        .ask_tools(&tools(), "")
        .history(&bridge_history())
        .await
        .expect("the answer");
    assert_eq!(choice, Choice::Answer(json!(answer)));
    let body = &bodies(&server).await[0];
    let messages = body["messages"].as_array().expect("messages");
    assert_eq!(messages.len(), 5);
    assert_eq!(
        messages[2],
        json!({
            "role": "assistant",
            "content": "",
            "tool_calls": [
                { "id": "call_1", "type": "function", "function": { "name": "time_get_current_time", "arguments": "{\"timezone\":\"Europe/Oslo\"}" } },
                { "id": "call_2", "type": "function", "function": { "name": "lights_turn_on", "arguments": "{\"name\":\"bedroom\"}" } },
            ]
        })
    );
    assert_eq!(
        messages[3..],
        [
            json!({ "role": "tool", "content": "14:00", "tool_call_id": "call_1" }),
            json!({ "role": "tool", "content": "Error: the light is unreachable", "tool_call_id": "call_2" }),
        ]
    );
    insta::assert_json_snapshot!("run_time_openai_resumed", body);

    let (server, provider) = anthropic(vec![message(
        json!([{ "type": "text", "text": answer }]),
        "end_turn",
    )])
    .await;
    let agent = Agent::new(provider).mode(Mode::Tools);
    let choice = agent
        .ask_tools(&tools(), "")
        .history(&bridge_history())
        .await
        .expect("the answer");
    assert_eq!(choice, Choice::Answer(json!(answer)));
    let body = &bodies(&server).await[0];
    assert_eq!(
        body["messages"][2],
        json!({ "role": "user", "content": [
            { "type": "tool_result", "tool_use_id": "call_1", "content": "14:00" },
            { "type": "tool_result", "tool_use_id": "call_2", "content": "the light is unreachable", "is_error": true },
        ]})
    );
    insta::assert_json_snapshot!("run_time_anthropic_resumed", body);
}

/// Without tools in the request (Anthropic rejects `tool_use` blocks then), the calls
/// and results go as text, under the names the model is shown.
#[tokio::test]
async fn a_conversation_resumed_in_a_text_mode_goes_as_text() {
    let (server, provider) = anthropic(vec![message(
        json!([{ "type": "text", "text": "{\"answer\": \"It is 14:00.\"}" }]),
        "end_turn",
    )])
    .await;
    let agent = Agent::new(provider).mode(Mode::Prompt);
    let choice = agent
        .ask_tools(&tools(), "")
        .history(&bridge_history())
        .await
        .expect("the answer");
    assert_eq!(choice, Choice::Answer(json!("It is 14:00.")));
    let body = &bodies(&server).await[0];
    assert_eq!(
        body["messages"],
        json!([
            { "role": "user", "content": "Time in Oslo, and the bedroom light on" },
            { "role": "user", "content": "You called {\"name\":\"time_get_current_time\",\"arguments\":{\"timezone\":\"Europe/Oslo\"}}. Result of time_get_current_time: 14:00\nYou called {\"name\":\"lights_turn_on\",\"arguments\":{\"name\":\"bedroom\"}}. Error from lights_turn_on: the light is unreachable" },
        ])
    );
}

/// A reply with no usable value leaves every attempt in the error, its calls under the
/// names the model wrote.
#[tokio::test]
async fn a_failed_ask_keeps_every_reply() {
    let (_server, provider) = openai(vec![
        tool_calls(&[("call_1", "lights_turn_of", r#"{"name": "bedroom"}"#)]),
        completion(
            json!({ "role": "assistant", "content": "I cannot do that." }),
            "stop",
            (10, 5),
        ),
    ])
    .await;
    let light = Toolset::new()
        .tool(
            "lights/turn on",
            "",
            json!({ "type": "object", "properties": { "name": { "type": "string" } } }),
        )
        .expect("a tool");
    let agent = Agent::new(provider).mode(Mode::Tools).max_attempts(2);
    let err = agent.ask_tools(&light, "Light on").await.unwrap_err();
    let AskError::Exhausted { attempts, .. } = &err else {
        panic!("expected the attempts to run out, got {err:?}");
    };
    let raw: Vec<&str> = attempts.iter().map(|a| a.raw()).collect();
    assert_eq!(
        raw,
        [
            r#"{"name": "lights_turn_of", "arguments": {"name": "bedroom"}}"#,
            "I cannot do that.",
        ]
    );
    let first = attempts[0]
        .error()
        .expect("the first was rejected")
        .to_string();
    assert!(first.contains("did you mean \"lights_turn_on\""), "{first}");
}
