//! A bare OpenAI-compatible `/chat/completions` client for the rows that do not use
//! toolschema: the naive loop and the instructor-style loop.
//!
//! It sends what it is given and returns the assistant message as received, with the
//! server's token count. Transport failures (a refused connection, 429, 5xx) are retried
//! a few times, as any client library would; they are not attempts.

use std::time::Duration;

use serde_json::{Map, Value, json};

/// How long one HTTP call may take.
pub const TIMEOUT: Duration = Duration::from_secs(300);

/// A server and model, from `OPENAI_BASE_URL`, `OPENAI_MODEL` and `OPENAI_API_KEY`.
#[derive(Clone)]
pub struct Chat {
    client: reqwest::Client,
    url: String,
    model: String,
    api_key: Option<String>,
    max_tokens: u32,
}

/// One reply of the model.
pub struct Completion {
    /// The assistant message exactly as received (to send back in a conversation).
    pub message: Value,
    /// Its text content (empty when there is none).
    pub content: String,
    /// Its native tool calls: `(id, function name, arguments as text)`.
    pub tool_calls: Vec<(String, String, String)>,
    /// Prompt and completion tokens, from the server's `usage`.
    pub tokens: u64,
    /// Transport failures retried before this reply.
    pub retries: usize,
}

#[derive(Debug)]
pub enum ChatError {
    /// The server answered with an error status.
    Status { code: u16, body: String },
    /// No answer, or one that is not a chat completion.
    Transport(String),
}

impl std::fmt::Display for ChatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChatError::Status { code, body } => write!(f, "HTTP {code}: {body}"),
            ChatError::Transport(reason) => f.write_str(reason),
        }
    }
}

impl Chat {
    /// `None` when `OPENAI_BASE_URL` or `OPENAI_MODEL` is not set.
    pub fn from_env(max_tokens: u32) -> Option<Chat> {
        let base = std::env::var("OPENAI_BASE_URL").ok()?;
        let model = std::env::var("OPENAI_MODEL").ok()?;
        let client = reqwest::Client::builder().timeout(TIMEOUT).build().ok()?;
        Some(Chat {
            client,
            url: format!("{}/chat/completions", base.trim_end_matches('/')),
            model,
            api_key: std::env::var("OPENAI_API_KEY").ok(),
            max_tokens,
        })
    }

    /// One completion of `messages` at temperature 0; `extra` adds to the body (tools …).
    pub async fn complete(
        &self,
        messages: &[Value],
        extra: Map<String, Value>,
    ) -> Result<Completion, ChatError> {
        let mut body = json!({
            "model": self.model,
            "messages": messages,
            "temperature": 0.0,
            "max_tokens": self.max_tokens,
        });
        if let Some(map) = body.as_object_mut() {
            map.extend(extra);
        }
        let mut delays = [1, 2, 4].into_iter().map(Duration::from_secs);
        let mut retries = 0;
        loop {
            match self.post(&body).await {
                Err(e) if retryable(&e) => match delays.next() {
                    Some(delay) => {
                        retries += 1;
                        tokio::time::sleep(delay).await;
                    }
                    None => return Err(e),
                },
                Ok(completion) => {
                    return Ok(Completion {
                        retries,
                        ..completion
                    });
                }
                Err(e) => return Err(e),
            }
        }
    }

    async fn post(&self, body: &Value) -> Result<Completion, ChatError> {
        let mut request = self.client.post(&self.url).json(body);
        if let Some(key) = &self.api_key {
            request = request.bearer_auth(key);
        }
        let response = request
            .send()
            .await
            .map_err(|e| ChatError::Transport(e.to_string()))?;
        let status = response.status();
        let text = response
            .text()
            .await
            .map_err(|e| ChatError::Transport(e.to_string()))?;
        if !status.is_success() {
            return Err(ChatError::Status {
                code: status.as_u16(),
                body: text,
            });
        }
        let body: Value = serde_json::from_str(&text)
            .map_err(|e| ChatError::Transport(format!("not a chat completion ({e}): {text}")))?;
        let message = body
            .pointer("/choices/0/message")
            .cloned()
            .ok_or_else(|| ChatError::Transport(format!("no message in the reply: {text}")))?;
        let count = |key: &str| {
            body.pointer(&format!("/usage/{key}"))
                .and_then(Value::as_u64)
                .unwrap_or(0)
        };
        let content = message
            .get("content")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let tool_calls = message
            .get("tool_calls")
            .and_then(Value::as_array)
            .map(|calls| calls.iter().map(tool_call).collect())
            .unwrap_or_default();
        Ok(Completion {
            message,
            content,
            tool_calls,
            tokens: count("prompt_tokens") + count("completion_tokens"),
            retries: 0,
        })
    }
}

fn tool_call(call: &Value) -> (String, String, String) {
    let text = |v: Option<&Value>| match v {
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None => String::new(),
    };
    (
        text(call.get("id")),
        text(call.pointer("/function/name")),
        text(call.pointer("/function/arguments")),
    )
}

fn retryable(error: &ChatError) -> bool {
    match error {
        ChatError::Status { code, .. } => *code == 429 || *code >= 500,
        ChatError::Transport(_) => true,
    }
}

/// A message of the conversation.
pub fn message(role: &str, content: &str) -> Value {
    json!({ "role": role, "content": content })
}
