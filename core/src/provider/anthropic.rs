//! Anthropic's Messages API: tools, `tool_use` and `tool_result` blocks.

use std::time::Duration;

use async_trait::async_trait;
use serde_json::{Map, Value, json};

use super::http::{Secret, client, exchange, temperature, unexpected};
use super::{FinishReason, Mode, Provider, ProviderError, Reply, Request, ToolChoice, Usage};
use crate::message::{Arguments, Role, ToolCall};

/// Anthropic's Messages API.
///
/// ```no_run
/// use toolschema::provider::Anthropic;
///
/// let claude = Anthropic::new("claude-sonnet-4-5").api_key("sk-ant-…");
/// let from_env = Anthropic::from_env()?; // ANTHROPIC_API_KEY, ANTHROPIC_MODEL, ANTHROPIC_BASE_URL
/// # Ok::<(), toolschema::provider::ProviderError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Anthropic {
    base_url: String,
    model: String,
    api_key: Secret,
    max_tokens: u32,
    client: reqwest::Client,
}

const VERSION: &str = "2023-06-01";

impl Anthropic {
    pub fn new(model: impl Into<String>) -> Self {
        Anthropic {
            base_url: "https://api.anthropic.com".into(),
            model: model.into(),
            api_key: Secret::default(),
            max_tokens: 1024,
            client: client(Duration::from_secs(120)),
        }
    }

    /// Reads `ANTHROPIC_API_KEY`, `ANTHROPIC_MODEL` (required) and `ANTHROPIC_BASE_URL`.
    pub fn from_env() -> Result<Self, ProviderError> {
        let model = std::env::var("ANTHROPIC_MODEL").map_err(|_| {
            ProviderError::Config("ANTHROPIC_MODEL is not set: name the model to ask".into())
        })?;
        let mut provider = Anthropic::new(model);
        if let Ok(key) = std::env::var("ANTHROPIC_API_KEY") {
            provider = provider.api_key(key);
        }
        if let Ok(base) = std::env::var("ANTHROPIC_BASE_URL") {
            provider = provider.base_url(base);
        }
        Ok(provider)
    }

    /// Another server speaking the same API (a proxy, a test server).
    pub fn base_url(mut self, url: impl Into<String>) -> Self {
        self.base_url = url.into().trim_end_matches('/').to_owned();
        self
    }

    /// The API key, sent as `x-api-key`. It never appears in `Debug` or errors.
    pub fn api_key(mut self, key: impl Into<String>) -> Self {
        self.api_key = Secret::new(key);
        self
    }

