//! A union of tools whose replies say that none of its functions fits: once, a call of a
//! function the union lacks and resembles none, by a function's name or by a value written
//! where the name goes, with arguments that are no tool's; or two signs of other kinds (a
//! value where the name goes with no arguments, a call made of nothing the user wrote).
//! The model is then asked for its answer alone, in every mode; one sign of the other
//! kinds is a slip like any other, sent back and fixed.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use toolschema::agent::Event;
use toolschema::provider::{Mode, Provider};
use toolschema::{Agent, AskError, Choice, Message, ToolCall, Toolset};

use crate::server::{anthropic, bodies, chat, contents, message, openai, tool_calls};

/// A country's facts and a recipe search, as a server hands them over.
pub fn tools() -> Toolset {
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
/// A function the union lacks, named as functions are.
const INVENTED: &str = r#"{"name": "translateGoodMorning", "arguments": {"text": "good morning"}}"#;
/// A value of the request where the name goes: a function the union lacks, but not named
/// as one (and the request is a command, not a question).
const VALUE_AS_NAME: &str = r#"{"name": "Good Morning", "arguments": {"text": "good morning"}}"#;
const PLACEHOLDERS: &str = r#"{"name": "geography_get_country_info", "arguments": {"country": "text", "fields": ["capital"]}}"#;
const ASKED: &str = "None of the functions does what the request asks, so answer it yourself";

/// The agent, and the `AnswerAsked` events of its asks.
pub fn agent<P: Provider>(provider: P, mode: Mode) -> (Agent<P>, Arc<Mutex<Vec<String>>>) {
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
async fn a_function_the_union_lacks_named_once_asks_for_the_answer() {
    for mode in [
        Mode::Prompt,
        Mode::JsonObject,
        Mode::JsonSchema,
        Mode::Tools,
    ] {
        let (server, provider) =
            openai(vec![chat(INVENTED), chat(r#"{"answer": "Bom dia."}"#)]).await;
        let (agent, events) = agent(provider, mode);
        let choice = agent.ask_tools(&tools(), REQUEST).await.expect("an answer");
        assert_eq!(choice, Choice::Answer(json!("Bom dia.")), "{mode}");
        let bodies: Vec<Value> = bodies(&server).await;
        assert_eq!(bodies.len(), 2, "{mode}");
        // A fresh ask for the answer: its own instructions, no repair of the call.
        let second = contents(&bodies[1]);
        assert!(second[0].starts_with(ASKED), "{mode}: {}", second[0]);
        assert_eq!(second.len(), 2, "{mode}: {second:?}");
        assert_eq!(second[1], REQUEST, "{mode}");
        // The answer is text: asked for in plain text, with no grammar or format.
        assert!(bodies[1].get("response_format").is_none(), "{mode}");
        if mode == Mode::Tools {
            // The first request offers the tools and the answer's; the answer alone is
            // asked for as text, with no tool to call.
            assert_eq!(bodies[0]["tools"].as_array().map(Vec::len), Some(3));
            assert!(bodies[1].get("tools").is_none(), "{}", bodies[1]);
            assert!(bodies[1].get("tool_choice").is_none(), "{}", bodies[1]);
        }
        assert_eq!(
            *events.lock().unwrap(),
            ["after attempt 1, the replies say no function fits: asking for the answer"],
            "{mode}"
        );
    }
}

#[tokio::test]
async fn a_lacking_function_named_natively_in_tools_mode_asks_for_the_answer_in_text() {
    let (server, provider) = openai(vec![
        tool_calls(&[("c1", "shop_cancel_subscription", r#"{"plan": "premium"}"#)]),
        chat("I cannot cancel subscriptions: no function here does that."),
    ])
    .await;
    let (agent, events) = agent(provider, Mode::Tools);
    let choice = agent
        .ask_tools(&tools(), "Cancel my premium subscription.")
        .await
        .expect("an answer");
    assert_eq!(
        choice,
        Choice::Answer(json!(
            "I cannot cancel subscriptions: no function here does that."
        ))
    );
    let bodies: Vec<Value> = bodies(&server).await;
    assert_eq!(bodies.len(), 2);
    assert!(bodies[1].get("tools").is_none(), "{}", bodies[1]);
    assert!(contents(&bodies[1])[0].starts_with(ASKED));
    assert_eq!(events.lock().unwrap().len(), 1);
}

/// On Anthropic in tools mode, after `history`: a call of a function the union lacks,
/// then the answer alone asked for with no tools. The bodies of the two requests.
async fn answer_alone_on_anthropic(history: &[Message], prompt: &str) -> Vec<Value> {
    let (server, provider) = anthropic(vec![
        message(
            json!([{ "type": "tool_use", "id": "toolu_2", "name": "shop_cancel_subscription", "input": {} }]),
            "tool_use",
        ),
        message(
            json!([{ "type": "text", "text": "No function here cancels subscriptions." }]),
            "end_turn",
        ),
    ])
    .await;
    let (agent, events) = agent(provider.api_key("sk-ant-test"), Mode::Tools);
    let choice = agent
        .ask_tools(&tools(), prompt)
        .history(history)
        .await
        .expect("an answer");
    assert_eq!(
        choice,
        Choice::Answer(json!("No function here cancels subscriptions."))
    );
    assert_eq!(events.lock().unwrap().len(), 1);
    let bodies: Vec<Value> = bodies(&server).await;
    assert_eq!(bodies.len(), 2);
    // The two tools, and the answer's.
    assert_eq!(bodies[0]["tools"].as_array().map(Vec::len), Some(3));
    assert!(bodies[1].get("tools").is_none(), "{}", bodies[1]);
    assert!(bodies[1].get("tool_choice").is_none(), "{}", bodies[1]);
    assert!(
        bodies[1]["system"].to_string().contains(ASKED),
        "{}",
        bodies[1]
    );
    bodies
}

#[tokio::test]
async fn on_anthropic_the_answer_alone_is_asked_for_with_no_tools() {
    answer_alone_on_anthropic(&[], "Cancel my premium subscription.").await;
}

/// After a round of native calls and results, the answer alone is asked for with no
/// tools: the round goes as text, since Anthropic rejects `tool_use` and `tool_result`
/// blocks in a request that defines no tools.
#[tokio::test]
async fn the_answer_alone_after_native_results_carries_them_as_text() {
    let history = [
        Message::user("What is the capital of Chile, and cancel my subscription."),
        Message::assistant_calls(
            "",
            vec![ToolCall::new(
                "toolu_1",
                "geography_get_country_info",
                json!({ "country": "Chile" }),
            )],
        ),
        Message::tool_result(Some("toolu_1".into()), "capital: Santiago"),
    ];
    let bodies = answer_alone_on_anthropic(&history, "").await;
    // The first request carries the round natively, with the tools.
    let first = bodies[0].to_string();
    assert!(
        first.contains("\"tool_use\"") && first.contains("\"tool_result\""),
        "{first}"
    );
    // The answer alone: the round as text.
    let second = bodies[1].to_string();
    assert!(!second.contains("\"tool_use\""), "{second}");
    assert!(!second.contains("\"tool_result\""), "{second}");
    assert!(second.contains("capital: Santiago"), "{second}");
}

/// A question no tool answers, and the answer written where the name goes.
const QUESTION: &str = "Which country has the most speakers of Portuguese?";
const ANSWER_AS_NAME: &str = r#"{"name": "Brazil", "arguments": {"speakers": 214000000}}"#;

#[tokio::test]
async fn an_answer_written_as_the_name_beside_arguments_no_tool_takes_asks_for_the_answer() {
    for mode in [
        Mode::Prompt,
        Mode::JsonObject,
        Mode::JsonSchema,
        Mode::Tools,
    ] {
        let (server, provider) =
            openai(vec![chat(ANSWER_AS_NAME), chat(r#"{"answer": "Brazil."}"#)]).await;
        let (agent, events) = agent(provider, mode);
        let choice = agent
            .ask_tools(&tools(), QUESTION)
            .await
            .expect("an answer");
        assert_eq!(choice, Choice::Answer(json!("Brazil.")), "{mode}");
        let bodies: Vec<Value> = bodies(&server).await;
        let second = contents(&bodies[1]);
        assert!(second[0].starts_with(ASKED), "{mode}: {}", second[0]);
        assert_eq!(second[1..], [QUESTION], "{mode}");
        assert_eq!(
            *events.lock().unwrap(),
            ["after attempt 1, the replies say no function fits: asking for the answer"],
            "{mode}"
        );
    }
}

#[tokio::test]
async fn a_value_written_as_the_name_to_a_command_or_beside_a_tools_argument_is_sent_back() {
    let fixed = r#"{"name": "geography_get_country_info", "arguments": {"country": "Brazil"}}"#;
    for (request, first) in [
        // A command: the same reply as above, sent back as a slip.
        ("Show me the facts about Brazil.", ANSWER_AS_NAME),
        // A question, but beside an argument of a tool (in another case).
        (
            "What are the languages of Brazil?",
            r#"{"name": "Brazil", "arguments": {"Country": "Brazil"}}"#,
        ),
    ] {
        let (server, provider) = openai(vec![chat(first), chat(fixed)]).await;
        let (agent, events) = agent(provider, Mode::Prompt);
        let choice = agent.ask_tools(&tools(), request).await.expect("a call");
        let Choice::Calls(calls) = choice else {
            panic!("{request}: a call")
        };
        assert_eq!(calls[0].name(), "geography.get_country_info", "{request}");
        assert!(events.lock().unwrap().is_empty(), "{request}");
        let second = contents(&bodies(&server).await[1]);
        assert!(!second[0].starts_with(ASKED), "{request}: {}", second[0]);
    }
}

#[tokio::test]
async fn two_signs_of_other_kinds_ask_for_the_answer_in_either_order() {
    for (first, second) in [
        (VALUE_AS_NAME, PLACEHOLDERS),
        (PLACEHOLDERS, VALUE_AS_NAME),
        (VALUE_AS_NAME, VALUE_AS_NAME),
    ] {
        for mode in [Mode::Prompt, Mode::JsonObject, Mode::JsonSchema] {
            let (server, provider) = openai(vec![
                chat(first),
                chat(second),
                chat(r#"{"answer": "Bom dia."}"#),
            ])
            .await;
            let (agent, events) = agent(provider, mode);
            let choice = agent.ask_tools(&tools(), REQUEST).await.expect("an answer");
            assert_eq!(choice, Choice::Answer(json!("Bom dia.")), "{mode}");
            let bodies = bodies(&server).await;
            assert!(!contents(&bodies[1])[0].starts_with(ASKED), "{mode}");
            assert!(contents(&bodies[2])[0].starts_with(ASKED), "{mode}");
            assert_eq!(
                *events.lock().unwrap(),
                ["after attempt 2, the replies say no function fits: asking for the answer"],
                "{mode}"
            );
        }
    }
}

#[tokio::test]
async fn in_prompt_mode_prose_is_the_answer_asked_for() {
    let (server, provider) = openai(vec![chat(INVENTED), chat("Bom dia, in Portuguese.")]).await;
    let (agent, _) = agent(provider, Mode::Prompt);
    let choice = agent.ask_tools(&tools(), REQUEST).await.expect("an answer");
    assert_eq!(choice, Choice::Answer(json!("Bom dia, in Portuguese.")));
    assert!(contents(&bodies(&server).await[1])[0].starts_with(ASKED));
}

#[tokio::test]
async fn one_slip_is_sent_back_and_its_fix_taken() {
    for slip in [VALUE_AS_NAME, PLACEHOLDERS] {
        let (server, provider) = openai(vec![
            chat(slip),
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
        assert!(events.lock().unwrap().is_empty(), "{slip}");
        let second = contents(&bodies(&server).await[1]);
        assert!(!second[0].starts_with(ASKED), "{}", second[0]);
    }
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
