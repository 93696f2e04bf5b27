//! The loop on what models reply: local fixes, repairs by the model, exhaustion, cut-off
//! replies, the token budget and the counters.

use serde_json::json;
use toolschema::provider::{FinishReason, Mode, Usage};
use toolschema::{Agent, AskError, ToolSchema, ViolationKind};

use crate::server::{Events, bodies, chat, completion, contents, openai};

#[tokio::test]
async fn a_fenced_reply_is_fixed_locally_in_one_call() {
    #[derive(ToolSchema, Debug, PartialEq)]
    struct City {
        name: String,
        population: u32,
    }

    let fenced = "Sure! Here it is:\n```json\n{\"name\": \"Oslo\", \"population\": 709000,}\n```";
    let (server, provider) = openai(vec![chat(fenced)]).await;
    let events = Events::default();
    let agent = Agent::new(provider)
        .mode(Mode::JsonObject)
        .on_event(events.listener());
    let city: City = agent
        .ask("The largest city in Norway?")
        .await
        .expect("a city");
    assert_eq!(
        city,
        City {
            name: "Oslo".into(),
            population: 709_000
        }
    );
    assert_eq!(bodies(&server).await.len(), 1);
    let lines = events.lines();
    assert_eq!(lines[0], "attempt 1 (json_object)");
    assert_eq!(lines[1], "reply 1 (Stop)");
    assert!(lines[2].starts_with("fixed locally 1: "), "{lines:?}");
    assert!(lines[2].contains("code fence"), "{lines:?}");
    assert!(lines[2].contains("trailing comma"), "{lines:?}");
    assert_eq!(lines[3], "done after 1");
    let metrics = agent.metrics();
    assert_eq!((metrics.fixed_locally, metrics.first_try), (1, 0));
}

