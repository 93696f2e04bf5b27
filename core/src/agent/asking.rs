//! A request to the model: what is asked for (a type, or a tool set), its options given
//! first, sent when awaited.
//!
//! [`Agent::ask`] and [`Agent::ask_tools`] return an [`Ask`]; awaited directly it gives
//! the value (`agent.ask::<T>(prompt).await?`). Before it is awaited it takes earlier
//! messages ([`Ask::history`]) and a cancel token ([`Ask::cancel`]); [`Ask::answered`]
//! gives the value with what it took; [`Ask::run`] makes it a tool loop, which takes the
//! same options, and whose [`ToolLoop::ran`] gives the answer with what the loop did.

use std::future::{Future, IntoFuture};
use std::marker::PhantomData;
use std::pin::Pin;

use serde_json::Value;

use super::ran::Ran;
use super::run::Success;
use super::runner::ToolRunner;
use super::tool_loop::Runner;
use super::tools::Start;
use super::{Agent, AskError, Attempt, CancelToken};
use crate::message::Message;
use crate::provider::{Mode, Provider, Usage};
use crate::tool_schema::ToolSchema;
use crate::toolset::{AnswerBeside, Choice, Toolset};

/// The future an [`Ask`] or a [`ToolLoop`] becomes when awaited.
pub type Sent<'a, O> = Pin<Box<dyn Future<Output = Result<O, AskError>> + Send + 'a>>;

/// A request, built by [`Agent::ask`] (for a [`ToolSchema`] type: `K` is [`Typed`]) or
/// [`Agent::ask_tools`] (for the [`Choice`] of a [`Toolset`]: `K` is [`Tools`]), sent when
/// awaited.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// use toolschema::{Agent, Message, ToolSchema};
/// use toolschema::agent::CancelToken;
/// use toolschema::provider::Scripted;
///
/// #[derive(ToolSchema, Debug)]
/// struct City { name: String }
///
/// let model = Scripted::new(["not json", r#"{"name": "Oslo"}"#]);
/// let agent = Agent::new(model.clone());
/// let history = [Message::user("We are talking about Norway.")];
/// let cancel = CancelToken::new();
/// let answered = agent
///     .ask::<City>("Its capital?")
///     .history(&history)
///     .cancel(&cancel)
///     .answered()
///     .await?;
/// assert_eq!(answered.value.name, "Oslo");
/// assert_eq!(answered.attempts.len(), 2);
/// assert_eq!(answered.attempts[0].raw(), "not json");
/// # Ok::<(), toolschema::AskError>(())
/// # }).unwrap();
/// ```
#[must_use = "a request does nothing until it is awaited"]
pub struct Ask<'a, P, K> {
    agent: &'a Agent<P>,
    kind: K,
    prompt: &'a str,
    history: &'a [Message],
    cancel: Option<&'a CancelToken>,
}

/// What an [`Ask`] of a type asks for: a `T`.
pub struct Typed<T>(PhantomData<fn() -> T>);

impl<T> Typed<T> {
    pub(super) fn new() -> Self {
        Typed(PhantomData)
    }
}

/// What an [`Ask`] of a tool set asks for: the tools to call, or the answer.
pub struct Tools<'a>(&'a Toolset);

impl<'a> Tools<'a> {
    pub(super) fn new(tools: &'a Toolset) -> Self {
        Tools(tools)
    }
}

/// A successful ask and what it took.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Answered<O> {
    pub value: O,
    /// Every attempt, the successful one last: each request, raw reply and violations.
    pub attempts: Vec<Attempt>,
    /// The tokens of every attempt.
    pub usage: Usage,
    /// Whether the successful reply needed local fixes.
    pub fixed_locally: bool,
}

impl<O> Answered<O> {
    /// The mode the successful attempt was made in.
    pub fn mode(&self) -> Option<Mode> {
        self.attempts.last().map(Attempt::mode)
    }

