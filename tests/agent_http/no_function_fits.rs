//! A union of tools whose replies say that none of its functions fits: a call of a
//! function the union lacks and resembles none, twice, or once beside a call made of
//! nothing the user wrote. The model is then asked for its answer alone, in every mode;
//! one such reply is a slip like any other, sent back and fixed.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use toolschema::agent::Event;
use toolschema::provider::{Mode, OpenAi};
use toolschema::{Agent, AskError, Choice, Toolset};

use crate::server::{bodies, chat, contents, openai};

/// A country's facts and a recipe search, as a server hands them over.
fn tools() -> Toolset {
    Toolset::from_openai_tools(&json!([
        {"type": "function", "function": {
            "name": "geography.get_country_info",
            "description": "Facts about a country: capital, population, languages.",
            "parameters": {"type": "object", "properties": {
                "country": {"type": "string"},
                "fields": {"type": "array", "items": {"type": "string"}}
            }, "required": ["country"]}
        }},
        {"type": "function", "function": {
            "name": "recipes.search",
            "description": "Find recipes by ingredients.",
            "parameters": {"type": "object", "properties": {
                "ingredients": {"type": "array", "items": {"type": "string"}}
            }, "required": ["ingredients"]}
        }}
    ]))
    .expect("the tools load")
    .with_answer()
}

const REQUEST: &str = "Translate 'good morning' into Portuguese.";
const INVENTED: &str = r#"{"name": "translateGoodMorning", "arguments": {"text": "good morning"}}"#;
const PLACEHOLDERS: &str = r#"{"name": "geography_get_country_info", "arguments": {"country": "text", "fields": ["capital"]}}"#;
const ASKED: &str = "None of the functions does what the request asks, so answer it yourself";

/// The agent, and the `AnswerAsked` events of its asks.
fn agent(provider: OpenAi, mode: Mode) -> (Agent<OpenAi>, Arc<Mutex<Vec<String>>>) {
    let events = Arc::new(Mutex::new(Vec::new()));
    let seen = events.clone();
    let agent = Agent::new(provider)
        .mode(mode)
        .on_event(move |event: &Event| {
            if matches!(event, Event::AnswerAsked { .. }) {
                seen.lock().unwrap().push(event.to_string());
            }
        });
    (agent, events)
}

