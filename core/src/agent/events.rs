//! What an ask reports while it runs, and the counters an agent keeps.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde_json::Value;

use crate::Error;
use crate::RepairStrategy;
use crate::provider::{FinishReason, Mode, ProviderError, Usage};
use crate::repair::Fix;

/// Progress of an ask, for a callback set with [`Agent::on_event`](crate::Agent::on_event).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Event {
    /// An attempt begins (1-based) in a mode.
    AttemptStarted { attempt: usize, mode: Mode },
    /// The model replied.
    ReplyReceived {
        attempt: usize,
        usage: Usage,
        finish: FinishReason,
        chars: usize,
    },
    /// The reply was usable after local fixes.
    FixedLocally { attempt: usize, fixes: Vec<Fix> },
    /// The reply was not usable.
    Violations { attempt: usize, error: Error },
    /// A repair prompt goes to the model.
    RepairSent {
        attempt: usize,
        strategy: RepairStrategy,
    },
    /// A transport failure; the same call is retried after `delay`.
    TransportRetry {
        attempt: usize,
        error: ProviderError,
        delay: Duration,
    },
    /// The server rejected a mode, or wrote a native tool call as text; the next mode
    /// is tried.
    ModeFallback {
        from: Mode,
        to: Mode,
        reason: String,
    },
    /// The replies to a union of tools with an answer said that none of its functions
    /// fits (each called a function the union lacks, or one with nothing the user
    /// wrote): from the attempt after `attempt`, the answer alone is asked for.
    AnswerAsked { attempt: usize },
    /// The ask succeeded.
    Done { attempts: usize, usage: Usage },
    /// A tool loop calls a tool, in the step (1-based) whose reply made the call: `tool`
    /// as the union's server spells it, with the arguments it receives. A call that
    /// repeats an earlier one is not run again, and reported by neither this event nor
    /// [`Event::ToolReturned`] (the loop's record has it: [`ToolRun::repeated`]).
    ///
    /// [`ToolRun::repeated`]: super::ToolRun::repeated
    ToolCalled {
        step: usize,
        tool: String,
        arguments: Value,
    },
    /// The tool of the last [`Event::ToolCalled`] came back: its output, or the error the
    /// model is told. A tool whose failure ends the run does not come back: the run ends
    /// with its error ([`AskError::ToolFailed`], [`AskError::ToolPanicked`]).
    ///
    /// [`AskError::ToolFailed`]: super::AskError::ToolFailed
    /// [`AskError::ToolPanicked`]: super::AskError::ToolPanicked
    ToolReturned {
        step: usize,
        tool: String,
        result: Result<String, String>,
    },
}

/// A line per event (a line per fix or violation where there are several), for progress
/// output and logs.
///
/// ```
/// use toolschema::agent::Event;
/// use toolschema::provider::Mode;
///
/// let event = Event::AttemptStarted { attempt: 2, mode: Mode::Prompt };
/// assert_eq!(event.to_string(), "attempt 2 (prompt)");
/// ```
impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::AttemptStarted { attempt, mode } => write!(f, "attempt {attempt} ({mode})"),
            Event::ReplyReceived {
                attempt,
                usage,
                chars,
                ..
            } => write!(
                f,
                "reply to attempt {attempt}: {chars} characters, {} tokens",
                usage.total()
            ),
            Event::FixedLocally { fixes, .. } => {
                let lines: Vec<String> = fixes
                    .iter()
                    .map(|fix| format!("fixed locally: {fix}"))
                    .collect();
                f.write_str(&lines.join("\n"))
            }
            Event::Violations { error, .. } => {
                let lines: Vec<String> = error
                    .to_string()
                    .lines()
                    .map(|line| format!("rejected: {line}"))
                    .collect();
                f.write_str(&lines.join("\n"))
            }
            Event::RepairSent { attempt, .. } => {
                write!(f, "repair prompt sent after attempt {attempt}")
            }
            Event::TransportRetry { delay, error, .. } => {
                write!(f, "retrying in {delay:?}: {error}")
            }
            Event::ModeFallback { from, to, .. } => {
                write!(f, "{from} rejected by the server; using {to}")
            }
            Event::AnswerAsked { attempt } => write!(
                f,
                "after attempt {attempt}, the replies say no function fits: asking for the answer"
            ),
            Event::Done { attempts, usage } => {
                write!(f, "done in {attempts} attempt(s), {} tokens", usage.total())
            }
            Event::ToolCalled {
                step,
                tool,
                arguments,
            } => write!(f, "step {step}: calling {tool}({arguments})"),
            Event::ToolReturned { step, tool, result } => match result {
                Ok(output) => write!(f, "step {step}: {tool} → {output}"),
                Err(error) => write!(f, "step {step}: {tool} failed: {error}"),
            },
        }
    }
}

/// Counters over every ask of an agent.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    asks: AtomicU64,
    successes: AtomicU64,
    first_try: AtomicU64,
    fixed_locally: AtomicU64,
    fixed_by_model: AtomicU64,
    exhausted: AtomicU64,
    attempts_on_success: AtomicU64,
    tokens_on_success: AtomicU64,
}

/// A snapshot of an agent's counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Metrics {
    pub asks: u64,
    pub successes: u64,
    /// Successes on the first attempt with no fix at all.
    pub first_try: u64,
    /// Successes on the first attempt thanks to local fixes.
    pub fixed_locally: u64,
    /// Successes after at least one repair prompt.
    pub fixed_by_model: u64,
    /// Asks that ran out of attempts.
    pub exhausted: u64,
    pub attempts_on_success: u64,
    pub tokens_on_success: u64,
}

impl Metrics {
    /// Model calls for content per success.
    pub fn attempts_per_success(&self) -> f64 {
        ratio(self.attempts_on_success, self.successes)
    }

    /// Prompt and completion tokens per success.
    pub fn tokens_per_success(&self) -> f64 {
        ratio(self.tokens_on_success, self.successes)
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

impl Counters {
    pub(crate) fn ask(&self) {
        self.asks.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn success(&self, attempts: usize, fixed_locally: bool, tokens: u64) {
        self.successes.fetch_add(1, Ordering::Relaxed);
        let counter = match (attempts, fixed_locally) {
            (1, false) => &self.first_try,
            (1, true) => &self.fixed_locally,
            _ => &self.fixed_by_model,
        };
        counter.fetch_add(1, Ordering::Relaxed);
        self.attempts_on_success
            .fetch_add(attempts as u64, Ordering::Relaxed);
        self.tokens_on_success.fetch_add(tokens, Ordering::Relaxed);
    }

    pub(crate) fn exhausted(&self) {
        self.exhausted.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn snapshot(&self) -> Metrics {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        Metrics {
            asks: get(&self.asks),
            successes: get(&self.successes),
            first_try: get(&self.first_try),
            fixed_locally: get(&self.fixed_locally),
            fixed_by_model: get(&self.fixed_by_model),
            exhausted: get(&self.exhausted),
            attempts_on_success: get(&self.attempts_on_success),
            tokens_on_success: get(&self.tokens_on_success),
        }
    }
}
