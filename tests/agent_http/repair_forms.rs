//! The repair of a reply to a union of tools with an answer asks for a call or the answer
//! in the forms the first prompt gave, with the same placeholders, in the attempt's mode:
//! not for the union's shape in TypeScript notation, which a small model asked for "this
//! shape" writes back word for word (`{ name: "…"; arguments: {…} } | { answer: string }`)
//! and which no reading turns into a call. The standalone repair, which lists no
//! functions, a union without an answer, and tools mode keep the shape.

use serde_json::json;
use toolschema::provider::{Mode, OpenAi};
use toolschema::{Agent, Choice, Message, RepairStrategy, ToolCall, Toolset, render};

use crate::server::{bodies, chat, contents, openai};

const REQUEST: &str = "Who painted the Mona Lisa?";
const CALL_FORM: &str = r#"{"name": "<function name>", "arguments": {…}}"#;
const ANSWER_FORM: &str = r#"{"answer": "<your answer>"}"#;

/// Two sports tools, as a server hands them over.
fn calls_only() -> Toolset {
    Toolset::from_openai_tools(&json!([
        {"type": "function", "function": {
            "name": "sports.get_match_results",
            "description": "Results of the matches a team played.",
            "parameters": {"type": "object", "properties": {
                "team": {"type": "string"},
                "last": {"type": "integer", "description": "How many matches, 5 by default."}
            }, "required": ["team"]}
        }},
        {"type": "function", "function": {
            "name": "sports.get_standings",
            "description": "The table of a league.",
            "parameters": {"type": "object", "properties": {"league": {"type": "string"}}, "required": ["league"]}
        }}
    ]))
    .expect("the tools load")
}

/// The union's shape as a repair used to show it, which is what the echo writes.
fn shape(tools: &Toolset) -> String {
    render::compact_schema(tools.schema())
}

/// The second request's last message: the repair.
async fn repair_of(
    agent: &Agent<OpenAi>,
    server: &wiremock::MockServer,
    tools: &Toolset,
) -> String {
    last_repair_of(agent, server, tools, 2).await
}

/// The last message of the last of `requests` requests: the last repair.
async fn last_repair_of(
    agent: &Agent<OpenAi>,
    server: &wiremock::MockServer,
    tools: &Toolset,
    requests: usize,
) -> String {
    let choice = agent.ask_tools(tools, REQUEST).await.expect("the answer");
    assert!(matches!(choice, Choice::Answer(_)), "{choice:?}");
    let bodies = bodies(server).await;
    assert_eq!(bodies.len(), requests, "the repairs: {choice:?}");
    contents(&bodies[requests - 1]).pop().expect("a repair")
}

#[tokio::test]
async fn a_text_mode_repair_asks_for_the_forms_of_the_first_prompt_not_the_shape() {
    let tools = calls_only().with_answer();
    let echo = shape(&tools);
    assert!(echo.contains("| {"), "the shape is a union: {echo}");
    // A call of one of the functions first: the shape written back after it is sent
    // back (before any call, the answer alone would be asked for).
    let call = r#"{"name": "sports_get_match_results", "arguments": {"last": 3}}"#;
    for mode in [Mode::Prompt, Mode::JsonObject] {
        let answer = r#"{"answer": "Leonardo da Vinci painted it."}"#;
        let (server, provider) = openai(vec![chat(call), chat(&echo), chat(answer)]).await;
        let agent = Agent::new(provider).mode(mode);
        let repair = last_repair_of(&agent, &server, &tools, 3).await;
        assert!(repair.contains(CALL_FORM), "{mode:?}: {repair}");
        assert!(
            repair.contains("a call of one of the functions above"),
            "{repair}"
        );
        assert!(repair.contains(ANSWER_FORM), "{mode:?}: {repair}");
        assert!(
            repair.contains("when none of the functions does what the request asks"),
            "{repair}"
        );
        // The echo is quoted as the reply; the forms asked for are not the shape.
        let asked = repair.split("in this shape:").nth(1).expect("the forms");
        assert!(!asked.contains("| {"), "{mode:?}: {asked}");
        assert!(!asked.contains("answer: string"), "{mode:?}: {asked}");
    }
}

