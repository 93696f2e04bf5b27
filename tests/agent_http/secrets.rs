//! The API key never shows in what a failed call leaves behind: the error's `Display` and
//! `Debug` and the transport-retry events, whatever the server sends back (a proxy that
//! echoes the request's headers into its body), on every error path.

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

/// Every text a failed ask leaves: the error shown both ways, and each event.
fn shown(err: &AskError, events: &Events) -> Vec<String> {
    let mut shown = vec![err.to_string(), format!("{err:?}")];
    shown.extend(events.all().iter().map(|e| format!("{e:?}")));
    shown.extend(events.lines());
    shown
}

#[tokio::test]
async fn the_key_is_redacted_from_every_body_on_every_error_path() {
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
            let texts = shown(&err, &events);
            assert!(
                texts.iter().any(|t| t.contains("transport retry")),
                "{provider} {answer:?}: {texts:#?}"
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
