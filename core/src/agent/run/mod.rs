//! The loop of an ask: attempts over a schema until a reply fits.
//!
//! Each attempt ends in one [`Outcome`]: the reply was accepted, or rejected (a repair
//! prompt goes back), or the mode could not carry the ask (the next mode is tried, no
//! attempt counted), or the ask failed. [`Run`] is what the attempts so far leave
//! behind: the modes still to try, every attempt, the tokens used, the closest value
//! and the repair prompt of the next attempt.

use serde_json::Value;
use tracing::{debug, warn};

mod questions;
mod state;
mod unasked;

use super::decide;
use super::doubts::{self, Doubts, choose_in_prose};
use super::request::Target;
use super::retry::CallError;
use super::{Agent, AskError, Attempt, CancelToken, Event};
use super::{conversation, forced, read};
use crate::feedback::RepairPrompt;
use crate::message::Message;
use crate::parse::Parser;
use crate::provider::{FinishReason, Mode, Provider, ProviderError, Reply, Usage};
use crate::repair::{Fix, FixKind};
use crate::toolset::CheckPanic;
use crate::{Error, Violation, ViolationKind};
use state::Run;

/// What is asked, the same for every attempt.
pub(super) struct Question<'a> {
    pub target: &'a Target,
    /// The developer's system text ([`Agent::system`]), put before the shape
    /// instructions; part of the conversation the grounding checks read.
    pub system: Option<&'a str>,
    /// The messages before the prompt, as the caller keeps them.
    pub history: &'a [Message],
    /// The request; empty when the history ends with it.
    pub prompt: &'a str,
    /// The user's request that repair prompts quote.
    pub request: &'a str,
    pub cancel: Option<&'a CancelToken>,
}

/// What a successful run of the loop gives.
pub(super) struct Success<T> {
    pub value: T,
    /// The reply's values (one per tool call when the model made several).
    pub values: Vec<Value>,
    pub reply: Reply,
    /// Every attempt, the successful one last.
    pub attempts: Vec<Attempt>,
    /// Whether the reply needed local fixes.
    pub fixed_locally: bool,
    pub usage: Usage,
}

/// Why the typed layer did not take a reply's values.
pub(super) enum Refused {
    /// The values are wrong: every violation, for a repair prompt.
    Invalid(Error),
    /// A semantic check panicked: a bug no reply can fix, so the ask ends. The error is
    /// what the attempt records.
    CheckPanicked(CheckPanic, Error),
}

impl From<Error> for Refused {
    fn from(error: Error) -> Self {
        Refused::Invalid(error)
    }
}

/// What one attempt came to.
enum Outcome<T> {
    /// The reply's values fit the schema and the typed layer took them.
    Accepted {
        received: Received,
        value: T,
        values: Vec<Value>,
        fixes: Vec<Fix>,
    },
    /// The reply did not fit: why; and its values as read, where they fit the schema
    /// and the conversation questioned them (`doubts::questioned`).
    Rejected {
        received: Received,
        error: Error,
        questioned: Option<Vec<Value>>,
        /// The reply was the answer, cut at the token limit, and questioned for nothing
        /// ([`Agent::answered_at_length`]).
        answered_at_length: bool,
    },
    /// The mode cannot carry the ask, or the server rejected it: the next mode is
    /// tried and no attempt is counted.
    FallBack { reason: String, by_server: bool },
    /// The ask ends with no value.
    Failed(Failure),
}

enum Failure {
    Provider(ProviderError),
    Cancelled,
    /// The reply's check panicked; the attempt is kept with its error.
    CheckPanicked(CheckPanic, Error, Box<Received>),
}

impl<T> Outcome<T> {
    /// What the attempt came to, as the decision of what follows sees it.
    fn seen(&self, target: &Target, ask: &Question<'_>) -> decide::Seen {
        match self {
            Outcome::Accepted { received, .. } => decide::Seen::Accepted {
                mode: received.mode,
                call_as_text: target.sends_tools(received.mode)
                    && read::call_as_text(&received.reply, &received.raw),
            },
            Outcome::Rejected {
                received,
                error,
                answered_at_length,
                ..
            } => decide::Seen::Rejected {
                mode: received.mode,
                call_as_text: target.sends_tools(received.mode)
                    && read::call_as_text(&received.reply, &received.raw),
                cut: received.reply.finish == FinishReason::Length,
                doubts: Doubts {
                    answered_at_length: *answered_at_length,
                    ..Doubts::of(target, ask, &received.raw, error)
                },
            },
            Outcome::FallBack { reason, by_server } => decide::Seen::Unfit {
                reason: reason.clone(),
                by_server: *by_server,
            },
            Outcome::Failed(_) => decide::Seen::Failed,
        }
    }

