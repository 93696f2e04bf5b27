//! A reply that calls a tool and answers too, in a tool loop: the call runs, the answer
//! written before its result is dropped, and the model answers again with the result in.
//! The same in the derived loop and the run-time loop.

use serde_json::{Value, json};
use toolschema::agent::Toolbox;
use toolschema::provider::Mode;
use toolschema::{Agent, ToolSchema, Toolset};

use crate::server::{bodies, chat, contents, openai};

/// The call and an answer that says it worked, before its result.
const CALL_AND_ANSWER: &str = r#"[{"name": "lamp_on", "arguments": {"room": "kitchen"}}, {"answer": "The kitchen lamp is on."}]"#;
const AFTER_RESULT: &str = r#"{"answer": "The kitchen lamp is broken; it stays off."}"#;
const RESULT: &str = "Error from lamp_on: the kitchen lamp is broken";

#[derive(ToolSchema, Debug, PartialEq)]
struct LampOn {
    room: String,
}

#[derive(ToolSchema, Debug, PartialEq)]
enum Home {
    /// Turn on the lamp of a room.
    #[tool]
    LampOn(LampOn),
    #[answer]
    Answer(String),
}

/// The last request's messages hold the call's result.
fn results_sent(body: &Value) -> bool {
    contents(body).iter().any(|c| c.contains(RESULT))
}

#[tokio::test]
async fn the_derived_loop_runs_the_call_and_asks_for_the_answer_again() {
    let (server, provider) = openai(vec![chat(CALL_AND_ANSWER), chat(AFTER_RESULT)]).await;
    let tools = Toolbox::new().tool("lamp_on", |args: LampOn| async move {
        Err::<String, _>(format!("the {} lamp is broken", args.room))
    });
    let ran = Agent::new(provider)
        .mode(Mode::Prompt)
        .ask::<Home>("Turn on the kitchen lamp")
        .run(&tools)
        .ran()
        .await
        .expect("an answer");
    assert_eq!(
        ran.answer,
        Home::Answer("The kitchen lamp is broken; it stays off.".into())
    );
    assert_eq!(ran.calls.len(), 1);
    assert_eq!(ran.calls[0].arguments, json!({ "room": "kitchen" }));
    assert_eq!(
        ran.calls[0].result,
        Err("the kitchen lamp is broken".to_owned())
    );
    // The reply with both was taken as it was (no repair), as step 1.
    assert_eq!(ran.steps, 2);
    assert!(ran.attempts.iter().all(|a| a.error().is_none()));
    let sent = bodies(&server).await;
    assert_eq!(sent.len(), 2);
    assert!(results_sent(&sent[1]), "{:?}", contents(&sent[1]));
}

#[tokio::test]
async fn the_run_time_loop_runs_the_call_and_asks_for_the_answer_again() {
    let tools = Toolset::from_mcp_tools(&json!({ "tools": [{
        "name": "lamp_on",
        "description": "Turn on the lamp of a room.",
        "inputSchema": {
            "type": "object",
            "properties": { "room": { "type": "string" } },
            "required": ["room"]
        }
    }]}))
    .expect("the tools load")
    .with_answer();
    let (server, provider) = openai(vec![chat(CALL_AND_ANSWER), chat(AFTER_RESULT)]).await;
    let toolbox = Toolbox::new().tool("lamp_on", |args: Value| async move {
        Err::<String, _>(format!(
            "the {} lamp is broken",
            args["room"].as_str().unwrap_or("?")
        ))
    });
    let ran = Agent::new(provider)
        .mode(Mode::Prompt)
        .ask_tools(&tools, "Turn on the kitchen lamp")
        .run(&toolbox)
        .ran()
        .await
        .expect("an answer");
    assert_eq!(
        ran.answer,
        json!("The kitchen lamp is broken; it stays off.")
    );
    assert_eq!(ran.calls.len(), 1);
    assert_eq!(
        ran.calls[0].result,
        Err("the kitchen lamp is broken".to_owned())
    );
    assert!(ran.attempts.iter().all(|a| a.error().is_none()));
    let sent = bodies(&server).await;
    assert_eq!(sent.len(), 2);
    assert!(results_sent(&sent[1]), "{:?}", contents(&sent[1]));
}

/// Outside a loop, one reply is asked for: calling and answering in it is still a
/// violation, sent back to the model.
#[tokio::test]
async fn outside_a_loop_a_call_and_an_answer_are_sent_back() {
    let tools = Toolset::from_mcp_tools(&json!({ "tools": [{
        "name": "lamp_on",
        "inputSchema": { "type": "object", "properties": { "room": { "type": "string" } } }
    }]}))
    .expect("the tools load")
    .with_answer();
    let (server, provider) = openai(vec![
        chat(CALL_AND_ANSWER),
        chat(r#"{"name": "lamp_on", "arguments": {"room": "kitchen"}}"#),
    ])
    .await;
    let choice = Agent::new(provider)
        .mode(Mode::Prompt)
        .ask_tools(&tools, "Turn on the kitchen lamp")
        .await
        .expect("a call");
    assert_eq!(choice.to_string(), r#"lamp_on({"room":"kitchen"})"#);
    let sent = bodies(&server).await;
    assert!(
        contents(&sent[1])
            .iter()
            .any(|c| c.contains("an answer cannot come with tool calls in one reply")),
        "{:?}",
        contents(&sent[1])
    );
}
