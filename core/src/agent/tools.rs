//! The tool loop: ask for a step of a union, run the tools it calls, feed the results
//! back, until the model answers.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use async_trait::async_trait;
use serde_json::Value;

use super::ran::Ran;
use super::runner::ToolRunner;
use super::tool_loop::Runner;
use super::{Agent, AskError, Attempt};
use crate::message::{Arguments, Message, ToolCall};
use crate::provider::{Provider, Reply};
use crate::tool_schema::ToolSchema;

/// Why a tool handler registered with [`Toolbox::tool_that_may_end`] gave no output.
#[derive(Debug, Clone)]
pub enum ToolFailure {
    /// An error the model reads, marked as an error, to fix its call or answer anyway.
    ForModel(String),
    /// An error that ends the run ([`AskError::ToolFailed`]): the model is not asked again.
    EndsRun(Arc<dyn std::error::Error + Send + Sync>),
}

impl ToolFailure {
    /// An error that ends the run: any error, or a message.
    pub fn ends_run(error: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        ToolFailure::EndsRun(Arc::from(error.into()))
    }
}

type Handler = Box<
    dyn Fn(Value) -> Pin<Box<dyn Future<Output = Result<String, ToolFailure>> + Send>>
        + Send
        + Sync,
>;

/// Async tools registered by name, for a tool loop ([`Ask::run`](super::Ask::run)): for
/// the `#[tool]` variants of a union, or for the tools of a [`Toolset`](crate::Toolset) by
/// the names the servers spell (or the names the model is shown), with the arguments read
/// as a `serde_json::Value`. A handler's `Err` goes back to the model marked as an error.
///
/// When the loop starts, each handler's name is checked against the union: a name no
/// tool has (`"GetExchangeRate"` for the tool `get_exchange_rate`) ends it at once, before
/// any model call, with [`AskError::UnknownHandlers`] naming the closest tool. A tool
/// with no handler is no error: the model may never call it, and a call of it goes back
/// to the model as an error (no such tool is available).
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// use toolschema::{Agent, ToolSchema};
/// use toolschema::agent::Toolbox;
/// use toolschema::provider::Scripted;
///
/// #[derive(ToolSchema, Debug, PartialEq)]
/// struct GetWeather { city: String }
///
/// #[derive(ToolSchema, Debug, PartialEq)]
/// enum Step {
///     #[tool] GetWeather(GetWeather),
///     #[answer] Answer(String),
/// }
///
/// let model = Scripted::new([
///     r#"{"name": "get_weather", "arguments": {"city": "Oslo"}}"#,
///     r#"{"answer": "It is 3°C in Oslo."}"#,
/// ]);
/// let tools = Toolbox::new().tool("get_weather", |args: GetWeather| async move {
///     Ok::<_, String>(format!("3°C in {}", args.city))
/// });
/// let agent = Agent::new(model.clone());
/// let answer: Step = agent.ask("Weather in Oslo?").run(&tools).await?;
/// assert_eq!(answer, Step::Answer("It is 3°C in Oslo.".into()));
/// assert!(model.request_texts()[1].contains("3°C in Oslo"));
/// # Ok::<(), toolschema::AskError>(())
/// # }).unwrap();
/// ```
pub struct Toolbox {
    handlers: HashMap<String, Handler>,
    max_steps: usize,
}

impl Default for Toolbox {
    fn default() -> Self {
        Toolbox::new()
    }
}

/// A tool handler that panicked: a bug in the handler, not in the model's call, so the
/// run ends ([`AskError::ToolPanicked`]) instead of telling the model.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolPanic {
    /// The tool, by the name its handler was registered under.
    pub tool: String,
    /// The panic's message, when it had one.
    pub message: String,
}

impl std::fmt::Display for ToolPanic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the handler of the tool {} panicked: {}",
            crate::error::quote(&self.tool),
            self.message
        )
    }
}

