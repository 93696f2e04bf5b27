//! The error of an ask, keeping every attempt.

use serde_json::Value;

use crate::provider::{FinishReason, Mode, ProviderError, Usage};
use crate::repair::Fix;
use crate::toolset::CheckPanic;
use crate::{Error, Violation};

/// One call to the model for content, and what came of it.
#[derive(Debug, Clone)]
pub struct Attempt {
    pub(crate) number: usize,
    /// The tool loop's step the attempt was made in (1-based); 0 outside a loop.
    pub(crate) step: usize,
    pub(crate) mode: Mode,
    pub(crate) request: String,
    pub(crate) raw: String,
    pub(crate) error: Option<Error>,
    /// The local fixes that made the reply read, where it was taken (a rejected reply's
    /// are its error's).
    pub(crate) fixes: Vec<Fix>,
    pub(crate) usage: Usage,
    pub(crate) finish: FinishReason,
}

impl Attempt {
    /// 1-based, within its ask: in a tool loop, within its step.
    pub fn number(&self) -> usize {
        self.number
    }

    /// The tool loop's step the attempt was made in (1-based); `None` outside a tool loop.
    pub fn step(&self) -> Option<usize> {
        (self.step > 0).then_some(self.step)
    }

    /// The mode the attempt's request was sent in: the loop's, but prose for a union's
    /// answer asked for alone where it is text.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// What was sent: the request's messages joined with newlines.
    pub fn request(&self) -> &str {
        &self.request
    }

    /// The model's reply, exactly as received: its text, then its native tool calls (if
    /// any) written as JSON, each with its arguments as the model wrote them.
    pub fn raw(&self) -> &str {
        &self.raw
    }

    /// Why the reply was rejected (empty for the successful attempt).
    pub fn violations(&self) -> &[Violation] {
        self.error.as_ref().map_or(&[], Error::violations)
    }

    /// The local fixes applied to the reply: those that made the successful attempt's
    /// reply read (an argument the user never gave left out, a code fence taken off), or
    /// those tried on a rejected one.
    pub fn fixes(&self) -> &[Fix] {
        self.error.as_ref().map_or(&self.fixes, Error::fixes)
    }

    pub fn error(&self) -> Option<&Error> {
        self.error.as_ref()
    }

    pub fn usage(&self) -> Usage {
        self.usage
    }

    pub fn finish(&self) -> &FinishReason {
        &self.finish
    }
}

/// Why an ask gave no value. Every variant keeps the attempts made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AskError {
    /// Every attempt was used and no reply fit.
    #[error("no usable reply in {} attempt(s); the last one failed with:\n{}", .attempts.len(), last_error(.attempts))]
    Exhausted {
        attempts: Vec<Attempt>,
        /// The repaired value that came closest: the reply with the fewest violations,
        /// with each top-level field of a record taken from the first reply in which it
        /// was right (see [`AskError::best_partial`]).
        best: Option<Value>,
    },
    /// The provider failed in a way retrying did not fix.
    #[error("the provider failed: {error}")]
    Provider {
        error: ProviderError,
        attempts: Vec<Attempt>,
    },
    /// The token budget of the ask was used up.
    #[error("the token budget of {limit} was used up ({used} tokens)")]
    Budget {
        used: u64,
        limit: u64,
        attempts: Vec<Attempt>,
    },
    /// The ask was cancelled.
    #[error("the ask was cancelled")]
    Cancelled { attempts: Vec<Attempt> },
    /// The tool loop took its most steps without an answer.
    #[error("no answer after {steps} tool-loop steps")]
    StepLimit {
        steps: usize,
        attempts: Vec<Attempt>,
    },
    /// A semantic check of a tool panicked: a bug in the check, not in the reply, so no
    /// repair prompt was sent. The attempt whose reply it checked is the last one kept.
    #[error("{panic}")]
    CheckPanicked {
        panic: CheckPanic,
        attempts: Vec<Attempt>,
    },
    /// A tool's handler panicked: a bug in the handler, so the model was not told. The
    /// attempts up to the step that called the tool are kept.
    #[error("{panic}")]
    ToolPanicked {
        panic: super::tools::ToolPanic,
        attempts: Vec<Attempt>,
    },
    /// A tool failed in a way that ends the run instead of going back to the model (an
    /// MCP server that died or stopped answering: see `mcp::ServerFailure`, feature
    /// `mcp`). The attempts up to the step that called the tool are kept.
    #[error("the tool {} failed and ended the run: {error}", crate::error::quote(.tool))]
    ToolFailed {
        /// The tool, by the name its handler was registered under.
        tool: String,
        error: std::sync::Arc<dyn std::error::Error + Send + Sync>,
        attempts: Vec<Attempt>,
    },
    /// A tool loop's handler is registered under a name no tool of its union has (as
    /// the model is shown it or as its server spells it): a typo the model cannot fix, so
    /// the loop ended before any model call. Each such handler is here, with the tool
    /// its name is closest to.
    #[error("{}", super::dispatch::Unknown(.handlers, .tools))]
    UnknownHandlers {
        handlers: Vec<super::dispatch::UnknownHandler>,
        /// The union's tools, as their servers spell them.
        tools: Vec<String>,
        attempts: Vec<Attempt>,
    },
    /// The schema asked for cannot check replies (see [`Schema::problem`](crate::Schema::problem)):
    /// no model was called.
    #[error("the schema cannot be used: {error}")]
    Schema {
        error: crate::Error,
        attempts: Vec<Attempt>,
    },
}

