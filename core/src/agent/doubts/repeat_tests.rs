//! A call of the tool the request names, made of nothing the user wrote, repeated after
//! it was questioned as [`ViolationKind::Unstated`]: asked again, and the answer alone
//! asked for, where the request asks to know something and every call of the reply is
//! made up again; taken otherwise.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::tests::{NONE, music, question};
use super::{Doubts, no_function_fits, questioned};
use crate::ViolationKind;
use crate::agent::run::Question;
use crate::message::Message;

const UNSTATED: Doubts = Doubts {
    unstated: true,
    ..NONE
};

fn set_volume(level: u32) -> Value {
    json!({"name": "music.set_volume", "arguments": {"level": level}})
}

/// The doubts of the reply `calls` questioned with `error`, as the loop reads them.
fn doubts_of(ask: &Question<'_>, calls: &[Value], error: &crate::Error) -> Doubts {
    let raw = match calls {
        [one] => one.to_string(),
        many => Value::Array(many.to_vec()).to_string(),
    };
    Doubts::of(ask.target, ask, &raw, error)
}

#[test]
fn a_made_up_call_repeated_to_a_question_has_the_answer_asked_for() {
    let target = music();
    for request in [
        "What volume of water fills an Olympic swimming pool?",
        "Which volume of the encyclopedia covers the letter K?",
        "In what volume did Tolkien publish The Return of the King?",
        "How is the volume of a sphere worked out from its radius?",
    ] {
        let ask = question(&target, request);
        let first = [set_volume(100)];
        let error = questioned(&ask, NONE, &first, None, false).expect("first question");
        let before = doubts_of(&ask, &first, &error);
        assert!(before.unstated, "{request}: {before:?}");
        // The same call again, or another level: made up again either way.
        for again in [set_volume(100), set_volume(60)] {
            let calls = [again];
            let error = questioned(&ask, before, &calls, None, false)
                .unwrap_or_else(|| panic!("{request}: the repeat is asked after"));
            assert!(
                matches!(error.violations()[0].kind(), ViolationKind::Unstated { .. }),
                "{request}: {error:?}"
            );
            let now = doubts_of(&ask, &calls, &error);
            assert!(no_function_fits(before, now), "{request}: {now:?}");
        }
    }
}

#[test]
fn a_made_up_call_repeated_to_a_command_is_taken() {
    let target = music();
    for request in [
        "Turn the volume up for the Olympic swimming pool party",
        "Turn the volume up for the Olympic swimming pool party?",
        "Can you turn the volume up for the Olympic swimming pool party?",
        // A question without its mark, or in another language: not read as one.
        "what volume of water fills an olympic swimming pool",
        "Welches Volumen hat ein olympisches Schwimmbecken?",
    ] {
        let ask = question(&target, request);
        let calls = [set_volume(80)];
        assert!(
            questioned(&ask, NONE, &calls, None, false).is_some(),
            "{request}: the first call is questioned"
        );
        assert!(
            questioned(&ask, UNSTATED, &calls, None, false).is_none(),
            "{request}: the repeat stands"
        );
    }
}

#[test]
fn a_repeat_with_a_value_of_the_user_or_after_results_or_a_skip_is_taken() {
    let target = music();
    let pool = "What volume of water fills an Olympic swimming pool?";
    let ask = question(&target, pool);
    // A call of the user's words beside the made-up one, or alone.
    let user_value = json!({"name": "music.play", "arguments": {"query": "Olympic swimming pool"}});
    assert!(
        questioned(
            &ask,
            UNSTATED,
            &[set_volume(100), user_value.clone()],
            None,
            false
        )
        .is_none()
    );
    assert!(questioned(&ask, UNSTATED, &[user_value], None, false).is_none());
    // Results are in: a call follows them.
    let history = [Message::tool_result(
        Some("call_1".into()),
        "Volume set to 100.",
    )];
    let after = crate::agent::run::Question {
        history: &history,
        ..question(&target, pool)
    };
    assert!(questioned(&after, UNSTATED, &[set_volume(100)], None, false).is_none());
    // After an answer was questioned as skipping the tool, a call is asked after only to
    // keep that answer, which is the held answer's rule (`held_tests`).
    let both = Doubts {
        skipped: true,
        ..UNSTATED
    };
    assert!(questioned(&ask, both, &[set_volume(100)], None, false).is_none());
}

#[test]
fn every_call_of_the_repeat_made_up_again_is_asked_after_and_no_fewer() {
    let target = music();
    let ask = question(
        &target,
        "Which volume of the encyclopedia covers the letter K?",
    );
    // Two made-up calls: each asked after, under its index.
    let two = [set_volume(100), set_volume(60)];
    let error = questioned(&ask, UNSTATED, &two, None, false).expect("asked after");
    let pointers: Vec<&str> = error.violations().iter().map(|v| v.pointer()).collect();
    assert_eq!(pointers, ["/0/arguments", "/1/arguments"]);
    // A made-up call beside an answer: every call is made up, so it is asked after.
    let answer = json!({"answer": "Volume 12."});
    let beside = [set_volume(100), answer.clone()];
    let error = questioned(&ask, UNSTATED, &beside, None, false).expect("asked after");
    assert!(
        error
            .violations()
            .iter()
            .any(|v| v.pointer() == "/0/arguments"
                && matches!(v.kind(), ViolationKind::Unstated { .. })),
        "{error:?}"
    );
    // Cut at the token limit: the closing made the call, which says nothing.
    assert!(questioned(&ask, UNSTATED, &[set_volume(100)], None, true).is_none());
}

#[test]
fn the_answer_after_the_question_stands() {
    let target = music();
    let ask = question(
        &target,
        "Which volume of the encyclopedia covers the letter K?",
    );
    let answer = json!({"answer": "Volume 12."});
    assert!(questioned(&ask, UNSTATED, &[answer], None, false).is_none());
}

#[test]
fn one_unstated_question_alone_says_nothing_fits_only_with_a_second() {
    assert!(!no_function_fits(NONE, UNSTATED));
    assert!(!no_function_fits(UNSTATED, NONE));
    assert!(no_function_fits(UNSTATED, UNSTATED));
}

proptest! {
    /// A repeated call that holds a number the question writes is never asked after:
    /// the number is the user's.
    #[test]
    fn a_repeat_holding_the_questions_number_is_taken(level in 0u32..=100) {
        let target = music();
        let request = format!("What happens to my ears at volume {level} all night long?");
        let ask = question(&target, &request);
        prop_assert!(questioned(&ask, UNSTATED, &[set_volume(level)], None, false).is_none());
        // The same question is asked after a level it does not write.
        let other = (level + 7) % 101;
        let written = |n: u32| request.split(|c: char| !c.is_ascii_digit()).any(|w| w == n.to_string());
        if !written(other) {
            prop_assert!(questioned(&ask, UNSTATED, &[set_volume(other)], None, false).is_some());
        }
    }
}
