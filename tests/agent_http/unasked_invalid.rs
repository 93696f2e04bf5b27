//! Optional arguments the user never gave, whose values break the tool's schema, left out
//! of the call instead of sent back, over a real HTTP server: in every mode and every way
//! a value can break a schema; never a value the user wrote, an argument the user names,
//! a value outside the ones the schema lists, a required argument, a call among several
//! written apart, or a value written to fix an earlier violation.

use serde_json::{Value, json};
use toolschema::provider::Mode;
use toolschema::{Agent, Choice, FixKind, Toolset};

use crate::server::{bodies, chat, openai, tool_calls};

/// A BMI calculator whose optional age is for children and teenagers, and whose
/// optional units and note are constrained, with an answer.
fn bmi() -> Toolset {
    Toolset::from_openai_tools(&json!([{"type": "function", "function": {
        "name": "health.bmi",
        "description": "Body-mass index from weight and height; pass age only for ages 2 to 19.",
        "parameters": {"type": "object", "properties": {
            "weight_kg": {"type": "number", "minimum": 1},
            "height_cm": {"type": "number", "minimum": 30},
            "age": {"type": "integer", "minimum": 2, "maximum": 19},
            "units": {"type": "string", "enum": ["metric", "imperial"]},
            "note": {"type": "string", "maxLength": 10}
        }, "required": ["weight_kg", "height_cm"]}
    }}]))
    .expect("the tools load")
    .with_answer()
}

const ADULT: &str = "What's the BMI of an adult who weighs 72 kg and is 178 cm tall?";

fn call(extra: Value) -> String {
    let mut arguments = json!({"weight_kg": 72, "height_cm": 178});
    if let (Some(arguments), Value::Object(extra)) = (arguments.as_object_mut(), extra) {
        arguments.extend(extra);
    }
    json!({"name": "health_bmi", "arguments": arguments}).to_string()
}

/// Each way a made-up optional value can break the schema, alone and together with a
/// valid made-up one.
fn broken() -> Vec<Value> {
    vec![
        json!({"age": 20}),
        json!({"age": 1}),
        json!({"age": "twenty"}),
        json!({"note": "athletic slim frame"}),
        // A valid made-up value before a broken one; two broken ones, neither of which
        // alone makes the call fit once left out.
        json!({"note": "runner", "age": 40}),
        json!({"age": 20, "note": "athletic slim frame"}),
    ]
}

#[tokio::test]
async fn a_made_up_optional_value_that_breaks_the_schema_is_left_out_at_once() {
    for mode in [Mode::Prompt, Mode::JsonObject] {
        for extra in broken() {
            let (server, provider) = openai(vec![chat(&call(extra.clone()))]).await;
            let agent = Agent::new(provider).mode(mode);
            let asked = agent
                .ask_tools(&bmi(), ADULT)
                .answered()
                .await
                .unwrap_or_else(|e| panic!("{mode:?} {extra}: {e}"));
            let Choice::Calls(calls) = &asked.value else {
                panic!("a call: {:?}", asked.value);
            };
            assert_eq!(
                calls[0].arguments(),
                &json!({"weight_kg": 72, "height_cm": 178}),
                "{mode:?} {extra}"
            );
            assert_eq!(bodies(&server).await.len(), 1, "{mode:?} {extra}");
            let fixes = asked.attempts[0].fixes();
            let left_out: Vec<&str> = fixes
                .iter()
                .filter_map(|f| match f.kind() {
                    FixKind::UnaskedArgument { key, .. } => Some(key.as_str()),
                    _ => None,
                })
                .collect();
            let written: Vec<&str> = extra
                .as_object()
                .into_iter()
                .flatten()
                .map(|(k, _)| k.as_str())
                .collect();
            for key in written {
                assert!(left_out.contains(&key), "{extra}: {fixes:?}");
            }
        }
    }
}

