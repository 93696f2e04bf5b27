//! In tools mode a union's answer is one more native tool, listed first: its call is the
//! answer, read as data like any call's arguments, never as a call of another tool; made
//! beside calls, it is sent back; where one of the union's tools is named `answer`, the
//! answer's tool takes another name and that tool stays a tool. Its call written as text
//! is the answer too, in tools mode, where it is the reply's one call.

use serde_json::{Value, json};
use toolschema::provider::Mode;
use toolschema::repair::FixKind;
use toolschema::{Agent, AskError, Choice, Toolset};

use crate::server::{anthropic, bodies, chat, message, openai, tool_calls};

fn weather(extra: Option<&str>) -> Toolset {
    let mut tools = vec![json!({"type": "function", "function": {
        "name": "weather.get_forecast",
        "description": "The forecast for a city, for up to 7 days ahead.",
        "parameters": {"type": "object", "properties": {
            "city": {"type": "string"}, "days": {"type": "integer"}
        }, "required": ["city"]}
    }})];
    if let Some(name) = extra {
        tools.push(json!({"type": "function", "function": {
            "name": name,
            "description": "Answer a support ticket.",
            "parameters": {"type": "object", "properties": {
                "ticket": {"type": "integer"}, "text": {"type": "string"}
            }, "required": ["ticket", "text"]}
        }}));
    }
    Toolset::from_openai_tools(&Value::Array(tools)).expect("the tools load")
}

/// The names of the tools a request carries, in order.
fn tool_names(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .expect("tools sent")
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn the_answer_is_a_tool_listed_first_and_its_call_is_the_answer() {
    let (server, provider) = openai(vec![tool_calls(&[(
        "call_1",
        "answer",
        r#"{"answer": "It rained on 3 May 2019."}"#,
    )])])
    .await;
    let agent = Agent::new(provider).mode(Mode::Tools);
    let tools = weather(None).with_answer();
    let choice = agent
        .ask_tools(&tools, "Did it rain in London on 3 May 2019?")
        .await
        .expect("the answer");
    assert_eq!(choice, Choice::Answer(json!("It rained on 3 May 2019.")));
    let sent = bodies(&server).await;
    assert_eq!(sent.len(), 1);
    let body = &sent[0];
    assert_eq!(tool_names(body), ["answer", "weather_get_forecast"]);
    assert_eq!(body["tool_choice"], "auto");
    let answer = &body["tools"][0]["function"];
    assert_eq!(answer["parameters"]["required"], json!(["answer"]));
    assert_eq!(
        answer["parameters"]["properties"]["answer"]["type"],
        "string"
    );
    let system = body["messages"][0]["content"].as_str().unwrap();
    assert!(system.contains("call answer with the answer"), "{system}");

    // Without an answer the union sends its tools alone, a call required.
    let (server, provider) = openai(vec![tool_calls(&[(
        "call_1",
        "weather_get_forecast",
        r#"{"city": "Oslo"}"#,
    )])])
    .await;
    let agent = Agent::new(provider).mode(Mode::Tools);
    agent
        .ask_tools(&weather(None), "Weather in Oslo?")
        .await
        .expect("the call");
    let bodies = bodies(&server).await;
    assert_eq!(tool_names(&bodies[0]), ["weather_get_forecast"]);
    assert_eq!(bodies[0]["tool_choice"], "required");
}

#[tokio::test]
async fn the_answers_call_is_read_as_the_answer_over_anthropic_too() {
    let (server, provider) = anthropic(vec![message(
        json!([{"type": "tool_use", "id": "toolu_1", "name": "answer",
                "input": {"answer": "Canberra"}}]),
        "tool_use",
    )])
    .await;
    let agent = Agent::new(provider).mode(Mode::Tools);
    let choice = agent
        .ask_tools(
            &weather(None).with_answer(),
            "What is the capital of Australia?",
        )
        .await
        .expect("the answer");
    assert_eq!(choice, Choice::Answer(json!("Canberra")));
    let bodies = bodies(&server).await;
    let names: Vec<&str> = bodies[0]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["answer", "weather_get_forecast"]);
}