/// What one step of the loop did, for callers that drive it themselves.
#[deprecated(
    since = "0.2.0",
    note = "the loop no longer gives it: its record of each call is `ToolRun`, from `ToolLoop::ran`"
)]
#[derive(Debug, Clone, PartialEq)]
pub enum StepOutcome {
    /// A tool ran and returned this.
    Ran { tool: String, output: String },
    /// A tool failed; the error was sent to the model.
    Failed { tool: String, error: String },
}

impl Toolbox {
    /// An empty toolbox; the loop stops after 8 steps.
    pub fn new() -> Self {
        Toolbox {
            handlers: HashMap::new(),
            max_steps: 8,
        }
    }

    /// Registers the tool `name`, whose arguments are read as an `A`.
    pub fn tool<A, F, Fut, E>(self, name: &str, handler: F) -> Self
    where
        A: ToolSchema,
        F: Fn(A) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<String, E>> + Send + 'static,
        E: std::fmt::Display,
    {
        self.tool_that_may_end(name, move |arguments: A| {
            let ran = handler(arguments);
            async move { ran.await.map_err(|e| ToolFailure::ForModel(e.to_string())) }
        })
    }

    /// Registers the tool `name`, whose handler may end the run: it returns
    /// [`ToolFailure::ForModel`] for an error the model reads (as [`Toolbox::tool`] does
    /// with any error), or [`ToolFailure::EndsRun`] for one no later step can help (a
    /// backend that is down, credentials refused), which ends the run with
    /// [`AskError::ToolFailed`], every attempt kept.
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// use toolschema::agent::{AskError, ToolFailure, Toolbox};
    /// use toolschema::provider::Scripted;
    /// use toolschema::{Agent, ToolSchema};
    ///
    /// #[derive(ToolSchema, Debug)]
    /// struct Unlock { door: String }
    ///
    /// #[derive(ToolSchema, Debug)]
    /// enum Step {
    ///     #[tool] Unlock(Unlock),
    ///     #[answer] Answer(String),
    /// }
    ///
    /// let tools = Toolbox::new().tool_that_may_end("unlock", |args: Unlock| async move {
    ///     if args.door != "front" {
    ///         return Err(ToolFailure::ForModel(format!("there is no door {:?}", args.door)));
    ///     }
    ///     Err(ToolFailure::ends_run("the lock's hub is offline"))
    /// });
    /// let model = Scripted::new([
    ///     r#"{"name": "unlock", "arguments": {"door": "back"}}"#,
    ///     r#"{"name": "unlock", "arguments": {"door": "front"}}"#,
    /// ]);
    /// let err = Agent::new(model).ask::<Step>("Unlock the door").run(&tools).await.unwrap_err();
    /// assert!(matches!(&err, AskError::ToolFailed { tool, .. } if tool == "unlock"));
    /// assert_eq!(err.attempts().len(), 2);
    /// # });
    /// ```
    pub fn tool_that_may_end<A, F, Fut>(mut self, name: &str, handler: F) -> Self
    where
        A: ToolSchema,
        F: Fn(A) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<String, ToolFailure>> + Send + 'static,
    {
        let handler = Arc::new(handler);
        self.handlers.insert(
            name.to_owned(),
            Box::new(move |arguments: Value| {
                let handler = handler.clone();
                Box::pin(async move {
                    let arguments = crate::from_value::<A>(arguments)
                        .map_err(|e| ToolFailure::ForModel(e.to_string()))?;
                    handler(arguments).await
                })
            }),
        );
        self
    }

    /// The most model steps one run may take (8 by default; a loop may say otherwise:
    /// [`ToolLoop::max_steps`](super::ToolLoop::max_steps)).
    pub fn max_steps(mut self, steps: usize) -> Self {
        self.max_steps = steps.max(1);
        self
    }
}

#[async_trait]
impl ToolRunner for Toolbox {
    async fn run_tool(&self, name: &str, arguments: Value) -> Result<String, ToolFailure> {
        match self.handlers.get(name) {
            Some(handler) => handler(arguments).await,
            None => Err(ToolFailure::ForModel(format!(
                "no tool named {name:?} is available"
            ))),
        }
    }