#[tokio::test]
async fn wrapped_and_native_calls_are_read_the_same_way() {
    // Under the grammar the reply is wrapped in `{"value": …}`.
    let wrapped = json!({"value": {"name": "health_bmi",
        "arguments": {"weight_kg": 72, "height_cm": 178, "age": 20}}});
    let (server, provider) = openai(vec![chat(&wrapped.to_string())]).await;
    let agent = Agent::new(provider).mode(Mode::JsonSchema);
    let choice = agent.ask_tools(&bmi(), ADULT).await.expect("the call");
    let Choice::Calls(calls) = choice else {
        panic!("a call: {choice:?}")
    };
    assert_eq!(calls[0].arguments().get("age"), None);
    assert_eq!(bodies(&server).await.len(), 1);

    // Native calls, two of them, one spelled as its server spells it, and a call
    // written as text under the server's spelling: each loses its made-up age.
    let native = r#"{"weight_kg": 72, "height_cm": 178, "age": 20}"#;
    let other = r#"{"weight_kg": 72, "height_cm": 178, "age": 30}"#;
    let (server, provider) = openai(vec![tool_calls(&[
        ("c1", "health_bmi", native),
        ("c2", "health.bmi", other),
    ])])
    .await;
    let agent = Agent::new(provider).mode(Mode::Tools);
    let asked = agent
        .ask_tools(&bmi(), ADULT)
        .answered()
        .await
        .expect("the calls");
    let Choice::Calls(calls) = &asked.value else {
        panic!("calls: {:?}", asked.value)
    };
    assert_eq!(calls.len(), 2);
    assert!(calls.iter().all(|c| c.arguments().get("age").is_none()));
    let left_out = asked.attempts[0]
        .fixes()
        .iter()
        .filter(|f| matches!(f.kind(), FixKind::UnaskedArgument { key, .. } if key == "age"))
        .count();
    assert_eq!(left_out, 2);
    assert_eq!(bodies(&server).await.len(), 1);

    let text = call(json!({"age": 20})).replace("health_bmi", "health.bmi");
    let (server, provider) = openai(vec![chat(&text)]).await;
    let agent = Agent::new(provider).mode(Mode::Prompt);
    let choice = agent.ask_tools(&bmi(), ADULT).await.expect("the call");
    let Choice::Calls(calls) = choice else {
        panic!("a call: {choice:?}")
    };
    assert_eq!(calls[0].arguments().get("age"), None);
    assert_eq!(bodies(&server).await.len(), 1);
}

#[tokio::test]
async fn a_value_the_user_wrote_or_a_required_one_is_sent_back_as_before() {
    let fixed = call(json!({"age": 16}));
    for (request, reply) in [
        // The user gave the age: a value of theirs is never left out.
        (
            "BMI of a 20-year-old who weighs 72 kg and is 178 cm tall?",
            call(json!({"age": 20})),
        ),
        // The user names the argument: its value is the model's reading of the request,
        // for the repair to mend.
        (
            "BMI for my age group? I weigh 72 kg and am 178 cm tall.",
            call(json!({"age": 45})),
        ),
        // A required value out of range is the call's own fault.
        (
            ADULT,
            json!({"name": "health_bmi", "arguments": {"weight_kg": 72, "height_cm": 17}})
                .to_string(),
        ),
        // A broken made-up value beside a required one missing.
        (
            ADULT,
            call(json!({"age": 20})).replace("\"weight_kg\":72,", ""),
        ),
        // A value outside the ones the schema lists: the model meant one of them.
        (ADULT, call(json!({"units": "SI"}))),
        // Several calls written apart in the text: left out of one, the other would be
        // dropped unsaid.
        (
            ADULT,
            format!(
                "<tool_call>{}</tool_call>\n<tool_call>{}</tool_call>",
                call(json!({"age": 20})),
                call(json!({}))
            ),
        ),
    ] {
        let (server, provider) = openai(vec![chat(&reply), chat(&fixed)]).await;
        let agent = Agent::new(provider).mode(Mode::JsonObject);
        let asked = agent
            .ask_tools(&bmi(), request)
            .answered()
            .await
            .unwrap_or_else(|e| panic!("{request}: {e}"));
        assert_eq!(asked.attempts.len(), 2, "{request}: {reply}");
        assert!(asked.attempts[0].error().is_some(), "{request}");
        assert_eq!(bodies(&server).await.len(), 2, "{request}");
    }
}

#[tokio::test]
async fn a_value_written_to_fix_a_violation_at_its_place_is_not_left_out() {
    // Told its age was above the maximum, the model writes another wrong one: that is its
    // answer to the violation, sent back again, not dropped.
    let (server, provider) = openai(vec![
        chat(&call(json!({"age": 20, "weight_kg": "heavy"}))),
        chat(&call(json!({"age": 25}))),
        chat(&call(json!({"age": 18}))),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::JsonObject);
    let asked = agent
        .ask_tools(&bmi(), ADULT)
        .answered()
        .await
        .expect("the call");
    assert_eq!(asked.attempts.len(), 3);
    assert_eq!(bodies(&server).await.len(), 3);
    let Choice::Calls(calls) = &asked.value else {
        panic!("a call: {:?}", asked.value);
    };
    assert_eq!(calls[0].arguments()["age"], json!(18));
}
