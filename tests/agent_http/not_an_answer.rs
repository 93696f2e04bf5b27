//! Answers that say nothing of the model's own are sent back, over a real HTTP server:
//! the name of one of the tools (the call meant, not made) each time, the library's forms
//! sent back each time, a type word alone once. An ordinary answer is taken at once.

use serde_json::json;
use toolschema::provider::Mode;
use toolschema::{Agent, Choice, ViolationKind};

use crate::copied_example::sports;
use crate::server::{bodies, chat, openai};

const REQUEST: &str = "Show the Serie A table for the 2023-24 season.";
const CALL: &str =
    r#"{"name": "sports_get_standings", "arguments": {"league": "Serie A", "season": "2023-24"}}"#;

#[tokio::test]
async fn a_tool_s_name_as_the_answer_is_sent_back_and_the_call_taken() {
    let (server, provider) = openai(vec![
        chat(r#"{"answer": "sports_get_standings"}"#),
        chat(CALL),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let asked = agent
        .ask_tools(&sports(), REQUEST)
        .answered()
        .await
        .expect("the call");
    let Choice::Calls(calls) = &asked.value else {
        panic!("a call: {:?}", asked.value);
    };
    assert_eq!(calls[0].arguments()["league"], json!("Serie A"));
    assert_eq!(asked.attempts.len(), 2);
    let first = &asked.attempts[0].violations()[0];
    assert_eq!(first.pointer(), "/answer");
    assert_eq!(
        first.kind(),
        &ViolationKind::NamedNotCalled {
            tool: "sports_get_standings".into()
        }
    );
    // The repair tells the model what it wrote and how to call.
    let sent = bodies(&server).await;
    let repair = sent[1]["messages"].to_string();
    assert!(
        repair.contains("only the name of the function") && repair.contains("not a call of it"),
        "{repair}"
    );
}

#[tokio::test]
async fn a_tool_s_name_written_each_time_is_never_taken() {
    let name = r#"{"answer": "sports.get_standings"}"#;
    let (server, provider) = openai(vec![chat(name), chat(name), chat(name)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let error = agent
        .ask_tools(&sports(), REQUEST)
        .answered()
        .await
        .expect_err("no answer");
    assert_eq!(bodies(&server).await.len(), 3);
    let attempts = error.attempts();
    assert_eq!(attempts.len(), 3);
    for attempt in attempts {
        assert!(
            matches!(
                attempt.violations()[0].kind(),
                ViolationKind::NamedNotCalled { .. }
            ),
            "{:?}",
            attempt.violations()
        );
        assert!(attempt.raw().contains("sports.get_standings"));
    }
}

#[tokio::test]
async fn the_forms_sent_back_as_the_answer_are_refused_each_time() {
    for copied in [
        "a call of one of the functions above, the arguments taken from the request;",
        "<your answer>",
    ] {
        let reply = json!({ "answer": copied }).to_string();
        let (_server, provider) = openai(vec![
            chat(&reply),
            chat(&reply),
            chat(r#"{"answer": "Inter won the 2023-24 Serie A."}"#),
        ])
        .await;
        let agent = Agent::new(provider).mode(Mode::JsonObject);
        let asked = agent
            .ask_tools(&sports(), "Who won the league in Italy last season?")
            .answered()
            .await
            .expect("the answer");
        assert_eq!(
            asked.value,
            Choice::Answer(json!("Inter won the 2023-24 Serie A."))
        );
        assert_eq!(asked.attempts.len(), 3, "{copied}");
        for attempt in &asked.attempts[..2] {
            let ViolationKind::CopiedForm { text } = attempt.violations()[0].kind() else {
                panic!("{:?}", attempt.violations());
            };
            assert_eq!(text, copied);
        }
    }
}

#[tokio::test]
async fn a_type_word_alone_is_sent_back_once_and_then_taken() {
    let (_server, provider) = openai(vec![
        chat(r#"{"answer": "string"}"#),
        chat(r#"{"answer": "string"}"#),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let asked = agent
        .ask_tools(&sports(), "What type does JSON give the text \"offside\"?")
        .answered()
        .await
        .expect("the answer");
    assert_eq!(asked.value, Choice::Answer(json!("string")));
    assert_eq!(asked.attempts.len(), 2);
    assert!(matches!(
        asked.attempts[0].violations()[0].kind(),
        ViolationKind::CopiedForm { .. }
    ));
}

#[tokio::test]
async fn an_ordinary_answer_is_taken_at_once() {
    let (server, provider) = openai(vec![chat(
        r#"{"answer": "A player is offside when nearer the goal line than the ball."}"#,
    )])
    .await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let asked = agent
        .ask_tools(&sports(), "Explain the offside rule in one sentence.")
        .answered()
        .await
        .expect("the answer");
    assert!(matches!(asked.value, Choice::Answer(_)));
    assert_eq!(bodies(&server).await.len(), 1);
}
