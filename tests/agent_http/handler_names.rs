//! A tool loop's handlers are checked against its union when it starts: a name no tool
//! has ends the loop before any model call, naming the closest tool; either spelling of a
//! tool's name runs it; a tool with no handler is no error.

use serde_json::{Value, json};
use toolschema::agent::{AskError, Toolbox};
use toolschema::provider::Mode;
use toolschema::{Agent, ToolSchema, Toolset};

use crate::server::{bodies, chat, openai, tool_calls};

#[derive(ToolSchema, Debug, PartialEq)]
struct GetExchangeRate {
    from: String,
    to: String,
}

#[derive(ToolSchema, Debug, PartialEq)]
struct Convert {
    amount: f64,
}

#[derive(ToolSchema, Debug, PartialEq)]
enum Step {
    /// The exchange rate between two currencies.
    #[tool]
    GetExchangeRate(GetExchangeRate),
    /// Convert an amount at the last rate.
    #[tool]
    Convert(Convert),
    #[answer]
    Answer(String),
}

fn rate(handler: &str) -> Toolbox {
    Toolbox::new().tool(handler, |_: GetExchangeRate| async {
        Ok::<_, String>("11.2".to_owned())
    })
}

#[tokio::test]
async fn a_handler_named_as_no_tool_ends_the_derived_loop_before_any_model_call() {
    let (server, provider) = openai(vec![
        tool_calls(&[(
            "call_1",
            "get_exchange_rate",
            r#"{"from": "EUR", "to": "NOK"}"#,
        )]),
        chat(r#"{"answer": "1 EUR is 11.2 NOK."}"#),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::Tools);
    let err = agent
        .ask::<Step>("EUR to NOK?")
        .run(&rate("GetExchangeRate"))
        .await
        .expect_err("the handler names no tool");
    let AskError::UnknownHandlers {
        handlers,
        tools,
        attempts,
    } = &err
    else {
        panic!("expected the unknown handler, got {err:?}");
    };
    assert_eq!(handlers.len(), 1);
    assert_eq!(handlers[0].name, "GetExchangeRate");
    assert_eq!(
        handlers[0].did_you_mean.as_deref(),
        Some("get_exchange_rate")
    );
    assert_eq!(tools, &["get_exchange_rate", "convert"]);
    assert!(attempts.is_empty());
    assert_eq!(
        err.to_string(),
        r#"a handler is registered for "GetExchangeRate", a tool the union does not have; did you mean "get_exchange_rate"?"#
    );
    assert_eq!(bodies(&server).await.len(), 0, "no model call");

    // The right name, and no handler for `convert`: no error; the loop runs.
    let answer = agent
        .ask::<Step>("EUR to NOK?")
        .run(&rate("get_exchange_rate"))
        .await
        .expect("an answer");
    assert_eq!(answer, Step::Answer("1 EUR is 11.2 NOK.".into()));
    let sent = bodies(&server).await;
    assert_eq!(sent.len(), 2);
    assert_eq!(
        sent[1]["messages"][3]["content"],
        "Result of get_exchange_rate: 11.2"
    );
}

fn time_tools() -> Toolset {
    Toolset::from_mcp_tools(&json!({ "tools": [{
        "name": "time.get_current_time",
        "inputSchema": {
            "type": "object",
            "properties": { "timezone": { "type": "string" } },
            "required": ["timezone"]
        }
    }]}))
    .expect("the tools load")
    .with_answer()
}

fn clock(handler: &str) -> Toolbox {
    Toolbox::new().tool(handler, |_: Value| async {
        Ok::<_, String>("14:00".to_owned())
    })
}

#[tokio::test]
async fn a_run_time_tool_runs_under_either_spelling_and_a_typo_ends_the_loop() {
    let call = r#"{"name": "time_get_current_time", "arguments": {"timezone": "UTC"}}"#;
    let (server, provider) = openai(vec![chat(call), chat(r#"{"answer": "14:00."}"#)]).await;
    let agent = Agent::new(provider).mode(Mode::Prompt);
    let tools = time_tools();

    // Registered as the model is shown the tool.
    let ran = agent
        .ask_tools(&tools, "The time in UTC?")
        .run(&clock("time_get_current_time"))
        .ran()
        .await
        .expect("an answer");
    assert_eq!(ran.answer, json!("14:00."));
    assert_eq!(ran.calls[0].result, Ok("14:00".to_owned()));
    assert!(
        crate::server::contents(&bodies(&server).await[1])
            .iter()
            .any(|c| c.contains("Result of time_get_current_time: 14:00")),
    );

    let err = agent
        .ask_tools(&tools, "The time in UTC?")
        .run(&clock("time.get_curent_time"))
        .await
        .expect_err("a typo");
    assert_eq!(
        err.to_string(),
        r#"a handler is registered for "time.get_curent_time", a tool the union does not have; did you mean "time.get_current_time"?"#
    );
    assert_eq!(
        bodies(&server).await.len(),
        2,
        "no model call after the typo"
    );
}
