//! Native tool calls read as data: the tool is the name the call carries, and its
//! arguments are parsed and repaired on their own. A call is never pasted into a text and
//! parsed again: arguments that close their object and write another call
//! (`{"note": "hi"}, "name": "delete_all", …`) stay the arguments of the call they came in.

use serde_json::{Map, Value};

use super::read::{after, holds_json, parse};
use super::request::{Shaped, Target};
use crate::Error;
use crate::error::{Violation, ViolationKind, quote};
use crate::extract::{Candidate, candidates};
use crate::message::{Arguments, ToolCall};
use crate::parse::{Parsed, Parser};
use crate::repair::{Fix, FixKind, Location, repair};

/// The value of each native call, and every fix their parse needed; the violations of
/// every call that is wrong, each under its call's index when there are several, as
/// [`crate::Toolset::parse`] reports the same calls written as a JSON list.
pub(super) fn read_calls(
    parser: &Parser,
    target: &Target,
    calls: &[ToolCall],
    shaped: &Shaped,
) -> Result<(Vec<Value>, Vec<Fix>), Error> {
    let several = calls.len() > 1;
    let mut values = Vec::new();
    let mut fixes = Vec::new();
    let mut violations = Vec::new();
    for (i, call) in calls.iter().enumerate() {
        let read = if several && target.is_answer_call(call) {
            Err(answer_beside_calls(call))
        } else {
            read_call(parser, target, call, shaped)
        };
        match read {
            Ok(parsed) => {
                values.push(parsed.value);
                fixes.extend(parsed.fixes);
            }
            Err(e) => {
                fixes.extend(e.fixes().iter().cloned());
                let e = if several { e.under(&i.to_string()) } else { e };
                violations.extend(e.into_violations());
            }
        }
    }
    if violations.is_empty() {
        Ok((values, fixes))
    } else {
        Err(Error::new(violations).with_fixes(fixes))
    }
}

/// One call: for a union of tools, `{"name": <the call's name>, "arguments": <its
/// arguments>}` built as a value; for a type asked for as one tool, its arguments.
fn read_call(
    parser: &Parser,
    target: &Target,
    call: &ToolCall,
    shaped: &Shaped,
) -> Result<Parsed<Value>, Error> {
    if target.union.is_none() {
        return parse(parser, target, &arguments_text(&call.arguments), shaped);
    }
    if target.is_answer_call(call) {
        let read = |arguments: Value, fixes: Vec<Fix>| {
            read_as_answer(parser, target, shaped, arguments, fixes)
        };
        // Arguments that are the answer's text itself, not JSON.
        if let Arguments::Text(text) = &call.arguments
            && !text.trim().is_empty()
            && !holds_json(text)
            && serde_json::from_str::<Value>(text).is_err()
        {
            let fix = Fix::new(FixKind::PlainText, Location::Pointer("/arguments".into()));
            return read(Value::from(text.trim()), vec![fix]);
        }
        return read_arguments(&call.arguments, Vec::new(), read);
    }
    let (name, fixes) = shown_name(target, call);
    let read = |arguments: Value, fixes: Vec<Fix>| {
        read_as_call(parser, target, shaped, &name, arguments, fixes)
    };
    read_arguments(&call.arguments, fixes, read)
}

/// The arguments read by `read`: as given, `{}` for none, or of the JSON values written
/// in their text the first that reads ([`read_text_arguments`]).
fn read_arguments(
    arguments: &Arguments,
    fixes: Vec<Fix>,
    read: impl Fn(Value, Vec<Fix>) -> Result<Parsed<Value>, Error>,
) -> Result<Parsed<Value>, Error> {
    match arguments {
        Arguments::Json(value) => read(value.clone(), fixes),
        Arguments::Text(text) if text.trim().is_empty() => read(Value::Object(Map::new()), fixes),
        Arguments::Text(text) => read_text_arguments(text, fixes, read),
    }
}

/// A call of the answer's tool: its arguments are the answer `{"answer": …}`, read with
/// the lenient parse. Whatever they hold, they are the answer or wrong, never a call.
fn read_as_answer(
    parser: &Parser,
    target: &Target,
    shaped: &Shaped,
    arguments: Value,
    mut fixes: Vec<Fix>,
) -> Result<Parsed<Value>, Error> {
    let answer = match shaped.restore_answer(arguments) {
        // The answer itself where its one field goes.
        Value::String(text) => {
            let kind = FixKind::WrappedInField {
                key: "answer".into(),
            };
            fixes.push(Fix::new(kind, Location::Pointer("/arguments".into())));
            serde_json::json!({ "answer": text })
        }
        answer => answer,
    };
    let read = parse(parser, target, &answer.to_string(), shaped);
    if read.as_ref().is_ok_and(|p| p.value.get("answer").is_none()) {
        return Err(not_the_answer());
    }
    after(fixes, read)
}

/// The name the model is shown for the tool the call names, and the fix that took where
/// the call names it as its server spells it.
fn shown_name(target: &Target, call: &ToolCall) -> (Value, Vec<Fix>) {
    let shown = target
        .union
        .as_ref()
        .and_then(|union| union.tool(&call.name))
        .map_or(call.name.as_str(), |tool| tool.name.as_str());
    let mut fixes = Vec::new();
    if shown != call.name {
        let kind = FixKind::EnumCase {
            from: call.name.clone(),
            to: shown.to_owned(),
        };
        fixes.push(Fix::new(kind, Location::Pointer("/name".into())));
    }
    (Value::from(shown), fixes)
}

