//! Several calls in one reply to a union of tools.
//!
//! The lenient parse reads one value; a reply may hold several calls:
//!
//! - a list `[call, call]`, or the list under one key: `{"tool_calls": […]}`;
//! - calls in a chat template's text format ([`crate::text_calls`]): a `<tool_call>` block
//!   per call, `[TOOL_CALLS]` segments, `<function=…>` tags, `[a(x=1), b(y=2)]`, …;
//! - several JSON values one after another, one per line.
//!
//! Each call is read on its own with the lenient parse (so each gets its envelope
//! reading and repair), and a violation in the `i`-th is reported under `/i`. The union's
//! readers of a reply ([`crate::Toolset::read`] and the agent's) ask here once the reply
//! has been parsed as one value.

use serde_json::Value;

use crate::Error;
use crate::envelope::{LIST_KEYS, ToolUnion};
use crate::extract::{candidates, is_strict_json, visible};
use crate::parse::Parser;
use crate::repair::{Fix, FixKind, Location, repair};
use crate::schema::Schema;
use crate::text_calls::{self, Scope, Tools};

/// The values of the calls, and every fix their parse needed.
pub(crate) type Calls = (Vec<Value>, Vec<Fix>);

/// The calls of a reply that holds two or more, each read with the lenient parse, and the
/// fixes that needed; `None` when the reply does not hold several.
///
/// A reply that is JSON as a whole holds several calls only as a list: its strings are its
/// own, so calls written inside them in a text format are text. Nor does a reply that the
/// lenient parse read as one value (`read_as_one`): where a text format holds more calls
/// than that value, the parse refuses the reply as one value
/// ([`Parser::parse_value`]), so calls inside the value's strings stay its content.
pub(crate) fn several_calls(
    parser: &Parser,
    schema: &Schema,
    raw: &str,
    read_as_one: bool,
) -> Option<Result<Calls, Error>> {
    let listed = listed(raw);
    let from_list = listed
        .as_ref()
        .and_then(|(texts, fixes)| parse_each(parser, schema, texts, fixes.clone()).ok());
    let from_text = if is_strict_json(raw) || read_as_one {
        None
    } else {
        in_text_format(parser, schema, raw)
    };
    // Of a list and calls in a text format, the reading with more calls: one list in the
    // first of several `<tool_call>` blocks is not all of them.
    match (from_list, from_text) {
        (Some(list), Some((count, Some(Ok(text))))) if count > list.0.len() => {
            return Some(Ok(text));
        }
        (Some(list), _) => return Some(Ok(list)),
        (None, Some((count, Some(text)))) if count > 1 => return Some(text),
        // One call in a text format, or calls it could not read: the parse of the reply
        // as one value has said so already (`[f(x=1)]` is no list of three words).
        (None, Some(_)) => return None,
        (None, None) => {}
    }
    let (texts, fixes) = match listed {
        Some(found) => found,
        None if is_strict_json(raw) => return None,
        None => (one_after_another(raw)?, Vec::new()),
    };
    let read = parse_each(parser, schema, &texts, fixes);
    // Beside a value read as one, only objects are calls that can be wrong: a list of
    // words (`[f(x=1)]` read as JSON) holds none.
    if read_as_one && read.is_err() && !texts.iter().all(|t| t.starts_with('{')) {
        return None;
    }
    Some(read)
}

/// Each text read as one call; a violation in the `i`-th under `/i`.
fn parse_each(
    parser: &Parser,
    schema: &Schema,
    texts: &[String],
    mut fixes: Vec<Fix>,
) -> Result<Calls, Error> {
    let mut values = Vec::new();
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
    if violations.is_empty() {
        Ok((values, fixes))
    } else {
        Err(Error::new(violations).with_fixes(fixes))
    }
}

/// Calls in a chat template's text format, each then read as JSON: how many the format
/// holds and what they read as; `Some((0, None))` where the format's calls could not be
/// read, `None` where the reply writes no calls in a text format.
fn in_text_format(
    parser: &Parser,
    schema: &Schema,
    raw: &str,
) -> Option<(usize, Option<Result<Calls, Error>>)> {
    let union = ToolUnion::at_root(schema)?;
    let (text, mut fixes) = visible(raw);
    let tools = Tools {
        union: &union,
        schema,
    };
    let read = text_calls::read(&text, &tools, Scope::WithProse)?;
    let Ok(calls) = read.calls else {
        return Some((0, None));
    };
    let kind = FixKind::TextToolCall {
        format: read.format,
        count: calls.len(),
    };
    fixes.push(Fix::new(kind, Location::Reply));
    fixes.extend(read.fixes);
    let texts: Vec<String> = calls.iter().map(Value::to_string).collect();
    Some((calls.len(), Some(parse_each(parser, schema, &texts, fixes))))
}

/// The items of the reply's first JSON value, when it is a list of two or more, or such a
/// list under one key; and how the value was found.
fn listed(raw: &str) -> Option<(Vec<String>, Vec<Fix>)> {
    let (value, fixes) = candidates(raw)
        .into_iter()
        .find_map(|c| repair(&c.text).ok().map(|(v, _)| (v, c.fixes)))?;
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
    (items.len() > 1).then(|| (items.iter().map(Value::to_string).collect(), fixes))
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
