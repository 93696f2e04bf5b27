//! Model providers: one request in, one reply out, over HTTP or from a script.
//!
//! A [`Provider`] knows how to send a [`Request`] in each [`Mode`] it supports and how
//! to read the reply. Retrying transport failures and repairing content are the
//! agent's job, not the provider's: a provider makes exactly one call.

mod anthropic;
mod http;
mod openai;
mod scripted;

use std::fmt;
use std::time::Duration;

use async_trait::async_trait;
use serde_json::Value;

pub use anthropic::Anthropic;
pub use openai::OpenAi;
pub use scripted::{Scripted, ScriptedReply};

use crate::dialect::Dialect;
use crate::message::{Message, ToolCall};

/// How the shape of the answer is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// The provider's best mode, falling back down its chain when the server rejects one.
    Auto,
    /// Native tool calling: each tool of a union (or the type itself) is a tool. A
    /// union's direct answer is one more tool, listed first, named `answer` (or
    /// `answer_directly` where one of the union's tools has that name), whose arguments
    /// are the answer `{"answer": …}`: small models call a tool far more readily than they
    /// leave the tools for text. Its call is read as the answer, and its arguments never
    /// as a call; an answer written as text is read as well, and so is that one call
    /// written as text ([`FixKind::AnswerCall`](crate::repair::FixKind::AnswerCall)).
    Tools,
    /// A `json_schema` response format: decoding constrained to the schema where the
    /// server supports it.
    JsonSchema,
    /// A `json_object` response format: any JSON, the shape given in the prompt.
    JsonObject,
    /// A plain prompt with the shape in compact form.
    Prompt,
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mode::Auto => "auto",
            Mode::Tools => "tools",
            Mode::JsonSchema => "json_schema",
            Mode::JsonObject => "json_object",
            Mode::Prompt => "prompt",
        })
    }
}

/// A tool offered to the model.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSpec {
    pub name: String,
    pub description: Option<String>,
    /// The arguments' JSON Schema, in the provider's dialect.
    pub parameters: Value,
}

/// Whether the model must call a tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolChoice {
    /// The model chooses.
    Auto,
    /// The model must call one of the tools.
    Required,
    /// The model must call this tool.
    Tool(String),
}

/// One call to a model.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub messages: Vec<Message>,
    /// The concrete mode of this request (never [`Mode::Auto`]).
    pub mode: Mode,
    /// The answer's name, for a `json_schema` response format.
    pub schema_name: String,
    /// The answer's schema in the provider's dialect, for [`Mode::JsonSchema`].
    pub schema: Option<Value>,
    /// Tools, for [`Mode::Tools`].
    pub tools: Vec<ToolSpec>,
    pub tool_choice: Option<ToolChoice>,
    pub temperature: Option<f32>,
    pub max_tokens: Option<u32>,
    /// How many of the most likely tokens to report at each place of the reply
    /// ([`Reply::tokens`]; OpenAI's `top_logprobs`), where the provider can. `None` asks
    /// for none.
    pub token_choices: Option<u8>,
}

impl Request {
    /// A plain-prompt request with these messages.
    pub fn new(messages: Vec<Message>) -> Self {
        Request {
            messages,
            mode: Mode::Prompt,
            schema_name: "answer".into(),
            schema: None,
            tools: Vec::new(),
            tool_choice: None,
            temperature: None,
            max_tokens: None,
            token_choices: None,
        }
    }