    fn handler_names(&self) -> Vec<String> {
        self.handlers.keys().cloned().collect()
    }

    fn step_limit(&self) -> usize {
        self.max_steps
    }
}

/// What one step of the tool loop gave: the answer, or calls to run.
pub(super) enum Step<A> {
    Answer(A),
    Calls { calls: Vec<StepCall>, reply: Reply },
}

/// Where a tool loop starts: the messages before it and the request (added as the last
/// user message unless empty), and the token that may cancel it.
#[derive(Clone, Copy)]
pub(super) struct Start<'a> {
    pub history: &'a [Message],
    pub prompt: &'a str,
    pub cancel: Option<&'a super::CancelToken>,
}

/// A step and the attempts it took.
pub(super) type Stepped<A> = (Step<A>, Vec<Attempt>);

/// A call to run: as the model made it (the name it was shown, an id for the result)
/// and the tool's name in the toolbox.
pub(super) struct StepCall {
    pub call: ToolCall,
    pub tool: String,
}

impl StepCall {
    /// The `i`-th call of a reply: the provider's id for it, or one made up.
    pub fn new(reply: &Reply, i: usize, name: &str, arguments: Value, tool: &str) -> Self {
        let id = reply.tool_calls.get(i).and_then(|c| c.id.clone());
        StepCall {
            call: ToolCall {
                id: id.or_else(|| Some(format!("call_{i}"))),
                name: name.to_owned(),
                arguments: Arguments::Json(arguments),
            },
            tool: tool.to_owned(),
        }
    }
}

impl<P: Provider> Agent<P> {
    /// Runs the tool loop for a union `S`: each step is asked for as an `S`; tool calls
    /// are run with `tools` and their results (or errors) fed back, several calls in one
    /// reply included, until the model gives the `#[answer]` variant, which is returned.
    #[deprecated(since = "0.2.0", note = "use `agent.ask::<S>(prompt).run(&tools)`")]
    pub async fn run<S: ToolSchema + Send>(
        &self,
        prompt: &str,
        tools: &Toolbox,
    ) -> Result<S, AskError> {
        self.ask::<S>(prompt).run(tools).await
    }

