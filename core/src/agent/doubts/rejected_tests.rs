//! A call the union's schema rejected, of the tool an answer held was questioned for
//! skipping, keeps that answer where every call of the reply holds values and none the
//! user wrote ([`super::kept_over_rejected`]); an empty call keeps nothing.

use serde_json::json;

use super::tests::{NONE, music, question};
use super::{Doubts, answer_stands, kept_over_rejected};
use crate::ViolationKind;
use crate::message::Message;

const SKIPPED: Doubts = Doubts {
    skipped: true,
    ..NONE
};

const POOL: &str = "What volume of water fills an Olympic swimming pool?";
const HELD: &str = "music.set_volume";

#[test]
fn a_rejected_call_of_nothing_the_user_wrote_keeps_the_held_answer() {
    let target = music();
    let ask = question(&target, POOL);
    for arguments in [
        json!({"device": "kitchen speaker"}),
        json!({"level": "loud"}),
        json!({"level": 150, "device": "den"}),
    ] {
        let calls = [json!({"name": "music_set_volume", "arguments": arguments})];
        let error = kept_over_rejected(&ask, SKIPPED, &calls, HELD)
            .unwrap_or_else(|| panic!("{arguments}: the answer stands"));
        let violation = &error.violations()[0];
        assert_eq!(violation.pointer(), "/arguments", "{arguments}");
        assert!(
            matches!(violation.kind(), ViolationKind::Unstated { .. }),
            "{arguments}: {violation:?}"
        );
        assert!(answer_stands(&target, HELD, &calls, &error), "{arguments}");
    }
    // Two calls, each made up: each has its own violation, under its index.
    let calls = [
        json!({"name": "music_set_volume", "arguments": {"level": "max"}}),
        json!({"name": "music.set_volume", "arguments": {"device": "den"}}),
    ];
    let error = kept_over_rejected(&ask, SKIPPED, &calls, HELD).expect("the answer stands");
    let pointers: Vec<&str> = error.violations().iter().map(|v| v.pointer()).collect();
    assert_eq!(pointers, ["/0/arguments", "/1/arguments"]);
}

#[test]
fn a_rejected_call_with_a_value_of_the_user_or_of_another_tool_keeps_nothing() {
    let target = music();
    let ask = question(&target, POOL);
    // A value the user wrote: the call may be the tool's, written wrong.
    let users = [json!({"name": "music_set_volume", "arguments": {"device": "pool speaker"}})];
    assert!(kept_over_rejected(&ask, SKIPPED, &users, HELD).is_none());
    let asked = question(
        &target,
        "Pool party tonight: set the volume to 40 on the deck",
    );
    let forty = [json!({"name": "music_set_volume", "arguments": {"level": "40"}})];
    assert!(kept_over_rejected(&asked, SKIPPED, &forty, HELD).is_none());
    // An empty call: the form copied, which says nothing of the request.
    for empty in [json!({}), json!({"level": ""}), json!({"level": null})] {
        let calls = [json!({"name": "music_set_volume", "arguments": empty})];
        assert!(
            kept_over_rejected(&ask, SKIPPED, &calls, HELD).is_none(),
            "{empty}"
        );
    }
    let no_arguments = [json!({"name": "music_set_volume"})];
    assert!(kept_over_rejected(&ask, SKIPPED, &no_arguments, HELD).is_none());
    // One call of the user's value beside a made-up one.
    let mixed = [
        json!({"name": "music_set_volume", "arguments": {"level": "max"}}),
        json!({"name": "music_set_volume", "arguments": {"device": "pool speaker"}}),
    ];
    assert!(kept_over_rejected(&ask, SKIPPED, &mixed, HELD).is_none());
    // A made-up call of another tool alone says nothing of the skipped one.
    let other = [json!({"name": "music_play", "arguments": {"shuffle": "yes"}})];
    assert!(kept_over_rejected(&ask, SKIPPED, &other, HELD).is_none());
    // A request that says little beyond the tool leaves the values to the model, as it
    // does for a call that fits.
    let short = question(&target, "Volume?");
    let calls = [json!({"name": "music_set_volume", "arguments": {"level": "max"}})];
    assert!(kept_over_rejected(&short, SKIPPED, &calls, HELD).is_none());
    // An answer is no call.
    let answer = [json!({"answer": "About 2.5 million litres."})];
    assert!(kept_over_rejected(&ask, SKIPPED, &answer, HELD).is_none());
    assert!(kept_over_rejected(&ask, SKIPPED, &[], HELD).is_none());
}

#[test]
fn only_while_the_skip_question_is_the_last_asked_and_before_results() {
    let target = music();
    let ask = question(&target, POOL);
    let calls = [json!({"name": "music_set_volume", "arguments": {"level": "max"}})];
    // No skip question asked.
    assert!(kept_over_rejected(&ask, NONE, &calls, HELD).is_none());
    // A question after a question: the unstated one was asked too.
    let both = Doubts {
        unstated: true,
        ..SKIPPED
    };
    assert!(kept_over_rejected(&ask, both, &calls, HELD).is_none());
    // Results are in: a call follows them.
    let history = [Message::tool_result(Some("call_1".into()), "Volume is 20.")];
    let after = super::Question {
        history: &history,
        ..question(&target, POOL)
    };
    assert!(kept_over_rejected(&after, SKIPPED, &calls, HELD).is_none());
}

proptest::proptest! {
    /// A rejected call holding a word of the request is never taken for a made-up one.
    #[test]
    fn a_rejected_call_holding_a_word_of_the_request_keeps_nothing(
        words in proptest::collection::vec("[a-z]{5,9}", 2..8),
        pick in 0usize..8,
    ) {
        let target = music();
        let request = format!("{} swimming pool?", words.join(" "));
        let ask = question(&target, &request);
        let word = &words[pick % words.len()];
        let calls = [json!({"name": "music_set_volume", "arguments": {"device": word}})];
        proptest::prop_assert!(kept_over_rejected(&ask, SKIPPED, &calls, HELD).is_none());
    }
}
