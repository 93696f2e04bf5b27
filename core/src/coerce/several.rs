//! Several JSON values where a list of them is expected: `"yes", "no"`, or one object per
//! line.
//!
//! The repairer refuses a reply that reads as several values: no one value is the reply.
//! Where the schema takes a list, the values are its items: the reply is read again as a
//! list, `[` + reply + `]`. That reading is taken only when it is a list of two or more
//! values written as JSON, not prose: no bare word read as a string, no quote or bracket
//! guessed, nothing cut off; and only when it makes the reply fit.
//!
//! Where the values are lists (`[1, 2]\n[3]`, `[{…}][{…}]`), and objects beside them,
//! and the list of them does not fit, the items of the lists are the items: one list of
//! every item, in order ([`FixKind::JoinedLists`]). A list of lists that fits as written
//! is read as written.
//!
//! At the default level ([`Coercion::Safe`]) and above: the items are exactly the values
//! the model wrote, in its order, and the schema asks for a list of them; the other
//! readings are wrong values (one string `yes", "no`, or only the first object of several
//! lines, or the first list of several, which drops the rest). Under [`Coercion::None`]
//! the reply stays refused with its syntax error, which tells the model to write one
//! value.

use serde_json::Value;

use super::{Coercion, coerce};
use crate::extract::Candidate;
use crate::repair::{Fix, FixKind, Location, repair};
use crate::schema::{Schema, Types};

/// The first candidate that reads as several values making a list the schema takes, with
/// its index, its value and the fixes needed; `None` when an earlier candidate is not a
/// part of it (the values it holds, found one by one): that candidate is the one the
/// reply gave first.
pub(crate) fn several_values(
    schema: &Schema,
    candidates: &[Candidate],
    level: Coercion,
) -> Option<(usize, Value, Vec<Fix>)> {
    let root = schema.resolve(schema.root());
    if level == Coercion::None || !root.types.is_some_and(|t| t.contains(Types::ARRAY)) {
        return None;
    }
    for (index, candidate) in candidates.iter().enumerate() {
        if repair(&candidate.text).is_ok() {
            continue;
        }
        let Some((value, repairs)) = read_as_list(&candidate.text) else {
            continue;
        };
        let Value::Array(values) = &value else {
            continue;
        };
        let count = values.len();
        // The values as the items, or, where they are lists (and objects), their items.
        let readings = [
            Some((value.clone(), FixKind::SeveralValues { count })),
            joined(values).map(|items| (items, FixKind::JoinedLists { count })),
        ];
        for (mut value, kind) in readings.into_iter().flatten() {
            let mut fixes = candidate.fixes.clone();
            fixes.push(Fix::new(kind, Location::Reply));
            fixes.extend(repairs.iter().cloned());
            coerce(schema, &mut value, level, &mut fixes);
            if !schema.is_valid(&value) {
                continue;
            }
            let earlier_inside = candidates[..index]
                .iter()
                .all(|c| candidate.text.contains(c.text.as_str()));
            return earlier_inside.then_some((index, value, fixes));
        }
    }
    None
}

/// `[1, 2]\n[3]`, `[{…}]\n{…}`: the items of the lists, and the objects, as one list, in
/// order; `None` unless the values are lists and objects, one a list at least.
fn joined(values: &[Value]) -> Option<Value> {
    let lists =
        values.iter().any(Value::is_array) && values.iter().all(|v| v.is_array() || v.is_object());
    lists.then(|| {
        Value::Array(
            values
                .iter()
                .flat_map(|v| match v {
                    Value::Array(items) => items.clone(),
                    other => vec![other.clone()],
                })
                .collect(),
        )
    })
}

/// `text` read as the items of a list, if it holds two or more values written as JSON.
fn read_as_list(text: &str) -> Option<(Value, Vec<Fix>)> {
    let (value, fixes) = repair(&format!("[{text}]")).ok()?;
    let several = value.as_array().is_some_and(|items| items.len() >= 2);
    let as_json = fixes.iter().all(|f| {
        matches!(
            f.kind(),
            FixKind::SingleQuotes
                | FixKind::SmartQuotes
                | FixKind::TrailingComma
                | FixKind::UnquotedKey
                | FixKind::Comment
                | FixKind::PythonLiteral { .. }
                | FixKind::ControlCharacter
                | FixKind::InvalidEscape
                | FixKind::MissingComma
        )
    });
    if !(several && as_json) {
        return None;
    }
    // Offsets are into the reply, not into the list written around it.
    let fixes = fixes
        .into_iter()
        .map(|f| match f.location() {
            Location::Offset(o) => {
                Fix::new(f.kind().clone(), Location::Offset(o.saturating_sub(1)))
            }
            _ => f,
        })
        .collect();
    Some((value, fixes))
}