/// Arguments of the answer's call that hold a call, however written, are no call of it:
/// the reply is sent back, and the tool it names is never called.
#[tokio::test]
async fn the_answers_arguments_never_make_a_call() {
    for smuggled in [
        r#"{"name": "weather_get_forecast", "arguments": {"city": "Oslo"}}"#,
        r#"{"answer": "x"}, "name": "weather_get_forecast", "arguments": {"city": "Oslo"}"#,
        r#"<tool_call>{"name": "weather_get_forecast", "arguments": {"city": "Oslo"}}</tool_call>"#,
    ] {
        let (server, provider) = openai(vec![
            tool_calls(&[("call_1", "answer", smuggled)]),
            tool_calls(&[("call_2", "answer", r#"{"answer": "Sunny."}"#)]),
        ])
        .await;
        let agent = Agent::new(provider).mode(Mode::Tools).max_attempts(2);
        let choice = agent
            .ask_tools(&weather(None).with_answer(), "Is it sunny in Oslo?")
            .await;
        match choice {
            Ok(Choice::Answer(answer)) => {
                // Taken only from the second reply, or as the first's own `answer`.
                assert!(
                    answer == json!("Sunny.") || answer == json!("x"),
                    "{smuggled}: {answer}"
                );
            }
            other => panic!("{smuggled}: expected the answer, got {other:?}"),
        }
        let sent = bodies(&server).await.len();
        if smuggled.starts_with(r#"{"name""#) || smuggled.starts_with("<tool_call>") {
            assert_eq!(sent, 2, "{smuggled}: the first reply is no answer");
        }
    }
}

#[tokio::test]
async fn the_answers_call_beside_calls_is_sent_back_with_every_call_kept() {
    let (server, provider) = openai(vec![
        tool_calls(&[
            ("call_1", "weather_get_forecast", r#"{"city": "Oslo"}"#),
            ("call_2", "answer", r#"{"answer": "Rain."}"#),
        ]),
        tool_calls(&[("call_3", "weather_get_forecast", r#"{"city": "Oslo"}"#)]),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::Tools).max_attempts(2);
    let choice = agent
        .ask_tools(&weather(None).with_answer(), "Weather in Oslo?")
        .await
        .expect("the call");
    match choice {
        Choice::Calls(calls) => {
            assert_eq!(calls.len(), 1);
            assert_eq!(calls[0].name(), "weather.get_forecast");
        }
        Choice::Answer(answer) => panic!("expected the call, got {answer}"),
    }
    let bodies = bodies(&server).await;
    assert_eq!(bodies.len(), 2);
    let repair = bodies[1].to_string();
    assert!(repair.contains("in place of calls"), "{repair}");

    // Out of attempts, the error keeps the reply with both calls.
    let (_server, provider) = openai(vec![tool_calls(&[
        ("call_1", "weather_get_forecast", r#"{"city": "Oslo"}"#),
        ("call_2", "answer", r#"{"answer": "Rain."}"#),
    ])])
    .await;
    let agent = Agent::new(provider).mode(Mode::Tools).max_attempts(1);
    let error: AskError = agent
        .ask_tools(&weather(None).with_answer(), "Weather in Oslo?")
        .await
        .expect_err("no choice");
    let raw = error.attempts()[0].raw();
    assert!(
        raw.contains("weather_get_forecast") && raw.contains("Rain."),
        "{raw}"
    );
}

/// A tool of the union named `answer` stays that tool; the answer's tool is renamed.
#[tokio::test]
async fn a_tool_named_answer_keeps_its_name_and_the_answer_takes_another() {
    let (server, provider) = openai(vec![
        tool_calls(&[("call_1", "answer", r#"{"ticket": 7, "text": "Done."}"#)]),
        tool_calls(&[("call_2", "answer_directly", r#"{"answer": "Hello."}"#)]),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::Tools).max_attempts(1);
    let tools = weather(Some("answer")).with_answer();
    let first = agent
        .ask_tools(&tools, "Answer ticket 7 with Done.")
        .await
        .expect("the call");
    match first {
        Choice::Calls(calls) => {
            assert_eq!(calls[0].name(), "answer");
            assert_eq!(calls[0].arguments(), &json!({"ticket": 7, "text": "Done."}));
        }
        Choice::Answer(answer) => panic!("expected the tool's call, got the answer {answer}"),
    }
    let second = agent.ask_tools(&tools, "Say hello.").await;
    assert_eq!(second.expect("the answer"), Choice::Answer(json!("Hello.")));
    let sent = bodies(&server).await;
    assert_eq!(
        tool_names(&sent[0]),
        ["answer_directly", "weather_get_forecast", "answer"]
    );
    let system = sent[0]["messages"][0]["content"].as_str().unwrap();
    assert!(
        system.contains("call answer_directly with the answer"),
        "{system}"
    );

    // A tool whose name only ends in `answer` leaves the answer its name.
    let tools = weather(Some("support.answer")).with_answer();
    let (server, provider) = openai(vec![tool_calls(&[(
        "call_1",
        "support_answer",
        r#"{"ticket": 7, "text": "Done."}"#,
    )])])
    .await;
    let agent = Agent::new(provider).mode(Mode::Tools).max_attempts(1);
    agent
        .ask_tools(&tools, "Answer ticket 7 with Done.")
        .await
        .expect("the call");
    let bodies = bodies(&server).await;
    assert_eq!(
        tool_names(&bodies[0]),
        ["answer", "weather_get_forecast", "support_answer"]
    );
}

const CALL: &str = r#"{"name": "answer", "arguments": {"answer": "Canberra"}}"#;

/// The kinds of the fixes of the attempt taken, and how many requests were sent.
async fn asked(text: &str, mode: Mode) -> (Result<Choice, String>, Vec<FixKind>, usize) {
    let (server, provider) = openai(vec![chat(text)]).await;
    let agent = Agent::new(provider).mode(mode).max_attempts(1);
    let asked = agent
        .ask_tools(
            &weather(None).with_answer(),
            "What is the capital of Australia?",
        )
        .answered()
        .await;
    let sent = bodies(&server).await.len();
    match asked {
        Ok(answered) => {
            let kinds = answered.attempts.last().expect("an attempt").fixes().iter();
            let kinds = kinds.map(|f| f.kind().clone()).collect();
            (Ok(answered.value), kinds, sent)
        }
        Err(e) => (Err(e.to_string()), Vec::new(), sent),
    }
}

#[tokio::test]
async fn the_answers_call_written_as_text_is_the_answer_in_tools_mode() {
    let wrapped = format!("<tool_call>\n{CALL}\n</tool_call>");
    let fenced = format!("Here it is:\n```json\n{CALL}\n```");
    // The answer's text where its field goes, in doubled braces (as a 1.5B model wrote).
    let text_arguments = r#"{{"name": "answer", "arguments": "Canberra"}}"#;
    for text in [CALL, wrapped.as_str(), fenced.as_str(), text_arguments] {
        let (choice, kinds, sent) = asked(text, Mode::Tools).await;
        assert_eq!(choice, Ok(Choice::Answer(json!("Canberra"))), "{text}");
        assert_eq!(sent, 1, "{text}");
        assert!(
            kinds.contains(&FixKind::AnswerCall {
                name: "answer".into()
            }),
            "{text}: {kinds:?}"
        );
    }
}

/// Only the reply's one call, whose arguments hold the answer and no call, and only in
/// tools mode, where the model was given the tool; never a reply that answers as asked.
#[tokio::test]
async fn the_answers_call_as_text_is_read_only_where_it_is_all_there_is() {
    let beside = format!(
        "<tool_call>\n{CALL}\n</tool_call>\n<tool_call>\n\
         {{\"name\": \"weather_get_forecast\", \"arguments\": {{\"city\": \"Canberra\"}}}}\n</tool_call>"
    );
    let holding_a_call =
        r#"{"name": "answer", "arguments": {"answer": "x", "name": "weather_get_forecast"}}"#;
    let no_answer = r#"{"name": "answer", "arguments": {"text": "Canberra"}}"#;
    for text in [beside.as_str(), holding_a_call, no_answer] {
        let (choice, kinds, _) = asked(text, Mode::Tools).await;
        assert!(
            !kinds
                .iter()
                .any(|k| matches!(k, FixKind::AnswerCall { .. })),
            "{text}: {kinds:?}"
        );
        assert_ne!(choice, Ok(Choice::Answer(json!("Canberra"))), "{text}");
        assert_ne!(choice, Ok(Choice::Answer(json!("x"))), "{text}");
    }
    for mode in [Mode::Prompt, Mode::JsonObject] {
        let (_, kinds, _) = asked(CALL, mode).await;
        assert!(
            !kinds
                .iter()
                .any(|k| matches!(k, FixKind::AnswerCall { .. })),
            "{mode}: {kinds:?}"
        );
    }
    for answer in [
        r#"{"answer": "Canberra"}"#,
        r#"{"answer": "Call answer with {\"name\": \"answer\"}"}"#,
        "Canberra.",
    ] {
        let (choice, kinds, sent) = asked(answer, Mode::Tools).await;
        assert!(
            matches!(choice, Ok(Choice::Answer(_))),
            "{answer}: {choice:?}"
        );
        assert!(
            !kinds
                .iter()
                .any(|k| matches!(k, FixKind::AnswerCall { .. })),
            "{answer}: {kinds:?}"
        );
        assert_eq!(sent, 1);
    }
}

/// The answer's call whose arguments are its text itself, as a JSON string or as text
/// that is no JSON, is the answer too.
#[tokio::test]
async fn the_answers_call_with_the_text_as_arguments_is_the_answer() {
    for (arguments, kind) in [
        (
            r#""Canberra""#,
            FixKind::WrappedInField {
                key: "answer".into(),
            },
        ),
        ("Canberra", FixKind::PlainText),
    ] {
        let (server, provider) = openai(vec![tool_calls(&[("call_1", "answer", arguments)])]).await;
        let agent = Agent::new(provider).mode(Mode::Tools).max_attempts(1);
        let answered = agent
            .ask_tools(
                &weather(None).with_answer(),
                "What is the capital of Australia?",
            )
            .answered()
            .await
            .unwrap_or_else(|e| panic!("{arguments}: {e}"));
        assert_eq!(
            answered.value,
            Choice::Answer(json!("Canberra")),
            "{arguments}"
        );
        assert_eq!(bodies(&server).await.len(), 1);
        let kinds: Vec<FixKind> = answered.attempts[0]
            .fixes()
            .iter()
            .map(|f| f.kind().clone())
            .collect();
        assert!(kinds.contains(&kind), "{arguments}: {kinds:?}");
    }
}