#[tokio::test]
async fn a_wrong_key_is_repaired_by_the_model_with_the_did_you_mean() {
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Person {
        name: String,
        age: u8,
    }

    let (server, provider) = openai(vec![
        chat(r#"{"name": "Ann", "agee": 31}"#),
        chat(r#"{"name": "Ann", "age": 31}"#),
    ])
    .await;
    let events = Events::default();
    let agent = Agent::new(provider)
        .mode(Mode::JsonObject)
        .temperature(0.0)
        .repair_temperature(0.5)
        .on_event(events.listener());
    let person: Person = agent.ask("Ann is 31.").await.expect("a person");
    assert_eq!(
        person,
        Person {
            name: "Ann".into(),
            age: 31
        }
    );

    let bodies = bodies(&server).await;
    assert_eq!(bodies.len(), 2);
    assert_eq!(bodies[0]["temperature"], 0.0);
    assert_eq!(bodies[1]["temperature"], 0.5);
    // The conversation goes on: the failed reply, then what is wrong with it.
    let second = contents(&bodies[1]);
    assert_eq!(second.len(), 4);
    assert_eq!(second[..2], contents(&bodies[0])[..]);
    assert_eq!(bodies[1]["messages"][2]["role"], "assistant");
    assert_eq!(second[2], r#"{"name": "Ann", "agee": 31}"#);
    let repair = &second[3];
    assert!(
        repair.starts_with("Your reply could not be used (attempt 1 of 3)."),
        "{repair}"
    );
    assert!(
        repair.contains("- /agee: unknown field; did you mean \"age\"?"),
        "{repair}"
    );
    assert!(
        repair.contains("- /age: missing required field"),
        "{repair}"
    );
    assert_eq!(
        events.lines(),
        [
            "attempt 1 (json_object)",
            "reply 1 (Stop)",
            "violations 1: 2",
            "repair sent 1",
            "attempt 2 (json_object)",
            "reply 2 (Stop)",
            "done after 2",
        ]
    );
    assert_eq!(agent.metrics().fixed_by_model, 1);
}

#[tokio::test]
async fn exhaustion_keeps_every_attempt() {
    #[derive(ToolSchema, Debug)]
    struct Person {
        name: String,
        age: u8,
    }

    let replies = [
        "I cannot tell.",
        r#"{"name": "Ann"}"#,
        r#"{"name": "Ann", "age": 300}"#,
    ];
    let (server, provider) = openai(vec![
        completion(
            json!({ "role": "assistant", "content": replies[0] }),
            "stop",
            (10, 1),
        ),
        completion(
            json!({ "role": "assistant", "content": replies[1] }),
            "stop",
            (20, 2),
        ),
        completion(
            json!({ "role": "assistant", "content": replies[2] }),
            "stop",
            (30, 3),
        ),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::Prompt).max_attempts(3);
    let err = agent.ask::<Person>("Ann, age unknown").await.unwrap_err();
    assert_eq!(bodies(&server).await.len(), 3);

    let AskError::Exhausted { attempts, .. } = &err else {
        panic!("not exhausted: {err:?}");
    };
    assert_eq!(attempts.len(), 3);
    let raw: Vec<&str> = attempts.iter().map(|a| a.raw()).collect();
    assert_eq!(raw, replies);
    let numbers: Vec<usize> = attempts.iter().map(|a| a.number()).collect();
    assert_eq!(numbers, [1, 2, 3]);
    let usage: Vec<Usage> = attempts.iter().map(|a| a.usage()).collect();
    assert_eq!(
        usage.iter().map(Usage::total).collect::<Vec<_>>(),
        [11, 22, 33]
    );
    let shown = |i: usize| -> Vec<String> {
        attempts[i]
            .violations()
            .iter()
            .map(ToString::to_string)
            .collect()
    };
    // Prose is read as a string, the wrong type: the repair says what was expected.
    assert_eq!(
        shown(0),
        ["(root): expected an object, found the string \"I cannot tell.\""]
    );
    assert_eq!(shown(1), ["/age: missing required field"]);
    assert_eq!(shown(2), ["/age: 300 is above the maximum of 255"]);
    // Each request is kept too: the third carries the repair of the second reply.
    assert!(
        attempts[2]
            .request()
            .contains("- /age: missing required field")
    );
    assert_eq!(err.last_raw(), Some(replies[2]));
    // Of equally close replies the later one is kept.
    assert_eq!(
        err.best_partial(),
        Some(&json!({ "name": "Ann", "age": 300 }))
    );
    assert_eq!(
        err.to_string(),
        "no usable reply in 3 attempt(s); the last one failed with:\n/age: 300 is above the maximum of 255"
    );
    assert_eq!(agent.metrics().exhausted, 1);
}

#[tokio::test]
async fn a_reply_cut_off_by_the_token_limit_is_named_in_the_repair() {
    #[derive(ToolSchema, Debug)]
    struct Person {
        name: String,
        age: u8,
    }

    let (server, provider) = openai(vec![
        completion(
            json!({ "role": "assistant", "content": "{\"name\": \"Ann\", \"a" }),
            "length",
            (50, 8),
        ),
        chat(r#"{"name": "Ann", "age": 31}"#),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::Prompt).max_tokens(8);
    let person: Person = agent.ask("Ann is 31.").await.expect("a person");
    assert_eq!(person.age, 31);

    let bodies = bodies(&server).await;
    assert_eq!(bodies[0]["max_tokens"], 8);
    let repair = contents(&bodies[1]).pop().expect("a repair message");
    assert!(
        repair.contains("Your reply was cut off; answer more briefly."),
        "{repair}"
    );
    assert!(
        repair.contains("- /age: missing required field"),
        "{repair}"
    );
}

#[tokio::test]
async fn a_cut_reply_is_reported_as_cut_before_what_the_cut_left() {
    #[derive(ToolSchema, Debug)]
    struct Task {
        title: String,
        due_date: String,
    }

    let cut = completion(
        json!({ "role": "assistant", "content": "{\"title\": \"Pay rent\", \"due_date\": \"2025" }),
        "length",
        (50, 12),
    );
    let (server, provider) = openai(vec![cut.clone(), cut.clone(), cut]).await;
    let agent = Agent::new(provider).mode(Mode::Prompt).max_tokens(12);
    let err = agent
        .ask::<Task>("Pay rent by 1 May 2025.")
        .await
        .unwrap_err();
    let AskError::Exhausted { attempts, .. } = &err else {
        panic!("attempts should run out: {err}")
    };
    let violations = attempts[0].error().expect("rejected").violations();
    assert_eq!(
        violations[0].kind(),
        &ViolationKind::CutOff {
            max_tokens: Some(12)
        }
    );
    assert_eq!(
        violations[0].to_string(),
        "(root): the reply was cut off at the token limit of 12 tokens before it was complete"
    );
    let repair = contents(&bodies(&server).await[1])
        .pop()
        .expect("a repair message");
    assert!(
        repair.contains("the reply was cut off at the token limit of 12 tokens"),
        "{repair}"
    );
}

#[tokio::test]
async fn a_complete_reply_with_the_same_violations_is_not_called_cut() {
    #[derive(ToolSchema, Debug)]
    struct Task {
        title: String,
        due_date: u32,
    }

    let (_server, provider) = openai(vec![chat(r#"{"title": "Pay rent"}"#); 3]).await;
    let agent = Agent::new(provider).mode(Mode::Prompt).max_tokens(12);
    let err = agent.ask::<Task>("Pay rent by day 12.").await.unwrap_err();
    for attempt in err.attempts() {
        let error = attempt.error().expect("rejected");
        assert!(
            error
                .violations()
                .iter()
                .all(|v| !matches!(v.kind(), ViolationKind::CutOff { .. })),
            "{error}"
        );
    }
}

#[tokio::test]
async fn the_default_cap_is_sized_from_the_shape_and_can_be_lifted() {
    #[derive(ToolSchema, Debug)]
    struct Small {
        name: String,
    }

    /// A record with much more to fill in.
    #[derive(ToolSchema, Debug)]
    struct Large {
        /// The customer's full name as written on the invoice, with any title.
        customer_name: String,
        /// The street, house number, postal code and city of the billing address.
        billing_address: String,
        /// The street, house number, postal code and city of the delivery address.
        delivery_address: String,
        /// Every line of the order, in the order they were written.
        lines: Vec<String>,
        /// Anything the customer asked for that fits no other field.
        notes: Option<String>,
    }

    let (server, provider) = openai(vec![
        chat(r#"{"name": "Ann"}"#),
        chat(r#"{"customer_name": "Ann", "billing_address": "a", "delivery_address": "b", "lines": [], "notes": null}"#),
        chat(r#"{"name": "Ann"}"#),
    ])
    .await;
    let agent = Agent::new(provider.clone()).mode(Mode::JsonObject);
    agent.ask::<Small>("Ann").await.expect("small");
    agent.ask::<Large>("Ann").await.expect("large");
    Agent::new(provider)
        .mode(Mode::JsonObject)
        .reply_cap(toolschema::agent::ReplyCap::Unlimited)
        .ask::<Small>("Ann")
        .await
        .expect("small");
    let bodies = bodies(&server).await;
    let small = bodies[0]["max_tokens"].as_u64().expect("a cap by default");
    let large = bodies[1]["max_tokens"].as_u64().expect("a cap by default");
    assert!((1_024..=4_096).contains(&small), "{small}");
    assert!(
        large > small,
        "{large} for the large record, {small} for the small one"
    );
    assert!(large <= 4_096, "{large}");
    assert!(bodies[2].get("max_tokens").is_none(), "{}", bodies[2]);
}

#[tokio::test]
async fn a_reply_cut_under_the_grammar_moves_auto_to_the_next_mode_for_this_ask_only() {
    #[derive(ToolSchema, Debug)]
    struct Person {
        name: String,
        age: u8,
    }

    let looping = completion(
        json!({ "role": "assistant", "content": "{\"name\": \"Ann                         " }),
        "length",
        (50, 20),
    );
    let (server, provider) = openai(vec![
        looping,
        chat(r#"{"name": "Ann", "age": 31}"#),
        chat(r#"{"name": "Bo", "age": 7}"#),
    ])
    .await;
    let events = Events::default();
    let agent = Agent::new(provider).on_event(events.listener());
    let person: Person = agent.ask("Ann is 31.").await.expect("a person");
    assert_eq!(person.age, 31);
    let person: Person = agent.ask("Bo is 7.").await.expect("a person");
    assert_eq!(person.age, 7);

    let bodies = bodies(&server).await;
    let format = |i: usize| bodies[i]["response_format"]["type"].clone();
    assert_eq!(format(0), "json_schema");
    assert_eq!(format(1), "json_object", "the attempt after the cut");
    // The grammar is not given up for good: one looping reply says nothing of the mode.
    assert_eq!(format(2), "json_schema", "the next ask");
    let reasons: Vec<String> = events
        .all()
        .into_iter()
        .filter_map(|e| match e {
            toolschema::agent::Event::ModeFallback { reason, .. } => Some(reason),
            _ => None,
        })
        .collect();
    assert_eq!(reasons.len(), 1, "{reasons:?}");
    assert!(
        reasons[0].contains("token limit under the schema's grammar"),
        "{reasons:?}"
    );
}

#[tokio::test]
async fn the_token_budget_ends_the_ask_with_its_attempts() {
    #[derive(ToolSchema, Debug)]
    struct Person {
        name: String,
        age: u8,
    }

    let (server, provider) = openai(vec![
        completion(
            json!({ "role": "assistant", "content": "{\"name\": 1}" }),
            "stop",
            (60, 10),
        ),
        completion(
            json!({ "role": "assistant", "content": "{\"name\": 2}" }),
            "stop",
            (80, 10),
        ),
        chat(r#"{"name": "Ann", "age": 31}"#),
    ])
    .await;
    let agent = Agent::new(provider)
        .mode(Mode::Prompt)
        .max_attempts(5)
        .token_budget(100);
    let err = agent.ask::<Person>("Ann is 31.").await.unwrap_err();
    let AskError::Budget {
        used,
        limit,
        attempts,
    } = &err
    else {
        panic!("not a budget error: {err:?}");
    };
    assert_eq!((*used, *limit), (160, 100));
    assert_eq!(attempts.len(), 2);
    assert_eq!(attempts[1].raw(), "{\"name\": 2}");
    assert_eq!(
        err.to_string(),
        "the token budget of 100 was used up (160 tokens)"
    );
    // No third call once the budget is spent.
    assert_eq!(bodies(&server).await.len(), 2);
}

#[tokio::test]
async fn metrics_count_each_outcome() {
    #[derive(ToolSchema, Debug)]
    struct Count {
        n: u32,
    }

    let (_server, provider) = openai(vec![
        // First try.
        completion(
            json!({ "role": "assistant", "content": "{\"n\": 1}" }),
            "stop",
            (10, 2),
        ),
        // Fixed locally: single quotes.
        completion(
            json!({ "role": "assistant", "content": "{'n': 2}" }),
            "stop",
            (10, 2),
        ),
        // Fixed by the model on the second attempt.
        completion(
            json!({ "role": "assistant", "content": "{\"m\": 3}" }),
            "stop",
            (10, 2),
        ),
        completion(
            json!({ "role": "assistant", "content": "{\"n\": 3}" }),
            "stop",
            (20, 2),
        ),
        // Exhausted after two attempts.
        chat("no"),
        chat("still no"),
    ])
    .await;
    let agent = Agent::new(provider).mode(Mode::Prompt).max_attempts(2);
    let mut got = Vec::new();
    for _ in 0..3 {
        got.push(agent.ask::<Count>("count").await.expect("a count").n);
    }
    assert_eq!(got, [1, 2, 3]);
    assert!(agent.ask::<Count>("count").await.is_err());

    let m = agent.metrics();
    assert_eq!(
        (m.asks, m.successes, m.first_try, m.fixed_locally),
        (4, 3, 1, 1)
    );
    assert_eq!((m.fixed_by_model, m.exhausted), (1, 1));
    assert_eq!(m.attempts_on_success, 4);
    assert_eq!(m.tokens_on_success, 12 + 12 + 12 + 22);
    assert!((m.attempts_per_success() - 4.0 / 3.0).abs() < 1e-9);
}

#[tokio::test]
async fn the_finish_reason_and_usage_are_read_from_the_reply() {
    #[derive(ToolSchema, Debug)]
    struct Count {
        n: u32,
    }

    let (_server, provider) = openai(vec![completion(
        json!({ "role": "assistant", "content": "{\"n\": 1}" }),
        "stop",
        (7, 3),
    )])
    .await;
    let events = Events::default();
    let agent = Agent::new(provider)
        .mode(Mode::Prompt)
        .on_event(events.listener());
    agent.ask::<Count>("count").await.expect("a count");
    let received = events.all().into_iter().find_map(|e| match e {
        toolschema::agent::Event::ReplyReceived {
            usage,
            finish,
            chars,
            ..
        } => Some((usage, finish, chars)),
        _ => None,
    });
    assert_eq!(
        received,
        Some((
            Usage {
                prompt_tokens: 7,
                completion_tokens: 3
            },
            FinishReason::Stop,
            8
        ))
    );
}
