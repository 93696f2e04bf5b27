//! Choosing between tools and the answer, against a real HTTP server: the prompt of a
//! union (no example call to copy), a prose reply read as the answer, a call made of
//! nothing the user wrote and an answer that skips the tool the request names sent back
//! once, and `Mode::Auto` choosing in prose before it fixes under the grammar.

use serde_json::{Value, json};
use toolschema::provider::Mode;
use toolschema::{Agent, Choice, FixKind, Toolset, ViolationKind};

use crate::server::{Events, bodies, chat, contents, openai};

/// A loan calculator and a stock quote, as a server hands them over.
pub fn finance() -> Toolset {
    Toolset::from_openai_tools(&json!([
        {"type": "function", "function": {
            "name": "finance.loan_payment",
            "description": "Compute the fixed monthly payment of an amortised loan. Default currency is 'USD'.",
            "parameters": {"type": "object", "properties": {
                "principal": {"type": "number"},
                "annual_rate": {"type": "number", "description": "Yearly rate in percent."},
                "years": {"type": "integer"},
                "currency": {"type": "string"}
            }, "required": ["principal", "annual_rate", "years"]}
        }},
        {"type": "function", "function": {
            "name": "finance.stock_quote",
            "description": "Latest price of a stock by its ticker.",
            "parameters": {"type": "object", "properties": {"ticker": {"type": "string"}}, "required": ["ticker"]}
        }}
    ]))
    .expect("the tools load")
    .with_answer()
}

fn first_kind(error: &toolschema::AskError) -> ViolationKind {
    let attempt = &error.attempts()[0];
    attempt.error().expect("rejected").violations()[0]
        .kind()
        .clone()
}

