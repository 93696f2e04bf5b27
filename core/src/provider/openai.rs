//! OpenAI-compatible chat completions: OpenAI, vLLM, llama.cpp, Ollama, OpenRouter, Groq …

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use serde_json::{Map, Value, json};

use super::http::{Secret, client, exchange, temperature, unexpected};
use super::{
    FinishReason, Mode, Provider, ProviderError, Reply, Request, TokenChoice, ToolChoice, Usage,
};
use crate::message::{Arguments, Message, Role, ToolCall};

/// Any server that speaks OpenAI's chat-completions API.
///
/// ```no_run
/// use toolschema::provider::OpenAi;
///
/// let local = OpenAi::new("http://127.0.0.1:8080/v1", "qwen0.5b");
/// let hosted = OpenAi::new("https://api.openai.com/v1", "gpt-4o-mini").api_key("sk-…");
/// let from_env = OpenAi::from_env()?; // OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL
/// # Ok::<(), toolschema::provider::ProviderError>(())
/// ```
#[derive(Debug, Clone)]
pub struct OpenAi {
    base_url: String,
    model: String,
    api_key: Secret,
    client: reqwest::Client,
    /// Set once the server rejected `logprobs`: later requests leave it out.
    no_logprobs: LogprobsRejected,
}

/// Whether the server rejected `logprobs`, shared by the clones of a provider.
#[derive(Debug, Clone, Default)]
struct LogprobsRejected(Arc<AtomicBool>);

impl LogprobsRejected {
    fn get(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl OpenAi {
    /// A provider for `model` at `base_url` (the part before `/chat/completions`).
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        OpenAi {
            base_url: base_url.into().trim_end_matches('/').to_owned(),
            model: model.into(),
            api_key: Secret::default(),
            client: client(Duration::from_secs(120)),
            no_logprobs: LogprobsRejected::default(),
        }
    }

    /// Reads `OPENAI_BASE_URL` (default `https://api.openai.com/v1`), `OPENAI_API_KEY`
    /// and `OPENAI_MODEL` (required).
    pub fn from_env() -> Result<Self, ProviderError> {
        let base =
            std::env::var("OPENAI_BASE_URL").unwrap_or_else(|_| "https://api.openai.com/v1".into());
        let model = std::env::var("OPENAI_MODEL").map_err(|_| {
            ProviderError::Config("OPENAI_MODEL is not set: name the model to ask".into())
        })?;
        let provider = OpenAi::new(base, model);
        Ok(match std::env::var("OPENAI_API_KEY") {
            Ok(key) => provider.api_key(key),
            Err(_) => provider,
        })
    }

    /// The API key, sent as a bearer token. It never appears in `Debug` or errors.
    pub fn api_key(mut self, key: impl Into<String>) -> Self {
        self.api_key = Secret::new(key);
        self
    }

    /// The timeout of one HTTP call (120 s by default).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.client = client(timeout);
        self
    }

    /// The model name.
    pub fn model(&self) -> &str {
        &self.model
    }

    /// Sends `request`, with its token choices where `logprobs`.
    async fn post(&self, request: &Request, logprobs: bool) -> Result<Reply, ProviderError> {
        let mut http = self
            .client
            .post(format!("{}/chat/completions", self.base_url));
        if !self.api_key.expose().is_empty() {
            http = http.bearer_auth(self.api_key.expose());
        }
        exchange(
            http,
            &self.body_with(request, logprobs),
            &self.api_key,
            reply,
        )
        .await
    }

    /// The request body for a request: what is sent, exactly.
    pub fn body(&self, request: &Request) -> Value {
        self.body_with(request, !self.no_logprobs.get())
    }

    /// The request body, with the request's token choices where `logprobs`.
    fn body_with(&self, request: &Request, logprobs: bool) -> Value {
        let mut body = Map::new();
        body.insert("model".into(), json!(self.model));
        body.insert(
            "messages".into(),
            Value::Array(request.messages.iter().map(message).collect()),
        );
        if let Some(t) = request.temperature.and_then(temperature) {
            body.insert("temperature".into(), t);
        }
        if let Some(n) = request.max_tokens {
            body.insert("max_tokens".into(), json!(n));
        }
        if let Some(n) = request.token_choices.filter(|_| logprobs) {
            body.insert("logprobs".into(), json!(true));
            body.insert("top_logprobs".into(), json!(n.min(20)));
        }
        match request.mode {
            Mode::JsonSchema => {
                body.insert(
                    "response_format".into(),
                    json!({
                        "type": "json_schema",
                        "json_schema": {
                            "name": request.schema_name,
                            "schema": request.schema.clone().unwrap_or(json!({})),
                            "strict": true,
                        }
                    }),
                );
            }
            Mode::JsonObject => {
                body.insert("response_format".into(), json!({ "type": "json_object" }));
            }
            // No tools, no `tools` key: servers reject an empty list (the answer of a
            // union asked for alone is text).
            Mode::Tools if request.tools.is_empty() => {}
            Mode::Tools => {
                let tools: Vec<Value> = request
                    .tools
                    .iter()
                    .map(|t| {
                        let mut function = Map::new();
                        function.insert("name".into(), json!(t.name));
                        if let Some(d) = &t.description {
                            function.insert("description".into(), json!(d));
                        }
                        function.insert("parameters".into(), t.parameters.clone());
                        function.insert("strict".into(), json!(true));
                        json!({ "type": "function", "function": function })
                    })
                    .collect();
                body.insert("tools".into(), Value::Array(tools));
                if let Some(choice) = &request.tool_choice {
                    let choice = match choice {
                        ToolChoice::Auto => json!("auto"),
                        ToolChoice::Required => json!("required"),
                        ToolChoice::Tool(name) => {
                            json!({ "type": "function", "function": { "name": name } })
                        }
                    };
                    body.insert("tool_choice".into(), choice);
                }
            }
            Mode::Prompt | Mode::Auto => {}
        }
        Value::Object(body)
    }
}

