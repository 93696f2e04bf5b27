//! A scripted chat server on 127.0.0.1, and what the tests read back from it.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use toolschema::agent::{Backoff, Event};
use toolschema::provider::{Anthropic, OpenAi};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

pub const OPENAI_PATH: &str = "/v1/chat/completions";
pub const ANTHROPIC_PATH: &str = "/v1/messages";

/// Transport retries that cost almost no time: 1 ms, 2 ms, 4 ms … at most 20 ms.
pub const FAST: Backoff = Backoff::new()
    .with_base(Duration::from_millis(1))
    .with_max(Duration::from_millis(20))
    .with_jitter(false);

/// Answers each request with the next response of a script. A request past the end
/// gets a 418, which is neither retried nor a reason to change mode.
struct Script(Mutex<VecDeque<ResponseTemplate>>);

impl Respond for Script {
    fn respond(&self, _: &Request) -> ResponseTemplate {
        let mut script = self.0.lock().unwrap_or_else(|e| e.into_inner());
        script
            .pop_front()
            .unwrap_or_else(|| ResponseTemplate::new(418).set_body_string("the script has ended"))
    }
}

/// A server at `at` that gives these responses in order.
pub async fn serve(at: &str, responses: Vec<ResponseTemplate>) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path(at))
        .respond_with(Script(Mutex::new(responses.into())))
        .mount(&server)
        .await;
    server
}

/// An OpenAI-compatible server giving these responses, and a provider for it.
pub async fn openai(responses: Vec<ResponseTemplate>) -> (MockServer, OpenAi) {
    let server = serve(OPENAI_PATH, responses).await;
    let provider = OpenAi::new(format!("{}/v1", server.uri()), "test-model");
    (server, provider)
}

/// An Anthropic Messages server giving these responses, and a provider for it.
pub async fn anthropic(responses: Vec<ResponseTemplate>) -> (MockServer, Anthropic) {
    let server = serve(ANTHROPIC_PATH, responses).await;
    let provider = Anthropic::new("claude-test").base_url(server.uri());
    (server, provider)
}

/// A chat-completions response with this message.
pub fn completion(message: Value, finish: &str, usage: (u64, u64)) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "test-model",
        "choices": [{ "index": 0, "message": message, "finish_reason": finish }],
        "usage": {
            "prompt_tokens": usage.0,
            "completion_tokens": usage.1,
            "total_tokens": usage.0 + usage.1,
        },
    }))
}

/// A chat-completions response whose content is `content`, with `tokens` as its
/// `logprobs.content` (each `{"token", "logprob", "top_logprobs"}`).
pub fn chat_with_tokens(content: &str, tokens: Vec<Value>) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "test-model",
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": content},
            "finish_reason": "stop",
            "logprobs": {"content": tokens},
        }],
        "usage": {"prompt_tokens": 100, "completion_tokens": 30, "total_tokens": 130},
    }))
}

/// A chat-completions response whose content is `text`: 100 prompt and 20 completion
/// tokens.
pub fn chat(text: &str) -> ResponseTemplate {
    completion(
        json!({ "role": "assistant", "content": text }),
        "stop",
        (100, 20),
    )
}

/// A chat-completions response with native tool calls, each `(id, name, arguments)`
/// with the arguments as the JSON string OpenAI sends.
pub fn tool_calls(calls: &[(&str, &str, &str)]) -> ResponseTemplate {
    let calls: Vec<Value> = calls
        .iter()
        .map(|(id, name, arguments)| {
            json!({
                "id": id,
                "type": "function",
                "function": { "name": name, "arguments": arguments },
            })
        })
        .collect();
    completion(
        json!({ "role": "assistant", "content": null, "tool_calls": calls }),
        "tool_calls",
        (100, 20),
    )
}

/// A Messages API response with these content blocks.
pub fn message(content: Value, stop_reason: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": content,
        "stop_reason": stop_reason,
        "usage": { "input_tokens": 80, "output_tokens": 15 },
    }))
}

/// Every request the server received.
pub async fn requests(server: &MockServer) -> Vec<Request> {
    server.received_requests().await.unwrap_or_default()
}

/// The JSON body of every request the server received.
pub async fn bodies(server: &MockServer) -> Vec<Value> {
    requests(server)
        .await
        .iter()
        .map(|r| r.body_json().expect("the provider sends JSON"))
        .collect()
}

/// The `content` of each message of a chat-completions request body.
pub fn contents(body: &Value) -> Vec<String> {
    body["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .map(|m| m["content"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// Collects the events of an agent.
#[derive(Clone, Default)]
pub struct Events(Arc<Mutex<Vec<Event>>>);

impl Events {
    /// The listener to give to `Agent::on_event`.
    pub fn listener(&self) -> impl Fn(&Event) + Send + Sync + 'static {
        let events = self.0.clone();
        move |event: &Event| {
            events
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(event.clone())
        }
    }

    pub fn all(&self) -> Vec<Event> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// One short line per event, for comparing sequences.
    pub fn lines(&self) -> Vec<String> {
        self.all().iter().map(line).collect()
    }
}

fn line(event: &Event) -> String {
    match event {
        Event::AttemptStarted { attempt, mode } => format!("attempt {attempt} ({mode})"),
        Event::ReplyReceived {
            attempt, finish, ..
        } => format!("reply {attempt} ({finish:?})"),
        Event::FixedLocally { attempt, fixes } => {
            let fixes: Vec<String> = fixes.iter().map(ToString::to_string).collect();
            format!("fixed locally {attempt}: {}", fixes.join("; "))
        }
        Event::Violations { attempt, error } => {
            format!("violations {attempt}: {}", error.violations().len())
        }
        Event::RepairSent { attempt, .. } => format!("repair sent {attempt}"),
        Event::TransportRetry {
            attempt,
            error,
            delay,
        } => format!("transport retry {attempt} after {delay:?}: {error}"),
        Event::ModeFallback { from, to, .. } => format!("mode fallback {from} -> {to}"),
        Event::Done { attempts, .. } => format!("done after {attempts}"),
        other => format!("{other:?}"),
    }
}