    /// `max_tokens` when a request sets none (the API requires one); 1024 by default.
    pub fn default_max_tokens(mut self, n: u32) -> Self {
        self.max_tokens = n;
        self
    }

    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.client = client(timeout);
        self
    }

    /// The request body for a request: what is sent, exactly.
    pub fn body(&self, request: &Request) -> Value {
        let mut body = Map::new();
        body.insert("model".into(), json!(self.model));
        body.insert(
            "max_tokens".into(),
            json!(request.max_tokens.unwrap_or(self.max_tokens)),
        );
        let system: Vec<&str> = request
            .messages
            .iter()
            .filter(|m| m.role == Role::System)
            .map(|m| m.content.as_str())
            .collect();
        if !system.is_empty() {
            body.insert("system".into(), json!(system.join("\n\n")));
        }
        let mut messages: Vec<Value> = Vec::new();
        for m in request.messages.iter().filter(|m| m.role != Role::System) {
            let (role, content) = match m.role {
                Role::Assistant if !m.tool_calls.is_empty() => {
                    let mut blocks = Vec::new();
                    if !m.content.is_empty() {
                        blocks.push(json!({ "type": "text", "text": m.content }));
                    }
                    for (i, call) in m.tool_calls.iter().enumerate() {
                        let input = match &call.arguments {
                            Arguments::Json(v) => v.clone(),
                            Arguments::Text(t) => serde_json::from_str(t).unwrap_or(json!({})),
                        };
                        blocks.push(json!({
                            "type": "tool_use",
                            "id": call.id.clone().unwrap_or_else(|| format!("toolu_{i}")),
                            "name": call.name,
                            "input": input,
                        }));
                    }
                    ("assistant", Value::Array(blocks))
                }
                Role::Tool => {
                    let mut result = json!({
                        "type": "tool_result",
                        "tool_use_id": m.tool_call_id.clone().unwrap_or_default(),
                        "content": m.content,
                    });
                    if m.is_error {
                        result["is_error"] = json!(true);
                    }
                    // The results of parallel calls go back in one user message.
                    if let Some(blocks) = messages.last_mut().and_then(tool_results) {
                        blocks.push(result);
                        continue;
                    }
                    ("user", json!([result]))
                }
                // The API rejects empty text; an empty reply quoted in a repair is left
                // out, and the two user turns around it are read as one.
                Role::Assistant if m.content.is_empty() => continue,
                Role::Assistant => ("assistant", json!(m.content)),
                _ => ("user", json!(m.content)),
            };
            messages.push(json!({ "role": role, "content": content }));
        }
        body.insert("messages".into(), Value::Array(messages));
        if let Some(t) = request.temperature.and_then(temperature) {
            body.insert("temperature".into(), t);
        }
        // No tools, no `tools` key (the answer of a union asked for alone is text).
        if request.mode == Mode::Tools && !request.tools.is_empty() {
            let tools: Vec<Value> = request
                .tools
                .iter()
                .map(|t| {
                    let mut tool = Map::new();
                    tool.insert("name".into(), json!(t.name));
                    if let Some(d) = &t.description {
                        tool.insert("description".into(), json!(d));
                    }
                    tool.insert("input_schema".into(), t.parameters.clone());
                    Value::Object(tool)
                })
                .collect();
            body.insert("tools".into(), Value::Array(tools));
            if let Some(choice) = &request.tool_choice {
                let choice = match choice {
                    ToolChoice::Auto => json!({ "type": "auto" }),
                    ToolChoice::Required => json!({ "type": "any" }),
                    ToolChoice::Tool(name) => json!({ "type": "tool", "name": name }),
                };
                body.insert("tool_choice".into(), choice);
            }
        }
        Value::Object(body)
    }
}

/// The blocks of a user message made of tool results only.
fn tool_results(message: &mut Value) -> Option<&mut Vec<Value>> {
    if message["role"] != "user" {
        return None;
    }
    let blocks = message["content"].as_array_mut()?;
    blocks
        .iter()
        .all(|b| b["type"] == "tool_result")
        .then_some(blocks)
}

fn reply(body: &Value) -> Result<Reply, ProviderError> {
    let blocks = body
        .get("content")
        .and_then(Value::as_array)
        .ok_or_else(|| unexpected("no content in the response", body))?;
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    for block in blocks {
        match block.get("type").and_then(Value::as_str) {
            Some("text") => text.push_str(
                block
                    .get("text")
                    .and_then(Value::as_str)
                    .unwrap_or_default(),
            ),
            Some("tool_use") => tool_calls.push(ToolCall {
                id: block.get("id").and_then(Value::as_str).map(str::to_owned),
                name: block
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
                arguments: Arguments::Json(block.get("input").cloned().unwrap_or(json!({}))),
            }),
            _ => {}
        }
    }
    let finish = match body.get("stop_reason").and_then(Value::as_str) {
        Some("end_turn") | Some("stop_sequence") | None => FinishReason::Stop,
        Some("max_tokens") => FinishReason::Length,
        Some("tool_use") => FinishReason::ToolCalls,
        Some(other) => FinishReason::Other(other.to_owned()),
    };
    let usage = Usage::read(body, "input_tokens", "output_tokens");
    Ok(Reply {
        text,
        tool_calls,
        finish,
        usage,
        tokens: Vec::new(),
    })
}

#[async_trait]
impl Provider for Anthropic {
    fn name(&self) -> &str {
        "anthropic"
    }

    fn auto_modes(&self) -> &[Mode] {
        &[Mode::Tools, Mode::Prompt]
    }

    fn dialect(&self) -> crate::Dialect {
        crate::Dialect::Anthropic
    }

    async fn complete(&self, request: &Request) -> Result<Reply, ProviderError> {
        let http = self
            .client
            .post(format!("{}/v1/messages", self.base_url))
            .header("x-api-key", self.api_key.expose())
            .header("anthropic-version", VERSION);
        exchange(http, &self.body(request), &self.api_key, reply).await
    }
}