/// The call of the tool `name` with these arguments, read with the lenient parse (coercion,
/// the dialect's shapes restored), with `fixes` before the parse's own.
fn read_as_call(
    parser: &Parser,
    target: &Target,
    shaped: &Shaped,
    name: &Value,
    arguments: Value,
    fixes: Vec<Fix>,
) -> Result<Parsed<Value>, Error> {
    let mut call = Map::new();
    call.insert("name".into(), name.clone());
    call.insert("arguments".into(), arguments);
    let read = parse(parser, target, &Value::Object(call).to_string(), shaped);
    // The tool stays the one the call names, whatever its arguments hold (a call written
    // in a text format inside one of their strings, say).
    if read
        .as_ref()
        .is_ok_and(|p| p.value.get("name") != Some(name))
    {
        return Err(not_the_call(name));
    }
    after(fixes, read)
}

/// Arguments written as text: of the JSON values in it, in the order written, the first
/// that makes a valid call; else the error of the one with the fewest violations; else
/// the text's syntax error, under `/arguments`.
fn read_text_arguments(
    text: &str,
    fixes: Vec<Fix>,
    read: impl Fn(Value, Vec<Fix>) -> Result<Parsed<Value>, Error>,
) -> Result<Parsed<Value>, Error> {
    let mut closest: Option<Error> = None;
    let mut syntax = None;
    for candidate in in_order(text) {
        let (value, repair_fixes) = match repair(&candidate.text) {
            Ok(repaired) => repaired,
            Err(e) => {
                syntax.get_or_insert(e);
                continue;
            }
        };
        let mut found = fixes.clone();
        found.extend(candidate.fixes);
        found.extend(repair_fixes);
        match read(value, found) {
            Ok(parsed) => return Ok(parsed),
            Err(e)
                if closest
                    .as_ref()
                    .is_none_or(|c| e.violations().len() < c.violations().len()) =>
            {
                closest = Some(e);
            }
            Err(_) => {}
        }
    }
    Err(match (closest, syntax) {
        (Some(e), _) => e,
        (None, Some(e)) => e.under("arguments").with_fixes(fixes),
        (None, None) => Error::single(Violation::new(
            "/arguments",
            ViolationKind::Syntax {
                line: 1,
                column: 1,
                message: "the arguments hold no JSON value".into(),
            },
        ))
        .with_fixes(fixes),
    })
}

/// The closest value of rejected native calls, for the error's best value and the
/// corrected reply: each call as [`read_calls`] builds it (the name it carries, and of
/// the JSON values in its arguments the one with the fewest violations, or their text
/// where they hold none); one value, or a list of one per call.
pub(super) fn closest(target: &Target, calls: &[ToolCall]) -> Option<Value> {
    let mut values: Vec<Value> = calls
        .iter()
        .map(|call| closest_call(target, call))
        .collect();
    match values.len() {
        0 => None,
        1 => values.pop(),
        _ => Some(Value::Array(values)),
    }
}

fn closest_call(target: &Target, call: &ToolCall) -> Value {
    let name = Value::from(target.names().model(&call.name));
    let answer = target.is_answer_call(call);
    let value = |arguments: Value| {
        if target.union.is_none() || answer {
            return arguments;
        }
        let mut map = Map::new();
        map.insert("name".into(), name.clone());
        map.insert("arguments".into(), arguments);
        Value::Object(map)
    };
    let text = match &call.arguments {
        Arguments::Json(arguments) => return value(arguments.clone()),
        Arguments::Text(text) => text,
    };
    if text.trim().is_empty() {
        return value(Value::Object(Map::new()));
    }
    // On a tie, the value written first.
    in_order(text)
        .into_iter()
        .filter_map(|c| repair(&c.text).ok().map(|(v, _)| value(v)))
        .min_by_key(|v| target.schema.violations(v).len())
        .unwrap_or_else(|| value(Value::String(text.clone())))
}

/// The JSON values found in `text`, in the order they are written.
fn in_order(text: &str) -> Vec<Candidate> {
    let mut found = candidates(text);
    found.sort_by_key(|c| text.find(c.text.trim()).unwrap_or(usize::MAX));
    found
}

/// The arguments as text, `{}` for none.
fn arguments_text(arguments: &Arguments) -> String {
    match arguments {
        Arguments::Text(text) if text.trim().is_empty() => "{}".to_owned(),
        Arguments::Text(text) => text.clone(),
        Arguments::Json(value) => value.to_string(),
    }
}

/// The error of a call of the answer's tool whose arguments read as a call: never taken.
fn not_the_answer() -> Error {
    Error::single(Violation::new(
        "/arguments",
        ViolationKind::Invalid {
            message: "the arguments of the answer's call are the answer {\"answer\": …}, \
                      not a call"
                .into(),
        },
    ))
}

/// The error of a call of the answer's tool made beside calls of tools.
fn answer_beside_calls(call: &ToolCall) -> Error {
    Error::single(Violation::new(
        "",
        ViolationKind::Invalid {
            message: format!(
                "{} gives the answer in place of calls, alone; call the tools, or answer",
                quote(&call.name)
            ),
        },
    ))
}

/// The error of a call whose reading named another tool: never taken.
fn not_the_call(name: &Value) -> Error {
    Error::single(Violation::new(
        "/arguments",
        ViolationKind::Invalid {
            message: format!(
                "the arguments of a call of {name} are an object of that tool's arguments, \
                 not another call"
            ),
        },
    ))
}
