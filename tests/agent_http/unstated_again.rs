//! A call of the tool the request names, made of nothing the user wrote, is questioned
//! once ("Call the function again only if…"). Called again so, to a request that asks to
//! know something, the model is asked for its answer alone, in every mode; to a command,
//! the repeated call is taken, as a call of values the model inferred.

use serde_json::{Value, json};
use toolschema::provider::Mode;
use toolschema::{Choice, Toolset};
use wiremock::ResponseTemplate;

use crate::no_function_fits::agent;
use crate::server::{bodies, chat, contents, openai, tool_calls};

/// A speaker's volume and what it plays, as a server hands them over.
fn tools() -> Toolset {
    Toolset::from_openai_tools(&json!([
        {"type": "function", "function": {
            "name": "music.set_volume",
            "description": "Sets the volume of the active speaker.",
            "parameters": {"type": "object", "properties": {
                "level": {"type": "integer", "description": "The volume in percent, 0 to 100."}
            }, "required": ["level"]}
        }},
        {"type": "function", "function": {
            "name": "music.play",
            "description": "Plays a track, album or playlist.",
            "parameters": {"type": "object", "properties": {
                "query": {"type": "string"}
            }, "required": ["query"]}
        }}
    ]))
    .expect("the tools load")
    .with_answer()
}

const QUESTION: &str = "What volume of water fills an Olympic swimming pool?";
const COMMAND: &str = "Turn the volume up for the pool party at the Olympic swimming pool.";
const ASKED: &str = "None of the functions does what the request asks, so answer it yourself";
const ANSWER: &str = "About 2.5 million litres.";

/// The made-up call, as the mode's server writes it.
fn made_up(mode: Mode, level: u32) -> ResponseTemplate {
    let arguments = json!({ "level": level }).to_string();
    match mode {
        Mode::Tools => tool_calls(&[("c1", "music_set_volume", &arguments)]),
        _ => chat(&format!(
            r#"{{"name": "music_set_volume", "arguments": {arguments}}}"#
        )),
    }
}

const MODES: [Mode; 4] = [
    Mode::Prompt,
    Mode::JsonObject,
    Mode::JsonSchema,
    Mode::Tools,
];

#[tokio::test]
async fn a_made_up_call_repeated_to_a_question_has_the_answer_asked_for() {
    for mode in MODES {
        let (server, provider) = openai(vec![
            made_up(mode, 75),
            made_up(mode, 75),
            chat(&json!({ "answer": ANSWER }).to_string()),
        ])
        .await;
        let (agent, events) = agent(provider, mode);
        let asked = agent
            .ask_tools(&tools(), QUESTION)
            .answered()
            .await
            .expect("an answer");
        assert_eq!(asked.value, Choice::Answer(json!(ANSWER)), "{mode}");
        let bodies: Vec<Value> = bodies(&server).await;
        assert_eq!(bodies.len(), 3, "{mode}");
        // The second request questions the call; the third asks for the answer alone.
        let second = contents(&bodies[1]).join("\n");
        assert!(
            second.contains("Call the function again only if"),
            "{mode}: {second}"
        );
        let third = contents(&bodies[2]);
        assert!(third[0].starts_with(ASKED), "{mode}: {}", third[0]);
        assert_eq!(third.last().map(String::as_str), Some(QUESTION), "{mode}");
        assert_eq!(
            *events.lock().unwrap(),
            ["after attempt 2, the replies say no function fits: asking for the answer"],
            "{mode}"
        );
        // Every reply stays reachable: the two calls, each rejected as unstated.
        assert_eq!(asked.attempts.len(), 3, "{mode}");
        for attempt in &asked.attempts[..2] {
            assert!(attempt.raw().contains("75"), "{mode}: {}", attempt.raw());
        }
    }
}

#[tokio::test]
async fn a_made_up_call_repeated_to_a_command_is_taken() {
    for mode in MODES {
        let (server, provider) = openai(vec![made_up(mode, 80), made_up(mode, 80)]).await;
        let (agent, events) = agent(provider, mode);
        let choice = agent.ask_tools(&tools(), COMMAND).await.expect("a call");
        let Choice::Calls(calls) = choice else {
            panic!("{mode}: {choice:?}");
        };
        assert_eq!(calls[0].name(), "music.set_volume", "{mode}");
        assert_eq!(calls[0].arguments(), &json!({ "level": 80 }), "{mode}");
        let bodies: Vec<Value> = bodies(&server).await;
        assert_eq!(bodies.len(), 2, "{mode}: the call was questioned once");
        assert!(events.lock().unwrap().is_empty(), "{mode}");
    }
}
