//! Asking for a union known only at run time: a [`Toolset`].
//!
//! The same loop as [`Agent::ask`], on the set's schema (tool names as the model is
//! shown them); the typed layer is [`Toolset::choose`], which maps the names back to
//! the servers' and runs each tool's check.

use serde_json::Value;

use super::ran::Ran;
use super::request::Target;
use super::run::{Question, Refused, Success};
use super::tool_loop::Runner;
use super::tools::{Start, Step, StepCall, Toolbox};
use super::{Agent, Ask, AskError, CancelToken, Tools};
use crate::Error;
use crate::message::Message;
use crate::provider::Provider;
use crate::toolset::{AnswerBeside, Choice, ReadError, Toolset};

impl<P: Provider> Agent<P> {
    /// Asks which tools of a run-time union to call, or for its answer: the same loop as
    /// [`Agent::ask`] in every mode, with the same fallback chain. In tools mode the
    /// request carries one definition per tool under the name the model is shown
    /// ([`Toolset::model_name`]); a [`ValidCall`](crate::ValidCall) carries the name as the server
    /// spells it.
    ///
    /// A tool's check that panics ends the ask with [`AskError::CheckPanicked`], keeping
    /// every attempt.
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// use serde_json::json;
    /// use toolschema::{Agent, Choice, Toolset};
    /// use toolschema::provider::Scripted;
    ///
    /// let tools = Toolset::from_mcp_tools(&json!({ "tools": [{
    ///     "name": "lights/turn on",
    ///     "description": "Turn on a light.",
    ///     "inputSchema": { "type": "object", "properties": { "name": { "type": "string" } }, "required": ["name"] }
    /// }]}))?
    /// .with_answer();
    /// // The model is shown `lights_turn_on`; its first reply misses an argument.
    /// let model = Scripted::new([
    ///     r#"{"name": "lights_turn_on", "arguments": {}}"#,
    ///     r#"{"name": "lights_turn_on", "arguments": {"name": "bedroom"}}"#,
    /// ]);
    /// let agent = Agent::new(model.clone());
    /// let Choice::Calls(calls) = agent.ask_tools(&tools, "Turn on the bedroom light").await? else {
    ///     unreachable!()
    /// };
    /// assert_eq!(calls[0].name(), "lights/turn on");
    /// assert_eq!(calls[0].arguments(), &json!({ "name": "bedroom" }));
    /// assert!(model.request_texts()[1].contains("/arguments/name: missing required field"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// # }).unwrap();
    /// ```
    pub fn ask_tools<'a>(&'a self, tools: &'a Toolset, prompt: &'a str) -> Ask<'a, P, Tools<'a>> {
        Ask::new(self, Tools::new(tools), prompt)
    }

    /// [`Agent::ask_tools`] after earlier messages that the caller keeps: see
    /// [`Ask::history`].
    #[deprecated(
        since = "0.2.0",
        note = "use `agent.ask_tools(&tools, prompt).history(&history)`"
    )]
    pub async fn ask_tools_with(
        &self,
        tools: &Toolset,
        history: &[Message],
        prompt: &str,
    ) -> Result<Choice, AskError> {
        self.ask_tools(tools, prompt).history(history).await
    }

    /// Runs the tool loop for a run-time union: see [`Ask::run`] and
    /// [`ToolLoop`](super::ToolLoop). The calls run with the `toolbox`'s handlers,
    /// registered by the names the server spells (`time.get_current_time`).
    #[deprecated(
        since = "0.2.0",
        note = "use `agent.ask_tools(&tools, prompt).run(&toolbox)`"
    )]
    pub async fn run_tools(
        &self,
        tools: &Toolset,
        prompt: &str,
        toolbox: &Toolbox,
    ) -> Result<Value, AskError> {
        self.ask_tools(tools, prompt).run(toolbox).await
    }

    /// The run-time union's loop: each step asked for as in [`Agent::ask_tools`].
    pub(super) async fn run_choice_steps(
        &self,
        start: Start<'_>,
        tools: &Toolset,
        runner: Runner<'_>,
    ) -> Result<Ran<Value>, AskError> {
        let cancel = start.cancel;
        let step = |history: Vec<Message>| async move {
            let dropped = AnswerBeside::Dropped;
            let done = self
                .ask_tools_in(tools, &history, "", "", cancel, dropped)
                .await?;
            let (choice, reply) = (done.value, done.reply);
            let step = match choice {
                Choice::Answer(answer) => Step::Answer(answer),
                Choice::Calls(calls) => Step::Calls {
                    calls: calls
                        .iter()
                        .enumerate()
                        .map(|(i, call)| {
                            let arguments = call.arguments().clone();
                            StepCall::new(&reply, i, call.model_name(), arguments, call.name())
                        })
                        .collect(),
                    reply,
                },
            };
            Ok((step, done.attempts))
        };
        self.tool_loop(start, runner, tools.description(), tools.has_answer(), step)
            .await
    }

    /// The loop on the set's schema.
    pub(super) async fn ask_tools_in(
        &self,
        tools: &Toolset,
        history: &[Message],
        prompt: &str,
        request: &str,
        cancel: Option<&CancelToken>,
        beside: AnswerBeside,
    ) -> Result<Success<Choice>, AskError> {
        if tools.is_empty() && !tools.has_answer() {
            return Err(AskError::Schema {
                error: Error::internal(
                    "the tool set is empty: add tools, or an answer with Toolset::with_answer",
                ),
                attempts: Vec::new(),
            });
        }
        let target = Target::with_union(
            tools.schema().clone(),
            "choice",
            tools.description().cloned(),
        );
        let build = |values: &[Value]| {
            tools
                .choose_as(values.to_vec(), beside)
                .map_err(|e| match e {
                    ReadError::Invalid(e) => Refused::Invalid(e),
                    ReadError::CheckPanicked(panic) => {
                        let error = Error::from(ReadError::CheckPanicked(panic.clone()));
                        Refused::CheckPanicked(panic, error)
                    }
                })
        };
        let ask = Question {
            target: &target,
            system: self.system.as_deref(),
            history,
            prompt,
            request,
            cancel,
        };
        self.ask_schema(&ask, build).await
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::provider::Scripted;
    use crate::toolset::one_of;

    fn block_on<F: std::future::IntoFuture>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
            .block_on(future.into_future())
    }

    fn lights() -> Toolset {
        Toolset::from_mcp_tools(&json!({ "tools": [{
            "name": "HassTurnOn",
            "inputSchema": { "type": "object", "properties": { "name": { "type": "string" } } }
        }]}))
        .expect("the tools load")
    }

    #[test]
    fn a_check_s_message_goes_back_in_the_repair_prompt() {
        let tools = lights()
            .check("HassTurnOn", |args: &Value| {
                one_of(args, "/name", ["bedroom light", "kitchen light"])
            })
            .expect("a check");
        let model = Scripted::new([
            r#"{"name": "HassTurnOn", "arguments": {"name": "bedroom lamp"}}"#,
            r#"{"name": "HassTurnOn", "arguments": {"name": "bedroom light"}}"#,
        ]);
        let agent = Agent::new(model.clone());
        let choice =
            block_on(agent.ask_tools(&tools, "Turn on the bedroom light")).expect("a call");
        let Choice::Calls(calls) = choice else {
            panic!("expected a call, got {choice:?}")
        };
        assert_eq!(calls[0].arguments(), &json!({ "name": "bedroom light" }));
        let repair = &model.request_texts()[1];
        assert!(
            repair.contains(
                r#"/arguments/name: "bedroom lamp" is not one of "bedroom light", "kitchen light"; did you mean "bedroom light"?"#
            ),
            "{repair}"
        );
        assert!(repair.contains("Turn on the bedroom light"), "{repair}");
    }

    #[test]
    fn a_check_that_panics_ends_the_ask_keeping_every_attempt() {
        let tools = lights()
            .check("HassTurnOn", |args: &Value| {
                if args["name"] == "boom" {
                    panic!("the device list is gone");
                }
                Ok(())
            })
            .expect("a check");
        let model = Scripted::new([
            r#"{"name": "HassTurnOn", "arguments": {"name": true}}"#,
            r#"{"name": "HassTurnOn", "arguments": {"name": "boom"}}"#,
            r#"{"name": "HassTurnOn", "arguments": {"name": "never asked"}}"#,
        ]);
        let agent = Agent::new(model.clone()).max_attempts(3);
        let err = block_on(agent.ask_tools(&tools, "Boom")).unwrap_err();
        let AskError::CheckPanicked { panic, attempts } = &err else {
            panic!("expected the check's panic, got {err:?}");
        };
        assert_eq!(panic.tool, "HassTurnOn");
        assert_eq!(panic.message, "the device list is gone");
        assert_eq!(
            err.to_string(),
            r#"the check of the tool "HassTurnOn" panicked: the device list is gone"#
        );
        let raw: Vec<&str> = attempts.iter().map(|a| a.raw()).collect();
        assert_eq!(
            raw,
            [
                r#"{"name": "HassTurnOn", "arguments": {"name": true}}"#,
                r#"{"name": "HassTurnOn", "arguments": {"name": "boom"}}"#,
            ]
        );
        let last = attempts[1]
            .error()
            .expect("the panic is the last attempt's error");
        assert!(
            last.to_string().contains("the device list is gone"),
            "{last}"
        );
        // No repair prompt for a bug in the check.
        assert_eq!(model.calls(), 2);
    }

    #[test]
    fn an_empty_set_is_an_error_before_any_call() {
        let model = Scripted::new(["{}"]);
        let err = block_on(Agent::new(model.clone()).ask_tools(&Toolset::new(), "Hi")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the schema cannot be used: (root): the tool set is empty: add tools, or an answer with Toolset::with_answer"
        );
        assert_eq!(model.calls(), 0);
    }

    #[test]
    fn an_unknown_tool_is_a_violation_with_the_list_of_tools() {
        let model = Scripted::new([
            r#"{"name": "HassTurnOff", "arguments": {}}"#,
            r#"{"name": "HassTurnOn", "arguments": {}}"#,
        ]);
        let choice =
            block_on(Agent::new(model.clone()).ask_tools(&lights(), "On")).expect("a call");
        assert_eq!(choice.to_string(), "HassTurnOn({})");
        assert!(
            model.request_texts()[1].contains(r#"did you mean "HassTurnOn"?"#),
            "{}",
            model.request_texts()[1]
        );
    }
}
