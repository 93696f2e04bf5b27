//! An answer the model worked out itself, to a request that holds every number a tool
//! needs and asks for what it does without naming it, is sent back once as skipping that
//! tool (`ViolationKind::SkippedTool`); a request that does not hold them is answered in
//! one call; and its repair, as any repair of a union with an answer, shows no example
//! call. (A request that uses a word of the tool's name, "Who first solved quadratic
//! equations?", is questioned by that check, not this one: see `tool_choice.rs`.)

use serde_json::json;
use toolschema::provider::Mode;
use toolschema::{Agent, Choice, Toolset, ViolationKind};

use crate::server::{bodies, chat, contents, openai};

/// A quadratic solver and a vowel counter, as a server hands them over, with an answer.
fn tools() -> Toolset {
    calls_only().with_answer()
}

/// The same tools without an answer.
fn calls_only() -> Toolset {
    Toolset::from_openai_tools(&json!([
        {"type": "function", "function": {
            "name": "solve_quadratic",
            "description": "Find the real roots of a quadratic equation ax^2 + bx + c = 0.",
            "parameters": {"type": "object", "properties": {
                "a": {"type": "number", "description": "Coefficient of x^2."},
                "b": {"type": "number", "description": "Coefficient of x."},
                "c": {"type": "number", "description": "The constant term."}
            }, "required": ["a", "b", "c"]}
        }},
        {"type": "function", "function": {
            "name": "count_vowels",
            "description": "Counts the vowels in a text.",
            "parameters": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
        }}
    ]))
    .expect("the tools load")
}

#[tokio::test]
async fn an_answer_worked_out_where_a_tool_of_numbers_fits_is_sent_back_once() {
    let request = "Find the roots of x^2 + 4x + 4 = 0.";
    let worked_out = r#"{"answer": "x = -2 (a double root)."}"#;
    let call = r#"{"name": "solve_quadratic", "arguments": {"a": 1, "b": 4, "c": 4}}"#;
    let (server, provider) = openai(vec![chat(worked_out), chat(call)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let asked = agent
        .ask_tools(&tools(), request)
        .answered()
        .await
        .expect("a call");
    let Choice::Calls(calls) = &asked.value else {
        panic!("a call: {:?}", asked.value)
    };
    assert_eq!(calls[0].name(), "solve_quadratic");
    assert_eq!(
        asked.attempts[0].violations()[0].kind(),
        &ViolationKind::SkippedTool {
            tool: "solve_quadratic".into()
        }
    );
    let repair = contents(&bodies(&server).await[1]).pop().expect("a repair");
    assert!(
        repair.contains(r#"the request asks for what the function "solve_quadratic" does"#),
        "{repair}"
    );
    // No example call to copy: its placeholder numbers are what a small model writes.
    assert!(!repair.contains("For example"), "{repair}");
    assert!(!repair.contains("1.5"), "{repair}");

    // Told, the model answers again: taken at its word.
    let (server, provider) = openai(vec![chat(worked_out), chat(worked_out)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let choice = agent.ask_tools(&tools(), request).await.expect("an answer");
    assert!(matches!(choice, Choice::Answer(_)));
    assert_eq!(bodies(&server).await.len(), 2);
}

#[tokio::test]
async fn a_request_without_the_numbers_a_tool_needs_is_answered_at_once() {
    for request in [
        // Words of the tool's description, and no number.
        "Who found the formula for the real roots of an equation?",
        "What are the roots of the word 'algebra'?",
        // Two numbers where the tool needs three.
        "Does x^2 = 4 have real roots?",
    ] {
        let (server, provider) = openai(vec![chat(r#"{"answer": "An answer."}"#)]).await;
        let agent = Agent::new(provider).mode(Mode::JsonObject);
        let choice = agent.ask_tools(&tools(), request).await.expect(request);
        assert!(matches!(choice, Choice::Answer(_)), "{request}");
        assert_eq!(bodies(&server).await.len(), 1, "{request}");
    }
}

#[tokio::test]
async fn a_repair_shows_an_example_call_only_where_the_union_has_no_answer() {
    // Nothing in it is right, so the example is not left out for fields to keep.
    let no_variant = r#"{"result": "x = -2"}"#;
    let call = r#"{"name": "solve_quadratic", "arguments": {"a": 1, "b": 4, "c": 4}}"#;
    let request = "Find the roots of x^2 + 4x + 4 = 0.";
    for (toolset, example) in [(tools(), false), (calls_only(), true)] {
        let (server, provider) = openai(vec![chat(no_variant), chat(call)]).await;
        let agent = Agent::new(provider).mode(Mode::JsonObject);
        agent.ask_tools(&toolset, request).await.expect("a call");
        let repair = contents(&bodies(&server).await[1]).pop().expect("a repair");
        assert!(!repair.contains("keep it as it is"), "{repair}");
        assert_eq!(repair.contains("For example"), example, "{repair}");
    }
}
