//! What the loop does after an attempt: one function of the loop's state and what the
//! attempt came to, with no provider, no reply text and no I/O.
//!
//! The loop (`run.rs`) makes the attempt, reads the reply and reduces what happened to a
//! [`Seen`]; [`next`] says what follows: take the value, try again (in the same mode or
//! the next, asking for the answer alone or not), or end the ask. The loop then does it.

use std::borrow::Cow;

use super::doubts::{Doubts, no_function_fits};
use crate::provider::Mode;

/// The reason of a fallback from native tools to text.
pub(super) const TEXT_CALL: &str =
    "the reply wrote the tool call as text, not as a native tool call";
/// The reason of a fallback from a grammar after a reply that ran to the token limit.
pub(super) const CUT_UNDER_GRAMMAR: &str =
    "the reply ran to the token limit under the schema's grammar, which can loop";
/// The reason of a move from prose to the grammar after a rejected reply.
pub(super) const FIX_UNDER_GRAMMAR: &str =
    "the reply chose in prose and needs fixing; the grammar holds the fix to the union's shapes";

/// The loop's state, as the decision sees it.
#[derive(Debug, Clone, Copy)]
pub(super) struct State<'a> {
    /// Whether the agent chooses its modes ([`Mode::Auto`]).
    pub auto: bool,
    /// The modes still to try, the current one first.
    pub modes: &'a [Mode],
    /// What the rejected replies so far said of a union's functions.
    pub doubts: Doubts,
    /// Whether the answer alone is asked for already.
    pub answer_only: bool,
    /// Whether the target is a union with an answer, which can be asked for alone.
    pub has_answer: bool,
}

/// What an attempt came to, as the decision sees it.
#[derive(Debug, Clone)]
pub(super) enum Seen {
    /// A reply in `mode` fit, and the typed layer took it.
    Accepted {
        mode: Mode,
        /// The reply wrote a call as text where the mode asked for a native one.
        call_as_text: bool,
    },
    /// A reply in `mode` did not fit.
    Rejected {
        mode: Mode,
        call_as_text: bool,
        /// The provider cut it at the token limit.
        cut: bool,
        /// What it said of a union's functions.
        doubts: Doubts,
    },
    /// The mode could not carry the ask (the request could not be built in it, or the
    /// server rejected it): no attempt is counted.
    Unfit {
        reason: String,
        /// The server rejected the request, perhaps the repair conversation itself.
        by_server: bool,
    },
    /// The provider failed, the ask was cancelled or a check panicked.
    Failed,
}

/// What the loop does next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Next {
    pub then: Then,
    /// Move on to the next mode first.
    pub move_on: Option<MoveOn>,
    /// Ask for the answer alone from the next attempt on ([`no_function_fits`]).
    pub ask_answer: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Then {
    /// Return the value.
    Accept,
    /// Make another attempt (a repair, or the same ask in the next mode).
    Retry,
    /// End the ask with its failure.
    Fail,
}

/// A move to the next mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct MoveOn {
    pub reason: Cow<'static, str>,
    /// Later asks for the same target leave the mode out: the mode could not carry it,
    /// where a reply that went wrong once in it says nothing of the next ask.
    pub remember: bool,
    /// The next mode starts over, without the repair conversation (the server may have
    /// rejected that conversation).
    pub fresh: bool,
}

/// What follows an attempt.
pub(super) fn next(state: &State<'_>, seen: &Seen) -> Next {
    let can_move = state.auto && state.modes.len() > 1;
    // A server that ignores native tools writes the call as text: the rest of the ask,
    // and later ones, go on in the next mode.
    let text_call = |mode: Mode, as_text: bool| {
        (can_move && mode == Mode::Tools && as_text).then_some(MoveOn {
            reason: Cow::Borrowed(TEXT_CALL),
            remember: true,
            fresh: false,
        })
    };
    match seen {
        Seen::Accepted { mode, call_as_text } => Next {
            then: Then::Accept,
            move_on: text_call(*mode, *call_as_text),
            ask_answer: false,
        },
        Seen::Rejected {
            mode,
            call_as_text,
            cut,
            doubts,
        } => {
            let ask_answer =
                state.has_answer && !state.answer_only && no_function_fits(state.doubts, *doubts);
            Next {
                then: Then::Retry,
                move_on: text_call(*mode, *call_as_text)
                    .or_else(|| after_rejection(state, *mode, *cut, doubts).filter(|_| can_move)),
                ask_answer,
            }
        }
        Seen::Unfit { reason, by_server } => Next {
            then: if state.modes.len() > 1 {
                Then::Retry
            } else {
                Then::Fail
            },
            move_on: (state.modes.len() > 1).then(|| MoveOn {
                reason: Cow::Owned(reason.clone()),
                remember: true,
                fresh: *by_server,
            }),
            ask_answer: false,
        },
        Seen::Failed => Next {
            then: Then::Fail,
            move_on: None,
            ask_answer: false,
        },
    }
}