    fn received(&self) -> Option<&Received> {
        match self {
            Outcome::Accepted { received, .. } | Outcome::Rejected { received, .. } => {
                Some(received)
            }
            Outcome::FallBack { .. } | Outcome::Failed(_) => None,
        }
    }
}

/// A reply and the request it answers.
struct Received {
    number: usize,
    mode: Mode,
    /// The request's messages as text.
    request: String,
    reply: Reply,
    /// The reply as the text the parse layer reads (tool calls written as JSON).
    raw: String,
    /// The whole reply as received: its text and its calls (see [`read::as_received`]).
    received: String,
}

impl Received {
    /// The record of this attempt, with why its reply was rejected.
    /// The attempt of a rejected reply, or of a failed one that has no error.
    fn record(&self, error: Option<Error>) -> Attempt {
        Attempt {
            number: self.number,
            step: 0,
            mode: self.mode,
            request: self.request.clone(),
            raw: self.received.clone(),
            error,
            fixes: Vec::new(),
            usage: self.reply.usage,
            finish: self.reply.finish.clone(),
        }
    }

    /// The attempt of the reply taken, with the fixes that made it read.
    fn taken(&self, fixes: &[Fix]) -> Attempt {
        Attempt {
            fixes: fixes.to_vec(),
            ..self.record(None)
        }
    }
}

/// The read of a reply the provider cut at its token limit. What the cut left reads like
/// bad content, so the error says it was a cut first; and a value that only the closing
/// of the cut made whole may lack what the cut took, so it is not taken (the next attempt
/// is asked for the whole reply).
fn cut_off<T>(
    read: Result<(T, Vec<Value>, Vec<Fix>), Refused>,
    max_tokens: Option<u32>,
) -> Result<(T, Vec<Value>, Vec<Fix>), Refused> {
    match read {
        Err(Refused::Invalid(e)) => Err(Refused::Invalid(e.cut_off(max_tokens))),
        Ok((_, _, fixes)) if whole_only_as_read(&fixes) => {
            let cut = Violation::new("", ViolationKind::CutOff { max_tokens });
            Err(Refused::Invalid(Error::single(cut).with_fixes(fixes)))
        }
        other => other,
    }
}

/// Whether a reply's value, read with `fixes`, is whole only as read, and may lack what a
/// cut at the token limit took: the reading closed what the cut left open, or a reply in
/// prose was read as the answer (whole only if the provider says so).
pub(super) fn whole_only_as_read(fixes: &[Fix]) -> bool {
    fixes
        .iter()
        .any(|f| f.completes_a_cut() || *f.kind() == FixKind::PlainText)
}

/// The answer sent back only as skipping a function, with its typed value, where the
/// reply just rejected (its values as read where the conversation questioned them, and
/// its error) says it stands (`doubts::answer_stands`); it is taken out of the run then,
/// or where its value no longer builds.
fn standing<T>(
    run: &mut Run,
    ask: &Question<'_>,
    questioned: Option<&[Value]>,
    error: &Error,
    build: impl Fn(&[Value]) -> Result<T, Refused>,
) -> Option<(state::DoubtedAnswer, T)> {
    let calls = questioned?;
    held_if(run, build, |doubted| {
        doubts::answer_stands(ask.target, &doubted.tool, calls, error)
    })
}

/// The answer sent back only as skipping a function, with its typed value, once the last
/// attempt's reply is rejected too: asked to call the function, the model wrote no call
/// that was taken in the attempts left. The question was the library's, and unasked the
/// answer would have been taken at once; an error over a valid answer would lose it.
/// Asked "Who built the first hotel in Las Vegas?" beside `travel.search_hotels`, a small
/// model answers; told to call the tool, it writes the tool's shape back, twice.
fn held_to_the_end<T>(
    run: &mut Run,
    build: impl Fn(&[Value]) -> Result<T, Refused>,
) -> Option<(state::DoubtedAnswer, T)> {
    held_if(run, build, |_| true)
}

/// The held answer, taken out of the run where `stands` says so, with its typed value
/// where that still builds.
fn held_if<T>(
    run: &mut Run,
    build: impl Fn(&[Value]) -> Result<T, Refused>,
    stands: impl FnOnce(&mut state::DoubtedAnswer) -> bool,
) -> Option<(state::DoubtedAnswer, T)> {
    let doubted = run.doubted_answer.take_if(stands)?;
    let value = build(&doubted.values).ok()?;
    Some((doubted, value))
}

