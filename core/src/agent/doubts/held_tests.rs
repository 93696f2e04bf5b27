//! A call made of nothing the user wrote, of the tool an answer held was questioned for
//! skipping, keeps that answer ([`super::answer_stands`]): it is questioned as
//! [`ViolationKind::Unstated`] after the skip, where every call of the reply is made up,
//! and not otherwise.

use serde_json::{Value, json};

use super::tests::{NONE, music, question};
use super::{Doubts, answer_stands, questioned};
use crate::ViolationKind;
use crate::message::Message;

const SKIPPED: Doubts = Doubts {
    skipped: true,
    ..NONE
};

const POOL: &str = "What volume of water fills an Olympic swimming pool?";

fn set_volume(level: u32) -> Value {
    json!({"name": "music.set_volume", "arguments": {"level": level}})
}

#[test]
fn a_made_up_call_of_the_skipped_tool_keeps_the_held_answer() {
    let target = music();
    let ask = question(&target, POOL);
    let calls = [set_volume(75)];
    let error =
        questioned(&ask, SKIPPED, &calls, Some("music.set_volume"), false).expect("questioned");
    assert!(
        matches!(error.violations()[0].kind(), ViolationKind::Unstated { values } if values == &["75"]),
        "{error:?}"
    );
    assert!(answer_stands(&target, "music.set_volume", &calls, &error));
    // The shown name or the server's spelling: the same tool.
    assert!(questioned(&ask, SKIPPED, &calls, Some("music_set_volume"), false).is_some());
    // Two calls of it, both made up.
    let both = [set_volume(75), set_volume(60)];
    let error =
        questioned(&ask, SKIPPED, &both, Some("music.set_volume"), false).expect("questioned");
    assert_eq!(error.violations().len(), 2, "{error:?}");
    assert!(answer_stands(&target, "music.set_volume", &both, &error));
}

#[test]
fn without_a_held_answer_or_with_a_users_value_the_call_after_the_skip_stands() {
    let target = music();
    let ask = question(&target, POOL);
    let calls = [set_volume(75)];
    // No answer held (it was rejected for more than the skip): taken as before.
    assert!(questioned(&ask, SKIPPED, &calls, None, false).is_none());
    // Held, but the skip was not what was asked last: a question after a question.
    let unstated = Doubts {
        unstated: true,
        ..SKIPPED
    };
    assert!(questioned(&ask, unstated, &calls, Some("music.set_volume"), false).is_none());
    // A call of the user's value.
    let asked = question(&target, "Olympic swimming pool party: set the volume to 40");
    assert!(
        questioned(
            &asked,
            SKIPPED,
            &[set_volume(40)],
            Some("music.set_volume"),
            false
        )
        .is_none()
    );
    // One call of the user's value beside a made-up one: nothing is asked, for the
    // answer does not stand, and each question is asked once.
    let mixed = [set_volume(40), set_volume(75)];
    assert!(questioned(&asked, SKIPPED, &mixed, Some("music.set_volume"), false).is_none());
    // Results are in: a call follows them.
    let history = [Message::tool_result(Some("call_1".into()), "Volume is 20.")];
    let after = super::Question {
        history: &history,
        ..question(&target, POOL)
    };
    assert!(questioned(&after, SKIPPED, &calls, Some("music.set_volume"), false).is_none());
}

#[test]
fn a_made_up_call_of_another_tool_keeps_nothing() {
    let target = music();
    // The request names the other tool ("play"), so its call is no ungrounded one; made
    // up beside a made-up call of the skipped tool, it is no call of that tool, so the
    // answer does not stand and nothing is questioned for it.
    let ask = question(
        &target,
        "What volume of water fills an Olympic swimming pool? Then play something calm.",
    );
    let play = json!({"name": "music.play", "arguments": {"query": "Despacito"}});
    let calls = [set_volume(75), play];
    assert!(questioned(&ask, SKIPPED, &calls, Some("music.set_volume"), false).is_none());
}

proptest::proptest! {
    /// A call holding a number the request writes is never questioned after the skip,
    /// whatever else the request says and whatever the call's other values.
    #[test]
    fn a_call_of_a_number_the_user_wrote_is_never_questioned_after_the_skip(
        level in 0u32..=100,
        words in proptest::collection::vec("[a-z]{4,9}", 2..8),
        device in "[a-z]{3,8}",
    ) {
        let target = music();
        let request = format!("{} {level} {}", words.join(" "), "swimming pool");
        let ask = question(&target, &request);
        let call = json!({"name": "music.set_volume",
            "arguments": {"level": level, "device": device}});
        proptest::prop_assert!(
            questioned(&ask, SKIPPED, &[call], Some("music.set_volume"), false).is_none()
        );
    }
}

#[test]
fn the_shape_written_back_after_the_skip_keeps_the_held_answer() {
    let target = music();
    let ask = question(&target, POOL);
    let echo = crate::Error::single(crate::Violation::new("", ViolationKind::SchemaEchoed));
    assert!(super::kept_over_echo(&ask, SKIPPED, &echo));
    // It holds no call: the answer stands over none.
    assert!(answer_stands(&target, "music.set_volume", &[], &echo));
    // Not after a question of a made-up call, nor where the skip was not asked.
    let unstated = Doubts {
        unstated: true,
        ..SKIPPED
    };
    assert!(!super::kept_over_echo(&ask, unstated, &echo));
    assert!(!super::kept_over_echo(&ask, NONE, &echo));
    // Another violation beside the shape, or another alone: no echo, nothing kept.
    let beside = crate::Error::new(vec![
        crate::Violation::new("", ViolationKind::SchemaEchoed),
        crate::Violation::new(
            "/arguments",
            ViolationKind::Unstated {
                values: vec!["75".into()],
            },
        ),
    ]);
    assert!(!super::kept_over_echo(&ask, SKIPPED, &beside));
    let other = crate::Error::single(crate::Violation::new(
        "/answer",
        ViolationKind::SkippedTool {
            tool: "music.set_volume".into(),
        },
    ));
    assert!(!super::kept_over_echo(&ask, SKIPPED, &other));
    assert!(!answer_stands(&target, "music.set_volume", &[], &other));
}