    fn from_success(done: Success<O>) -> Self {
        Answered {
            value: done.value,
            attempts: done.attempts,
            usage: done.usage,
            fixed_locally: done.fixed_locally,
        }
    }
}

impl<'a, P: Provider, K> Ask<'a, P, K> {
    pub(super) fn new(agent: &'a Agent<P>, kind: K, prompt: &'a str) -> Self {
        Ask {
            agent,
            kind,
            prompt,
            history: &[],
            cancel: None,
        }
    }

    /// Earlier messages that the caller keeps, sent before the prompt: a bridge that runs
    /// the model's tool calls elsewhere appends the assistant's calls
    /// ([`Message::assistant_calls`], names as the server spells them) and their results
    /// ([`Message::tool_result`], or [`Message::tool_error`] for a call that failed) and
    /// asks again. The prompt is added as the last user message unless it is empty (the
    /// history then ends with the request, or with the results; repair prompts quote its
    /// last user message).
    ///
    /// Each request sends the system prompt, then the history: in tools mode the calls
    /// and results in the provider's protocol (an error marked as one); in the text
    /// modes as text, each result quoting the call it answers.
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// use serde_json::json;
    /// use toolschema::{Agent, Message, ToolCall, ToolSchema};
    /// use toolschema::provider::Scripted;
    ///
    /// #[derive(ToolSchema, Debug, PartialEq)]
    /// struct TurnOn { name: String }
    ///
    /// #[derive(ToolSchema, Debug, PartialEq)]
    /// enum Step {
    ///     #[tool] TurnOn(TurnOn),
    ///     #[answer] Answer(String),
    /// }
    ///
    /// let model = Scripted::new([
    ///     r#"{"name": "turn_on", "arguments": {"name": "bedroom light"}}"#,
    ///     r#"{"answer": "The bedroom light is unreachable."}"#,
    /// ]);
    /// let agent = Agent::new(model.clone());
    /// let mut history = vec![Message::user("Turn on the bedroom light")];
    /// let step: Step = agent.ask("").history(&history).await?;
    /// assert_eq!(step, Step::TurnOn(TurnOn { name: "bedroom light".into() }));
    ///
    /// // The call runs elsewhere, and fails.
    /// history.push(Message::assistant_calls("", vec![
    ///     ToolCall::new("call_1", "turn_on", json!({ "name": "bedroom light" })),
    /// ]));
    /// history.push(Message::tool_error(Some("call_1".into()), "the light is unreachable"));
    /// let answer: Step = agent.ask("").history(&history).await?;
    /// assert_eq!(answer, Step::Answer("The bedroom light is unreachable.".into()));
    /// assert!(model.request_texts()[1].contains(
    ///     r#"You called {"name":"turn_on","arguments":{"name":"bedroom light"}}. Error from turn_on: the light is unreachable"#
    /// ));
    /// # Ok::<(), toolschema::AskError>(())
    /// # }).unwrap();
    /// ```
    pub fn history(mut self, history: &'a [Message]) -> Self {
        self.history = history;
        self
    }

    /// Ends the ask early, with [`AskError::Cancelled`] and the attempts so far, when
    /// `cancel` is cancelled.
    pub fn cancel(mut self, cancel: &'a CancelToken) -> Self {
        self.cancel = Some(cancel);
        self
    }