impl<P: Provider> Agent<P> {
    /// The loop: attempts until a reply's values fit the target's schema and `build`
    /// accepts them.
    pub(super) async fn run_attempts<T>(
        &self,
        ask: &Question<'_>,
        build: impl Fn(&[Value]) -> Result<T, Refused>,
    ) -> Result<Success<T>, AskError> {
        let mut run = Run::new(self.modes(ask.target), ask.target.is_record());
        let parser = Parser::new().coercion(self.coercion);
        while run.attempted() < self.max_attempts {
            let Some(mode) = run.mode() else {
                let error =
                    ProviderError::Config("no mode can carry this type with this provider".into());
                return Err(run.fail(Failure::Provider(error)));
            };
            let outcome = self.attempt(&run, ask, mode, &parser, &build).await;
            if let Some(received) = outcome.received() {
                run.usage += received.reply.usage;
            }
            let seen = outcome.seen(run.target(ask), ask);
            let state = decide::State {
                auto: self.mode == Mode::Auto,
                modes: &run.modes,
                doubts: run.doubts,
                answer_only: run.answer_only.is_some(),
                has_answer: ask.target.union.is_some() && ask.target.has_answer(),
            };
            let next = decide::next(&state, &seen);
            match outcome {
                Outcome::Accepted {
                    received,
                    value,
                    values,
                    fixes,
                } => {
                    self.move_on(&mut run, ask.target, next.move_on);
                    if !fixes.is_empty() {
                        self.emit(Event::FixedLocally {
                            attempt: received.number,
                            fixes: fixes.clone(),
                        });
                    }
                    return Ok(run.accept(received, value, values, &fixes));
                }
                Outcome::Rejected {
                    received,
                    error,
                    questioned,
                    ..
                } => {
                    if let Some((doubted, value)) =
                        standing(&mut run, ask, questioned.as_deref(), &error, &build)
                    {
                        return Ok(self.keep_answer(run, received, &error, doubted, value));
                    }
                    if received.number >= self.max_attempts
                        && let Some((doubted, value)) = held_to_the_end(&mut run, &build)
                    {
                        return Ok(self.keep_answer(run, received, &error, doubted, value));
                    }
                    // Held only where it builds, so that a call after it can keep it.
                    let answer = doubts::only_skipped(&error)
                        .zip(questioned)
                        .filter(|(_, values)| build(values).is_ok());
                    let doubted = answer.map(|(tool, values)| state::DoubtedAnswer {
                        tool,
                        attempt: received.number,
                        values,
                        reply: received.reply.clone(),
                    });
                    self.reject(&mut run, ask, received, error);
                    run.doubted_answer = doubted.or(run.doubted_answer.take());
                    if next.ask_answer {
                        run.answer_only = ask.target.answer_only();
                        if run.answer_only.is_some() {
                            // A fresh ask: the repair of a call is not what is asked now.
                            run.repair = None;
                            self.emit(Event::AnswerAsked {
                                attempt: run.attempted(),
                            });
                        }
                    }
                    if let decide::Seen::Rejected { doubts, .. } = seen {
                        run.doubts = run.doubts.and(doubts);
                    }
                    self.move_on(&mut run, ask.target, next.move_on);
                    if let Some(over) = run.over_budget(self.budget) {
                        return Err(over);
                    }
                    if run.attempted() < self.max_attempts {
                        self.emit(Event::RepairSent {
                            attempt: run.attempted(),
                            strategy: self.strategy,
                        });
                    }
                }
                Outcome::FallBack { reason, .. } if next.then == decide::Then::Fail => {
                    let error = ProviderError::Config(reason);
                    return Err(run.fail(Failure::Provider(error)));
                }
                Outcome::FallBack { .. } => self.move_on(&mut run, ask.target, next.move_on),
                Outcome::Failed(failure) => return Err(run.fail(failure)),
            }
        }
        Err(run.exhausted())
    }

