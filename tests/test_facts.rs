//! Examples never pass for facts; repairs keep what was right.
//!
//! Measured on a small model, inexact answers copy the prompt's example: an absent fact
//! comes back as the example's value, a date takes the example's day, and a repair turned a
//! correct invoice number (`INV-0317`) into the example's (`INV-0123`), which the error's
//! best partial value then returned. These tests hold the rule in the three places it
//! matters: the repair prompt, the best partial value, and the first prompt's example.

use std::collections::BTreeSet;

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use toolschema::agent::ExampleForm;
use toolschema::feedback::RepairPrompt;
use toolschema::provider::Scripted;
use toolschema::{Agent, AskError, Message, RepairStrategy, ToolSchema};

/// An invoice, as read from a request.
#[derive(ToolSchema, Debug, PartialEq)]
struct Invoice {
    /// The invoice number, as printed.
    #[schema(pattern = "^INV-[0-9]{4}$")]
    number: String,
    /// The day it was issued.
    #[schema(format = "date")]
    issued: String,
    customer: String,
    total: f64,
    note: Option<String>,
}

const REQUEST: &str = "Invoice INV-0317 to Acme GmbH, issued 3 March 2024, 120.50 in total.";

/// What the user reads after a failed reply, under each strategy: the messages added to
/// the conversation, or the standalone request.
fn repair_texts(raw: &str) -> (RepairPrompt, Vec<String>) {
    let err = toolschema::parse::<Invoice>(raw).expect_err("the reply must fail");
    let prompt = RepairPrompt::new::<Invoice>(raw, &err)
        .attempt(1, 3)
        .request(REQUEST);
    let first = [Message::system("the shape"), Message::user(REQUEST)];
    let mut texts = Vec::new();
    for strategy in [RepairStrategy::Conversation, RepairStrategy::Minimal] {
        let messages = prompt.messages(strategy, &first);
        let last = messages.last().expect("a repair message");
        texts.push(last.content.clone());
    }
    (prompt, texts)
}

/// The example values a prompt could offer for a field: the realistic example's and the
/// placeholder example's, as JSON text.
fn example_texts(field: &str) -> Vec<String> {
    let mut out = Vec::new();
    for example in [
        toolschema::render::example::<Invoice>(),
        toolschema::render::placeholder_example::<Invoice>(),
    ] {
        match example.get(field) {
            Some(Value::String(s)) => out.push(json!(s).to_string()),
            Some(Value::Null) | None => {}
            Some(other) => out.push(format!("{}:{other}", json!(field))),
        }
    }
    out
}

