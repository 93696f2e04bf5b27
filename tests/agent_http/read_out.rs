//! Codes the model read out of a request that names the called tool in full stand, over
//! a real HTTP server; where the request uses only a word of the tool's name, the same
//! call is questioned once, and the answer after it taken.

use serde_json::json;
use toolschema::provider::Mode;
use toolschema::{Agent, Choice, Toolset, ViolationKind};

use crate::server::{bodies, chat, openai};

/// An exchange-rate tool beside a loan calculator, with an answer.
fn currencies() -> Toolset {
    Toolset::from_openai_tools(&json!([
        {"type": "function", "function": {
            "name": "finance.get_exchange_rate",
            "description": "Current rate between two currencies, each an ISO 4217 code.",
            "parameters": {"type": "object", "properties": {
                "base_currency": {"type": "string"},
                "target_currency": {"type": "string"}
            }, "required": ["base_currency", "target_currency"]}
        }},
        {"type": "function", "function": {
            "name": "finance.loan_payment",
            "parameters": {"type": "object", "properties": {
                "principal": {"type": "number"},
                "years": {"type": "integer"}
            }, "required": ["principal", "years"]}
        }}
    ]))
    .expect("the tools load")
    .with_answer()
}

const CODES: &str = r#"{"name": "finance_get_exchange_rate", "arguments": {"base_currency": "CHF", "target_currency": "SEK"}}"#;

#[tokio::test]
async fn codes_of_the_currencies_a_request_names_are_taken_at_once() {
    for mode in [Mode::Prompt, Mode::JsonObject] {
        let (server, provider) = openai(vec![chat(CODES)]).await;
        let agent = Agent::new(provider).mode(mode);
        let asked = agent
            .ask_tools(
                &currencies(),
                "What's the exchange rate from Swiss francs to Swedish kronor?",
            )
            .answered()
            .await
            .expect("the call");
        let Choice::Calls(calls) = &asked.value else {
            panic!("a call: {:?}", asked.value);
        };
        assert_eq!(calls[0].name(), "finance.get_exchange_rate");
        assert_eq!(calls[0].arguments()["target_currency"], json!("SEK"));
        assert_eq!(bodies(&server).await.len(), 1, "{mode:?}");
    }
}

#[tokio::test]
async fn the_same_codes_for_a_request_that_uses_one_word_of_the_name_are_questioned_once() {
    let answer = r#"{"answer": "Most Swiss universities take part in Erasmus-like schemes."}"#;
    let (server, provider) = openai(vec![chat(CODES), chat(answer)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let asked = agent
        .ask_tools(
            &currencies(),
            "Which exchange programmes do Swiss universities offer students?",
        )
        .answered()
        .await
        .expect("the answer");
    assert!(
        matches!(asked.value, Choice::Answer(_)),
        "{:?}",
        asked.value
    );
    let first = &asked.attempts[0].violations()[0];
    assert!(
        matches!(first.kind(), ViolationKind::Unstated { values } if values == &["\"CHF\"", "\"SEK\""]),
        "{first:?}"
    );
    assert_eq!(bodies(&server).await.len(), 2);
}