    /// One attempt in `mode`: the request, the call, the reply read.
    async fn attempt<T>(
        &self,
        run: &Run,
        ask: &Question<'_>,
        mode: Mode,
        parser: &Parser,
        build: impl Fn(&[Value]) -> Result<T, Refused>,
    ) -> Outcome<T> {
        let number = run.attempted() + 1;
        let target = run.target(ask);
        let mode = target.sent_in(mode);
        let base = self.base_messages(ask, target, mode);
        let dialect = self.dialect.unwrap_or_else(|| self.provider.dialect());
        let after_results = conversation::results_in(ask.history);
        let forms = target.reply_forms(mode, after_results, target.wrapper(mode, dialect));
        let messages = run.messages(base, self.strategy, forms);
        let (mut request, shaped) = match target.request(mode, messages, dialect) {
            Ok(built) => built,
            Err(reason) if run.modes.len() > 1 => {
                return Outcome::FallBack {
                    reason,
                    by_server: false,
                };
            }
            Err(reason) => {
                return Outcome::Failed(Failure::Provider(ProviderError::Config(reason)));
            }
        };
        request.temperature = if number > 1 {
            self.repair_temperature.or(self.temperature)
        } else {
            self.temperature
        };
        request.max_tokens = self.max_tokens.tokens(target);
        if self.asks_token_choices(ask, run, mode) {
            request.token_choices = Some(forced::TOKEN_CHOICES);
        }
        self.emit(Event::AttemptStarted {
            attempt: number,
            mode,
        });
        debug!(attempt = number, %mode, "attempt started");
        let reply = match self.call(&request, number, ask.cancel).await {
            Ok(reply) => reply,
            Err(CallError::Cancelled) => return Outcome::Failed(Failure::Cancelled),
            Err(CallError::Provider(error))
                if error.rejects_mode() && self.mode == Mode::Auto && run.modes.len() > 1 =>
            {
                return Outcome::FallBack {
                    reason: error.to_string(),
                    by_server: true,
                };
            }
            Err(CallError::Provider(error)) => return Outcome::Failed(Failure::Provider(error)),
        };
        let raw = target.reply_text(&reply);
        let whole = read::as_received(&reply, &raw);
        self.emit(Event::ReplyReceived {
            attempt: number,
            usage: reply.usage,
            finish: reply.finish.clone(),
            chars: whole.chars().count(),
        });
        // The typed value is built inside the loop: what the type rejects is a
        // violation of that attempt, repaired and kept like any other.
        let looped = read::looped_words(&reply, &raw);
        let text = looped.map_or(raw.as_str(), |l| l.said(&raw));
        // A loop of words read up to its first round is what the reply said, whole.
        let cut = reply.finish == FinishReason::Length && looped.is_none();
        let mut questioned = None;
        let calls =
            |error: &Error| read::rejected_calls(parser, target, &reply, text, &shaped, error);
        let read = read::read(parser, target, &reply, text, &shaped, mode)
            .map(|(values, mut fixes)| {
                fixes.splice(0..0, looped.map(|l| l.fix(&raw)));
                (values, fixes)
            })
            .or_else(|error| self.without_unasked(ask, run, calls, error))
            .map_err(|error| {
                let error = self.forced_rejected(ask, run, mode, &reply, calls, error);
                let (error, calls) = self.held_over_rejected(ask, run, calls, error, cut);
                questioned = calls;
                Refused::Invalid(error)
            })
            .and_then(|(values, fixes)| {
                let doubted = self
                    .forced(ask, run, mode, &reply, &values)
                    .or_else(|| self.ungrounded(ask, run, &values, cut, &fixes));
                match doubted {
                    Some(error) => {
                        questioned = Some(values);
                        Err(Refused::Invalid(error.with_fixes(fixes)))
                    }
                    None => Ok((values, fixes)),
                }
            })
            .map(|(mut values, mut fixes)| {
                fixes.extend(self.unasked_left_out(ask, run, &mut values));
                (values, fixes)
            })
            .and_then(|(values, fixes)| match build(&values) {
                Ok(value) => Ok((value, values, fixes)),
                Err(Refused::Invalid(e)) => Err(Refused::Invalid(e.with_fixes(fixes))),
                Err(fatal) => Err(fatal),
            });
        let answered_at_length = cut
            && matches!(&read, Ok((_, values, fixes))
                if whole_only_as_read(fixes) && self.answered_at_length(ask, run, values));
        let (read, questioned) = if cut {
            (cut_off(read, request.max_tokens), None)
        } else {
            (read, questioned)
        };
        let received = Received {
            number,
            mode,
            request: request.text(),
            reply,
            raw,
            received: whole,
        };
        match read {
            Ok((value, values, fixes)) => Outcome::Accepted {
                received,
                value,
                values,
                fixes,
            },
            Err(Refused::Invalid(error)) => Outcome::Rejected {
                questioned,
                received,
                error,
                answered_at_length,
            },
            Err(Refused::CheckPanicked(panic, error)) => {
                Outcome::Failed(Failure::CheckPanicked(panic, error, Box::new(received)))
            }
        }
    }

