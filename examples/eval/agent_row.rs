//! The toolschema rows: `Agent::ask::<T>()` in one mode, or `Agent::ask_tools` on the
//! same union given as JSON at run time.
//!
//! Calls, tokens and which attempt succeeded are read from the agent's events, per ask;
//! a failed ask's replies come from `AskError::attempts()`.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use serde::Serialize;
use serde_json::Value;
use toolschema::agent::{Event, ExampleForm, PromptForm};
use toolschema::provider::{Mode, OpenAi};
use toolschema::{Agent, AskError, Dialect, RepairStrategy, ToolSchema};

use crate::score::{AttemptTrace, Trace};
use crate::tasks::Task;

/// `Agent::ask` for one type, the value written back as JSON.
pub type AskFn = for<'a> fn(
    &'a Agent<OpenAi>,
    &'a str,
) -> Pin<Box<dyn Future<Output = Result<Value, AskError>> + 'a>>;

pub fn ask_as<'a, T: ToolSchema + Serialize + Send>(
    agent: &'a Agent<OpenAi>,
    prompt: &'a str,
) -> Pin<Box<dyn Future<Output = Result<Value, AskError>> + 'a>> {
    Box::pin(async move {
        let value: T = agent.ask::<T>(prompt).await?;
        // The eval's types have string keys and no failing `Serialize`.
        Ok(serde_json::to_value(&value).expect("the eval's types serialize"))
    })
}

/// `Agent::ask_tools` on the run-time tools of `--set runtime`, the choice written back
/// with the tools' names as the servers spell them.
pub fn ask_runtime_tools<'a>(
    agent: &'a Agent<OpenAi>,
    prompt: &'a str,
) -> Pin<Box<dyn Future<Output = Result<Value, AskError>> + 'a>> {
    Box::pin(async move {
        let choice = agent
            .ask_tools(&crate::runtime_tools::TOOLS, prompt)
            .await?;
        Ok(crate::runtime_tools::choice_json(&choice))
    })
}

/// How a row asks for a task's union.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asks {
    /// `Agent::ask::<T>()` on the derived type.
    Type,
    /// `Agent::ask_tools` on the same tools given as JSON at run time.
    Toolset,
}

/// One toolschema row: an agent in one mode, and the events of the ask under way.
pub struct AgentRow {
    agent: Agent<OpenAi>,
    asks: Asks,
    events: Arc<Mutex<Vec<Event>>>,
}

impl AgentRow {
    /// `variant`: what the row changes from the defaults, after the `+` of its name
    /// (`auto+schema`): `schema` or `both` (the prompt form), `noex` (no example), `values`
    /// (the example of a record with realistic values, not placeholders), `plain`
    /// (schemas sent as derived, optional keys optional, instead of the provider's dialect),
    /// `corrected` or `minimal` (the repair strategy), `t0.5` (the repair temperature).
    pub fn new(
        provider: OpenAi,
        mode: Mode,
        asks: Asks,
        variant: &[&str],
        max_attempts: usize,
        max_tokens: u32,
    ) -> Result<Self, String> {
        let events: Arc<Mutex<Vec<Event>>> = Arc::default();
        let sink = events.clone();
        let mut agent = Agent::new(provider)
            .mode(mode)
            .max_attempts(max_attempts)
            .temperature(0.0)
            .max_tokens(max_tokens)
            .on_event(move |event| lock(&sink).push(event.clone()));
        for change in variant {
            agent = match *change {
                "schema" => agent.prompt_form(PromptForm::JsonSchema),
                "both" => agent.prompt_form(PromptForm::Both),
                "noex" => agent.example(false),
                "values" => agent.example_form(ExampleForm::Values),
                "plain" => agent.dialect(Dialect::Strict),
                "corrected" => agent.repair_strategy(RepairStrategy::Corrected),
                "minimal" => agent.repair_strategy(RepairStrategy::Minimal),
                t if t.starts_with('t') => match t[1..].parse::<f32>() {
                    Ok(temperature) => agent.repair_temperature(temperature),
                    Err(_) => return Err(format!("unknown row variant `{t}`")),
                },
                other => return Err(format!("unknown row variant `{other}`")),
            };
        }
        Ok(AgentRow {
            agent,
            asks,
            events,
        })
    }

    /// Whether the row asks for the derived type or the run-time tools.
    pub fn asks(&self) -> Asks {
        self.asks
    }

    pub async fn run(&self, task: &Task) -> Trace {
        let ask = match (self.asks, task.answer.ask_tools) {
            (Asks::Type, _) => task.answer.ask,
            (Asks::Toolset, Some(ask_tools)) => ask_tools,
            (Asks::Toolset, None) => {
                return Trace {
                    error: Some(format!("{} has no run-time tools", task.answer.name)),
                    ..Trace::default()
                };
            }
        };
        self.trace(|agent| ask(agent, task.prompt)).await
    }

    /// Runs one ask of any kind on this row's agent and traces it from the agent's events.
    pub async fn trace<'a, F, Fut>(&'a self, ask: F) -> Trace
    where
        F: FnOnce(&'a Agent<OpenAi>) -> Fut,
        Fut: Future<Output = Result<Value, AskError>>,
    {
        lock(&self.events).clear();
        let result = ask(&self.agent).await;
        let events = std::mem::take(&mut *lock(&self.events));
        let mut trace = trace_of(&events);
        match result {
            Ok(value) => trace.value = Some(value),
            Err(error) => {
                // The replies of the failed ask, by attempt number.
                for attempt in error.attempts() {
                    let index = attempt.number().saturating_sub(1);
                    if let Some(record) = trace.attempts.get_mut(index) {
                        record.raw = Some(attempt.raw().to_owned());
                    }
                }
                trace.error = Some(error.to_string());
            }
        }
        trace
    }
}

/// The attempts of one ask, from its events: a reply opens an attempt, violations mark
/// it failed, and `Done` marks the last one good.
fn trace_of(events: &[Event]) -> Trace {
    let mut trace = Trace::default();
    for event in events {
        match event {
            Event::ReplyReceived { attempt, usage, .. } => {
                // Attempts are numbered from 1 and each gets one reply.
                let Some(index) = attempt.checked_sub(1) else {
                    continue;
                };
                if trace.attempts.len() <= index {
                    trace.attempts.resize(index + 1, AttemptTrace::default());
                }
                trace.attempts[index].tokens = usage.total();
            }
            Event::Violations { attempt, error } => {
                if let Some(record) = trace.attempts.get_mut(attempt.saturating_sub(1)) {
                    record.error = Some(error.to_string());
                }
            }
            Event::Done { attempts, .. } => {
                if let Some(record) = trace.attempts.get_mut(attempts.saturating_sub(1)) {
                    record.ok = true;
                }
            }
            Event::ModeFallback { .. } => trace.fallbacks += 1,
            Event::TransportRetry { .. } => trace.retries += 1,
            _ => {}
        }
    }
    trace
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}
