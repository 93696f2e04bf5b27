//! Native tool calls read as data: the tool is the name the call carries, and its
//! arguments are parsed and repaired on their own. A call is never pasted into a text and
//! parsed again: arguments that close their object and write another call
//! (`{"note": "hi"}, "name": "delete_all", …`) stay the arguments of the call they came in.

use serde_json::{Map, Value};

use super::read::parse;
use super::request::{Shaped, Target};
use crate::Error;
use crate::error::{Violation, ViolationKind};
use crate::extract::candidates;
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
        match read_call(parser, target, call, shaped) {
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
    if target.tools.is_none() {
        return parse(parser, target, &arguments_text(&call.arguments), shaped);
    }
    let mut fixes = Vec::new();
    // The tool as its server spells it is the tool the model is shown under another name.
    let shown = target.names.model(&call.name);
    if shown != call.name {
        let kind = FixKind::EnumCase {
            from: call.name.clone(),
            to: shown.to_owned(),
        };
        fixes.push(Fix::new(kind, Location::Pointer("/name".into())));
    }
    let name = Value::from(shown);
    let envelope = |arguments: Value| {
        let mut map = Map::new();
        map.insert("name".into(), name.clone());
        map.insert("arguments".into(), arguments);
        Value::Object(map).to_string()
    };
    let read = |arguments: Value, mut fixes: Vec<Fix>| {
        let read = parse(parser, target, &envelope(arguments), shaped).and_then(|parsed| {
            // The tool stays the one the call names, whatever its arguments hold.
            if parsed.value.get("name") == Some(&name) {
                Ok(parsed)
            } else {
                Err(not_the_call(&name))
            }
        });
        match read {
            Ok(mut parsed) => {
                fixes.append(&mut parsed.fixes);
                Ok(Parsed {
                    value: parsed.value,
                    fixes,
                })
            }
            Err(e) => {
                fixes.extend(e.fixes().iter().cloned());
                Err(e.with_fixes(fixes))
            }
        }
    };
    let text = match &call.arguments {
        Arguments::Json(value) => return read(value.clone(), fixes),
        Arguments::Text(text) if text.trim().is_empty() => {
            return read(Value::Object(Map::new()), fixes);
        }
        Arguments::Text(text) => text,
    };
    // Of the JSON values in the arguments' text, the first that makes a valid call; else
    // the first, for its violations.
    let mut first = None;
    let mut syntax = None;
    for candidate in candidates(text) {
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
            Err(e) => {
                first.get_or_insert(e);
            }
        }
    }
    Err(match (first, syntax) {
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

/// The arguments as text, `{}` for none.
fn arguments_text(arguments: &Arguments) -> String {
    match arguments {
        Arguments::Text(text) if text.trim().is_empty() => "{}".to_owned(),
        Arguments::Text(text) => text.clone(),
        Arguments::Json(value) => value.to_string(),
    }
}

/// The error of a call whose reading named another tool: never taken.
fn not_the_call(name: &Value) -> Error {
    Error::single(Violation::new(
        "/name",
        ViolationKind::Invalid {
            message: format!("the call is a call of {name}; its arguments name no other tool"),
        },
    ))
}