/// The mode a rejected reply's fix is asked in, when not the same: a reply that ran to the
/// cap under a grammar may be looping inside it; a union chosen in prose is fixed under
/// the grammar, unless the reply was a call of nothing the user wrote or of a function
/// the union lacks, whose next attempt must stay free to answer.
fn after_rejection(state: &State<'_>, mode: Mode, cut: bool, doubts: &Doubts) -> Option<MoveOn> {
    let reason = if cut && mode == Mode::JsonSchema {
        CUT_UNDER_GRAMMAR
    } else if mode == Mode::Prompt
        && state.modes.get(1) == Some(&Mode::JsonSchema)
        && !doubts.ungrounded
        && !doubts.unstated
        && !doubts.invented
    {
        FIX_UNDER_GRAMMAR
    } else {
        return None;
    };
    Some(MoveOn {
        reason: Cow::Borrowed(reason),
        remember: false,
        fresh: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROSE_FIRST: &[Mode] = &[Mode::Prompt, Mode::JsonSchema, Mode::JsonObject];

    fn state(modes: &[Mode]) -> State<'_> {
        State {
            auto: true,
            modes,
            doubts: Doubts::default(),
            answer_only: false,
            has_answer: true,
        }
    }

    fn rejected(mode: Mode, cut: bool, doubts: Doubts) -> Seen {
        Seen::Rejected {
            mode,
            call_as_text: false,
            cut,
            doubts,
        }
    }

    fn reason(next: &Next) -> Option<&str> {
        next.move_on.as_ref().map(|m| m.reason.as_ref())
    }

    #[test]
    fn an_accepted_reply_is_taken() {
        let seen = Seen::Accepted {
            mode: Mode::JsonSchema,
            call_as_text: false,
        };
        let next = next(&state(PROSE_FIRST), &seen);
        assert_eq!(next.then, Then::Accept);
        assert_eq!(next.move_on, None);
    }

    #[test]
    fn a_union_chosen_in_prose_is_fixed_under_the_grammar() {
        let next = next(
            &state(PROSE_FIRST),
            &rejected(Mode::Prompt, false, Doubts::default()),
        );
        assert_eq!(next.then, Then::Retry);
        assert_eq!(reason(&next), Some(FIX_UNDER_GRAMMAR));
        assert!(!next.move_on.unwrap().remember);
    }

    #[test]
    fn a_reply_doubting_the_functions_stays_in_prose() {
        for doubts in [
            Doubts {
                ungrounded: true,
                ..Doubts::default()
            },
            Doubts {
                invented: true,
                ..Doubts::default()
            },
        ] {
            let next = next(&state(PROSE_FIRST), &rejected(Mode::Prompt, false, doubts));
            assert_eq!(next.move_on, None, "{doubts:?}");
        }
    }

    #[test]
    fn a_reply_cut_under_the_grammar_moves_on_for_this_ask_only() {
        let modes = &[Mode::JsonSchema, Mode::JsonObject];
        let next = next(
            &state(modes),
            &rejected(Mode::JsonSchema, true, Doubts::default()),
        );
        let move_on = next.move_on.expect("moves on");
        assert_eq!(move_on.reason, CUT_UNDER_GRAMMAR);
        assert!(!move_on.remember);
        // Cut in prose, or with nowhere to go: the same mode.
        let next_in_prose = super::next(
            &state(modes),
            &rejected(Mode::Prompt, true, Doubts::default()),
        );
        assert_eq!(next_in_prose.move_on, None);
        let last = super::next(
            &state(&[Mode::JsonSchema]),
            &rejected(Mode::JsonSchema, true, Doubts::default()),
        );
        assert_eq!(last.move_on, None);
        assert_eq!(last.then, Then::Retry);
    }

    #[test]
    fn a_fixed_mode_never_moves() {
        let mut fixed = state(PROSE_FIRST);
        fixed.auto = false;
        let next = next(&fixed, &rejected(Mode::Prompt, false, Doubts::default()));
        assert_eq!(next.move_on, None);
    }

    #[test]
    fn a_call_written_as_text_in_tools_mode_moves_on_and_is_remembered() {
        let modes = &[Mode::Tools, Mode::Prompt];
        for seen in [
            Seen::Accepted {
                mode: Mode::Tools,
                call_as_text: true,
            },
            Seen::Rejected {
                mode: Mode::Tools,
                call_as_text: true,
                cut: false,
                doubts: Doubts::default(),
            },
        ] {
            let next = next(&state(modes), &seen);
            let move_on = next.move_on.expect("moves on");
            assert_eq!(move_on.reason, TEXT_CALL);
            assert!(move_on.remember);
        }
    }

    #[test]
    fn two_signs_that_no_function_fits_ask_for_the_answer_once() {
        let invented = Doubts {
            invented: true,
            ..Doubts::default()
        };
        let mut doubted = state(PROSE_FIRST);
        doubted.doubts = invented;
        assert!(next(&doubted, &rejected(Mode::Prompt, false, invented)).ask_answer);
        // Already asked, or no answer to ask for.
        doubted.answer_only = true;
        assert!(!next(&doubted, &rejected(Mode::Prompt, false, invented)).ask_answer);
        doubted.answer_only = false;
        doubted.has_answer = false;
        assert!(!next(&doubted, &rejected(Mode::Prompt, false, invented)).ask_answer);
        // One sign is a slip.
        assert!(
            !next(
                &state(PROSE_FIRST),
                &rejected(Mode::Prompt, false, invented)
            )
            .ask_answer
        );
    }

    #[test]
    fn a_call_the_grammar_chose_asks_for_the_answer_at_once() {
        let forced = Doubts {
            forced: true,
            ..Doubts::default()
        };
        let fixed = state(&[Mode::JsonSchema]);
        let next = next(&fixed, &rejected(Mode::JsonSchema, false, forced));
        assert!(next.ask_answer);
        assert_eq!(next.then, Then::Retry);
        assert_eq!(next.move_on, None);
    }

    #[test]
    fn an_answer_at_length_asks_for_the_answer_at_once_in_every_mode() {
        let at_length = Doubts {
            answered_at_length: true,
            ..Doubts::default()
        };
        for mode in [
            Mode::Prompt,
            Mode::Tools,
            Mode::JsonObject,
            Mode::JsonSchema,
        ] {
            let modes = [mode];
            let next = next(&state(&modes), &rejected(mode, true, at_length));
            assert!(next.ask_answer, "{mode}");
            assert_eq!(next.then, Then::Retry, "{mode}");
        }
        // Asked already: the cut answer alone is sent back as cut.
        let mut asked = state(&[Mode::JsonObject]);
        asked.answer_only = true;
        assert!(!next(&asked, &rejected(Mode::JsonObject, true, at_length)).ask_answer);
        // A cut reply that is not such an answer asks for nothing new.
        let cut = next(
            &state(&[Mode::JsonObject]),
            &rejected(Mode::JsonObject, true, Doubts::default()),
        );
        assert!(!cut.ask_answer);
    }

    #[test]
    fn a_missing_function_named_asks_for_the_answer_at_once() {
        let missing = Doubts {
            invented: true,
            missing: true,
            ..Doubts::default()
        };
        for mode in [Mode::Prompt, Mode::Tools, Mode::JsonObject] {
            assert!(next(&state(PROSE_FIRST), &rejected(mode, false, missing)).ask_answer);
        }
        let mut asked = state(PROSE_FIRST);
        asked.answer_only = true;
        assert!(!next(&asked, &rejected(Mode::Prompt, false, missing)).ask_answer);
    }

    #[test]
    fn a_mode_that_cannot_carry_the_ask_is_left_for_good_or_ends_it() {
        let unfit = Seen::Unfit {
            reason: "HTTP 400".into(),
            by_server: true,
        };
        let next = next(&state(PROSE_FIRST), &unfit);
        assert_eq!(next.then, Then::Retry);
        let move_on = next.move_on.expect("moves on");
        assert!(move_on.remember && move_on.fresh);
        let last = super::next(&state(&[Mode::Prompt]), &unfit);
        assert_eq!(last.then, Then::Fail);
        assert_eq!(
            super::next(&state(PROSE_FIRST), &Seen::Failed).then,
            Then::Fail
        );
    }
}
