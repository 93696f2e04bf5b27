//! What a tool loop did (`ToolLoop::ran`): every call with its step, both spellings of
//! its tool, its arguments and what went back to the model; every attempt of every step
//! and their tokens; and the events of each call as it runs.

use serde_json::{Value, json};
use toolschema::agent::{Event, ToolRun, Toolbox};
use toolschema::provider::Mode;
use toolschema::{Agent, ToolSchema, Toolset};

use crate::server::{Events, bodies, chat, openai, tool_calls};

#[derive(ToolSchema, Debug, PartialEq)]
struct GetWeather {
    city: String,
}

#[derive(ToolSchema, Debug, PartialEq)]
enum Step {
    /// The weather in a city.
    #[tool]
    GetWeather(GetWeather),
    #[answer]
    Answer(String),
}

/// `(step, id, name, tool, arguments, result, repeated)` of a call.
type Row<'a> = (
    usize,
    Option<&'a str>,
    &'a str,
    &'a str,
    &'a Value,
    Result<&'a str, &'a str>,
    bool,
);

fn row(run: &ToolRun) -> Row<'_> {
    (
        run.step,
        run.id.as_deref(),
        &run.name,
        &run.tool,
        &run.arguments,
        run.result.as_deref().map_err(String::as_str),
        run.repeated,
    )
}

/// The events of the calls, as their lines.
fn tool_lines(events: &Events) -> Vec<String> {
    events
        .all()
        .iter()
        .filter(|e| matches!(e, Event::ToolCalled { .. } | Event::ToolReturned { .. }))
        .map(ToString::to_string)
        .collect()
}

#[tokio::test]
async fn the_derived_loop_returns_every_call_every_attempt_and_the_tokens() {
    let (server, provider) = openai(vec![
        tool_calls(&[
            ("call_a", "get_weather", r#"{"city": "Oslo"}"#),
            ("call_b", "get_weather", r#"{"city": "Atlantis"}"#),
        ]),
        // The same call again: not run again.
        tool_calls(&[("call_c", "get_weather", r#"{"city": "Oslo"}"#)]),
        chat(r#"{"answer": "3°C in Oslo; there is no Atlantis."}"#),
    ])
    .await;
    let tools = Toolbox::new().tool("get_weather", |args: GetWeather| async move {
        match args.city.as_str() {
            "Oslo" => Ok("3°C".to_owned()),
            other => Err(format!("no city named {other}")),
        }
    });
    let events = Events::default();
    let agent = Agent::new(provider)
        .mode(Mode::Tools)
        .on_event(events.listener());
    let ran = agent
        .ask::<Step>("Weather in Oslo and Atlantis?")
        .run(&tools)
        .ran()
        .await
        .expect("an answer");

    assert_eq!(
        ran.answer,
        Step::Answer("3°C in Oslo; there is no Atlantis.".into())
    );
    assert_eq!(ran.steps, 3);
    let oslo = json!({ "city": "Oslo" });
    let atlantis = json!({ "city": "Atlantis" });
    let rows: Vec<Row<'_>> = ran.calls.iter().map(row).collect();
    assert_eq!(
        rows,
        [
            (
                1,
                Some("call_a"),
                "get_weather",
                "get_weather",
                &oslo,
                Ok("3°C"),
                false
            ),
            (
                1,
                Some("call_b"),
                "get_weather",
                "get_weather",
                &atlantis,
                Err("no city named Atlantis"),
                false
            ),
            (
                2,
                Some("call_c"),
                "get_weather",
                "get_weather",
                &oslo,
                Ok("3°C"),
                true
            ),
        ]
    );
    // Every attempt of every step, the answer's included: 100 + 20 tokens each.
    let raw: Vec<&str> = ran.attempts.iter().map(|a| a.raw()).collect();
    assert_eq!(raw.len(), 3, "{raw:?}");
    assert!(raw[2].contains("there is no Atlantis"), "{}", raw[2]);
    // Each attempt says which step it was made in, and its number within that step.
    let steps: Vec<(Option<usize>, usize)> = ran
        .attempts
        .iter()
        .map(|a| (a.step(), a.number()))
        .collect();
    assert_eq!(steps, [(Some(1), 1), (Some(2), 1), (Some(3), 1)]);
    assert_eq!(
        (ran.usage.prompt_tokens, ran.usage.completion_tokens),
        (300, 60)
    );
    assert_eq!(bodies(&server).await.len(), 3);

    // Each call that ran, as it ran; the repeated one did not run.
    assert_eq!(
        tool_lines(&events),
        [
            r#"step 1: calling get_weather({"city":"Oslo"})"#,
            "step 1: get_weather → 3°C",
            r#"step 1: calling get_weather({"city":"Atlantis"})"#,
            "step 1: get_weather failed: no city named Atlantis",
        ]
    );
    assert_eq!(
        ran.calls[2].to_string(),
        r#"get_weather({"city":"Oslo"}) repeated → 3°C"#
    );
}

#[tokio::test]
async fn the_run_time_loop_returns_both_spellings_of_each_tool() {
    let tools = Toolset::from_openai_tools(&json!([{
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
    }]))
    .expect("the tools load")
    .with_answer();
    let (_server, provider) = openai(vec![
        chat(r#"{"name": "time_get_current_time", "arguments": {"timezone": "UTC"}}"#),
        chat(r#"{"answer": "It is 14:00 in UTC."}"#),
    ])
    .await;
    let toolbox = Toolbox::new().tool("time.get_current_time", |_: Value| async {
        Ok::<_, String>("14:00".to_owned())
    });
    let events = Events::default();
    let agent = Agent::new(provider)
        .mode(Mode::Prompt)
        .on_event(events.listener());
    let ran = agent
        .ask_tools(&tools, "The time in UTC?")
        .run(&toolbox)
        .ran()
        .await
        .expect("an answer");

    assert_eq!(ran.answer, json!("It is 14:00 in UTC."));
    assert_eq!(ran.steps, 2);
    let utc = json!({ "timezone": "UTC" });
    let rows: Vec<Row<'_>> = ran.calls.iter().map(row).collect();
    assert_eq!(
        rows,
        [(
            1,
            Some("call_0"),
            "time_get_current_time",
            "time.get_current_time",
            &utc,
            Ok("14:00"),
            false
        )]
    );
    assert_eq!(ran.attempts.len(), 2);
    assert_eq!(ran.usage.total(), 240);
    assert_eq!(
        tool_lines(&events),
        [
            r#"step 1: calling time.get_current_time({"timezone":"UTC"})"#,
            "step 1: time.get_current_time → 14:00",
        ]
    );
}
