//! The loop on what models reply: local fixes, repairs by the model, exhaustion, cut-off
//! replies, the token budget and the counters.

use serde_json::json;
use toolschema::provider::{FinishReason, Mode, Usage};
use toolschema::{Agent, AskError, ToolSchema};

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