#[tokio::test]
async fn two_calls_of_a_function_the_union_lacks_ask_for_the_answer() {
    for mode in [Mode::Prompt, Mode::JsonObject, Mode::JsonSchema] {
        let (server, provider) = openai(vec![
            chat(INVENTED),
            chat(r#"{"name": "translate", "arguments": {"to": "pt"}}"#),
            chat(r#"{"answer": "Bom dia."}"#),
        ])
        .await;
        let (agent, events) = agent(provider, mode);
        let choice = agent.ask_tools(&tools(), REQUEST).await.expect("an answer");
        assert_eq!(choice, Choice::Answer(json!("Bom dia.")), "{mode}");
        let bodies: Vec<Value> = bodies(&server).await;
        assert_eq!(bodies.len(), 3, "{mode}");
        // A fresh ask for the answer: its own instructions, no repair of the call.
        let third = contents(&bodies[2]);
        assert!(third[0].starts_with(ASKED), "{mode}: {}", third[0]);
        assert_eq!(third.len(), 2, "{mode}: {third:?}");
        assert_eq!(third[1], REQUEST, "{mode}");
        if mode == Mode::JsonSchema {
            let schema = &bodies[2]["response_format"]["json_schema"]["schema"];
            let text = schema.to_string();
            assert!(text.contains("\"answer\""), "{schema}");
            assert!(
                !text.contains("country"),
                "the grammar holds the answer only: {schema}"
            );
        }
        assert_eq!(
            *events.lock().unwrap(),
            ["after attempt 2, the replies say no function fits: asking for the answer"],
            "{mode}"
        );
    }
}

#[tokio::test]
async fn a_lacking_function_then_placeholders_ask_for_the_answer_in_either_order() {
    for (first, second) in [(INVENTED, PLACEHOLDERS), (PLACEHOLDERS, INVENTED)] {
        let (server, provider) = openai(vec![
            chat(first),
            chat(second),
            chat("Bom dia, in Portuguese."),
        ])
        .await;
        let (agent, _) = agent(provider, Mode::Prompt);
        let choice = agent.ask_tools(&tools(), REQUEST).await.expect("an answer");
        // In prompt mode, prose is the answer.
        assert_eq!(choice, Choice::Answer(json!("Bom dia, in Portuguese.")));
        assert!(contents(&bodies(&server).await[2])[0].starts_with(ASKED));
    }
}

#[tokio::test]
async fn one_slip_is_sent_back_and_its_fix_taken() {
    let (server, provider) = openai(vec![
        chat(INVENTED),
        chat(r#"{"name": "recipes_search", "arguments": {"ingredients": ["mushrooms"]}}"#),
    ])
    .await;
    let (agent, events) = agent(provider, Mode::Prompt);
    let choice = agent
        .ask_tools(&tools(), "Any recipes with mushrooms?")
        .await
        .expect("a call");
    let Choice::Calls(calls) = choice else {
        panic!("a call")
    };
    assert_eq!(calls[0].name(), "recipes.search");
    assert!(events.lock().unwrap().is_empty());
    let second = contents(&bodies(&server).await[1]);
    assert!(!second[0].starts_with(ASKED), "{}", second[0]);
}

#[tokio::test]
async fn misspelled_or_generic_names_are_no_sign_that_nothing_fits() {
    // Each resembles a tool: the replies are repaired as any others, never turned into a
    // request for the answer.
    for name in ["get_country_info", "recipe_search", "search", "countryInfo"] {
        let call = format!(r#"{{"name": "{name}", "arguments": {{"country": "Chile"}}}}"#);
        let (server, provider) = openai(vec![chat(&call), chat(&call), chat(&call)]).await;
        let (agent, events) = agent(provider, Mode::Prompt);
        let error = agent
            .ask_tools(&tools(), "What is the capital of Chile?")
            .await
            .expect_err("no call of a tool");
        assert!(
            matches!(error, AskError::Exhausted { .. }),
            "{name}: {error}"
        );
        assert!(events.lock().unwrap().is_empty(), "{name}");
        for body in bodies(&server).await {
            assert!(!contents(&body)[0].starts_with(ASKED), "{name}");
        }
    }
}

#[tokio::test]
async fn a_union_without_an_answer_is_never_asked_for_one() {
    let (server, provider) = openai(vec![chat(INVENTED), chat(INVENTED), chat(INVENTED)]).await;
    let tools = Toolset::from_openai_tools(&json!([
        {"type": "function", "function": {"name": "recipes.search", "parameters": {
            "type": "object", "properties": {"ingredients": {"type": "array", "items": {"type": "string"}}}}}}
    ]))
    .expect("the tools load");
    let (agent, events) = agent(provider, Mode::Prompt);
    let error = agent
        .ask_tools(&tools, REQUEST)
        .await
        .expect_err("no answer to give");
    assert_eq!(error.attempts().len(), 3);
    assert!(events.lock().unwrap().is_empty());
    for body in bodies(&server).await {
        assert!(!contents(&body)[0].starts_with(ASKED));
    }
}

#[tokio::test]
async fn auto_stays_in_prose_after_a_call_of_a_function_the_union_lacks() {
    let (server, provider) = openai(vec![chat(INVENTED), chat("Bom dia.")]).await;
    let agent = Agent::new(provider);
    let choice = agent.ask_tools(&tools(), REQUEST).await.expect("an answer");
    assert_eq!(choice, Choice::Answer(json!("Bom dia.")));
    let bodies: Vec<Value> = bodies(&server).await;
    assert!(bodies.iter().all(|b| b.get("response_format").is_none()));
}
