//! Transport failures and mode fallback: retried or reported, never confused with the
//! model's content.

use std::time::{Duration, Instant};

use toolschema::agent::{Backoff, CancelToken, Event};
use toolschema::provider::{Mode, ProviderError};
use toolschema::{Agent, AskError, ToolSchema};
use wiremock::ResponseTemplate;

use crate::server::{Events, FAST, bodies, chat, contents, openai};

#[derive(ToolSchema, Debug, PartialEq)]
struct Person {
    name: String,
    age: u8,
}

const ANN: &str = r#"{"name": "Ann", "age": 31}"#;

fn ann() -> Person {
    Person {
        name: "Ann".into(),
        age: 31,
    }
}

/// The transport retries of an ask, as (error, delay).
fn retries(events: &Events) -> Vec<(ProviderError, Duration)> {
    events
        .all()
        .into_iter()
        .filter_map(|e| match e {
            Event::TransportRetry { error, delay, .. } => Some((error, delay)),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_429_waits_as_long_as_retry_after_says() {
    let limited = ResponseTemplate::new(429)
        .insert_header("retry-after", "1")
        .set_body_string("slow down");
    let (server, provider) = openai(vec![limited, chat(ANN)]).await;
    let events = Events::default();
    // The backoff alone would wait 1 ms: the server's second wins.
    let agent = Agent::new(provider)
        .mode(Mode::Prompt)
        .backoff(FAST.with_max(Duration::from_secs(5)))
        .on_event(events.listener());
    let started = Instant::now();
    let person: Person = agent.ask("Ann is 31.").await.expect("a person");
    let elapsed = started.elapsed();
    assert_eq!(person, ann());
    assert!(elapsed >= Duration::from_secs(1), "{elapsed:?}");
    assert!(elapsed < Duration::from_secs(3), "{elapsed:?}");

    let retries = retries(&events);
    assert_eq!(retries.len(), 1);
    assert_eq!(
        retries[0].0,
        ProviderError::Http {
            status: 429,
            body: "slow down".into(),
            retry_after: Some(Duration::from_secs(1)),
        }
    );
    assert_eq!(retries[0].1, Duration::from_secs(1));
    // One attempt for content, two HTTP calls, the same body twice.
    let bodies = bodies(&server).await;
    assert_eq!(bodies.len(), 2);
    assert_eq!(bodies[0], bodies[1]);
    assert_eq!(agent.metrics().attempts_on_success, 1);
}

#[tokio::test]
async fn retry_after_longer_than_the_backoff_max_is_capped() {
    let limited = ResponseTemplate::new(429).insert_header("retry-after", "3600");
    let (_server, provider) = openai(vec![limited, chat(ANN)]).await;
    let events = Events::default();
    let agent = Agent::new(provider)
        .mode(Mode::Prompt)
        .backoff(FAST.with_max(Duration::from_millis(50)))
        .on_event(events.listener());
    let person: Person = agent.ask("Ann is 31.").await.expect("a person");
    assert_eq!(person, ann());
    assert_eq!(retries(&events)[0].1, Duration::from_millis(50));
}

#[tokio::test]
async fn server_errors_are_retried_with_backoff_then_succeed() {
    let (server, provider) = openai(vec![
        ResponseTemplate::new(500).set_body_string("oops"),
        ResponseTemplate::new(503).set_body_string("overloaded"),
        chat(ANN),
    ])
    .await;
    let events = Events::default();
    let agent = Agent::new(provider)
        .mode(Mode::Prompt)
        .backoff(FAST)
        .on_event(events.listener());
    let person: Person = agent.ask("Ann is 31.").await.expect("a person");
    assert_eq!(person, ann());
    assert_eq!(bodies(&server).await.len(), 3);
    let lines = events.lines();
    assert_eq!(
        lines,
        [
            "attempt 1 (prompt)",
            "transport retry 1 after 1ms: HTTP 500: oops",
            "transport retry 1 after 2ms: HTTP 503: overloaded",
            "reply 1 (Stop)",
            "done after 1",
        ]
    );
    assert_eq!(agent.metrics().first_try, 1);
}

#[tokio::test]
async fn server_errors_past_the_retries_are_reported_with_status_and_body() {
    let (server, provider) = openai(vec![
        ResponseTemplate::new(500).set_body_string("oops 1"),
        ResponseTemplate::new(500).set_body_string("oops 2"),
        ResponseTemplate::new(502).set_body_string("bad gateway"),
    ])
    .await;
    let agent = Agent::new(provider)
        .mode(Mode::Prompt)
        .backoff(FAST.with_retries(2));
    let err = agent.ask::<Person>("Ann").await.unwrap_err();
    assert_eq!(bodies(&server).await.len(), 3);
    assert_eq!(
        err.provider_error(),
        Some(&ProviderError::Http {
            status: 502,
            body: "bad gateway".into(),
            retry_after: None
        })
    );
    assert_eq!(
        err.to_string(),
        "the provider failed: HTTP 502: bad gateway"
    );
    assert!(err.attempts().is_empty());
}

#[tokio::test]
async fn a_timeout_is_retried_then_reported() {
    let slow = || chat(ANN).set_delay(Duration::from_millis(800));
    let (server, provider) = openai(vec![slow(), chat(ANN)]).await;
    let events = Events::default();
    let agent = Agent::new(provider.timeout(Duration::from_millis(150)))
        .mode(Mode::Prompt)
        .backoff(FAST)
        .on_event(events.listener());
    let person: Person = agent.ask("Ann is 31.").await.expect("a person");
    assert_eq!(person, ann());
    assert_eq!(bodies(&server).await.len(), 2);
    assert_eq!(retries(&events)[0].0, ProviderError::Timeout);

    // Without retries the timeout is the error.
    let (_server, provider) = openai(vec![slow()]).await;
    let started = Instant::now();
    let err = Agent::new(provider.timeout(Duration::from_millis(150)))
        .mode(Mode::Prompt)
        .backoff(Backoff::none())
        .ask::<Person>("Ann is 31.")
        .await
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_millis(700));
    assert_eq!(err.provider_error(), Some(&ProviderError::Timeout));
    assert_eq!(
        err.to_string(),
        "the provider failed: the request timed out"
    );
}

#[tokio::test]
async fn a_truncated_body_is_retried_then_reported_with_what_arrived() {
    let cut = r#"{"id": "chatcmpl-1", "choices": [{"index": 0, "message": {"role": "assistant", "content": "{\"na"#;
    let truncated = || ResponseTemplate::new(200).set_body_raw(cut, "application/json");
    let (server, provider) = openai(vec![truncated(), chat(ANN)]).await;
    let events = Events::default();
    let agent = Agent::new(provider)
        .mode(Mode::Prompt)
        .backoff(FAST)
        .on_event(events.listener());
    let person: Person = agent.ask("Ann is 31.").await.expect("a person");
    assert_eq!(person, ann());
    assert_eq!(bodies(&server).await.len(), 2);
    assert!(matches!(
        &retries(&events)[0].0,
        ProviderError::InvalidResponse { body, .. } if body == cut
    ));

    let (_server, provider) = openai(vec![truncated()]).await;
    let err = Agent::new(provider)
        .mode(Mode::Prompt)
        .backoff(Backoff::none())
        .ask::<Person>("Ann is 31.")
        .await
        .unwrap_err();
    let Some(ProviderError::InvalidResponse { message, body }) = err.provider_error() else {
        panic!("not an invalid response: {err:?}");
    };
    assert!(
        message.starts_with("not JSON: EOF while parsing"),
        "{message}"
    );
    assert_eq!(body, cut);
}

#[tokio::test]
async fn a_400_on_json_schema_falls_back_to_json_object_under_auto() {
    let rejected = ResponseTemplate::new(400).set_body_string(
        r#"{"error": {"message": "response_format json_schema is not supported"}}"#,
    );
    let (server, provider) = openai(vec![rejected, chat(ANN)]).await;
    let events = Events::default();
    let agent = Agent::new(provider)
        .backoff(FAST)
        .on_event(events.listener());
    let person: Person = agent.ask("Ann is 31.").await.expect("a person");
    assert_eq!(person, ann());

    let bodies = bodies(&server).await;
    assert_eq!(bodies.len(), 2);
    assert_eq!(bodies[0]["response_format"]["type"], "json_schema");
    assert_eq!(bodies[1]["response_format"]["type"], "json_object");
    // The same conversation, with the shape now stated in the prompt alone.
    assert_eq!(contents(&bodies[0]), contents(&bodies[1]));
    assert!(contents(&bodies[1])[0].contains("{ name: string, age: int /* 0..=255 */ }"));
    assert_eq!(
        events.lines(),
        [
            "attempt 1 (json_schema)",
            "mode fallback json_schema -> json_object",
            "attempt 1 (json_object)",
            "reply 1 (Stop)",
            "done after 1",
        ]
    );
    let reason = events.all().into_iter().find_map(|e| match e {
        Event::ModeFallback { reason, .. } => Some(reason),
        _ => None,
    });
    assert_eq!(
        reason.as_deref(),
        Some(r#"HTTP 400: {"error": {"message": "response_format json_schema is not supported"}}"#)
    );
    assert_eq!(agent.metrics().first_try, 1);
}

#[tokio::test]
async fn a_fallback_is_remembered_for_the_next_ask_of_the_same_type() {
    let rejected = ResponseTemplate::new(400).set_body_string("no json_schema here");
    let (server, provider) = openai(vec![rejected, chat(ANN), chat(ANN)]).await;
    let agent = Agent::new(provider).backoff(FAST);
    let first: Person = agent.ask("Ann is 31.").await.expect("a person");
    let second: Person = agent.ask("Ann is 31.").await.expect("a person");
    assert_eq!((first, second), (ann(), ann()));
    let modes: Vec<serde_json::Value> = bodies(&server)
        .await
        .iter()
        .map(|b| b["response_format"]["type"].clone())
        .collect();
    // The second ask does not pay the 400 again.
    assert_eq!(modes, ["json_schema", "json_object", "json_object"]);
}

#[tokio::test]
async fn the_mode_given_up_is_the_one_remembered_when_prose_comes_first() {
    // A union with an answer starts in prose under Auto. Here the server rejects that
    // request, and the grammar cannot carry an answer of any shape (OpenAI's strict
    // dialect): both are given up, and the next ask starts in json_object, not in the
    // prose the provider's list puts last.
    let tools = toolschema::Toolset::from_openai_tools(&serde_json::json!([{
        "type": "function",
        "function": {"name": "time_now", "parameters": {"type": "object", "properties": {}}}
    }]))
    .expect("the tools load")
    .with_answer();
    let rejected = ResponseTemplate::new(400).set_body_string("no plain prompts here");
    let answer = r#"{"answer": "Noon."}"#;
    let (server, provider) = openai(vec![rejected, chat(answer), chat(answer)]).await;
    let agent = Agent::new(provider).backoff(FAST);
    for _ in 0..2 {
        agent
            .ask_tools(&tools, "Say noon.")
            .await
            .expect("the answer");
    }
    let modes: Vec<serde_json::Value> = bodies(&server)
        .await
        .iter()
        .map(|b| b["response_format"]["type"].clone())
        .collect();
    let prose = serde_json::Value::Null;
    assert_eq!(modes, [prose, "json_object".into(), "json_object".into()]);
}

#[tokio::test]
async fn a_400_in_a_forced_mode_is_an_error() {
    let rejected = ResponseTemplate::new(400).set_body_string("no json_schema here");
    let (server, provider) = openai(vec![rejected]).await;
    let err = Agent::new(provider)
        .mode(Mode::JsonSchema)
        .backoff(FAST)
        .ask::<Person>("Ann")
        .await
        .unwrap_err();
    assert_eq!(bodies(&server).await.len(), 1);
    assert_eq!(
        err.to_string(),
        "the provider failed: HTTP 400: no json_schema here"
    );
}

#[tokio::test]
async fn cancelling_ends_a_slow_call_and_a_backoff_wait() {
    // During a call that would take 5 s.
    let (_server, provider) = openai(vec![chat(ANN).set_delay(Duration::from_secs(5))]).await;
    let agent = Agent::new(provider).mode(Mode::Prompt);
    let cancel = CancelToken::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        trigger.cancel();
    });
    let started = Instant::now();
    let err = agent
        .ask::<Person>("Ann")
        .cancel(&cancel)
        .await
        .unwrap_err();
    assert!(matches!(err, AskError::Cancelled { .. }), "{err:?}");
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(err.to_string(), "the ask was cancelled");

    // During the wait a 429 asked for, after a first failed attempt that is kept.
    let limited = ResponseTemplate::new(429).insert_header("retry-after", "5");
    let (server, provider) = openai(vec![chat("{\"name\": 1}"), limited]).await;
    let agent = Agent::new(provider)
        .mode(Mode::Prompt)
        .backoff(FAST.with_max(Duration::from_secs(10)));
    let cancel = CancelToken::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        trigger.cancel();
    });
    let started = Instant::now();
    let err = agent
        .ask::<Person>("Ann")
        .cancel(&cancel)
        .await
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(2));
    assert!(matches!(err, AskError::Cancelled { .. }), "{err:?}");
    assert_eq!(err.attempts().len(), 1);
    assert_eq!(err.attempts()[0].raw(), "{\"name\": 1}");
    assert_eq!(bodies(&server).await.len(), 2);

    // Cancelled before it starts: no call at all.
    let (server, provider) = openai(vec![chat(ANN)]).await;
    let cancel = CancelToken::new();
    cancel.cancel();
    let err = Agent::new(provider)
        .ask::<Person>("Ann")
        .cancel(&cancel)
        .await
        .unwrap_err();
    assert!(matches!(err, AskError::Cancelled { .. }));
    assert!(bodies(&server).await.is_empty());
}