fn message(m: &Message) -> Value {
    let role = match m.role {
        Role::System => "system",
        Role::User => "user",
        Role::Assistant => "assistant",
        Role::Tool => "tool",
    };
    let mut out = Map::new();
    out.insert("role".into(), json!(role));
    out.insert("content".into(), json!(content(m)));
    if !m.tool_calls.is_empty() {
        let calls: Vec<Value> = m
            .tool_calls
            .iter()
            .enumerate()
            .map(|(i, c)| {
                json!({
                    "id": c.id.clone().unwrap_or_else(|| format!("call_{i}")),
                    "type": "function",
                    "function": { "name": c.name, "arguments": c.arguments.as_text() },
                })
            })
            .collect();
        out.insert("tool_calls".into(), Value::Array(calls));
    }
    if let Some(id) = &m.tool_call_id {
        out.insert("tool_call_id".into(), json!(id));
    }
    Value::Object(out)
}

/// A message's content. A tool message has no error flag in this API: a failed call's
/// content says it failed, unless it already does.
fn content(m: &Message) -> String {
    if m.is_error && !m.content.starts_with("Error") {
        format!("Error: {}", m.content)
    } else {
        m.content.clone()
    }
}

/// Reads a chat-completions response.
pub(crate) fn reply(body: &Value) -> Result<Reply, ProviderError> {
    let choice = body
        .get("choices")
        .and_then(|c| c.get(0))
        .ok_or_else(|| unexpected("no choices in the response", body))?;
    let message = choice
        .get("message")
        .ok_or_else(|| unexpected("no message in the choice", body))?;
    let text = match message.get("content") {
        Some(Value::String(s)) => s.clone(),
        // Some servers send content as a list of parts.
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect(),
        _ => String::new(),
    };
    let mut tool_calls = Vec::new();
    if let Some(Value::Array(calls)) = message.get("tool_calls") {
        for call in calls {
            let function = call.get("function").unwrap_or(call);
            let name = function
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            let arguments = match function.get("arguments") {
                Some(Value::String(s)) => Arguments::Text(s.clone()),
                Some(other) => Arguments::Json(other.clone()),
                None => Arguments::Json(json!({})),
            };
            tool_calls.push(ToolCall {
                id: call.get("id").and_then(Value::as_str).map(str::to_owned),
                name,
                arguments,
            });
        }
    }
    let finish = match choice.get("finish_reason").and_then(Value::as_str) {
        Some("stop") | None => FinishReason::Stop,
        Some("length") => FinishReason::Length,
        Some("tool_calls") | Some("function_call") => FinishReason::ToolCalls,
        Some(other) => FinishReason::Other(other.to_owned()),
    };
    let usage = Usage::read(body, "prompt_tokens", "completion_tokens");
    Ok(Reply {
        text,
        tool_calls,
        finish,
        usage,
        tokens: token_choices(choice),
    })
}

/// The tokens of a choice's `logprobs.content`, each with its `top_logprobs`; none where
/// the server sent none. An entry without a token or a finite log probability ends the
/// list: what follows it could not be placed in the text.
fn token_choices(choice: &Value) -> Vec<TokenChoice> {
    let entry = |e: &Value| -> Option<(String, f64)> {
        let token = e.get("token")?.as_str()?.to_owned();
        let logprob = e.get("logprob")?.as_f64().filter(|l| l.is_finite())?;
        Some((token, logprob))
    };
    let Some(Value::Array(content)) = choice.get("logprobs").and_then(|l| l.get("content")) else {
        return Vec::new();
    };
    content
        .iter()
        .map_while(|e| {
            let (token, logprob) = entry(e)?;
            let top = match e.get("top_logprobs") {
                Some(Value::Array(top)) => top.iter().filter_map(entry).collect(),
                _ => Vec::new(),
            };
            Some(TokenChoice {
                token,
                logprob,
                top,
            })
        })
        .collect()
}

#[async_trait]
impl Provider for OpenAi {
    fn name(&self) -> &str {
        "openai"
    }

    fn auto_modes(&self) -> &[Mode] {
        &[Mode::JsonSchema, Mode::JsonObject, Mode::Prompt]
    }

    fn dialect(&self) -> crate::Dialect {
        crate::Dialect::OpenAiStrict
    }

    /// A request that asked for token choices and was refused as bad (400 or 422: some
    /// models take no `logprobs`, some servers fewer `top_logprobs`) is sent again
    /// without them, once; where that one is answered, the provider leaves them out from
    /// then on. The token choices only inform the library's checks.
    async fn complete(&self, request: &Request) -> Result<Reply, ProviderError> {
        let sent_logprobs = request.token_choices.is_some() && !self.no_logprobs.get();
        match self.post(request, sent_logprobs).await {
            Err(ProviderError::Http {
                status: 400 | 422, ..
            }) if sent_logprobs => {
                let reply = self.post(request, false).await?;
                self.no_logprobs.set();
                Ok(reply)
            }
            other => other,
        }
    }
}
