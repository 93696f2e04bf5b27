//! Several calls in one reply.
//!
//! The lenient parse reads one value; a reply may hold several calls:
//!
//! - a list `[call, call]`, or the list under one key: `{"tool_calls": […]}`;
//! - one `<tool_call>…</tool_call>` block (or `<function_call>`, `<invoke>`) per call, as
//!   chat templates such as Hermes write them;
//! - several values one after another, one per line.
//!
//! Each call is read on its own with the lenient parse (so each gets its envelope
//! reading and repair), and a violation in the `i`-th is reported under `/i`.

use serde_json::Value;

use crate::Error;
use crate::extract::candidates;
use crate::parse::Parser;
use crate::repair::{Fix, FixKind, repair};
use crate::schema::Schema;

/// Keys that hold a list of calls.
const LIST_KEYS: &[&str] = &[
    "tool_calls",
    "toolCalls",
    "function_calls",
    "functionCalls",
    "calls",
    "tool_uses",
];

/// Tags that wrap one call each.
const CALL_TAGS: &[&str] = &["tool_call", "function_call", "invoke"];

/// The values of the calls, and every fix their parse needed.
pub(super) type Calls = (Vec<Value>, Vec<Fix>);

/// The calls of a reply that holds two or more, each read with the lenient parse, and the
/// fixes that needed; `None` when the reply does not hold several.
pub(super) fn calls(parser: &Parser, schema: &Schema, raw: &str) -> Option<Result<Calls, Error>> {
    let texts = listed(raw)
        .or_else(|| tagged(raw))
        .or_else(|| one_after_another(raw))?;
    let mut values = Vec::new();
    let mut fixes = Vec::new();
    let mut violations = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        match parser.parse_value(schema, text) {
            Ok(parsed) => {
                values.push(parsed.value);
                fixes.extend(parsed.fixes);
            }
            Err(e) => {
                fixes.extend(e.fixes().iter().cloned());
                violations.extend(e.under(&i.to_string()).into_violations());
            }
        }
    }
    Some(if violations.is_empty() {
        Ok((values, fixes))
    } else {
        Err(Error::new(violations).with_fixes(fixes))
    })
}

/// The items of the reply's first JSON value, when it is a list of two or more, or such a
/// list under one key.
fn listed(raw: &str) -> Option<Vec<String>> {
    let value = candidates(raw)
        .into_iter()
        .find_map(|c| repair(&c.text).ok().map(|(v, _)| v))?;
    let items = match value {
        Value::Array(items) => items,
        Value::Object(mut map) if map.len() == 1 => {
            let key = map.keys().next()?.clone();
            match map.remove(&key) {
                Some(Value::Array(items)) if LIST_KEYS.contains(&key.as_str()) => items,
                _ => return None,
            }
        }
        _ => return None,
    };
    (items.len() > 1).then(|| items.iter().map(Value::to_string).collect())
}

/// The contents of two or more `<tool_call>` blocks (of one tag).
fn tagged(raw: &str) -> Option<Vec<String>> {
    CALL_TAGS.iter().find_map(|tag| {
        let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
        let mut found = Vec::new();
        let mut rest = raw;
        while let Some(start) = rest.find(&open) {
            let after = &rest[start + open.len()..];
            let end = after.find(&close).unwrap_or(after.len());
            found.push(after[..end].trim().to_owned());
            rest = after.get(end + close.len()..).unwrap_or("");
        }
        (found.len() > 1).then_some(found)
    })
}

/// Two or more JSON values one after another and nothing else: `{…}\n{…}`.
fn one_after_another(raw: &str) -> Option<Vec<String>> {
    let raw = raw.trim();
    if !raw.starts_with('{') || repair(raw).is_ok() {
        return None;
    }
    let (value, fixes) = repair(&format!("[{raw}]")).ok()?;
    // Written as JSON: nothing guessed or cut off.
    let as_json = fixes.iter().all(|f| {
        matches!(
            f.kind(),
            FixKind::MissingComma | FixKind::TrailingComma | FixKind::SingleQuotes
        )
    });
    match value {
        Value::Array(items) if as_json && items.len() > 1 && items.iter().all(Value::is_object) => {
            Some(items.iter().map(Value::to_string).collect())
        }
        _ => None,
    }
}