    /// The derived union's loop: each step asked for as an `S`.
    pub(super) async fn run_steps<S: ToolSchema>(
        &self,
        start: Start<'_>,
        tools: Runner<'_>,
    ) -> Result<Ran<S>, AskError> {
        let target = super::request::Target::new(crate::Schema::of::<S>(), &S::schema_name());
        let cancel = start.cancel;
        let step = |history: Vec<Message>| async move {
            let done = self
                .ask_in::<S>(&history, "", "", cancel, super::Several::Each)
                .await?;
            let (values, reply) = (done.values, done.reply);
            // An answer beside calls was written before their results: the calls run, the
            // answer is dropped, and the model answers again once the results are in.
            let is_call = |v: &Value| v.get("answer").is_none();
            if !values.iter().any(is_call) {
                return Ok((Step::Answer(done.value), done.attempts));
            }
            let calls = values
                .iter()
                .enumerate()
                .filter(|(_, v)| is_call(v))
                .map(|(i, v)| {
                    let name = v.get("name").and_then(Value::as_str).unwrap_or_default();
                    let arguments = v.get("arguments").cloned().unwrap_or(Value::Null);
                    StepCall::new(&reply, i, name, arguments, name)
                })
                .collect();
            Ok((Step::Calls { calls, reply }, done.attempts))
        };
        self.tool_loop(
            start,
            tools,
            target.union.as_ref(),
            target.has_answer(),
            step,
        )
        .await
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Map;

    use super::*;
    use crate::provider::Scripted;

    /// Each step is asked for as any object: `{"name", "arguments"}` is a call.
    type Call = Map<String, Value>;

    fn call(city: &str) -> String {
        format!(r#"{{"name": "weather", "arguments": {{"city": "{city}"}}}}"#)
    }

    fn weather() -> Toolbox {
        Toolbox::new().tool("weather", |args: Call| async move {
            Ok::<_, String>(format!("3°C in {}", args["city"]))
        })
    }

    fn run(agent: &Agent<Scripted>, tools: &Toolbox) -> Result<Call, AskError> {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
            .block_on(
                agent
                    .ask::<Call>("Weather in Oslo and Rome?")
                    .run(tools)
                    .into_future(),
            )
    }

    fn raw(attempts: &[Attempt]) -> Vec<&str> {
        attempts.iter().map(Attempt::raw).collect()
    }

    #[test]
    fn the_step_limit_keeps_every_attempt_of_every_step() {
        let replies = [
            "not json".to_owned(),
            call("Oslo"),
            "no json either".into(),
            call("Rome"),
        ];
        let model = Scripted::new(replies.clone());
        let agent = Agent::new(model.clone()).max_attempts(2);
        let outcome = run(&agent, &weather().max_steps(2));
        let Err(AskError::StepLimit { steps, attempts }) = outcome else {
            panic!("expected the step limit, got {outcome:?}");
        };
        assert_eq!(steps, 2);
        assert_eq!(raw(&attempts), replies);
        let numbers: Vec<usize> = attempts.iter().map(Attempt::number).collect();
        assert_eq!(numbers, [1, 2, 1, 2]);
        let rejected: Vec<bool> = attempts.iter().map(|a| a.error().is_some()).collect();
        assert_eq!(rejected, [true, false, true, false]);
        // The second step's first attempt saw the first step's tool result.
        assert!(attempts[2].request().contains("3°C in \"Oslo\""));
        assert_eq!(model.calls(), 4);
    }

    /// The step's record is task-local: the loop's future can still move between threads.
    #[test]
    fn the_loop_can_be_spawned() {
        fn spawnable<F: Future + Send + 'static>(_: &F) {}
        let agent = Agent::new(Scripted::new([call("Oslo")]));
        spawnable(&async move { agent.ask::<Call>("Weather?").run(&weather()).await });
    }

    #[test]
    fn a_failed_step_keeps_the_attempts_of_the_steps_before() {
        let model = Scripted::new([call("Oslo"), "nope".into(), "still nope".into()]);
        let agent = Agent::new(model).max_attempts(2);
        let outcome = run(&agent, &weather());
        let Err(AskError::Exhausted { attempts, .. }) = outcome else {
            panic!("expected the second step to fail, got {outcome:?}");
        };
        assert_eq!(
            raw(&attempts),
            [call("Oslo").as_str(), "nope", "still nope"]
        );
    }

    /// A handler that panics, while building its future or while it runs, ends the run
    /// with the panic and every attempt so far; the model is not asked again.
    #[test]
    fn a_panicking_handler_ends_the_run_with_its_attempts() {
        let while_running = Toolbox::new().tool("weather", |_: Call| async move {
            if true {
                panic!("the weather service is not configured");
            }
            Ok::<_, String>(String::new())
        });
        let before_running = Toolbox::new().tool(
            "weather",
            |_: Call| -> std::future::Ready<Result<String, String>> {
                panic!("no city table");
            },
        );
        for (tools, message) in [
            (while_running, "the weather service is not configured"),
            (before_running, "no city table"),
        ] {
            let model = Scripted::new(["not json".to_owned(), call("Oslo"), call("Rome")]);
            let agent = Agent::new(model.clone()).max_attempts(2);
            let outcome = run(&agent, &tools);
            let Err(AskError::ToolPanicked { panic, attempts }) = &outcome else {
                panic!("expected the handler's panic, got {outcome:?}");
            };
            assert_eq!(panic.tool, "weather");
            assert_eq!(panic.message, message);
            assert_eq!(raw(attempts), ["not json".to_owned(), call("Oslo")]);
            assert_eq!(model.calls(), 2);
            let shown = outcome.unwrap_err().to_string();
            assert_eq!(
                shown,
                format!("the handler of the tool \"weather\" panicked: {message}")
            );
        }
    }
}
