//! A provider that replays canned replies and records every request: for tests.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;

use super::{Mode, Provider, ProviderError, Reply, Request};
use crate::message::{Arguments, ToolCall};

/// One canned outcome: a reply or a provider error.
#[derive(Debug, Clone, PartialEq)]
pub enum ScriptedReply {
    Reply(Reply),
    Error(ProviderError),
}

impl From<&str> for ScriptedReply {
    fn from(text: &str) -> Self {
        ScriptedReply::Reply(Reply::text(text))
    }
}

impl From<String> for ScriptedReply {
    fn from(text: String) -> Self {
        ScriptedReply::Reply(Reply::text(text))
    }
}

impl From<Reply> for ScriptedReply {
    fn from(reply: Reply) -> Self {
        ScriptedReply::Reply(reply)
    }
}

impl From<ProviderError> for ScriptedReply {
    fn from(error: ProviderError) -> Self {
        ScriptedReply::Error(error)
    }
}

impl ScriptedReply {
    /// A reply that calls one tool with arguments written as text.
    pub fn tool_call(name: &str, arguments: &str) -> Self {
        let mut reply = Reply::text("");
        reply.tool_calls.push(ToolCall {
            id: Some(format!("call_{name}")),
            name: name.to_owned(),
            arguments: Arguments::Text(arguments.to_owned()),
        });
        reply.finish = super::FinishReason::ToolCalls;
        ScriptedReply::Reply(reply)
    }
}

#[derive(Debug, Default)]
struct Script {
    replies: VecDeque<ScriptedReply>,
    requests: Vec<Request>,
}

/// Replays canned replies in order and records every request. Clones share one script
/// and one log, so a test keeps a clone to look at what the agent sent.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// use toolschema::{Agent, ToolSchema};
/// use toolschema::provider::Scripted;
///
/// #[derive(ToolSchema, Debug)]
/// struct Person { name: String, age: u8 }
///
/// let scripted = Scripted::new(["not json", r#"{"name": "Ann", "age": 3}"#]);
/// let agent = Agent::new(scripted.clone()).max_attempts(3);
/// let person: Person = agent.ask("Ann is 3").await.unwrap();
/// assert_eq!(person.age, 3);
/// assert_eq!(scripted.calls(), 2);
/// assert!(scripted.request_texts()[1].contains("not json"));
/// # });
/// ```
#[derive(Debug, Clone, Default)]
pub struct Scripted {
    script: Arc<Mutex<Script>>,
    modes: Vec<Mode>,
}

impl Scripted {
    pub fn new<R: Into<ScriptedReply>>(replies: impl IntoIterator<Item = R>) -> Self {
        Scripted {
            script: Arc::new(Mutex::new(Script {
                replies: replies.into_iter().map(Into::into).collect(),
                requests: Vec::new(),
            })),
            modes: vec![Mode::Prompt],
        }
    }

    /// The modes `Mode::Auto` uses with this provider (`Prompt` by default).
    pub fn with_auto_modes(mut self, modes: &[Mode]) -> Self {
        self.modes = modes.to_vec();
        self
    }

    /// How many requests were made.
    pub fn calls(&self) -> usize {
        self.lock().requests.len()
    }

    /// Every request made, in order.
    pub fn requests(&self) -> Vec<Request> {
        self.lock().requests.clone()
    }

    /// Each request's messages joined with newlines.
    pub fn request_texts(&self) -> Vec<String> {
        self.lock().requests.iter().map(Request::text).collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Script> {
        self.script.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[async_trait]
impl Provider for Scripted {
    fn name(&self) -> &str {
        "scripted"
    }

    fn auto_modes(&self) -> &[Mode] {
        &self.modes
    }

    async fn complete(&self, request: &Request) -> Result<Reply, ProviderError> {
        let mut script = self.lock();
        script.requests.push(request.clone());
        let call = script.requests.len();
        match script.replies.pop_front() {
            Some(ScriptedReply::Reply(reply)) => Ok(reply),
            Some(ScriptedReply::Error(error)) => Err(error),
            None => Err(ProviderError::ScriptExhausted { call }),
        }
    }
}