fn last_error(attempts: &[Attempt]) -> String {
    attempts
        .last()
        .and_then(Attempt::error)
        .map_or_else(String::new, ToString::to_string)
}

impl AskError {
    /// Every attempt made, in order.
    pub fn attempts(&self) -> &[Attempt] {
        match self {
            AskError::Exhausted { attempts, .. }
            | AskError::Provider { attempts, .. }
            | AskError::Budget { attempts, .. }
            | AskError::Cancelled { attempts }
            | AskError::StepLimit { attempts, .. }
            | AskError::CheckPanicked { attempts, .. }
            | AskError::ToolPanicked { attempts, .. }
            | AskError::ToolFailed { attempts, .. }
            | AskError::UnknownHandlers { attempts, .. }
            | AskError::Schema { attempts, .. } => attempts,
        }
    }

    pub(crate) fn attempts_mut(&mut self) -> &mut Vec<Attempt> {
        match self {
            AskError::Exhausted { attempts, .. }
            | AskError::Provider { attempts, .. }
            | AskError::Budget { attempts, .. }
            | AskError::Cancelled { attempts }
            | AskError::StepLimit { attempts, .. }
            | AskError::CheckPanicked { attempts, .. }
            | AskError::ToolPanicked { attempts, .. }
            | AskError::ToolFailed { attempts, .. }
            | AskError::UnknownHandlers { attempts, .. }
            | AskError::Schema { attempts, .. } => attempts,
        }
    }

    /// The last reply the model sent, if any.
    pub fn last_raw(&self) -> Option<&str> {
        self.attempts().last().map(Attempt::raw)
    }

    /// The repaired value that came closest to fitting, keeping what was right.
    ///
    /// It starts from the reply with the fewest violations (the later of equals). Where
    /// the type is a record (an object with fields, not a union), each top-level field is
    /// then taken whole from the **first** reply in which it was right: present, with no
    /// violation at it, under it, or over the whole reply. A repair that changed a right
    /// field (a correct `INV-0317` rewritten as an example's `INV-0123`) does not win it;
    /// a field right in no reply stays as the closest reply has it.
    pub fn best_partial(&self) -> Option<&Value> {
        match self {
            AskError::Exhausted { best, .. } => best.as_ref(),
            _ => None,
        }
    }

    /// The provider error, for provider failures.
    pub fn provider_error(&self) -> Option<&ProviderError> {
        match self {
            AskError::Provider { error, .. } => Some(error),
            _ => None,
        }
    }
}
