//! A call filled with the examples its tool's documentation gives ("e.g. 'Serie A'"),
//! none of its values the user's: sent back with `ViolationKind::CopiedExample` even
//! where the request names the tool's subject, and a second one has the answer alone
//! asked for. A call with one value the user wrote stands, examples beside it.

use serde_json::json;
use toolschema::provider::Mode;
use toolschema::{Agent, Choice, Toolset, ViolationKind};

use crate::server::{bodies, chat, contents, openai};

/// A football league's table, documented with examples, as a server hands it over.
pub fn sports() -> Toolset {
    Toolset::from_openai_tools(&json!([
        {"type": "function", "function": {
            "name": "sports.get_standings",
            "description": "Returns a football league's table for a season.",
            "parameters": {"type": "object", "properties": {
                "league": {"type": "string", "description": "The league, e.g. 'Serie A'."},
                "season": {"type": "string", "description": "The season, e.g. '2023-24'."}
            }, "required": ["league", "season"]}
        }}
    ]))
    .expect("the tools load")
    .with_answer()
}

const COPIED: &str =
    r#"{"name": "sports_get_standings", "arguments": {"league": "Serie A", "season": "2023-24"}}"#;

#[tokio::test]
async fn a_call_of_the_examples_is_sent_back_and_the_answer_taken() {
    let (server, provider) = openai(vec![
        chat(COPIED),
        chat(r#"{"answer": "A player is offside when nearer the goal line than the ball and the second-last defender."}"#),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let asked = agent
        .ask_tools(
            &sports(),
            "Explain the offside rule in football in one sentence.",
        )
        .answered()
        .await
        .expect("an answer");
    assert!(
        matches!(asked.value, Choice::Answer(_)),
        "{:?}",
        asked.value
    );
    let first = asked.attempts[0]
        .error()
        .expect("the first reply is rejected");
    assert_eq!(
        first.violations()[0].kind(),
        &ViolationKind::CopiedExample {
            values: vec!["\"Serie A\"".into(), "\"2023-24\"".into()]
        }
    );
    let repair = contents(&bodies(&server).await[1]).pop().expect("a repair");
    assert!(
        repair.contains("are the examples given in the function's description"),
        "{repair}"
    );
}

#[tokio::test]
async fn two_calls_of_the_examples_have_the_answer_alone_asked_for() {
    let (server, provider) = openai(vec![
        chat(COPIED),
        chat(COPIED),
        chat(r#"{"answer": "Offside: nearer the goal line than the ball and the second-last defender."}"#),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let choice = agent
        .ask_tools(
            &sports(),
            "Explain the offside rule in football in one sentence.",
        )
        .await
        .expect("an answer");
    assert!(matches!(choice, Choice::Answer(_)), "{choice:?}");
    let bodies = bodies(&server).await;
    assert_eq!(bodies.len(), 3);
    // A fresh ask for the answer alone: its own instructions, no tool listed.
    let third = contents(&bodies[2]);
    assert!(
        third[0].starts_with("None of the functions does what the request asks"),
        "{}",
        third[0]
    );
    assert!(!third[0].contains("sports_get_standings"), "{}", third[0]);
}

#[tokio::test]
async fn a_call_with_a_value_the_user_gave_stands_beside_an_example() {
    let (server, provider) = openai(vec![chat(
        r#"{"name": "sports_get_standings", "arguments": {"league": "Premier League", "season": "2023-24"}}"#,
    )])
    .await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let choice = agent
        .ask_tools(&sports(), "How does the Premier League table look?")
        .await
        .expect("a call");
    assert!(matches!(choice, Choice::Calls(_)), "{choice:?}");
    assert_eq!(bodies(&server).await.len(), 1);
}
