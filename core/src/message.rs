//! Chat messages: what is sent to a model and what it sent back.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
    /// A tool's result, answering the assistant's call with the same id.
    Tool,
}

/// A tool call as a model made it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The provider's id for the call, echoed in the result message.
    pub id: Option<String>,
    pub name: String,
    /// The arguments as the model wrote them: OpenAI sends a JSON string (possibly
    /// malformed, repaired by the parse layer), Anthropic an object.
    pub arguments: Arguments,
}

impl ToolCall {
    /// A call with an id and arguments given as JSON: what a caller that keeps the
    /// conversation puts in [`Message::assistant_calls`].
    pub fn new(id: impl Into<String>, name: impl Into<String>, arguments: Value) -> Self {
        ToolCall {
            id: Some(id.into()),
            name: name.into(),
            arguments: Arguments::Json(arguments),
        }
    }
}

/// A tool call's arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Arguments {
    Text(String),
    Json(Value),
}

impl Arguments {
    /// The arguments as text, for the parse layer.
    pub fn as_text(&self) -> String {
        match self {
            Arguments::Text(t) => t.clone(),
            Arguments::Json(v) => v.to_string(),
        }
    }
}

/// One chat message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    pub content: String,
    /// Calls made by an assistant message.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// For a tool result: the id of the call it answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// For a tool result: the tool failed, and `content` says how. Providers mark it
    /// (Anthropic: `is_error: true`; OpenAI: the content says it is an error).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
}

impl Message {
    fn new(role: Role, content: impl Into<String>) -> Self {
        Message {
            role,
            content: content.into(),
            tool_calls: Vec::new(),
            tool_call_id: None,
            is_error: false,
        }
    }

    pub fn system(content: impl Into<String>) -> Self {
        Message::new(Role::System, content)
    }

    pub fn user(content: impl Into<String>) -> Self {
        Message::new(Role::User, content)
    }

    pub fn assistant(content: impl Into<String>) -> Self {
        Message::new(Role::Assistant, content)
    }

    /// An assistant message that made tool calls.
    pub fn assistant_calls(content: impl Into<String>, calls: Vec<ToolCall>) -> Self {
        Message {
            tool_calls: calls,
            ..Message::new(Role::Assistant, content)
        }
    }

    /// A tool's result for the call with `id`.
    pub fn tool_result(id: Option<String>, content: impl Into<String>) -> Self {
        Message {
            tool_call_id: id,
            ..Message::new(Role::Tool, content)
        }
    }

    /// A tool's error for the call with `id`: `content` says what went wrong, and the
    /// model is told that the call failed.
    ///
    /// ```
    /// use toolschema::Message;
    ///
    /// let failed = Message::tool_error(Some("call_1".into()), "the light is unreachable");
    /// assert!(failed.is_error);
    /// assert_eq!(failed.tool_call_id.as_deref(), Some("call_1"));
    /// ```
    pub fn tool_error(id: Option<String>, content: impl Into<String>) -> Self {
        Message {
            is_error: true,
            ..Message::tool_result(id, content)
        }
    }
}
