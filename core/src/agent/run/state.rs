//! The state of the loop between attempts: the modes still to try, every attempt, the
//! tokens used, the rejected values the best partial is made of, the repair prompt of the
//! next attempt and what the replies said of the union's functions; and what it comes to
//! when the loop ends.

use serde_json::Value;

use super::super::doubts::Doubts;
use super::super::request::Target;
use super::super::{AskError, Attempt, partial};
use super::{Failure, Question, Received, Success};
use crate::error::Error;
use crate::error::bounded;
use crate::feedback::{RepairPrompt, RepairStrategy};
use crate::fix::{FixKind, Location};
use crate::message::Message;
use crate::provider::{Mode, Reply, Usage};
use crate::repair::Fix;

/// At most this many characters of a rejected reply's violations in the fix that keeps
/// an answer over it.
const INSTEAD_CHARS: usize = 400;

/// The state of the loop between attempts.
pub(super) struct Run {
    /// The modes still to try, the current one first.
    pub(super) modes: Vec<Mode>,
    /// Every attempt that got a reply, in order.
    pub(super) attempts: Vec<Attempt>,
    pub(super) usage: Usage,
    /// Each rejected reply's value as local repair read it, and why it was rejected: what
    /// the best partial value is made of (see [`partial`]).
    pub(super) rejected: Vec<(Value, Error)>,
    /// Whether the best partial value is put together field by field (a record).
    pub(super) by_field: bool,
    /// The repair prompt the next attempt sends, after a rejected reply.
    pub(super) repair: Option<RepairPrompt>,
    /// What the rejected replies so far said of the union's functions: each check of the
    /// choice of a call or the answer (see `agent::grounding`) sends a reply
    /// back once.
    pub(super) doubts: Doubts,
    /// The answer alone, asked for once the replies have said that no function fits
    /// (`doubts::no_function_fits`).
    pub(super) answer_only: Option<Target>,
    /// The answer sent back only as skipping a function (`doubts::only_skipped`), taken
    /// if a later reply says that none fits (`doubts::answer_stands`).
    pub(super) doubted_answer: Option<DoubtedAnswer>,
}

/// An answer sent back only as skipping a function: that function (as the model is shown
/// it), the answer's attempt, its values as read and its reply.
pub(super) struct DoubtedAnswer {
    pub(super) tool: String,
    pub(super) attempt: usize,
    pub(super) values: Vec<Value>,
    pub(super) reply: Reply,
}

impl Run {
    pub(super) fn new(modes: Vec<Mode>, by_field: bool) -> Self {
        Run {
            modes,
            attempts: Vec::new(),
            usage: Usage::default(),
            rejected: Vec::new(),
            by_field,
            repair: None,
            doubts: Doubts::default(),
            answer_only: None,
            doubted_answer: None,
        }
    }

    /// What this attempt asks for: the ask's target, or its answer alone.
    pub(super) fn target<'t>(&'t self, ask: &'t Question<'_>) -> &'t Target {
        self.answer_only.as_ref().unwrap_or(ask.target)
    }

    /// The attempts counted so far: each one that got a reply.
    pub(super) fn attempted(&self) -> usize {
        self.attempts.len()
    }

    pub(super) fn mode(&self) -> Option<Mode> {
        self.modes.first().copied()
    }

    /// The messages of the next attempt: the first conversation, or its repair, which
    /// asks for the reply `forms` of a union with an answer in the attempt's mode
    /// (`Target::reply_forms`).
    pub(super) fn messages(
        &self,
        base: Vec<Message>,
        strategy: RepairStrategy,
        forms: Option<String>,
    ) -> Vec<Message> {
        match &self.repair {
            Some(repair) => repair.clone().reply_forms(forms).messages(strategy, &base),
            None => base,
        }
    }

    /// Keeps the value of a rejected reply, for the best partial value.
    pub(super) fn keep_best(&mut self, error: &Error, closest: Option<Value>) {
        if let Some(value) = closest {
            self.rejected.push((value, error.clone()));
        }
    }

    pub(super) fn accept<T>(
        self,
        received: Received,
        value: T,
        values: Vec<Value>,
        fixes: &[Fix],
    ) -> Success<T> {
        let Run {
            mut attempts,
            usage,
            ..
        } = self;
        attempts.push(received.taken(fixes));
        Success {
            value,
            values,
            reply: received.reply,
            attempts,
            fixed_locally: !fixes.is_empty(),
            usage,
        }
    }

    /// Takes the doubted answer's `value` over the reply of `received`, rejected with
    /// `error`: that attempt is the last, taken with the fix that says so
    /// ([`FixKind::AnswerKept`]), and the answer's reply is the one the value came from.
    pub(super) fn keep_answer<T>(
        self,
        received: Received,
        error: &Error,
        answer: DoubtedAnswer,
        value: T,
    ) -> Success<T> {
        let instead = bounded(&error.to_string(), INSTEAD_CHARS);
        let kept = FixKind::AnswerKept {
            attempt: answer.attempt,
            instead,
        };
        let fixes = [Fix::new(kept, Location::Reply)];
        let Run {
            mut attempts,
            usage,
            ..
        } = self;
        attempts.push(received.taken(&fixes));
        Success {
            value,
            values: answer.values,
            reply: answer.reply,
            attempts,
            fixed_locally: true,
            usage,
        }
    }

    pub(super) fn fail(self, failure: Failure) -> AskError {
        match failure {
            Failure::Provider(error) => AskError::Provider {
                error,
                attempts: self.attempts,
            },
            Failure::Cancelled => AskError::Cancelled {
                attempts: self.attempts,
            },
            Failure::CheckPanicked(panic, error, received) => {
                let mut attempts = self.attempts;
                attempts.push(received.record(Some(error)));
                AskError::CheckPanicked { panic, attempts }
            }
        }
    }

    /// The budget's error, when the tokens used are over it.
    pub(super) fn over_budget(&mut self, budget: Option<u64>) -> Option<AskError> {
        let limit = budget?;
        let used = self.usage.total();
        (used > limit).then(|| AskError::Budget {
            used,
            limit,
            attempts: std::mem::take(&mut self.attempts),
        })
    }

    pub(super) fn exhausted(self) -> AskError {
        AskError::Exhausted {
            best: partial::best(&self.rejected, self.by_field),
            attempts: self.attempts,
        }
    }
}
