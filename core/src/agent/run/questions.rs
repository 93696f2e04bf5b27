//! What the conversation asks of a reply to a union of tools with an answer: the
//! questions of its choice ([`doubts::questioned`]), and a held answer kept over a call
//! the union's schema rejected ([`doubts::kept_over_rejected`]).

use serde_json::Value;

use super::state::Run;
use super::{Agent, Question, whole_only_as_read};
use crate::agent::{conversation, doubts, forced};
use crate::provider::{Mode, Provider, Reply};
use crate::repair::Fix;
use crate::{Error, Violation, ViolationKind};

impl<P: Provider> Agent<P> {
    /// Whether the conversation's questions are asked at all: not where the grounding
    /// checks are off or the answer alone is asked for.
    fn questions_asked(&self, run: &Run) -> bool {
        self.grounded_calls && run.answer_only.is_none()
    }

    /// The tool an answer held for skipping it skipped, unless the reply was `cut` at the
    /// token limit: a cut reply's calls, closed by the reading, say nothing of the tool.
    fn held(run: &Run, cut: bool) -> Option<&str> {
        run.doubted_answer
            .as_ref()
            .filter(|_| !cut)
            .map(|d| d.tool.as_str())
    }

    /// The error of a reply the conversation questions ([`doubts::questioned`]), unless
    /// no question is asked ([`Agent::questions_asked`]). A reply `cut` at the token
    /// limit cannot keep a held answer, nor be questioned for a call made up again.
    ///
    /// An answer questioned only for skipping a tool is not questioned so where no
    /// attempt is left to call the tool (the last attempt: it is taken, as it would be
    /// unquestioned), nor where the cut left it to the reading to close (its `fixes`:
    /// it is sent back as cut alone, to be written whole and questioned then). Asked
    /// "Who founded the first stock exchange in Amsterdam?" beside `finance.stock_quote`,
    /// a small model writes `{"answer": …}` past a cap of 400 tokens; told at once to call
    /// the tool, it called it with the description's examples, and with no whole answer
    /// held, nothing kept the right one.
    pub(super) fn ungrounded(
        &self,
        ask: &Question<'_>,
        run: &Run,
        values: &[Value],
        cut: bool,
        fixes: &[Fix],
    ) -> Option<Error> {
        if !self.questions_asked(run) {
            return None;
        }
        let error = doubts::questioned(ask, run.doubts, values, Self::held(run, cut), cut)?;
        let last = run.attempted() + 1 >= self.max_attempts;
        let cut_open = cut && whole_only_as_read(fixes);
        let unanswerable = last || cut_open;
        (!unanswerable || doubts::only_skipped(&error).is_none()).then_some(error)
    }

    /// Whether a reply cut at the token limit, read as `values`, is the answer the model
    /// chose, where the conversation's questions are asked: each value is the answer, and
    /// the conversation questions none of them (the answer skips no tool: see
    /// [`doubts::questioned`]). The model is then asked for the answer alone
    /// ([`doubts::no_function_fits`]), briefly, in plain text. Not once results are in:
    /// an answer that reports them may run long, and is sent back as cut.
    ///
    /// Sent back as cut, a small model's answer runs to the limit again: on the
    /// tool-choice evaluation's runs, every first reply of the 0.5B model that answered
    /// past a cap of 400 tokens (26) was to a request no tool fits, and 21 of them ended
    /// with no answer taken: the same answer cut again, or the repair's shape of a call
    /// written back.
    pub(super) fn answered_at_length(
        &self,
        ask: &Question<'_>,
        run: &Run,
        values: &[Value],
    ) -> bool {
        self.questions_asked(run)
            && !conversation::results_in(ask.history)
            && !values.is_empty()
            && values.iter().all(|v| v.get("answer").is_some())
            && doubts::questioned(ask, run.doubts, values, None, true).is_none()
    }

    /// The error of a reply whose call the request's format chose, not the model (see
    /// `forced`): its one value a call, where its tokens were asked for
    /// ([`Agent::asks_token_choices`]) and the server reported them, and either the
    /// function names had less than [`forced::LEAST_SHARE`] of the model's likelihood
    /// where the reply names the function, under the schema's grammar
    /// ([`ViolationKind::ForcedCall`]), or opening JSON had less than that share where
    /// the reply begins ([`ViolationKind::ForcedJson`]).
    pub(super) fn forced(
        &self,
        ask: &Question<'_>,
        run: &Run,
        mode: Mode,
        reply: &Reply,
        values: &[Value],
    ) -> Option<Error> {
        if !self.asks_token_choices(ask, run, mode) {
            return None;
        }
        let [call] = values else { return None };
        let tool = call.get("name").and_then(Value::as_str)?.to_owned();
        let target = run.target(ask);
        let names: Vec<&str> = target.tool_names().map(|(shown, _)| shown).collect();
        let share = (mode == Mode::JsonSchema)
            .then(|| forced::share_of_names(&reply.text, &reply.tokens, &names))
            .flatten()
            .filter(|share| *share < forced::LEAST_SHARE);
        match share {
            Some(share) => {
                let kind = ViolationKind::ForcedCall {
                    tool,
                    percent: percent(share),
                };
                Some(Error::single(Violation::new("/name", kind)))
            }
            None => Some(Error::single(forced_json(reply, tool)?)),
        }
    }