/// The reproduction: a correct invoice number, a date the schema refuses. Before, the
/// repair prompt offered `"2025-06-14"` to write the date like, and where the date was
/// missing a whole example (`{"number":"INV-0123","issued":"2025-06-14","customer":"text",…}`)
/// to copy over the number that was right.
#[test]
fn a_repair_prompt_keeps_a_right_invoice_number() {
    let raw = r#"{"number": "INV-0317", "issued": "March 3, 2024", "customer": "Acme GmbH", "total": 120.5}"#;
    let (prompt, texts) = repair_texts(raw);
    assert_eq!(prompt.kept_fields(), ["number", "customer", "total"]);
    assert_eq!(
        texts[0],
        r#"Your reply could not be used (attempt 1 of 3). Problems:
- /issued: "March 3, 2024" is not a valid date; write it in the form "YYYY-MM-DD"

These fields were right; keep them as they are: /number, /customer, /total.

Reply with only the corrected JSON value, in this shape:
// An invoice, as read from a request.
{
  // The invoice number, as printed.
  number: string /* matches ^INV-[0-9]{4}$ */,
  // The day it was issued.
  issued: string /* date */,
  customer: string,
  total: number,
  note?: string | null,
}"#
    );
    for text in &texts {
        assert!(!text.contains("INV-0123"), "{text}");
        assert!(!text.contains("2025-06-14"), "{text}");
    }
    // The minimal request quotes the reply it asks to correct.
    assert!(texts[1].contains(raw), "{}", texts[1]);
    assert!(texts[1].contains(r#"keep them as they are: /number, /customer, /total."#));

    // The date missing: the violation is about the shape, and still no example is offered
    // beside the right fields.
    let raw = r#"{"number": "INV-0317", "customer": "Acme GmbH", "total": 120.5}"#;
    let (_, texts) = repair_texts(raw);
    for text in &texts {
        assert!(text.contains("- /issued: missing required field"), "{text}");
        assert!(!text.contains("For example"), "{text}");
        assert!(!text.contains("INV-0123"), "{text}");
        assert!(
            text.contains("keep them as they are: /number, /customer, /total."),
            "{text}"
        );
    }
}

/// A pattern missed with no part of the value that fits is told its form, not a value.
#[test]
fn a_pattern_is_advised_by_its_form() {
    let raw = r#"{"number": "number three hundred", "issued": "2024-03-03", "customer": "Acme GmbH", "total": 120.5}"#;
    let (prompt, texts) = repair_texts(raw);
    assert!(
        texts[0].contains(r#"- /number: "number three hundred" does not match the pattern ^INV-[0-9]{4}$; write it in the form "INV-0000""#),
        "{}",
        texts[0]
    );
    assert_eq!(prompt.kept_fields(), ["issued", "customer", "total"]);
    // The model's own value, where part of it fits, is still offered as it wrote it.
    let raw = r#"{"number": "Invoice INV-0317", "issued": "2024-03-03", "customer": "Acme GmbH", "total": 120.5}"#;
    let (_, texts) = repair_texts(raw);
    assert!(
        texts[0].contains(r#"write it like "INV-0317""#),
        "{}",
        texts[0]
    );
}

/// Nothing in the reply was right: the example of the shape is shown, with placeholders
/// for its strings and the forms of its patterns and formats.
#[test]
fn an_unusable_reply_gets_an_example_of_placeholders() {
    let (prompt, texts) = repair_texts("I cannot read this invoice.");
    assert!(prompt.kept_fields().is_empty());
    assert!(
        texts[0].contains(
            r#"For example: {"number":"INV-0000","issued":"YYYY-MM-DD","customer":"<customer>","total":1.5,"note":null}"#
        ),
        "{}",
        texts[0]
    );
    assert!(!texts[0].contains("keep"), "{}", texts[0]);
}

/// A union of a recipe search, a timer and a direct answer.
#[derive(ToolSchema, Debug)]
#[allow(dead_code)]
enum Kitchen {
    /// Search recipes by ingredient.
    #[tool]
    SearchRecipes {
        /// Ingredients the recipe must use.
        ingredients: Vec<String>,
    },
    /// Start a timer.
    #[tool]
    SetTimer { minutes: f64 },
    /// Reply to the user directly.
    #[answer]
    Answer(String),
}

fn kitchen_repair(raw: &str) -> (RepairPrompt, String) {
    let err = toolschema::parse::<Kitchen>(raw).expect_err("the reply must fail");
    let prompt = RepairPrompt::new::<Kitchen>(raw, &err).attempt(1, 3);
    let text = prompt.to_string();
    (prompt, text)
}

/// A call of a function the union lacks: its arguments were checked against no tool, so
/// they are not named as right, whatever tool they would fit; a right name is kept where
/// an argument is wrong.
#[test]
fn a_call_of_no_tool_keeps_none_of_its_arguments() {
    for raw in [
        r#"{"name": "wine_pairing", "arguments": {"ingredients": ["mushroom", "risotto"]}}"#,
        r#"{"name": "wine_pairing", "arguments": {"dish": "risotto"}}"#,
        r#"{"name": "set_timr", "arguments": {"minutes": 5}}"#,
    ] {
        let (prompt, text) = kitchen_repair(raw);
        assert!(
            prompt.kept_fields().is_empty(),
            "{raw}: {:?}",
            prompt.kept_fields()
        );
        assert!(!text.contains("keep"), "{raw}: {text}");
    }
    let (prompt, _) = kitchen_repair(r#"{"name": "set_timer", "arguments": {"minutes": "five"}}"#);
    assert_eq!(prompt.kept_fields(), ["name"]);
}

/// A program to run, as a record: its `name` and `arguments` are fields like any other,
/// not a call of a tool.
#[derive(ToolSchema, Debug)]
struct Command {
    /// The program, in lowercase letters.
    #[schema(pattern = "^[a-z]+$")]
    name: String,
    arguments: Vec<String>,
}

/// Only a union of tool calls drops a wrong call's arguments: a record with fields of the
/// same names had its arguments checked, and keeps them when only its name is wrong.
#[test]
fn a_record_with_a_name_and_arguments_keeps_its_right_arguments() {
    let raw = r#"{"name": "Git", "arguments": ["status", "--short"]}"#;
    let err = toolschema::parse::<Command>(raw).expect_err("the name breaks its pattern");
    let prompt = RepairPrompt::new::<Command>(raw, &err).attempt(1, 3);
    assert_eq!(prompt.kept_fields(), ["arguments"]);
    assert!(
        prompt.to_string().contains("keep it as it is: /arguments."),
        "{prompt}"
    );
    let fixed: Command =
        toolschema::parse(r#"{"name": "git", "arguments": ["status", "--short"]}"#)
            .expect("a lowercase name fits");
    assert_eq!((fixed.name.as_str(), fixed.arguments.len()), ("git", 2));
}

/// The first request's example of a record: placeholders by default, realistic values
/// when asked for, none when turned off.
#[tokio::test]
async fn the_first_example_cannot_pass_for_a_fact() {
    let reply = r#"{"number": "INV-0317", "issued": "2024-03-03", "customer": "Acme GmbH", "total": 120.5}"#;
    let first = |agent: Agent<Scripted>, model: Scripted| async move {
        let invoice: Invoice = agent.ask(REQUEST).await.expect("the reply fits");
        assert_eq!(invoice.number, "INV-0317");
        model.request_texts()[0].clone()
    };

    let model = Scripted::new([reply]);
    let text = first(Agent::new(model.clone()), model).await;
    assert!(
        text.contains("For example:\n{\"number\":\"INV-0000\",\"issued\":\"YYYY-MM-DD\",\"customer\":\"<customer>\",\"total\":1.5,\"note\":null}\n"),
        "{text}"
    );
    for fact_like in ["INV-0123", "2025-06-14", "\"text\""] {
        assert!(!text.contains(fact_like), "{fact_like} in {text}");
    }

    let model = Scripted::new([reply]);
    let agent = Agent::new(model.clone()).example_form(ExampleForm::Values);
    let text = first(agent, model).await;
    assert!(
        text.contains("{\"number\":\"INV-0123\",\"issued\":\"2025-06-14\",\"customer\":\"text\",\"total\":1.5,\"note\":null}"),
        "{text}"
    );

    let model = Scripted::new([reply]);
    let agent = Agent::new(model.clone()).example(false);
    let text = first(agent, model).await;
    assert!(!text.contains("For example"), "{text}");
}

/// The best partial value keeps a field from the first reply in which it was right: the
/// repair that rewrote the number into the example's does not win it, though it is no
/// worse by its count of violations.
#[tokio::test]
async fn the_best_partial_value_keeps_what_was_right() {
    let model = Scripted::new([
        r#"{"number": "INV-0317", "issued": "March 3, 2024", "customer": "Acme GmbH", "total": 120.5}"#,
        r#"{"number": "INV-0123", "issued": "2024-03-33", "customer": "text", "total": 120.5}"#,
    ]);
    let agent = Agent::new(model.clone()).max_attempts(2);
    let err = agent
        .ask::<Invoice>(REQUEST)
        .await
        .expect_err("no reply fits");
    assert!(matches!(err, AskError::Exhausted { .. }));
    assert_eq!(err.attempts()[1].violations().len(), 1);
    assert_eq!(
        err.best_partial(),
        Some(&json!({
            "number": "INV-0317",
            "issued": "2024-03-33",
            "customer": "Acme GmbH",
            "total": 120.5,
        }))
    );
    // The repair it was sent named the right fields.
    let repair = &model.request_texts()[1];
    assert!(
        repair.contains(r#"keep them as they are: /number, /customer, /total."#),
        "{repair}"
    );
}

/// A field right only in a later reply is taken from there; one right in none stays as the
/// closest reply has it; a reply wrong as a whole (not an object) gives no field.
#[tokio::test]
async fn the_best_partial_value_takes_each_field_where_it_was_right() {
    let model = Scripted::new([
        "I cannot tell.",
        r#"{"number": "INV-0317", "issued": 3, "total": "lots"}"#,
        r#"{"number": "INV-9999", "issued": 4, "customer": "Acme GmbH", "total": 120.5}"#,
    ]);
    let agent = Agent::new(model).max_attempts(3);
    let err = agent
        .ask::<Invoice>(REQUEST)
        .await
        .expect_err("no reply fits");
    let counts: Vec<usize> = err
        .attempts()
        .iter()
        .map(|a| a.violations().len())
        .collect();
    assert_eq!(counts, [1, 3, 1]);
    // The closest is the last (the later of equals); the number was right first in the
    // second reply, the customer and the total only in the last, the date in none.
    assert_eq!(
        err.best_partial(),
        Some(&json!({
            "number": "INV-0317",
            "issued": 4,
            "customer": "Acme GmbH",
            "total": 120.5,
        }))
    );
}

// ---------------------------------------------------------------------------------------
// The property: whatever was right in a reply, its repair prompt offers no example value
// for it, and names it to be kept.

#[derive(Debug, Clone)]
enum Field {
    Right(Value),
    Wrong(Value),
    Missing,
}

fn field(right: Vec<Value>, wrong: Vec<Value>) -> impl Strategy<Value = Field> {
    prop_oneof![
        3 => proptest::sample::select(right).prop_map(Field::Right),
        2 => proptest::sample::select(wrong).prop_map(Field::Wrong),
        1 => Just(Field::Missing),
    ]
}

fn reply() -> impl Strategy<Value = (Vec<(&'static str, Field)>, bool, bool)> {
    let number = field(
        vec![json!("INV-0317"), json!("INV-2291")],
        vec![
            json!("inv 317"),
            json!("INV-317"),
            json!(317),
            json!("Invoice INV-0317"),
        ],
    );
    let issued = field(
        vec![json!("2024-03-03"), json!("2023-11-30")],
        vec![
            json!("March 3, 2024"),
            json!(20240303),
            json!("2024-02-30"),
            json!(null),
        ],
    );
    let customer = field(
        vec![json!("Acme GmbH"), json!("Bob's Bikes")],
        vec![json!(null), json!(["Acme"]), json!({"name": "Acme"})],
    );
    let total = field(
        vec![json!(120.5), json!(99), json!(7.25)],
        vec![json!("lots"), json!(null), json!([120.5])],
    );
    let note = field(
        vec![json!(null), json!("Paid by card")],
        vec![json!(5), json!({"body": "hi"})],
    );
    (
        (number, issued, customer, total, note).prop_map(|(a, b, c, d, e)| {
            vec![
                ("number", a),
                ("issued", b),
                ("customer", c),
                ("total", d),
                ("note", e),
            ]
        }),
        any::<bool>(),
        any::<bool>(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_repair_prompt_offers_no_example_for_a_right_field(
        (fields, unknown_key, fenced) in reply()
    ) {
        let mut object = Map::new();
        for (name, f) in &fields {
            match f {
                Field::Right(v) | Field::Wrong(v) => {
                    object.insert((*name).to_owned(), v.clone());
                }
                Field::Missing => {}
            }
        }
        if unknown_key {
            object.insert("totl".into(), json!(1));
        }
        let json = Value::Object(object).to_string();
        let raw = if fenced { format!("Here:\n```json\n{json}\n```") } else { json };
        let Err(err) = toolschema::parse::<Invoice>(&raw) else {
            return Ok(());
        };
        let prompt = RepairPrompt::new::<Invoice>(&raw, &err).attempt(1, 3).request(REQUEST);
        let wrong: BTreeSet<String> = err
            .violations()
            .iter()
            .map(|v| v.pointer().trim_start_matches('/').split('/').next().unwrap_or("").to_owned())
            .collect();
        let mut present: Vec<&str> = fields
            .iter()
            .filter(|(_, f)| !matches!(f, Field::Missing))
            .map(|(name, _)| *name)
            .collect();
        if unknown_key {
            present.push("totl");
        }
        let right: Vec<&str> = if wrong.contains("") {
            Vec::new()
        } else {
            present.iter().copied().filter(|n| !wrong.contains(*n)).collect()
        };
        prop_assert_eq!(prompt.kept_fields(), right.clone());
        let first = [Message::system("the shape"), Message::user(REQUEST)];
        for strategy in [RepairStrategy::Conversation, RepairStrategy::Minimal, RepairStrategy::Corrected] {
            let messages = prompt.messages(strategy, &first);
            let text = &messages.last().expect("a repair message").content;
            for name in &right {
                for example in example_texts(name) {
                    prop_assert!(
                        !text.contains(&example),
                        "{} offered for the right field {} in:\n{}", example, name, text
                    );
                }
                let keep = text
                    .lines()
                    .find(|l| l.contains("right; keep"))
                    .unwrap_or_default();
                prop_assert!(
                    keep.split([':', ',', '.', ' ']).any(|w| w == format!("/{name}")),
                    "{} not kept in:\n{}", name, text
                );
            }
            if !right.is_empty() {
                prop_assert!(text.contains("keep"), "{}", text);
                prop_assert!(!text.contains("For example"), "{}", text);
            }
        }
    }
}
