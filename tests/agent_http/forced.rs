//! A call the schema's grammar chose, not the model: under the grammar of a union with an
//! answer the likeliest tokens are asked for, and where the server reports that the
//! function names had less than a tenth of the model's likelihood where the reply names
//! its function, the call is rejected with `ViolationKind::ForcedCall` and the answer
//! alone is asked for. A server that rejects `logprobs` is asked again without it.

use serde_json::{Value, json};
use toolschema::agent::Answered;
use toolschema::provider::{Mode, OpenAi};
use toolschema::{Agent, AskError, Choice, ViolationKind};

use crate::copied_example::sports;
use crate::server::{bodies, chat, chat_with_tokens, contents, openai};

/// A request beside the sports tools whose call holds a value the user wrote.
const REQUEST: &str = "How many clubs play in Serie A?";
/// The call, as the grammar's reply writes it.
const CALL: &str = r#"{"value": {"name": "sports_get_standings", "arguments": {"league": "Serie A", "season": "2024-25"}}}"#;

/// A completion of `content` with its tokens: the text up to the function's name, the
/// name's first token (`sports`) with `at_name` as its likeliest alternatives, the rest.
fn with_tokens(content: &str, at_name: &[(&str, f64)]) -> wiremock::ResponseTemplate {
    let at = content.find("sports").expect("the name");
    let pieces = [&content[..at], "sports", &content[at + "sports".len()..]];
    let top = |alternatives: &[(&str, f64)]| -> Vec<Value> {
        alternatives
            .iter()
            .map(|(token, logprob)| json!({"token": token, "logprob": logprob}))
            .collect()
    };
    let chosen = at_name
        .iter()
        .find(|(token, _)| *token == "sports")
        .map_or(-9.0, |(_, logprob)| *logprob);
    let tokens = vec![
        json!({"token": pieces[0], "logprob": -0.1, "top_logprobs": top(&[(pieces[0], -0.1)])}),
        json!({"token": pieces[1], "logprob": chosen, "top_logprobs": top(at_name)}),
        json!({"token": pieces[2], "logprob": -0.1, "top_logprobs": top(&[(pieces[2], -0.1)])}),
    ];
    chat_with_tokens(content, tokens)
}

/// `REQUEST` asked beside the sports tools.
async fn ask(agent: &Agent<OpenAi>) -> Result<Answered<Choice>, AskError> {
    agent.ask_tools(&sports(), REQUEST).answered().await
}

/// The model's own next words were the request's: `How` where the name goes.
const FORCED: &[(&str, f64)] = &[("How", -0.05), ("Serie", -3.5), ("sports", -9.0)];
/// The model chose the name.
const CHOSEN: &[(&str, f64)] = &[("sports", -0.05), ("How", -3.5)];