    /// The messages as one text, each on its own lines: what a test or a log shows.
    pub fn text(&self) -> String {
        self.messages
            .iter()
            .map(|m| {
                let mut text = m.content.clone();
                for call in &m.tool_calls {
                    text.push_str(&format!("\n{}({})", call.name, call.arguments.as_text()));
                }
                text
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Why the model stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FinishReason {
    /// It finished its answer.
    Stop,
    /// It hit the token limit: the reply is cut off.
    Length,
    /// It called tools.
    ToolCalls,
    Other(String),
}

/// Tokens used by one call.
///
/// The counts come from the server, so sums saturate: a huge count keeps a budget
/// exceeded instead of overflowing (a panic in debug builds, a small number in release).
///
/// ```
/// use toolschema::provider::Usage;
///
/// let mut usage = Usage { prompt_tokens: u64::MAX, completion_tokens: 1 };
/// assert_eq!(usage.total(), u64::MAX);
/// usage += Usage { prompt_tokens: 1, completion_tokens: 0 };
/// assert_eq!(usage.prompt_tokens, u64::MAX);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

impl Usage {
    /// Prompt and completion tokens together (at most `u64::MAX`).
    pub fn total(&self) -> u64 {
        self.prompt_tokens.saturating_add(self.completion_tokens)
    }

    /// The usage object of a response body, under the API's own key names.
    pub(crate) fn read(body: &Value, prompt: &str, completion: &str) -> Usage {
        let count = |key: &str| {
            body.get("usage")
                .and_then(|u| u.get(key))
                .and_then(Value::as_u64)
                .unwrap_or(0)
        };
        Usage {
            prompt_tokens: count(prompt),
            completion_tokens: count(completion),
        }
    }
}

impl std::ops::AddAssign for Usage {
    fn add_assign(&mut self, other: Usage) {
        self.prompt_tokens = self.prompt_tokens.saturating_add(other.prompt_tokens);
        self.completion_tokens = self
            .completion_tokens
            .saturating_add(other.completion_tokens);
    }
}

/// A model's reply.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// The text content (empty when the model only called tools).
    pub text: String,
    pub tool_calls: Vec<ToolCall>,
    pub finish: FinishReason,
    pub usage: Usage,
    /// The reply's tokens with the most likely ones at each place, where the request asked
    /// for them ([`Request::token_choices`]) and the server reported them; empty otherwise.
    pub tokens: Vec<TokenChoice>,
}

/// One token of a reply, with the tokens the model found most likely in its place.
///
/// Where a grammar restricted the reply, some servers (llama.cpp, vLLM) report the
/// model's own likelihoods, before the grammar; others report them after it.
#[derive(Debug, Clone, PartialEq)]
pub struct TokenChoice {
    /// The token as written.
    pub token: String,
    /// Its natural logarithm of probability.
    pub logprob: f64,
    /// The most likely tokens in its place, each with its log probability, the likeliest
    /// first.
    pub top: Vec<(String, f64)>,
}

impl Reply {
    /// A text reply that finished normally.
    pub fn text(text: impl Into<String>) -> Self {
        Reply {
            text: text.into(),
            tool_calls: Vec::new(),
            finish: FinishReason::Stop,
            usage: Usage::default(),
            tokens: Vec::new(),
        }
    }
}

/// A provider call that failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ProviderError {
    /// The server answered with an error status.
    #[error("HTTP {status}: {body}")]
    Http {
        status: u16,
        body: String,
        /// The server's `Retry-After`, if it sent one.
        retry_after: Option<Duration>,
    },
    /// No answer within the timeout.
    #[error("the request timed out")]
    Timeout,
    /// The connection failed or broke.
    #[error("connection failed: {0}")]
    Connection(String),
    /// The answer could not be read (a truncated body, an unexpected shape).
    #[error("unreadable response ({message}): {body}")]
    InvalidResponse { message: String, body: String },
    /// A scripted provider ran out of replies.
    #[error("the script has no reply left for call {call}")]
    ScriptExhausted { call: usize },
    /// The provider cannot be configured (a missing environment variable).
    #[error("{0}")]
    Config(String),
}

impl ProviderError {
    /// Whether trying the same request again may succeed: 429, 5xx, timeouts, broken
    /// connections and truncated bodies.
    pub fn is_retryable(&self) -> bool {
        match self {
            ProviderError::Http { status, .. } => {
                *status == 429 || *status == 408 || *status >= 500
            }
            ProviderError::Timeout
            | ProviderError::Connection(_)
            | ProviderError::InvalidResponse { .. } => true,
            ProviderError::ScriptExhausted { .. } | ProviderError::Config(_) => false,
        }
    }

    /// Whether the server rejected the request's mode (a schema it cannot compile, say):
    /// a reason to try the next mode.
    pub fn rejects_mode(&self) -> bool {
        matches!(
            self,
            ProviderError::Http {
                status: 400 | 422 | 501,
                ..
            }
        )
    }

    /// How long the server asked to wait.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            ProviderError::Http { retry_after, .. } => *retry_after,
            _ => None,
        }
    }
}

/// A model behind some API.
#[async_trait]
pub trait Provider: Send + Sync {
    /// A short name for logs and events.
    fn name(&self) -> &str;

    /// The modes [`Mode::Auto`] tries, best first.
    fn auto_modes(&self) -> &[Mode];

    /// The schema dialect its tools and response formats take.
    fn dialect(&self) -> Dialect {
        Dialect::Strict
    }

    /// Sends one request.
    async fn complete(&self, request: &Request) -> Result<Reply, ProviderError>;
}

#[async_trait]
impl<P: Provider + ?Sized> Provider for std::sync::Arc<P> {
    fn name(&self) -> &str {
        (**self).name()
    }

    fn auto_modes(&self) -> &[Mode] {
        (**self).auto_modes()
    }

    fn dialect(&self) -> Dialect {
        (**self).dialect()
    }

    async fn complete(&self, request: &Request) -> Result<Reply, ProviderError> {
        (**self).complete(request).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Agent, AskError};

    const HUGE: u64 = u64::MAX - 1;

    #[test]
    fn total_saturates() {
        let usage = Usage {
            prompt_tokens: HUGE,
            completion_tokens: HUGE,
        };
        assert_eq!(usage.total(), u64::MAX);
        let usage = Usage {
            prompt_tokens: 2,
            completion_tokens: 3,
        };
        assert_eq!(usage.total(), 5);
    }

    #[test]
    fn sums_saturate() {
        let mut usage = Usage {
            prompt_tokens: HUGE,
            completion_tokens: 7,
        };
        usage += Usage {
            prompt_tokens: u64::from(u32::MAX),
            completion_tokens: u64::MAX,
        };
        assert_eq!(
            usage,
            Usage {
                prompt_tokens: u64::MAX,
                completion_tokens: u64::MAX,
            }
        );
        usage += Usage {
            prompt_tokens: 1,
            completion_tokens: 1,
        };
        assert_eq!(usage.total(), u64::MAX);
    }

    fn reply(text: &str, prompt_tokens: u64) -> Reply {
        Reply {
            usage: Usage {
                prompt_tokens,
                completion_tokens: 0,
            },
            ..Reply::text(text)
        }
    }

    /// Two replies whose counts overflow together: the sum stays above the budget, so the
    /// ask stops instead of taking the third (valid) reply.
    #[test]
    fn huge_counts_exhaust_the_budget() {
        let model = Scripted::new([reply("one", HUGE), reply("two", 10), reply("3", 1)]);
        let agent = Agent::new(model.clone()).max_attempts(3).token_budget(HUGE);
        let outcome = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
            .block_on(agent.ask::<u8>("a number").into_future());
        let Err(AskError::Budget {
            used,
            limit,
            attempts,
        }) = outcome
        else {
            panic!("expected the budget to run out, got {outcome:?}");
        };
        assert_eq!((used, limit), (u64::MAX, HUGE));
        let raw: Vec<&str> = attempts.iter().map(|a| a.raw()).collect();
        assert_eq!(raw, ["one", "two"]);
        assert_eq!(model.calls(), 2);
    }
}
