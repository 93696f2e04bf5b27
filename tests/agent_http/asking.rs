//! The request an ask builds: options given before it is awaited (earlier messages, a
//! cancel token), the value with what it took, and the tool loops as requests of the same
//! kind, against a real HTTP server.

use serde_json::{Value, json};
use toolschema::agent::{CancelToken, Toolbox};
use toolschema::provider::Mode;
use toolschema::{Agent, AskError, Choice, Message, ToolSchema, Toolset};

use crate::server::{bodies, chat, completion, contents, openai};

#[derive(ToolSchema, Debug, PartialEq)]
struct City {
    name: String,
}

#[derive(ToolSchema, Debug, PartialEq)]
struct GetTime {
    timezone: String,
}

#[derive(ToolSchema, Debug, PartialEq)]
enum Step {
    /// The current time in a time zone.
    #[tool]
    GetTime(GetTime),
    #[answer]
    Answer(String),
}

#[tokio::test]
async fn an_ask_awaited_directly_gives_the_value_its_type_inferred() {
    let (_server, provider) = openai(vec![chat(r#"{"name": "Oslo"}"#)]).await;
    let agent = Agent::new(provider);
    // No turbofish: the type comes from the binding.
    let city: City = agent.ask("The capital of Norway?").await.expect("a city");
    assert_eq!(city.name, "Oslo");
}

#[tokio::test]
async fn a_successful_ask_hands_back_every_attempt_its_usage_and_mode() {
    let (_server, provider) = openai(vec![
        completion(
            json!({"role": "assistant", "content": "Oslo, I think."}),
            "stop",
            (10, 4),
        ),
        completion(
            json!({"role": "assistant", "content": r#"{"name": "Oslo"}"#}),
            "stop",
            (30, 6),
        ),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let answered = agent
        .ask::<City>("The capital of Norway?")
        .answered()
        .await
        .expect("a city");
    assert_eq!(
        answered.value,
        City {
            name: "Oslo".into()
        }
    );
    let raw: Vec<&str> = answered.attempts.iter().map(|a| a.raw()).collect();
    assert_eq!(raw, ["Oslo, I think.", r#"{"name": "Oslo"}"#]);
    assert!(answered.attempts[0].error().is_some());
    assert!(answered.attempts[1].error().is_none());
    // Outside a tool loop an attempt belongs to no step.
    assert_eq!(answered.attempts[1].step(), None);
    assert_eq!(answered.attempts[1].number(), 2);
    assert_eq!(answered.usage.total(), 50);
    assert_eq!(answered.mode(), Some(Mode::JsonObject));
    assert!(!answered.fixed_locally);

    // The same for a tool set.
    let tools = Toolset::from_openai_tools(&json!([{"type": "function", "function": {
        "name": "time.now", "parameters": {"type": "object", "properties": {}}}}]))
    .expect("the tools load")
    .with_answer();
    let (_server, provider) = openai(vec![chat("```json\n{\"answer\": \"Noon.\"}\n```")]).await;
    let agent = Agent::new(provider).mode(Mode::Prompt);
    let answered = agent
        .ask_tools(&tools, "Say noon.")
        .answered()
        .await
        .expect("the answer");
    assert_eq!(answered.value, Choice::Answer(json!("Noon.")));
    assert_eq!(answered.attempts.len(), 1);
    assert!(answered.fixed_locally);
}

#[tokio::test]
async fn history_goes_before_the_prompt_and_an_empty_prompt_adds_nothing() {
    let (server, provider) = openai(vec![
        chat(r#"{"name": "Oslo"}"#),
        chat(r#"{"name": "Bergen"}"#),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let history = [
        Message::user("We are talking about Norway."),
        Message::assistant("Yes, Norway."),
    ];
    let _: City = agent
        .ask("Its capital?")
        .history(&history)
        .await
        .expect("a city");
    let _: City = agent.ask("").history(&history[..1]).await.expect("a city");
    let bodies = bodies(&server).await;
    let first = contents(&bodies[0]);
    assert_eq!(
        first[1..],
        [
            "We are talking about Norway.",
            "Yes, Norway.",
            "Its capital?"
        ]
    );
    assert_eq!(contents(&bodies[1])[1..], ["We are talking about Norway."]);
}

#[tokio::test]
async fn a_tool_loop_is_a_request_that_takes_the_same_options() {
    let (server, provider) = openai(vec![
        chat(r#"{"name": "get_time", "arguments": {"timezone": "Europe/Oslo"}}"#),
        chat(r#"{"answer": "It is 14:00 in Oslo."}"#),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let toolbox = Toolbox::new().tool("get_time", |args: Value| async move {
        Ok::<_, String>(format!(
            "14:00 in {}",
            args["timezone"].as_str().unwrap_or("?")
        ))
    });
    let history = [Message::user("I am in Oslo.")];
    let cancel = CancelToken::new();
    let answer: Step = agent
        .ask("What time is it here?")
        .run(&toolbox)
        .history(&history)
        .cancel(&cancel)
        .await
        .expect("an answer");
    assert_eq!(answer, Step::Answer("It is 14:00 in Oslo.".into()));
    let sent = bodies(&server).await;
    assert_eq!(
        contents(&sent[0])[1..],
        ["I am in Oslo.", "What time is it here?"]
    );
    assert!(
        contents(&sent[1])
            .last()
            .unwrap()
            .contains("Result of get_time: 14:00 in Europe/Oslo")
    );

    // Cancelled before it starts: no call at all.
    let (server, provider) = openai(vec![chat(r#"{"answer": "never"}"#)]).await;
    let cancel = CancelToken::new();
    cancel.cancel();
    let error = Agent::new(provider)
        .ask::<Step>("Time?")
        .run(&toolbox)
        .cancel(&cancel)
        .await
        .unwrap_err();
    assert!(matches!(error, AskError::Cancelled { .. }), "{error:?}");
    assert!(bodies(&server).await.is_empty());
}

#[tokio::test]
async fn the_steps_of_a_run_time_loop_keep_their_attempts_in_a_failure() {
    let tools = Toolset::from_openai_tools(&json!([{"type": "function", "function": {
        "name": "time.now", "parameters": {"type": "object", "properties": {}}}}]))
    .expect("the tools load")
    .with_answer();
    let toolbox = Toolbox::new().tool("time.now", |_: Value| async {
        Ok::<_, String>("14:00".to_owned())
    });
    let (_server, provider) = openai(vec![
        chat("not json {"),
        chat(r#"{"name": "time_now", "arguments": {}}"#),
        chat("still not json {"),
        chat("nor this {"),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::JsonObject).max_attempts(2);
    let error = agent
        .ask_tools(&tools, "Time?")
        .run(&toolbox)
        .await
        .unwrap_err();
    // The first step's two attempts, then the second step's two: every reply kept.
    let raw: Vec<&str> = error.attempts().iter().map(|a| a.raw()).collect();
    assert_eq!(
        raw,
        [
            "not json {",
            r#"{"name": "time_now", "arguments": {}}"#,
            "still not json {",
            "nor this {"
        ]
    );
}