#[tokio::test]
async fn a_call_the_grammar_chose_has_the_answer_asked_for_alone() {
    let (server, provider) = openai(vec![
        with_tokens(CALL, FORCED),
        chat(r#"{"value": {"answer": "Twenty clubs."}}"#),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::JsonSchema);
    let asked = ask(&agent).await.expect("the answer");
    assert_eq!(asked.value, Choice::Answer(json!("Twenty clubs.")));
    let bodies = bodies(&server).await;
    assert_eq!(bodies.len(), 2);
    assert_eq!(bodies[0]["logprobs"], json!(true));
    assert_eq!(bodies[0]["top_logprobs"], json!(20));
    let asked_alone = contents(&bodies[1]).join("\n");
    assert!(
        asked_alone.contains("None of the functions does what the request asks"),
        "{asked_alone}"
    );
    let error = asked.attempts[0].error().expect("the call was rejected");
    let forced = error
        .violations()
        .iter()
        .find_map(|v| match v.kind() {
            ViolationKind::ForcedCall { tool, percent } => Some((tool.clone(), *percent)),
            _ => None,
        })
        .expect("a forced call");
    assert_eq!(forced, ("sports_get_standings".to_owned(), 0));
    assert_eq!(asked.attempts[0].raw(), CALL);
}

#[tokio::test]
async fn a_call_the_model_chose_is_taken() {
    let (server, provider) = openai(vec![with_tokens(CALL, CHOSEN)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonSchema);
    let asked = ask(&agent).await.expect("the call");
    let Choice::Calls(calls) = &asked.value else {
        panic!("a call: {:?}", asked.value)
    };
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].name(), "sports.get_standings");
    assert_eq!(bodies(&server).await.len(), 1);
}

#[tokio::test]
async fn no_token_choices_are_asked_for_where_the_call_would_be_all_there_is() {
    // With no attempt left to ask for the answer, the call is all there is: its tokens
    // are not asked for, and it is taken.
    let (server, provider) = openai(vec![with_tokens(CALL, FORCED)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonSchema).max_attempts(1);
    let asked = ask(&agent).await.expect("the call");
    assert!(matches!(asked.value, Choice::Calls(_)), "{:?}", asked.value);
    assert!(bodies(&server).await[0].get("logprobs").is_none());
}

#[tokio::test]
async fn a_repair_under_the_grammar_is_not_read_for_a_forced_call() {
    // The second attempt mends the first's call: the model may be writing the call it
    // chose under the name the grammar holds, so its tokens are neither asked for nor
    // read, and the call is taken.
    let missing_season =
        r#"{"value": {"name": "sports_get_standings", "arguments": {"league": "Serie A"}}}"#;
    let (server, provider) = openai(vec![
        with_tokens(missing_season, CHOSEN),
        with_tokens(CALL, FORCED),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::JsonSchema);
    let asked = ask(&agent).await.expect("the call");
    assert!(matches!(asked.value, Choice::Calls(_)), "{:?}", asked.value);
    let bodies = bodies(&server).await;
    assert_eq!(bodies.len(), 2);
    assert_eq!(bodies[0]["logprobs"], json!(true));
    assert!(bodies[1].get("logprobs").is_none(), "{}", bodies[1]);
}

#[tokio::test]
async fn where_the_model_writes_freely_no_token_choices_are_asked_for() {
    // In prompt mode and with native tools the reply's format is the model's own choice
    // (`json_object` is asked for them: see `forced_json`).
    for mode in [Mode::Prompt, Mode::Tools] {
        let (server, provider) = openai(vec![chat(
            r#"{"name": "sports_get_standings", "arguments": {"league": "Serie A", "season": "2024-25"}}"#,
        )])
        .await;
        let agent = Agent::new(provider).mode(mode);
        ask(&agent).await.expect("the call");
        let body = &bodies(&server).await[0];
        assert!(body.get("logprobs").is_none(), "{mode}: {body}");
        assert!(body.get("top_logprobs").is_none(), "{mode}: {body}");
    }
}

#[tokio::test]
async fn a_server_that_rejects_logprobs_is_asked_again_without_it_and_never_again() {
    for status in [400, 422] {
        let rejected = wiremock::ResponseTemplate::new(status).set_body_json(json!({
            "error": {"message": "logprobs is not supported with this model"}
        }));
        let (server, provider) = openai(vec![rejected, chat(CALL), chat(CALL)]).await;
        let agent = Agent::new(provider).mode(Mode::JsonSchema);
        for _ in 0..2 {
            let asked = ask(&agent).await.expect("the call");
            assert!(matches!(asked.value, Choice::Calls(_)), "{:?}", asked.value);
        }
        let bodies = bodies(&server).await;
        assert_eq!(bodies.len(), 3, "{status}");
        assert_eq!(bodies[0]["logprobs"], json!(true));
        assert!(bodies[1].get("logprobs").is_none(), "{}", bodies[1]);
        assert!(bodies[2].get("logprobs").is_none(), "{}", bodies[2]);
    }
}

#[tokio::test]
async fn a_request_refused_without_logprobs_too_is_the_server_s_error() {
    // Refused again without them, the request was bad for another reason: the error is
    // the server's, and the next ask asks for the token choices again.
    let bad = || {
        wiremock::ResponseTemplate::new(400)
            .set_body_json(json!({"error": {"message": "messages: too long"}}))
    };
    let (server, provider) = openai(vec![bad(), bad(), chat(CALL)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonSchema);
    let error = ask(&agent).await.expect_err("the server's error");
    assert!(error.to_string().contains("400"), "{error}");
    ask(&agent).await.expect("the call");
    let bodies = bodies(&server).await;
    assert_eq!(bodies.len(), 3);
    assert!(bodies[1].get("logprobs").is_none(), "{}", bodies[1]);
    assert_eq!(bodies[2]["logprobs"], json!(true));
}