    /// The tool loop over this ask: each step is asked for as this ask is; the calls run
    /// with `tools` (a [`Toolbox`](super::Toolbox) of handlers, MCP `Servers` or `McpTools` under the
    /// feature `mcp`, any [`ToolRunner`]) and their results (or errors, marked as errors)
    /// go back to the model, several calls of one reply included, until it answers. The
    /// loop starts from the history, if any, then the prompt.
    ///
    /// A reply that calls tools and answers too (`[{"name": "lamp_on", …}, {"answer":
    /// "The lamp is on."}]`) is a step of calls: they run, and the answer, written before
    /// their results (which may say otherwise), is dropped; the model answers once the
    /// results are in. A call that repeats an earlier one with the same arguments does
    /// not run again: the model is told so, with the earlier result.
    pub fn run<R: ToolRunner>(self, tools: &'a R) -> ToolLoop<'a, P, K> {
        ToolLoop {
            ask: self,
            tools,
            max_steps: None,
        }
    }

    /// The user's request that repair prompts quote: the prompt, or else the history's
    /// last user message.
    fn request(&self) -> &'a str {
        super::request_of(self.history, self.prompt)
    }

    fn start(&self) -> Start<'a> {
        Start {
            history: self.history,
            prompt: self.prompt,
            cancel: self.cancel,
        }
    }
}

impl<'a, P: Provider, T: ToolSchema + Send + 'a> Ask<'a, P, Typed<T>> {
    /// Sends the request: the value, with every attempt it took, their usage and the
    /// mode that succeeded.
    pub async fn answered(self) -> Result<Answered<T>, AskError> {
        let request = self.request();
        self.agent
            .ask_in::<T>(
                self.history,
                self.prompt,
                request,
                self.cancel,
                super::Several::Refused,
            )
            .await
            .map(Answered::from_success)
    }
}

impl<'a, P: Provider> Ask<'a, P, Tools<'a>> {
    /// Sends the request: the choice, with every attempt it took, their usage and the
    /// mode that succeeded.
    pub async fn answered(self) -> Result<Answered<Choice>, AskError> {
        let request = self.request();
        self.agent
            .ask_tools_in(
                self.kind.0,
                self.history,
                self.prompt,
                request,
                self.cancel,
                AnswerBeside::Refused,
            )
            .await
            .map(Answered::from_success)
    }
}

impl<'a, P: Provider, T: ToolSchema + Send + 'a> IntoFuture for Ask<'a, P, Typed<T>> {
    type Output = Result<T, AskError>;
    type IntoFuture = Sent<'a, T>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move { self.answered().await.map(|done| done.value) })
    }
}

impl<'a, P: Provider> IntoFuture for Ask<'a, P, Tools<'a>> {
    type Output = Result<Choice, AskError>;
    type IntoFuture = Sent<'a, Choice>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move { self.answered().await.map(|done| done.value) })
    }
}

/// A tool loop, built by [`Ask::run`]: awaited, it gives the answer (the `#[answer]`
/// variant of a derived union, the answer's value of a [`Toolset`]); [`ToolLoop::ran`]
/// gives it with what the loop did: each call ([`ToolRun`](super::ToolRun): its step,
/// the tool as the model named it and as its server spells it, the arguments, and the
/// output or error the model was told), every attempt of every step and their tokens.
/// While it runs, each call is reported as it starts ([`Event::ToolCalled`]) and as it
/// comes back ([`Event::ToolReturned`]).
///
/// [`Event::ToolCalled`]: super::Event::ToolCalled
/// [`Event::ToolReturned`]: super::Event::ToolReturned
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// use serde_json::{Value, json};
/// use toolschema::Toolset;
/// use toolschema::agent::{Agent, Toolbox};
/// use toolschema::provider::Scripted;
///
/// let tools = Toolset::from_mcp_tools(&json!({ "tools": [{
///     "name": "time.get_current_time",
///     "inputSchema": { "type": "object", "properties": { "timezone": { "type": "string" } }, "required": ["timezone"] }
/// }]}))?
/// .with_answer();
/// let toolbox = Toolbox::new().tool("time.get_current_time", |args: Value| async move {
///     match args["timezone"].as_str() {
///         Some("Europe/Oslo") => Ok("14:00".to_owned()),
///         other => Err(format!("unknown time zone {other:?}")),
///     }
/// });
/// let model = Scripted::new([
///     r#"{"name": "time_get_current_time", "arguments": {"timezone": "Oslo"}}"#,
///     r#"{"name": "time_get_current_time", "arguments": {"timezone": "Europe/Oslo"}}"#,
///     r#"{"answer": "It is 14:00 in Oslo."}"#,
/// ]);
/// let agent = Agent::new(model.clone());
/// let ran = agent.ask_tools(&tools, "Time in Oslo?").run(&toolbox).ran().await?;
/// assert_eq!(ran.answer, json!("It is 14:00 in Oslo."));
/// assert!(model.request_texts()[1].contains(r#"Error from time_get_current_time: unknown time zone Some("Oslo")"#));
/// let results: Vec<_> = ran.calls.iter().map(|call| call.result.clone()).collect();
/// assert_eq!(results, [Err(r#"unknown time zone Some("Oslo")"#.to_owned()), Ok("14:00".to_owned())]);
/// assert_eq!(ran.calls[1].tool, "time.get_current_time");
/// assert_eq!(ran.calls[1].name, "time_get_current_time");
/// assert_eq!((ran.steps, ran.attempts.len()), (3, 3));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
#[must_use = "a tool loop does nothing until it is awaited"]
pub struct ToolLoop<'a, P, K> {
    ask: Ask<'a, P, K>,
    tools: &'a dyn ToolRunner,
    max_steps: Option<usize>,
}