    /// Ends the run with a doubted answer's `value` over the reply of `received`,
    /// rejected with `error` (see `doubts::answer_stands`); the rejection is reported as
    /// any other, then the fix that keeps the answer.
    fn keep_answer<T>(
        &self,
        run: Run,
        received: Received,
        error: &Error,
        answer: state::DoubtedAnswer,
        value: T,
    ) -> Success<T> {
        let number = received.number;
        self.emit(Event::Violations {
            attempt: number,
            error: error.clone(),
        });
        let done = run.keep_answer(received, error, answer, value);
        let fixes = done
            .attempts
            .last()
            .map(|a| a.fixes.clone())
            .unwrap_or_default();
        self.emit(Event::FixedLocally {
            attempt: number,
            fixes,
        });
        done
    }

    /// Records a rejected reply and prepares the repair prompt of the next attempt.
    fn reject(&self, run: &mut Run, ask: &Question<'_>, received: Received, error: Error) {
        let number = received.number;
        warn!(
            attempt = number,
            violations = error.violations().len(),
            "reply rejected"
        );
        self.emit(Event::Violations {
            attempt: number,
            error: error.clone(),
        });
        let closest = read::closest_of(run.target(ask), &received.reply, &received.raw);
        let mut repair = RepairPrompt::for_schema(&run.target(ask).schema, &received.raw, &error);
        if let Some(value) = &closest {
            repair = repair.corrected(value);
        }
        run.repair = Some(
            repair
                .request(ask.request)
                .attempt(number, self.max_attempts)
                .truncated(received.reply.finish == FinishReason::Length)
                .max_reply_chars(self.max_reply_chars),
        );
        run.keep_best(&error, closest);
        run.attempts.push(received.record(Some(error)));
    }

    /// The modes an ask tries, best first. Under [`Mode::Auto`], later asks for the same
    /// target (type or tool set, see [`Target::memory_key`]) leave out the modes an
    /// earlier one gave up (the last of the provider's modes is never left out).
    fn modes(&self, target: &Target) -> Vec<Mode> {
        match self.mode {
            Mode::Auto => {
                let all = self.provider.auto_modes();
                let skipped = self.skipped_modes.lock().unwrap_or_else(|e| e.into_inner());
                let given_up = skipped.get(&target.memory_key());
                let mut modes: Vec<Mode> = all
                    .iter()
                    .filter(|m| given_up.is_none_or(|g| !g.contains(m)))
                    .copied()
                    .collect();
                if modes.is_empty() {
                    modes.extend(all.last());
                }
                choose_in_prose(target, modes)
            }
            fixed => vec![fixed],
        }
    }

    /// Applies a decided move to the next mode, if any.
    fn move_on(&self, run: &mut Run, target: &Target, move_on: Option<decide::MoveOn>) {
        let Some(move_on) = move_on else { return };
        if move_on.fresh {
            run.repair = None;
        }
        self.fall_back(run, target, move_on.reason.into_owned(), move_on.remember);
    }

    /// Moves the run on to its next mode; `remember` keeps later asks for the same target
    /// from trying the mode given up (a mode the server cannot carry), where a reply that
    /// went wrong once in it does not.
    fn fall_back(&self, run: &mut Run, target: &Target, reason: String, remember: bool) {
        let from = run.modes.remove(0);
        if let Some(to) = run.mode() {
            warn!(%from, %to, %reason, "mode fallback");
            if self.mode == Mode::Auto && remember {
                let mut skipped = self.skipped_modes.lock().unwrap_or_else(|e| e.into_inner());
                let given_up = skipped.entry(target.memory_key()).or_default();
                if !given_up.contains(&from) {
                    given_up.push(from);
                }
            }
            self.emit(Event::ModeFallback { from, to, reason });
        }
    }

    /// The first messages of an attempt: system prompt with the shape, history, the
    /// request.
    fn base_messages(&self, ask: &Question<'_>, target: &Target, mode: Mode) -> Vec<Message> {
        let after_results = conversation::results_in(ask.history);
        let example = self.example.then_some(self.example_form);
        let dialect = self.dialect.unwrap_or_else(|| self.provider.dialect());
        let instructions = target.instructions(mode, self.form, example, after_results, dialect);
        let system = match ask.system {
            Some(s) => format!("{s}\n\n{instructions}"),
            None => instructions,
        };
        let mut messages = vec![Message::system(system)];
        let native = target.sends_tools(mode);
        messages.extend(conversation::in_mode(ask.history, native, target.names()));
        if !ask.prompt.is_empty() {
            messages.push(Message::user(ask.prompt));
        }
        messages
    }
}
