//! The best partial value of an ask that ran out of attempts.
//!
//! A repair can break what was right: asked to fix a date, a small model also rewrites the
//! correct invoice number (`INV-0317`) into the example's (`INV-0123`), and that later
//! reply, no worse by its count of violations, used to be the one returned. The rule here
//! keeps what was right:
//!
//! 1. The base is the reply's value with the fewest violations, the later of equals (it
//!    was written knowing what was wrong).
//! 2. Where the target is a record (an object with properties, not a union), each
//!    top-level field is taken from the **earliest** reply in which it was right: present,
//!    with no violation at it, under it, or over the whole reply. A field that was right
//!    once and changed later keeps its first value, which the schema could not fault and
//!    which was written from the request rather than from a repair prompt. A field right
//!    in no reply stays as the base has it (or absent).
//!
//! Fields are taken whole: a nested value is not put together from several replies, nor
//! are the members of a union (a tool's name from one reply and its arguments from
//! another would make a call the model never made).

use serde_json::Value;

use crate::Error;

/// The value that came closest, from each rejected reply's value (as local repair read
/// it) and why it was rejected, in order.
pub(super) fn best(rejected: &[(Value, Error)], by_field: bool) -> Option<Value> {
    let (_, base) = rejected
        .iter()
        .enumerate()
        .min_by_key(|(i, (_, error))| (error.violations().len(), std::cmp::Reverse(*i)))?;
    let mut best = base.0.clone();
    if !by_field {
        return Some(best);
    }
    let Value::Object(fields) = &mut best else {
        return Some(best);
    };
    let mut keys: Vec<String> = fields.keys().cloned().collect();
    for (value, _) in rejected {
        if let Value::Object(other) = value {
            keys.extend(
                other
                    .keys()
                    .filter(|k| !keys.contains(k))
                    .cloned()
                    .collect::<Vec<_>>(),
            );
        }
    }
    for key in keys {
        let pointer = format!("/{}", crate::pointer::token(&key));
        let first_right = rejected.iter().find_map(|(value, error)| {
            error
                .right_at(&pointer)
                .then(|| value.get(&key))
                .flatten()
                .filter(|_| value.is_object())
        });
        if let Some(right) = first_right {
            fields.insert(key, right.clone());
        }
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::{Violation, ViolationKind};

    fn wrong(pointers: &[&str]) -> Error {
        Error::new(
            pointers
                .iter()
                .map(|p| {
                    Violation::new(
                        *p,
                        ViolationKind::Invalid {
                            message: "wrong".into(),
                        },
                    )
                })
                .collect(),
        )
    }

    #[test]
    fn a_field_right_first_keeps_its_first_value() {
        let rejected = [
            (
                json!({"number": "INV-0317", "date": "March 3"}),
                wrong(&["/date"]),
            ),
            (
                json!({"number": "INV-0123", "date": "2024-13-03"}),
                wrong(&["/date"]),
            ),
        ];
        assert_eq!(
            best(&rejected, true),
            Some(json!({"number": "INV-0317", "date": "2024-13-03"}))
        );
        // Without fields (a union), the later of the closest, as it stands.
        assert_eq!(
            best(&rejected, false),
            Some(json!({"number": "INV-0123", "date": "2024-13-03"}))
        );
    }

    #[test]
    fn a_field_right_only_later_is_taken_from_there() {
        let rejected = [
            (
                json!({"name": "Ann", "agee": 31}),
                wrong(&["/agee", "/age", "/tags"]),
            ),
            (json!({"name": "Ann B", "age": 31}), wrong(&["/tags"])),
        ];
        assert_eq!(
            best(&rejected, true),
            Some(json!({"name": "Ann", "age": 31}))
        );
    }

    #[test]
    fn a_reply_wrong_as_a_whole_gives_no_field() {
        let rejected = [
            (json!({"name": "Ann", "age": 31}), wrong(&[""])),
            (json!({"name": "Bob", "age": 300}), wrong(&["/age"])),
        ];
        assert_eq!(
            best(&rejected, true),
            Some(json!({"name": "Bob", "age": 300}))
        );
    }

    #[test]
    fn a_nested_field_is_taken_whole() {
        let rejected = [
            (
                json!({"customer": {"name": "Ann", "city": 7}, "total": 5}),
                wrong(&["/customer/city"]),
            ),
            (
                json!({"customer": {"name": "text", "city": "Oslo"}, "total": 6}),
                wrong(&[]),
            ),
        ];
        assert_eq!(
            best(&rejected, true),
            Some(json!({"customer": {"name": "text", "city": "Oslo"}, "total": 5}))
        );
    }

    #[test]
    fn nothing_without_a_value() {
        assert_eq!(best(&[], true), None);
    }
}