impl<'a, P: Provider, K> ToolLoop<'a, P, K> {
    /// Earlier messages the loop starts from (see [`Ask::history`]).
    pub fn history(mut self, history: &'a [Message]) -> Self {
        self.ask.history = history;
        self
    }

    /// Ends the loop early, with [`AskError::Cancelled`], when `cancel` is cancelled.
    pub fn cancel(mut self, cancel: &'a CancelToken) -> Self {
        self.ask.cancel = Some(cancel);
        self
    }

    /// The most model steps the loop may take (by default its runner's,
    /// [`ToolRunner::step_limit`]: what [`Toolbox::max_steps`](super::Toolbox::max_steps) set, else 8); past them it
    /// ends with [`AskError::StepLimit`].
    pub fn max_steps(mut self, steps: usize) -> Self {
        self.max_steps = Some(steps.max(1));
        self
    }

    fn runner(&self) -> Runner<'a> {
        Runner {
            tools: self.tools,
            max_steps: self.max_steps.unwrap_or_else(|| self.tools.step_limit()),
        }
    }
}

impl<'a, P: Provider, S: ToolSchema + Send + 'a> ToolLoop<'a, P, Typed<S>> {
    /// Runs the loop: the answer, with every call it ran and what came back, every
    /// attempt of every step and their usage (see [`ToolLoop`]).
    pub async fn ran(self) -> Result<Ran<S>, AskError> {
        let (start, runner) = (self.ask.start(), self.runner());
        self.ask.agent.run_steps::<S>(start, runner).await
    }
}

impl<'a, P: Provider> ToolLoop<'a, P, Tools<'a>> {
    /// Runs the loop: the answer, with every call it ran and what came back, every
    /// attempt of every step and their usage (see [`ToolLoop`]).
    pub async fn ran(self) -> Result<Ran<Value>, AskError> {
        let (start, runner) = (self.ask.start(), self.runner());
        self.ask
            .agent
            .run_choice_steps(start, self.ask.kind.0, runner)
            .await
    }
}

impl<'a, P: Provider, S: ToolSchema + Send + 'a> IntoFuture for ToolLoop<'a, P, Typed<S>> {
    type Output = Result<S, AskError>;
    type IntoFuture = Sent<'a, S>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move { self.ran().await.map(|ran| ran.answer) })
    }
}

impl<'a, P: Provider> IntoFuture for ToolLoop<'a, P, Tools<'a>> {
    type Output = Result<Value, AskError>;
    type IntoFuture = Sent<'a, Value>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move { self.ran().await.map(|ran| ran.answer) })
    }
}
