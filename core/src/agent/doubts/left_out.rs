//! The arguments of a reply's calls that the user never gave, left out as fixes: optional
//! arguments the request holds no value for, and keys a tool does not take, at any depth.

use serde_json::Value;

use super::conversation_of;
use crate::agent::run::Question;
use crate::fix::{Fix, FixKind, Location};
use crate::pointer;
use crate::value::short_json;

/// Leaves out of the calls among `values` (a reply to a union with an answer) the
/// optional arguments the user never gave and the keys the tool does not take, at any
/// depth (see `grounding::unasked` and `grounding::undeclared`), each reported as a fix
/// at its pointer, except at the pointers in `kept`: there the model wrote the value
/// to fix a violation of an earlier attempt (`255` after `300` was above the maximum),
/// whichever call of that attempt or of this one it was ([`in_call`]).
/// An argument stays, too, where the call would no longer fit the union's schema without
/// it: where the tool's schema needs it in some other way than `required` (one of several
/// keys, `minProperties`, `dependentRequired`), the model's next call would be left
/// without it again. The conversation is as [`super::questioned`] reads it.
pub(in crate::agent) fn leave_out_unasked(
    ask: &Question<'_>,
    values: &mut [Value],
    kept: &[&str],
) -> Vec<Fix> {
    leave_out(ask, values, kept, true)
}

/// [`leave_out_unasked`]; where `each_fits` is false, every such argument is left out
/// whether or not the call fits the union's schema without it (the caller checks the
/// calls left).
fn leave_out(ask: &Question<'_>, values: &mut [Value], kept: &[&str], each_fits: bool) -> Vec<Fix> {
    let target = ask.target;
    let Some(union) = target.union.as_ref().filter(|_| target.has_answer()) else {
        return Vec::new();
    };
    let conversation = conversation_of(ask);
    let several = values.len() > 1;
    let mut fixes = Vec::new();
    for (i, value) in values.iter_mut().enumerate() {
        let Some(tool) = value
            .get("name")
            .and_then(Value::as_str)
            .and_then(|name| union.tool(name))
        else {
            continue;
        };
        let at = if several {
            format!("/{i}")
        } else {
            String::new()
        };
        let unasked = conversation
            .unasked(value, &tool.arguments)
            .into_iter()
            .map(|key| (vec![key], false));
        let inside = conversation
            .undeclared_inside(value, &tool.arguments)
            .into_iter()
            .map(|u| (u.path, u.repeats));
        for (path, repeats) in unasked.chain(inside) {
            let tokens: String = path
                .iter()
                .map(|t| format!("/{}", pointer::token(t)))
                .collect();
            let pointer = format!("{at}/arguments{tokens}");
            if kept.iter().any(|k| in_call(k) == in_call(&pointer)) {
                continue;
            }
            let Some((without, written)) = without_member(value, &path) else {
                continue;
            };
            if each_fits && !target.schema.is_valid(&without) {
                continue;
            }
            *value = without;
            let key = path.last().cloned().unwrap_or_default();
            let shown = short_json(&written);
            let kind = if repeats {
                FixKind::RepeatedArgument { key, value: shown }
            } else {
                FixKind::UnaskedArgument { key, value: shown }
            };
            fixes.push(Fix::new(kind, Location::Pointer(pointer)));
        }
    }
    fixes
}

/// [`leave_out_unasked`] of calls the union's schema rejected, every such argument
/// at once (two made-up values may each break it): the fixes, where every call fits
/// once they are made and no argument left out is one the user asked for by its name
/// ([`crate::agent::grounding::Conversation::asks_for`]: `brightness` for "Full brightness", where a
/// value above the maximum is the model's reading of "full", for a repair to mend);
/// `None` otherwise, and the calls then as they may have been left.
pub(in crate::agent) fn leave_out_unasked_to_fit(
    ask: &Question<'_>,
    values: &mut [Value],
    kept: &[&str],
) -> Option<Vec<Fix>> {
    let fixes = leave_out(ask, values, kept, false);
    let conversation = conversation_of(ask);
    let asked_for = fixes.iter().any(|fix| match fix.kind() {
        FixKind::UnaskedArgument { key, .. } | FixKind::RepeatedArgument { key, .. } => {
            conversation.asks_for(key)
        }
        _ => false,
    });
    let fits = values.iter().all(|v| ask.target.schema.is_valid(v));
    (!fixes.is_empty() && fits && !asked_for).then_some(fixes)
}

/// A pointer into a reply's calls without the index of its call, if it has one
/// (`/0/arguments/x` is `/arguments/x`): an attempt of one call and one of several point
/// at the same argument apart, and the calls may come in another order. Taking an
/// argument of one call for the same of another keeps a value, which is the safe side.
pub(super) fn in_call(pointer: &str) -> &str {
    let Some(rest) = pointer.strip_prefix('/') else {
        return pointer;
    };
    let (first, after) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    if !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()) {
        after
    } else {
        pointer
    }
}

/// A call `{"name": …, "arguments": …}` without the member at `path` under its
/// arguments (an argument, or a key of an object inside one), the others in their order,
/// and the value it had; `None` when it has no such member.
pub(super) fn without_member(call: &Value, path: &[String]) -> Option<(Value, Value)> {
    let (key, parents) = path.split_last()?;
    let mut without = call.clone();
    let mut object = without.get_mut("arguments")?;
    for token in parents {
        object = match object {
            Value::Array(items) => items.get_mut(token.parse::<usize>().ok()?)?,
            other => other.get_mut(token.as_str())?,
        };
    }
    let written = object.as_object_mut()?.shift_remove(key)?;
    Some((without, written))
}