    /// `error`, the rejection of a reply by the union's schema, with the violation of a
    /// call the request's format made JSON ([`ViolationKind::ForcedJson`], as in
    /// [`Agent::forced`]) where its one call (`calls`, read as
    /// [`crate::agent::read::rejected_calls`] does) is one. A call whose name no function
    /// has (`"BMI calculation algorithm"`) is rejected before it is read for this; begun
    /// in prose, it is the model's answer all the same.
    pub(super) fn forced_rejected(
        &self,
        ask: &Question<'_>,
        run: &Run,
        mode: Mode,
        reply: &Reply,
        calls: impl FnOnce(&Error) -> Option<Vec<Value>>,
        error: Error,
    ) -> Error {
        if !self.asks_token_choices(ask, run, mode) {
            return error;
        }
        let tool = match calls(&error).as_deref() {
            Some([call]) => call.get("name").and_then(Value::as_str).map(str::to_owned),
            _ => None,
        };
        match tool.and_then(|tool| forced_json(reply, tool)) {
            Some(forced) => {
                let fixes = error.fixes().to_vec();
                let mut violations = error.into_violations();
                violations.push(forced);
                Error::new(violations).with_fixes(fixes)
            }
            None => error,
        }
    }

    /// Whether the reply's tokens are asked for in `mode`, for [`Agent::forced`]: in a
    /// format that allows JSON alone (`json_object`, the schema's grammar), for a union
    /// with an answer, where questions are asked, on the ask's first attempt (as
    /// measured: a repair under the grammar may write under the grammar's name a call the
    /// model chose in prose) and before any tool's results, and not where it is the last
    /// (the call is then all there is).
    pub(super) fn asks_token_choices(&self, ask: &Question<'_>, run: &Run, mode: Mode) -> bool {
        let target = run.target(ask);
        matches!(mode, Mode::JsonSchema | Mode::JsonObject)
            && run.attempted() == 0
            && self.max_attempts > 1
            && !conversation::results_in(ask.history)
            && self.questions_asked(run)
            && target.union.is_some()
            && target.has_answer()
    }

    /// `error`, the rejection of a reply by the union's schema, with the violations that
    /// keep a held answer where they do ([`doubts::kept_over_rejected`]), and the reply's
    /// calls (`calls` reads them, as [`crate::agent::read::rejected_calls`] does, only
    /// where an answer is held) for the loop to weigh the answer against, none where the
    /// reply is the union's shape written back, which lets the answer stand
    /// ([`doubts::kept_over_echo`]); `error` alone otherwise, for a reply `cut` at the
    /// token limit, and where no question is asked.
    pub(super) fn held_over_rejected(
        &self,
        ask: &Question<'_>,
        run: &Run,
        calls: impl FnOnce(&Error) -> Option<Vec<Value>>,
        error: Error,
        cut: bool,
    ) -> (Error, Option<Vec<Value>>) {
        let Some(held) = Self::held(run, cut).filter(|_| self.questions_asked(run)) else {
            return (error, None);
        };
        // The shape written back holds no call: the answer stands with none.
        if doubts::kept_over_echo(ask, run.doubts, &error) {
            return (error, Some(Vec::new()));
        }
        let Some(calls) = calls(&error) else {
            return (error, None);
        };
        match doubts::kept_over_rejected(ask, run.doubts, &calls, held) {
            Some(made_up) => {
                let fixes = error.fixes().to_vec();
                let mut violations = error.into_violations();
                violations.extend(made_up.into_violations());
                (Error::new(violations).with_fixes(fixes), Some(calls))
            }
            None => (error, None),
        }
    }
}

/// The violation of a call of `tool` whose reply opening JSON had less than
/// [`forced::LEAST_SHARE`] of the model's likelihood where it begins
/// ([`ViolationKind::ForcedJson`]), where the server reported its tokens.
fn forced_json(reply: &Reply, tool: String) -> Option<Violation> {
    let share = forced::share_of_json(&reply.text, &reply.tokens)
        .filter(|share| *share < forced::LEAST_SHARE)?;
    let kind = ViolationKind::ForcedJson {
        tool,
        percent: percent(share),
    };
    Some(Violation::new("", kind))
}

/// A share as a whole percentage, rounded down.
fn percent(share: f64) -> u8 {
    (share * 100.0).floor() as u8
}