#[tokio::test]
async fn under_a_grammar_that_wraps_the_reply_the_forms_are_wrapped_too() {
    let tools = calls_only().with_answer();
    let wrong = r#"{"value": {"result": "a match"}}"#;
    let answer = r#"{"value": {"answer": "Leonardo da Vinci."}}"#;
    let (server, provider) = openai(vec![chat(wrong), chat(answer)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonSchema);
    let repair = repair_of(&agent, &server, &tools).await;
    assert!(
        repair.contains(&format!(r#"{{"value": {CALL_FORM}}}"#)),
        "{repair}"
    );
    assert!(
        repair.contains(&format!(r#"{{"value": {ANSWER_FORM}}}"#)),
        "{repair}"
    );
}

#[tokio::test]
async fn in_tools_mode_the_repair_shows_the_shape_not_the_forms() {
    // In tools mode a call is the server's, not text the model writes, and the forms'
    // words came back as the answer ("a call of one of the tools, the arguments taken
    // from the request;"): its repair shows the union's shape, as before.
    let tools = calls_only().with_answer();
    let answer = r#"{"answer": "Leonardo da Vinci."}"#;
    let (server, provider) = openai(vec![chat(r#"{"result": "a match"}"#), chat(answer)]).await;
    let agent = Agent::new(provider).mode(Mode::Tools);
    let repair = repair_of(&agent, &server, &tools).await;
    assert!(repair.contains(&shape(&tools)), "{repair}");
    assert!(!repair.contains("a call of one of the"), "{repair}");
    assert!(!repair.contains(ANSWER_FORM), "{repair}");
}

#[tokio::test]
async fn after_results_the_forms_take_the_arguments_from_the_conversation() {
    let tools = calls_only().with_answer();
    let history = [
        Message::user("Who leads Serie A?"),
        Message::assistant_calls(
            "",
            vec![ToolCall::new(
                "c1",
                "sports.get_standings",
                json!({"league": "Serie A"}),
            )],
        ),
        Message::tool_result(Some("c1".into()), r#"{"leader": "Inter"}"#),
    ];
    let answer = r#"{"answer": "Inter lead Serie A."}"#;
    let (server, provider) = openai(vec![chat(r#"{"leader": "Inter"}"#), chat(answer)]).await;
    let agent = Agent::new(provider).mode(Mode::Prompt);
    let choice = agent
        .ask_tools(&tools, "")
        .history(&history)
        .await
        .expect("the answer");
    assert!(matches!(choice, Choice::Answer(_)), "{choice:?}");
    let repair = contents(&bodies(&server).await[1]).pop().expect("a repair");
    assert!(
        repair.contains("the arguments taken from the conversation"),
        "{repair}"
    );
    assert!(
        repair.contains("when the results above give what the request asks for"),
        "{repair}"
    );
}

#[tokio::test]
async fn the_standalone_repair_and_a_union_without_an_answer_keep_the_shape() {
    let with_answer = calls_only().with_answer();
    let (server, provider) = openai(vec![
        chat(r#"{"result": "a match"}"#),
        chat(r#"{"answer": "Leonardo da Vinci."}"#),
    ])
    .await;
    let agent = Agent::new(provider)
        .mode(Mode::Prompt)
        .repair_strategy(RepairStrategy::Minimal);
    let repair = repair_of(&agent, &server, &with_answer).await;
    assert!(repair.contains(&shape(&with_answer)), "{repair}");
    assert!(!repair.contains(CALL_FORM), "{repair}");

    let tools = calls_only();
    let call = r#"{"name": "sports_get_standings", "arguments": {"league": "Serie A"}}"#;
    let (server, provider) = openai(vec![chat(r#"{"result": "a match"}"#), chat(call)]).await;
    let agent = Agent::new(provider).mode(Mode::Prompt);
    agent
        .ask_tools(&tools, "The Serie A table, please.")
        .await
        .expect("a call");
    let repair = contents(&bodies(&server).await[1]).pop().expect("a repair");
    assert!(repair.contains(&shape(&tools)), "{repair}");
    assert!(!repair.contains(CALL_FORM), "{repair}");
}

#[tokio::test]
async fn a_call_with_empty_arguments_is_told_the_arguments_its_function_requires() {
    // `{…}` of the form written as `{}`: the violations name the missing argument as a
    // pointer; the repair also names it as a key to fill from the request.
    let tools = calls_only().with_answer();
    let empty = r#"{"name": "sports_get_match_results", "arguments": {}}"#;
    let call = r#"{"name": "sports_get_match_results", "arguments": {"team": "Ajax"}}"#;
    for mode in [Mode::JsonObject, Mode::Prompt] {
        let (server, provider) = openai(vec![chat(empty), chat(call)]).await;
        let agent = Agent::new(provider).mode(mode);
        let choice = agent
            .ask_tools(&tools, "How did Ajax do lately?")
            .await
            .expect("the call");
        assert!(matches!(choice, Choice::Calls(_)), "{choice:?}");
        let bodies = bodies(&server).await;
        let repair = contents(&bodies[1]).pop().expect("a repair");
        assert!(
            repair.contains(
                "The call of \"sports_get_match_results\" had empty \"arguments\": write in it \
                 the arguments the function requires, \"team\", each with its value taken \
                 from the request."
            ),
            "{mode}: {repair}"
        );
    }
    // A call with some of its arguments is told what is missing, as before, and no more.
    let partial = r#"{"name": "sports_get_match_results", "arguments": {"last": 3}}"#;
    let (server, provider) = openai(vec![chat(partial), chat(call)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    agent
        .ask_tools(&tools, "How did Ajax do lately?")
        .await
        .expect("the call");
    let repair = contents(&bodies(&server).await[1]).pop().expect("a repair");
    assert!(repair.contains("/arguments/team"), "{repair}");
    assert!(!repair.contains("had empty"), "{repair}");
}
