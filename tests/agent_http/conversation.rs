//! A conversation the caller keeps, for a derived union: the bridge runs the calls
//! elsewhere, appends them and their results, and asks again; the answer comes back
//! typed.

use serde_json::json;
use toolschema::provider::Mode;
use toolschema::{Agent, Message, RepairStrategy, ToolCall, ToolSchema};

use crate::server::{anthropic, bodies, chat, message, openai, tool_calls};

#[derive(ToolSchema, Debug, PartialEq)]
struct TurnOn {
    name: String,
}

#[derive(ToolSchema, Debug, PartialEq)]
enum Step {
    /// Turn on a device.
    #[tool]
    TurnOn(TurnOn),
    #[answer]
    Answer(String),
}

fn request() -> Message {
    Message::user("Turn on the bedroom light")
}

/// The model's call as the bridge appends it, and the failure of that call.
fn results() -> [Message; 2] {
    [
        Message::assistant_calls(
            "",
            vec![ToolCall::new(
                "call_7",
                "turn_on",
                json!({ "name": "bedroom light" }),
            )],
        ),
        Message::tool_error(Some("call_7".into()), "the light is unreachable"),
    ]
}

#[tokio::test]
async fn openai_a_bridge_resumes_with_a_failed_result_and_gets_a_typed_answer() {
    let (server, provider) = openai(vec![
        tool_calls(&[("call_7", "turn_on", r#"{"name": "bedroom light"}"#)]),
        chat(r#"{"answer": "The bedroom light is unreachable."}"#),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::Tools);
    let mut history = vec![request()];
    let step: Step = agent.ask("").history(&history).await.expect("a call");
    assert_eq!(
        step,
        Step::TurnOn(TurnOn {
            name: "bedroom light".into()
        })
    );
    history.extend(results());
    let answer: Step = agent.ask("").history(&history).await.expect("the answer");
    assert_eq!(
        answer,
        Step::Answer("The bedroom light is unreachable.".into())
    );

    let sent = bodies(&server).await;
    let messages = sent[1]["messages"].as_array().expect("messages");
    assert_eq!(messages.len(), 4);
    assert_eq!(
        messages[1],
        json!({ "role": "user", "content": "Turn on the bedroom light" })
    );
    assert_eq!(
        messages[2]["tool_calls"],
        json!([{ "id": "call_7", "type": "function", "function": { "name": "turn_on", "arguments": "{\"name\":\"bedroom light\"}" } }])
    );
    // OpenAI's tool message has no error flag: the content says it.
    assert_eq!(
        messages[3],
        json!({ "role": "tool", "content": "Error: the light is unreachable", "tool_call_id": "call_7" })
    );
}

#[tokio::test]
async fn anthropic_a_bridge_resumes_with_a_prompt_after_the_results() {
    let (server, provider) = anthropic(vec![message(
        json!([{ "type": "text", "text": "It is unreachable; try the kitchen light?" }]),
        "end_turn",
    )])
    .await;
    let agent = Agent::new(provider).mode(Mode::Tools);
    let mut history = vec![request()];
    history.extend(results());
    let answer: Step = agent
        .ask("Then what?")
        .history(&history)
        .await
        .expect("the answer");
    assert_eq!(
        answer,
        Step::Answer("It is unreachable; try the kitchen light?".into())
    );
    let sent = bodies(&server).await;
    assert_eq!(
        sent[0]["messages"],
        json!([
            { "role": "user", "content": "Turn on the bedroom light" },
            { "role": "assistant", "content": [
                { "type": "tool_use", "id": "call_7", "name": "turn_on", "input": { "name": "bedroom light" } },
            ]},
            { "role": "user", "content": [
                { "type": "tool_result", "tool_use_id": "call_7", "content": "the light is unreachable", "is_error": true },
            ]},
            { "role": "user", "content": "Then what?" },
        ])
    );
}

/// A standalone repair prompt after a conversation quotes the user's request: the
/// history's last user message when no prompt is given.
#[tokio::test]
async fn a_repair_after_a_conversation_quotes_the_request() {
    let (server, provider) = openai(vec![
        chat(r#"{"name": "turn_on", "arguments": {}}"#),
        chat(r#"{"name": "turn_on", "arguments": {"name": "bedroom light"}}"#),
    ])
    .await;
    let agent = Agent::new(provider)
        .mode(Mode::Prompt)
        .repair_strategy(RepairStrategy::Minimal);
    let step: Step = agent.ask("").history(&[request()]).await.expect("a call");
    assert!(matches!(step, Step::TurnOn(_)));
    let sent = bodies(&server).await;
    let repair = sent[1]["messages"][0]["content"]
        .as_str()
        .expect("a repair message");
    assert!(
        repair.contains("Request: Turn on the bedroom light\n"),
        "{repair}"
    );
    assert!(
        repair.contains("/arguments/name: missing required field"),
        "{repair}"
    );
}
