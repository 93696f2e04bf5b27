//! The API key never shows in what a failed call leaves behind: the error's `Display` and
//! `Debug`, the transport-retry events and the log, whatever the server sends back (a
//! proxy that echoes the request's headers into its body), on every error path.

use std::fmt::Write as _;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use toolschema::provider::Mode;
use toolschema::{Agent, AskError};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

use crate::server::{Events, FAST};

const KEY: &str = "sk-live-0123456789abcdef";

/// How a server answers, every request: each with the request's headers in its body.
#[derive(Clone, Copy, Debug)]
enum Answer {
    /// 200 with JSON that is no completion: `{"echo": {headers}}`.
    NotACompletion,
    /// A 500 whose body echoes the headers.
    Status,
    /// 200 with a body that is not JSON.
    NotJson,
    /// 200 with a JSON body cut short, after the key.
    Truncated,
    /// 200 with a body cut short inside the key.
    CutInsideTheKey,
}

struct Echo(Answer);

impl Respond for Echo {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let headers: serde_json::Map<String, Value> = request
            .headers
            .iter()
            .map(|(k, v)| (k.to_string(), json!(v.to_str().unwrap_or_default())))
            .collect();
        let echo = json!({ "echo": headers }).to_string();
        match self.0 {
            Answer::NotACompletion => {
                ResponseTemplate::new(200).set_body_json(json!({ "echo": headers }))
            }
            Answer::Status => ResponseTemplate::new(500).set_body_string(echo),
            Answer::NotJson => {
                ResponseTemplate::new(200).set_body_string(format!("proxy says: {echo}"))
            }
            Answer::Truncated => ResponseTemplate::new(200)
                .set_body_string(format!("{}, \"choices\": [", &echo[..echo.len() - 1])),
            Answer::CutInsideTheKey => {
                let cut = echo.find(KEY).map_or(echo.len(), |at| at + KEY.len() - 6);
                ResponseTemplate::new(200).set_body_string(echo[..cut].to_owned())
            }
        }
    }
}

async fn server(answer: Answer) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(Echo(answer))
        .mount(&server)
        .await;
    server
}

/// What the agent logs (`tracing` events), each as its fields' text.
#[derive(Clone, Default)]
struct Log(Arc<Mutex<Vec<String>>>);

impl Log {
    fn lines(&self) -> Vec<String> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl tracing::Subscriber for Log {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        struct Fields(String);
        impl tracing::field::Visit for Fields {
            fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                let _ = write!(self.0, "{}={value:?} ", field.name());
            }
        }
        let mut fields = Fields(String::new());
        event.record(&mut fields);
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(fields.0);
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

/// Every text a failed ask leaves: the error shown both ways, each event, the log.
fn shown(err: &AskError, events: &Events, log: &Log) -> Vec<String> {
    let mut shown = vec![err.to_string(), format!("{err:?}")];
    shown.extend(events.all().iter().map(|e| format!("{e:?}")));
    shown.extend(events.lines());
    shown.extend(log.lines());
    shown
}

#[tokio::test(flavor = "current_thread")]
async fn the_key_is_redacted_from_every_body_on_every_error_path() {
    // The runtime runs on this thread: the log is this thread's.
    let log = Log::default();
    let _log = tracing::subscriber::set_default(log.clone());
    for answer in [
        Answer::NotACompletion,
        Answer::Status,
        Answer::NotJson,
        Answer::Truncated,
        Answer::CutInsideTheKey,
    ] {
        for provider in ["openai", "anthropic"] {
            let server = server(answer).await;
            let events = Events::default();
            let backoff = FAST.with_retries(2);
            let err = match provider {
                "openai" => {
                    let provider =
                        toolschema::provider::OpenAi::new(format!("{}/v1", server.uri()), "m")
                            .api_key(KEY);
                    Agent::new(provider)
                        .mode(Mode::Prompt)
                        .backoff(backoff)
                        .on_event(events.listener())
                        .ask::<String>("hi")
                        .await
                }
                _ => {
                    let provider = toolschema::provider::Anthropic::new("m")
                        .base_url(server.uri())
                        .api_key(KEY);
                    Agent::new(provider)
                        .mode(Mode::Prompt)
                        .backoff(backoff)
                        .on_event(events.listener())
                        .ask::<String>("hi")
                        .await
                }
            }
            .unwrap_err();
            // The server did echo the key: the test can fail.
            let received = server.received_requests().await.unwrap_or_default();
            assert!(
                received.iter().any(|r| r
                    .headers
                    .values()
                    .any(|v| v.to_str().unwrap_or_default().contains(KEY))),
                "{provider} {answer:?}"
            );
            let texts = shown(&err, &events, &log);
            assert!(
                texts.iter().any(|t| t.contains("transport retry")),
                "{provider} {answer:?}: {texts:#?}"
            );
            // The log has the retries, with the server's body.
            assert!(
                log.lines()
                    .iter()
                    .any(|l| l.contains("transport retry") && l.contains("[redacted]")),
                "{provider} {answer:?}: {:#?}",
                log.lines()
            );
            for text in texts {
                assert!(!text.contains(&KEY[..12]), "{provider} {answer:?}: {text}");
            }
            assert!(
                err.to_string().contains("[redacted]"),
                "{provider} {answer:?}: {err}"
            );
        }
    }
}