#[tokio::test]
async fn the_prompt_lists_the_functions_with_no_example_call_to_copy() {
    let (server, provider) = openai(vec![chat(r#"{"answer": "Herman Melville."}"#)]).await;
    let agent = Agent::new(provider).mode(Mode::Prompt);
    let choice = agent
        .ask_tools(&finance(), "Who wrote Moby-Dick?")
        .await
        .expect("an answer");
    assert_eq!(choice, Choice::Answer(json!("Herman Melville.")));
    let system = contents(&bodies(&server).await[0]).remove(0);
    assert!(
        system.starts_with("You can call these functions"),
        "{system}"
    );
    assert!(system.contains("\nfinance_loan_payment: {"), "{system}");
    assert!(
        system.contains("// Latest price of a stock by its ticker."),
        "{system}"
    );
    assert!(
        system.contains(r#"{"name": "<function name>", "arguments": {…}}"#),
        "{system}"
    );
    assert!(
        system.contains(r#"reply {"answer": "<your answer>"}"#),
        "{system}"
    );
    // Nothing a model could copy into a call as a value.
    assert!(
        !system.contains("1.5") && !system.contains("\"text\""),
        "{system}"
    );
}

#[tokio::test]
async fn prose_that_names_no_tool_is_the_answer_in_prompt_mode() {
    let (_server, provider) = openai(vec![chat("The capital of Australia is Canberra.")]).await;
    let agent = Agent::new(provider).mode(Mode::Prompt);
    let choice = agent
        .ask_tools(&finance(), "What is the capital of Australia?")
        .await
        .expect("an answer");
    assert_eq!(
        choice,
        Choice::Answer(json!("The capital of Australia is Canberra."))
    );
}

#[tokio::test]
async fn prose_about_a_tool_is_no_answer() {
    let prose = "To get the price, call finance_stock_quote with the ticker MSFT.";
    let (_server, provider) = openai(vec![
        chat(prose),
        chat(r#"{"name": "finance_stock_quote", "arguments": {"ticker": "MSFT"}}"#),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::Prompt);
    let choice = agent
        .ask_tools(&finance(), "Price of MSFT?")
        .await
        .expect("a call");
    let Choice::Calls(calls) = choice else {
        panic!("a call")
    };
    assert_eq!(calls[0].name(), "finance.stock_quote");
}

#[tokio::test]
async fn a_call_made_of_nothing_the_user_wrote_is_sent_back_once() {
    let invented = r#"{"name": "finance_loan_payment", "arguments": {"principal": 100000, "annual_rate": 4.5, "years": 10}}"#;
    let (server, provider) = openai(vec![
        chat(invented),
        chat(r#"{"answer": "Herman Melville wrote it."}"#),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let choice = agent
        .ask_tools(&finance(), "Who wrote the novel Moby-Dick?")
        .await
        .expect("an answer");
    assert_eq!(choice, Choice::Answer(json!("Herman Melville wrote it.")));
    let repair = contents(&bodies(&server).await[1]).pop().expect("a repair");
    assert!(
        repair.contains("none of the call's values (100000, 4.5, 10) appears in the request"),
        "{repair}"
    );
}

#[tokio::test]
async fn a_call_made_again_after_it_was_sent_back_asks_for_the_answer_alone() {
    let invented = r#"{"name": "finance_loan_payment", "arguments": {"principal": 100000, "annual_rate": 4.5, "years": 10}}"#;
    let (server, provider) = openai(vec![
        chat(invented),
        chat(invented),
        chat(r#"{"answer": "Herman Melville."}"#),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let choice = agent
        .ask_tools(&finance(), "Who wrote the novel Moby-Dick?")
        .await
        .expect("the answer");
    assert_eq!(choice, Choice::Answer(json!("Herman Melville.")));
    let third = contents(&bodies(&server).await[2]).remove(0);
    assert!(
        third.starts_with("None of the functions does what the request asks"),
        "{third}"
    );
}

#[tokio::test]
async fn the_check_can_be_turned_off_and_grounded_calls_stand() {
    let invented = r#"{"name": "finance_loan_payment", "arguments": {"principal": 100000, "annual_rate": 4.5, "years": 10}}"#;
    let (server, provider) = openai(vec![
        chat(invented),
        chat(r#"{"name": "finance_loan_payment", "arguments": {"principal": 250000, "annual_rate": 3.5, "years": 30}}"#),
    ])
    .await;
    let off = Agent::new(provider.clone())
        .mode(Mode::JsonObject)
        .grounded_calls(false);
    assert!(matches!(
        off.ask_tools(&finance(), "Who wrote Moby-Dick?").await,
        Ok(Choice::Calls(_))
    ));
    let on = Agent::new(provider).mode(Mode::JsonObject);
    let request = "Monthly payment on 250,000 at 3.5 percent over 30 years?";
    assert!(matches!(
        on.ask_tools(&finance(), request).await,
        Ok(Choice::Calls(_))
    ));
    assert_eq!(bodies(&server).await.len(), 2, "each in one call");
}

#[tokio::test]
async fn an_answer_that_skips_the_tool_the_request_names_is_sent_back_once() {
    let (server, provider) = openai(vec![
        chat(r#"{"answer": "MSFT trades at $100."}"#),
        chat(r#"{"name": "finance_stock_quote", "arguments": {"ticker": "MSFT"}}"#),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let choice = agent
        .ask_tools(&finance(), "Get me the latest stock quote for MSFT.")
        .await
        .expect("a call");
    assert!(matches!(choice, Choice::Calls(_)));
    let repair = contents(&bodies(&server).await[1]).pop().expect("a repair");
    assert!(
        repair.contains(r#"the request asks for what the function "finance_stock_quote" does"#),
        "{repair}"
    );
}

#[tokio::test]
async fn a_call_of_the_named_tool_with_none_of_the_users_values_is_questioned_once() {
    // "stock" names `finance.stock_quote`; the rest of the request is about something it
    // does not do, and the call holds nothing the user wrote.
    let request = "Which stock exchange is the oldest in the world?";
    let call = r#"{"name": "finance_stock_quote", "arguments": {"ticker": "AAPL"}}"#;
    let answer = r#"{"answer": "Amsterdam's, founded in 1602."}"#;

    // Told, the model answers: the answer stands, though it skips the tool its request
    // names, because the model was asked about that choice once already.
    let (server, provider) = openai(vec![chat(call), chat(answer)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let choice = agent
        .ask_tools(&finance(), request)
        .await
        .expect("an answer");
    assert_eq!(
        choice,
        Choice::Answer(json!("Amsterdam's, founded in 1602."))
    );
    let repair = contents(&bodies(&server).await[1]).pop().expect("a repair");
    assert!(
        repair.contains(r#"none of the call's values ("AAPL") is in the request"#),
        "{repair}"
    );

    // Told, the model calls again: to this question the answer alone is asked for
    // (`unstated_again`); to a command, the call is taken at its word.
    let (server, provider) = openai(vec![chat(call), chat(call)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let choice = agent
        .ask_tools(
            &finance(),
            "Look up the stock of the oldest company listed in Amsterdam.",
        )
        .await
        .expect("a call");
    assert!(matches!(choice, Choice::Calls(_)));
    assert_eq!(bodies(&server).await.len(), 2);

    // A request that says no more than which tool it wants leaves the values to the model.
    let (server, provider) = openai(vec![chat(call)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let choice = agent
        .ask_tools(&finance(), "Stock quote?")
        .await
        .expect("a call");
    assert!(matches!(choice, Choice::Calls(_)));
    assert_eq!(bodies(&server).await.len(), 1);
}

#[tokio::test]
async fn the_violations_have_kinds_of_their_own() {
    let invented = r#"{"name": "finance_loan_payment", "arguments": {"principal": 1, "annual_rate": 2, "years": 3}}"#;
    let (_server, provider) = openai(vec![chat(invented); 3]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject).max_attempts(1);
    let error = agent
        .ask_tools(&finance(), "Who painted the Mona Lisa?")
        .await
        .unwrap_err();
    assert!(matches!(
        first_kind(&error),
        ViolationKind::Ungrounded { .. }
    ));

    // Questioned with an attempt left; the answer given again is taken.
    let (_server, provider) = openai(vec![chat(r#"{"answer": "42"}"#); 2]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject).max_attempts(2);
    let asked = agent
        .ask_tools(
            &finance(),
            "What's the loan payment on 10,000 at 5% for 2 years?",
        )
        .answered()
        .await
        .expect("the answer, given again");
    assert_eq!(
        *asked.attempts[0].violations()[0].kind(),
        ViolationKind::SkippedTool {
            tool: "finance_loan_payment".into()
        }
    );
}

#[tokio::test]
async fn a_call_of_a_function_that_does_not_exist_is_told_it_may_answer() {
    // A value where the name goes, to a command: one such reply is sent back (a function's
    // name the union lacks has the answer asked for at once, as has a value beside
    // arguments no tool takes to a question: see `no_function_fits.rs`).
    let (server, provider) = openai(vec![
        chat(r#"{"name": "Good Morning", "arguments": {"text": "good morning"}}"#),
        chat(r#"{"answer": "Bom dia."}"#),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let choice = agent
        .ask_tools(&finance(), "Translate 'good morning' into Portuguese.")
        .await
        .expect("an answer");
    assert_eq!(choice, Choice::Answer(json!("Bom dia.")));
    let repair = contents(&bodies(&server).await[1]).pop().expect("a repair");
    assert!(
        repair.contains(r#"no function has that name; if none of the functions does what the request asks, reply {"answer": …} instead"#),
        "{repair}"
    );
}

#[tokio::test]
async fn auto_chooses_in_prose_and_fixes_under_the_grammar() {
    let (server, provider) = openai(vec![
        // Prose first: a call that misses its argument.
        chat(r#"{"name": "finance_stock_quote", "arguments": {}}"#),
        chat(r#"{"value": {"name": "finance_stock_quote", "arguments": {"ticker": "MSFT"}}}"#),
    ])
    .await;
    let agent = Agent::new(provider);
    let choice = agent
        .ask_tools(&finance(), "Stock quote for MSFT please")
        .await
        .expect("a call");
    assert!(matches!(choice, Choice::Calls(_)));
    let bodies = bodies(&server).await;
    assert!(bodies[0].get("response_format").is_none(), "{}", bodies[0]);
    assert_eq!(bodies[1]["response_format"]["type"], "json_schema");
}

#[tokio::test]
async fn auto_stays_in_prose_after_a_call_made_of_nothing() {
    let invented = r#"{"name": "finance_loan_payment", "arguments": {"principal": 100000, "annual_rate": 4.5, "years": 10}}"#;
    let (server, provider) = openai(vec![chat(invented), chat("Herman Melville.")]).await;
    let agent = Agent::new(provider);
    let choice = agent
        .ask_tools(&finance(), "Who wrote Moby-Dick?")
        .await
        .expect("an answer");
    assert_eq!(choice, Choice::Answer(json!("Herman Melville.")));
    let bodies: Vec<Value> = bodies(&server).await;
    assert!(bodies.iter().all(|b| b.get("response_format").is_none()));
}

#[tokio::test]
async fn a_record_under_auto_still_starts_under_the_grammar() {
    #[derive(toolschema::ToolSchema, Debug)]
    struct City {
        name: String,
    }
    let (server, provider) = openai(vec![chat(r#"{"name": "Oslo"}"#)]).await;
    let _: City = Agent::new(provider).ask("Oslo").await.expect("a city");
    assert_eq!(
        bodies(&server).await[0]["response_format"]["type"],
        "json_schema"
    );
}

#[tokio::test]
async fn the_tool_loop_in_a_text_mode_takes_the_answer_after_the_results() {
    use toolschema::agent::Toolbox;
    let (server, provider) = openai(vec![
        chat(r#"{"name": "finance_stock_quote", "arguments": {"ticker": "MSFT"}}"#),
        chat(r#"{"answer": "MSFT trades at 412.30."}"#),
    ])
    .await;
    let toolbox = Toolbox::new().tool("finance.stock_quote", |_: Value| async {
        Ok::<_, String>("412.30".to_owned())
    });
    let answer = Agent::new(provider)
        .mode(Mode::Prompt)
        .ask_tools(&finance(), "Latest stock quote for MSFT?")
        .run(&toolbox)
        .await
        .expect("an answer");
    assert_eq!(answer, json!("MSFT trades at 412.30."));
    // The answer after the result is not sent back as skipping the tool.
    assert_eq!(bodies(&server).await.len(), 2);
}

#[tokio::test]
async fn a_prose_answer_cut_at_the_cap_is_not_taken_whole() {
    let cut = crate::server::completion(
        json!({"role": "assistant", "content": "The capital of Australia is Canb"}),
        "length",
        (40, 8),
    );
    let (_server, provider) =
        openai(vec![cut, chat("The capital of Australia is Canberra.")]).await;
    let agent = Agent::new(provider).mode(Mode::Prompt).max_tokens(8);
    let choice = agent
        .ask_tools(&finance(), "What is the capital of Australia?")
        .await
        .expect("an answer");
    assert_eq!(
        choice,
        Choice::Answer(json!("The capital of Australia is Canberra."))
    );
}

#[tokio::test]
async fn a_made_up_call_is_questioned_under_the_grammar_too() {
    // The prose reply misses an argument; the made-up call comes under the grammar.
    let (server, provider) = openai(vec![
        chat(r#"{"name": "finance_loan_payment", "arguments": {"principal": 100000}}"#),
        chat(r#"{"value": {"name": "finance_loan_payment", "arguments": {"principal": 100000, "annual_rate": 4.5, "years": 10}}}"#),
        chat(r#"{"value": {"answer": "Herman Melville."}}"#),
    ])
    .await;
    let choice = Agent::new(provider)
        .ask_tools(&finance(), "Who wrote Moby-Dick?")
        .await
        .expect("an answer");
    assert_eq!(choice, Choice::Answer(json!("Herman Melville.")));
    assert_eq!(bodies(&server).await.len(), 3);
}

#[tokio::test]
async fn words_every_sentence_has_name_no_tool() {
    let lights = Toolset::from_openai_tools(&json!([{"type": "function", "function": {
        "name": "HassTurnOn",
        "description": "Turns on a device.",
        "parameters": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    }}]))
    .expect("the tools load")
    .with_answer();
    let (_server, provider) = openai(vec![chat(r#"{"answer": "A film."}"#)]).await;
    let choice = Agent::new(provider)
        .mode(Mode::JsonObject)
        .ask_tools(&lights, "What's on tonight?")
        .await
        .expect("the answer, in one call");
    assert_eq!(choice, Choice::Answer(json!("A film.")));
}

#[tokio::test]
async fn prose_using_a_one_word_tool_name_as_a_word_is_the_answer() {
    let search = Toolset::from_openai_tools(&json!([{"type": "function", "function": {
        "name": "search",
        "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}
    }}]))
    .expect("the tools load")
    .with_answer();
    let (_server, provider) =
        openai(vec![chat("You can search online for that; it was 1969.")]).await;
    let choice = Agent::new(provider)
        .mode(Mode::Prompt)
        .ask_tools(&search, "When did Apollo 11 land?")
        .await
        .expect("the answer");
    assert!(matches!(choice, Choice::Answer(_)));
}

#[tokio::test]
async fn each_check_of_the_choice_sends_a_reply_back_once() {
    // An answer that skips the tool the request names, then a call of another tool made
    // of nothing the user wrote: each is sent back, once.
    let skipped = r#"{"answer": "MSFT trades at $100."}"#;
    let made_up = r#"{"name": "finance_loan_payment", "arguments": {"principal": 100000, "annual_rate": 4.5, "years": 10}}"#;
    let quote = r#"{"name": "finance_stock_quote", "arguments": {"ticker": "MSFT"}}"#;
    let request = "Get me the latest stock quote for MSFT.";
    let (server, provider) = openai(vec![chat(skipped), chat(made_up), chat(quote)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let choice = agent.ask_tools(&finance(), request).await.expect("a call");
    let Choice::Calls(calls) = choice else {
        panic!("a call")
    };
    assert_eq!(calls[0].name(), "finance.stock_quote");
    let bodies = bodies(&server).await;
    assert!(
        contents(&bodies[1])
            .pop()
            .unwrap()
            .contains("the request asks for what")
    );
    assert!(
        contents(&bodies[2])
            .pop()
            .unwrap()
            .contains("none of the call's values")
    );

    // The same answer after each was asked is taken at the model's word.
    let (server, provider) = openai(vec![chat(skipped), chat(made_up), chat(skipped)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let choice = agent
        .ask_tools(&finance(), request)
        .await
        .expect("the answer");
    assert_eq!(choice, Choice::Answer(json!("MSFT trades at $100.")));
    assert_eq!(super::server::bodies(&server).await.len(), 3);
}

const LOAN: &str = "Monthly payment on 250,000 at 3.5 percent over 30 years?";
const FILLED: &str = r#"{"name": "finance_loan_payment", "arguments": {"principal": 250000, "annual_rate": 3.5, "years": 30, "currency": "EUR"}}"#;

#[tokio::test]
async fn an_optional_argument_the_user_never_gave_is_left_out_and_reported() {
    let (server, provider) = openai(vec![chat(FILLED)]).await;
    let events = Events::default();
    let agent = Agent::new(provider)
        .mode(Mode::JsonObject)
        .on_event(events.listener());
    let Choice::Calls(calls) = agent.ask_tools(&finance(), LOAN).await.expect("a call") else {
        panic!("a call")
    };
    assert_eq!(
        calls[0].arguments(),
        &json!({"principal": 250000, "annual_rate": 3.5, "years": 30})
    );
    assert_eq!(
        bodies(&server).await.len(),
        1,
        "left out locally, not sent back"
    );
    let fixed: Vec<String> = events
        .lines()
        .into_iter()
        .filter(|l| l.starts_with("fixed locally"))
        .collect();
    assert_eq!(
        fixed,
        [
            "fixed locally 1: /arguments/currency: left out \"currency\", \"EUR\", which the \
          user never gave"
        ],
    );
}

#[tokio::test]
async fn the_fix_that_left_an_argument_out_is_on_the_successful_attempt() {
    let (_server, provider) = openai(vec![chat(FILLED)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let answered = agent
        .ask_tools(&finance(), LOAN)
        .answered()
        .await
        .expect("a call");
    assert!(answered.fixed_locally);
    let taken = answered.attempts.last().expect("the attempt taken");
    assert!(taken.violations().is_empty());
    assert!(
        taken.raw().contains("\"currency\": \"EUR\""),
        "{}",
        taken.raw()
    );
    let fixes: Vec<(String, String)> = taken
        .fixes()
        .iter()
        .map(|f| (format!("{:?}", f.location()), f.kind().to_string()))
        .collect();
    assert_eq!(fixes.len(), 1, "{fixes:?}");
    assert!(matches!(
        taken.fixes()[0].kind(),
        FixKind::UnaskedArgument { key, value } if key == "currency" && value == "\"EUR\""
    ));
}

#[tokio::test]
async fn optional_arguments_the_user_gave_stand_and_the_check_can_be_turned_off() {
    let (server, provider) = openai(vec![chat(FILLED), chat(FILLED)]).await;
    let given = "Monthly payment on 250,000 euros at 3.5 percent over 30 years?";
    let on = Agent::new(provider.clone()).mode(Mode::JsonObject);
    let Ok(Choice::Calls(calls)) = on.ask_tools(&finance(), given).await else {
        panic!("a call")
    };
    assert_eq!(calls[0].arguments()["currency"], json!("EUR"));
    let off = Agent::new(provider)
        .mode(Mode::JsonObject)
        .grounded_calls(false);
    let Ok(Choice::Calls(calls)) = off.ask_tools(&finance(), LOAN).await else {
        panic!("a call")
    };
    assert_eq!(calls[0].arguments()["currency"], json!("EUR"));
    assert_eq!(bodies(&server).await.len(), 2, "each in one call");
}

#[tokio::test]
async fn a_value_written_to_fix_a_violation_there_is_kept() {
    let wrong = r#"{"name": "finance_loan_payment", "arguments": {"principal": 250000, "annual_rate": 3.5, "years": 30, "currency": {"code": "EUR", "sign": "€"}}}"#;
    let (server, provider) = openai(vec![chat(wrong), chat(FILLED)]).await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let Choice::Calls(calls) = agent.ask_tools(&finance(), LOAN).await.expect("a call") else {
        panic!("a call")
    };
    assert_eq!(calls[0].arguments()["currency"], json!("EUR"));
    assert_eq!(bodies(&server).await.len(), 2);
}

#[tokio::test]
async fn each_of_several_calls_loses_only_its_own_unasked_arguments() {
    let two = r#"[{"name": "finance_loan_payment", "arguments": {"principal": 250000, "annual_rate": 3.5, "years": 30, "currency": "EUR"}},
                  {"name": "finance_stock_quote", "arguments": {"ticker": "MSFT"}}]"#;
    let (_server, provider) = openai(vec![chat(two)]).await;
    let events = Events::default();
    let agent = Agent::new(provider)
        .mode(Mode::JsonObject)
        .on_event(events.listener());
    let request = format!("{LOAN} And the price of MSFT?");
    let Choice::Calls(calls) = agent.ask_tools(&finance(), &request).await.expect("calls") else {
        panic!("calls")
    };
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].arguments().get("currency"), None);
    assert_eq!(calls[1].arguments(), &json!({"ticker": "MSFT"}));
    assert!(
        events
            .lines()
            .iter()
            .any(|l| l.contains("/0/arguments/currency: left out")),
        "{:?}",
        events.lines()
    );
}
