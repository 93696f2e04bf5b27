//! The tool loop: asks for a step after the conversation so far, runs the calls it makes
//! and feeds their results (or errors, marked as such) back, until a step answers; and
//! keeps the record of what it did.

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};

use futures_util::FutureExt;
use serde_json::Value;

use super::dispatch::Handlers;
use super::ran::{Ran, ToolRun};
use super::runner::ToolRunner;
use super::tools::{Start, Step, StepCall, Stepped};
use super::{Agent, AskError, Attempt, Event, ToolFailure, ToolPanic};
use crate::message::{Arguments, Message};
use crate::provider::{Mode, Provider, Reply};
use crate::tool_union::UnionDescription;

/// What runs a loop's calls, and the most steps it may take.
#[derive(Clone, Copy)]
pub(super) struct Runner<'a> {
    pub tools: &'a dyn ToolRunner,
    pub max_steps: usize,
}

impl<P: Provider> Agent<P> {
    /// The loop: asks for a step after the conversation so far (`step`); runs the calls
    /// it makes and feeds their results back, until a step answers.
    pub(super) async fn tool_loop<A, F, Fut>(
        &self,
        start: Start<'_>,
        runner: Runner<'_>,
        union: Option<&UnionDescription>,
        has_answer: bool,
        step: F,
    ) -> Result<Ran<A>, AskError>
    where
        F: Fn(Vec<Message>) -> Fut,
        Fut: Future<Output = Result<Stepped<A>, AskError>>,
    {
        let Runner { tools, max_steps } = runner;
        let registered = tools.handler_names();
        let handlers = Handlers::new(union, registered.iter().map(String::as_str))?;
        let mut history = start.history.to_vec();
        if !start.prompt.is_empty() {
            history.push(Message::user(start.prompt));
        }
        let mut attempts = Vec::new();
        // Every call so far, with its result: a repeated call is not run again.
        let mut ran: Vec<ToolRun> = Vec::new();
        // Small models follow a direct request to answer better than a choice.
        let next = if has_answer {
            " Now answer the user's question with {\"answer\": \"...\"}."
        } else {
            ""
        };
        for number in 1..=max_steps {
            let (step, taken) = match step(history.clone()).await {
                Ok(stepped) => stepped,
                Err(mut e) => {
                    in_step(e.attempts_mut(), number);
                    prepend(&mut e, attempts);
                    return Err(e);
                }
            };
            let mut taken = taken;
            in_step(&mut taken, number);
            attempts.extend(taken);
            let (calls, reply) = match step {
                Step::Answer(answer) => return Ok(Ran::new(answer, ran, attempts, number)),
                Step::Calls { calls, reply } => (calls, reply),
            };
            let native = !reply.tool_calls.is_empty() && self.mode_used_tools(&reply);
            // Natively the calls and results follow the provider's protocol. As text, they
            // go back in one user message: small models copy an assistant turn that holds
            // a call instead of answering.
            if native {
                let made = calls.iter().map(|c| c.call.clone()).collect();
                history.push(Message::assistant_calls(reply.text.clone(), made));
            }
            let mut report = Vec::new();
            for StepCall { call, tool } in &calls {
                let arguments = match &call.arguments {
                    Arguments::Json(v) => v.clone(),
                    Arguments::Text(t) => serde_json::from_str(t).unwrap_or(Value::Null),
                };
                let earlier = ran
                    .iter()
                    .find(|r| r.name == call.name && r.arguments == arguments)
                    .map(|r| r.result.clone());
                let repeated = earlier.is_some();
                let result = match earlier {
                    Some(result) => result,
                    None => match self
                        .call_tool(tools, number, tool, handlers.of(tool), &arguments)
                        .await
                    {
                        Ok(result) => result,
                        Err(mut error) => {
                            prepend(&mut error, attempts);
                            return Err(error);
                        }
                    },
                };
                let name = &call.name;
                let said = match &result {
                    Ok(output) => format!("Result of {name}: {output}"),
                    Err(error) => format!("Error from {name}: {error}"),
                };
                let content = if repeated {
                    format!(
                        "You already called {name} with these arguments; do not call it again. {said}."
                    )
                } else {
                    said
                };
                if native && !repeated && result.is_err() {
                    history.push(Message::tool_error(call.id.clone(), content));
                } else if native {
                    history.push(Message::tool_result(call.id.clone(), content));
                } else {
                    let called = serde_json::json!({ "name": name, "arguments": arguments });
                    let called_text = super::conversation::CALLED;
                    report.push(format!("{called_text}{called}. {content}"));
                }
                ran.push(ToolRun {
                    step: number,
                    id: call.id.clone(),
                    name: name.clone(),
                    tool: tool.clone(),
                    arguments,
                    result,
                    repeated,
                });
            }
            if !report.is_empty() {
                history.push(Message::user(format!("{}{next}", report.join("\n"))));
            }
        }
        Err(AskError::StepLimit {
            steps: max_steps,
            attempts,
        })
    }

    /// Runs one call, between its two events: what goes back to the model, or the
    /// error that ends the run. A runner that panics (building its future or while it
    /// runs) does not unwind into the loop: the panic ends the run.
    async fn call_tool(
        &self,
        tools: &dyn ToolRunner,
        step: usize,
        tool: &str,
        handler: &str,
        arguments: &Value,
    ) -> Result<Result<String, String>, AskError> {
        self.emit(Event::ToolCalled {
            step,
            tool: tool.to_owned(),
            arguments: arguments.clone(),
        });
        let ran = match catch_unwind(AssertUnwindSafe(|| {
            tools.run_tool(handler, arguments.clone())
        })) {
            Ok(future) => AssertUnwindSafe(future).catch_unwind().await,
            Err(payload) => Err(payload),
        };
        let attempts = Vec::new();
        let result = match ran {
            Ok(Ok(output)) => Ok(output),
            Ok(Err(ToolFailure::ForModel(error))) => Err(error),
            Ok(Err(ToolFailure::EndsRun(error))) => {
                let tool = handler.to_owned();
                return Err(AskError::ToolFailed {
                    tool,
                    error,
                    attempts,
                });
            }
            Err(payload) => {
                let panic = ToolPanic {
                    tool: handler.to_owned(),
                    message: crate::panic::message(payload.as_ref()),
                };
                return Err(AskError::ToolPanicked { panic, attempts });
            }
        };
        self.emit(Event::ToolReturned {
            step,
            tool: tool.to_owned(),
            result: result.clone(),
        });
        Ok(result)
    }

    fn mode_used_tools(&self, _reply: &Reply) -> bool {
        self.mode == Mode::Tools
            || (self.mode == Mode::Auto && self.provider.auto_modes().first() == Some(&Mode::Tools))
    }
}

/// Marks a step's attempts with its number.
fn in_step(attempts: &mut [Attempt], step: usize) {
    for attempt in attempts {
        attempt.step = step;
    }
}

/// Puts the attempts of the steps before in front of a failed step's.
fn prepend(error: &mut AskError, earlier: Vec<Attempt>) {
    let attempts = error.attempts_mut();
    let mut all = earlier;
    all.append(attempts);
    *attempts = all;
}
