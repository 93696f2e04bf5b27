//! An answer sent back only as skipping the tool its request names, held, and kept when
//! the model's next reply says the tool did not fit: told to call it, the model called
//! it with values the user never wrote ([`answer_stands`]), in a call that fits the
//! union's schema (questioned by [`super::questioned`]) or one the schema rejects
//! ([`kept_over_rejected`]).

use serde_json::Value;

use super::{Doubts, conversation_of, of_call};
use crate::agent::conversation;
use crate::agent::request::Target;
use crate::agent::run::Question;
use crate::{Error, ViolationKind};

/// The function an answer rejected with `error` was sent back for skipping, where that
/// was all: a doubt of the library's, not a fault of the reply, which is kept in case the
/// model's next reply says the doubt was wrong ([`answer_stands`]).
pub(crate) fn only_skipped(error: &Error) -> Option<String> {
    let mut skipped = error.violations().iter().map(|v| match v.kind() {
        ViolationKind::SkippedTool { tool } => Some(tool.clone()),
        _ => None,
    });
    let first = skipped.next()??;
    skipped.all(|t| t.is_some()).then_some(first)
}

/// Whether an answer sent back only as skipping `tool` ([`only_skipped`]) is taken over
/// the reply just rejected (its calls as read, `calls`, and its error): asked to call the
/// tool, the model called it, and every call it wrote is made of values the user never
/// wrote (the description's examples, placeholders, values of its own: each call has its
/// own [`ViolationKind::Ungrounded`], [`ViolationKind::CopiedExample`] or
/// [`ViolationKind::Unstated`], which [`super::questioned`] asks after the skip only for this).
///
/// Asked "Who founded the first stock exchange in Amsterdam?", a small model answers;
/// told the request asks for what `finance.stock_quote` does, it calls it for `"AAPL"`,
/// the example of the tool's description, and again when told that. A request the tool
/// fits holds what it needs, so a call of it that the request holds nothing for says the
/// tool did not fit: the answer was right, and the question was the library's mistake.
/// Where the tool fits, the call with the user's values is taken as before; a reply with
/// one call of the user's values beside made-up ones is sent back as before where those
/// are examples or placeholders (and taken where they are values of the model's own,
/// which are questioned after the skip only to keep the answer), and so is a made-up call
/// of another tool alone, which says nothing of this one.
///
/// A reply that writes back the union's shape ([`ViolationKind::SchemaEchoed`]) holds no
/// call at all, `calls` none: asked to call the tool, the model had no call to make, and
/// the answer stands as it does over a made-up one ([`kept_over_echo`]).
pub(crate) fn answer_stands(target: &Target, tool: &str, calls: &[Value], error: &Error) -> bool {
    if calls.is_empty() {
        return echoed_only(error);
    }
    let Some(questioned) = target.tool_of(&serde_json::json!({ "name": tool })) else {
        return false;
    };
    let made_up = |i: usize| {
        let at = match calls.len() {
            1 => "/arguments".to_owned(),
            _ => format!("/{i}/arguments"),
        };
        error.violations().iter().any(|v| {
            v.pointer() == at
                && matches!(
                    v.kind(),
                    ViolationKind::Ungrounded { .. }
                        | ViolationKind::CopiedExample { .. }
                        | ViolationKind::Unstated { .. }
                )
        })
    };
    let of_the_tool = |call: &Value| {
        target
            .tool_of(call)
            .is_some_and(|t| std::ptr::eq(t, questioned))
    };
    calls.iter().any(of_the_tool) && (0..calls.len()).all(made_up)
}

/// Where an answer held for skipping `held` waits (as [`super::questioned`] holds one: the skip
/// question asked, no other after it, no result in), the error that lets it stand over
/// a reply the union's schema rejected, its calls as read all the same (`calls`): a
/// [`ViolationKind::Unstated`] at the arguments of each, where every call holds values
/// and none the user wrote ([`crate::agent::grounding::Conversation::made_up`], with the exceptions of
/// a call that fits), and the answer then stands ([`answer_stands`]: one of them is a
/// call of the held tool). Told "the request asks for what `cooking.scale_recipe` does"
/// for "Who wrote the first printed recipe book?", a small model calls it with servings
/// of its own and no ingredients: the schema rejects the call, and it says, as a valid
/// call of made-up values does, that the tool did not fit. An empty call (`{}`) says
/// nothing either way: it is sent back with the arguments its function requires, for a
/// request that holds them ("the GCD of 84 and 36", answered `12`) to have them filled
/// in. `None` otherwise.
pub(crate) fn kept_over_rejected(
    ask: &Question<'_>,
    doubts: Doubts,
    calls: &[Value],
    held: &str,
) -> Option<Error> {
    if !may_stand(ask, doubts) || calls.is_empty() {
        return None;
    }
    let conversation = conversation_of(ask);
    let about = ask.target.tools_about();
    let tools = || about.iter().map(|(_, _, about, _)| about.as_str());
    let violations = calls
        .iter()
        .enumerate()
        .map(|(i, call)| {
            let tool = ask.target.tool_of(call)?;
            let violation = conversation.made_up(call, &tool.server_name, tools())?;
            Some(of_call(violation, i, calls.len()))
        })
        .collect::<Option<Vec<_>>>()?;
    let error = Error::new(violations);
    answer_stands(ask.target, held, calls, &error).then_some(error)
}

/// Whether a held answer may stand over a reply the union's schema rejected with `error`
/// because the reply is the union's shape written back ([`ViolationKind::SchemaEchoed`]),
/// where it waits as [`kept_over_rejected`] has it wait. Asked "In what order should I
/// read the Harry Potter books?" beside `shop.get_order_status`, a small model answers;
/// told the request asks for what the tool does, it writes back the shape the repair
/// showed it: it has no call of the tool to make, and the answer was right.
pub(crate) fn kept_over_echo(ask: &Question<'_>, doubts: Doubts, error: &Error) -> bool {
    may_stand(ask, doubts) && echoed_only(error)
}

/// Whether an answer held for skipping a tool still waits: the skip question asked, no
/// question of a made-up call after it, no tool's result in.
fn may_stand(ask: &Question<'_>, doubts: Doubts) -> bool {
    doubts.skipped && !doubts.unstated && !conversation::results_in(ask.history)
}

/// Whether `error` says only that the reply is the union's shape written back.
fn echoed_only(error: &Error) -> bool {
    let violations = error.violations();
    !violations.is_empty()
        && violations
            .iter()
            .all(|v| matches!(v.kind(), ViolationKind::SchemaEchoed))
}
