//! The hint of a repair for a call written with empty arguments.
//!
//! Shown `{"name": "<function name>", "arguments": {…}}` as the form of a call, and told
//! that an argument is missing, a small model writes the call again with `"arguments":
//! {}`, attempt after attempt: the violations name the missing arguments one by one as
//! pointers, which it does not read as what to write. The hint names the call's required
//! arguments where its arguments are empty, as keys to fill from the request, with no
//! value shown that could be copied into the call.

use serde_json::Value;

use crate::Error;
use crate::dialect::WRAPPER;
use crate::error::{ViolationKind, quote_bounded};

/// The most characters of a function's or an argument's name in the hint.
const NAME_CHARS: usize = 64;

/// The most arguments the hint names.
const MAX_NAMED: usize = 8;

/// The hint for a call of `value` (the reply as read) that has empty arguments where
/// `error` finds required arguments missing: its function's name and the names of those
/// arguments (the first [`MAX_NAMED`], then `…`). Where several calls are so written, the
/// first function's. `None` where no such call is in the reply.
pub(super) fn hint(value: Option<&Value>, error: &Error) -> Option<String> {
    let value = value?;
    let mut function = None;
    let mut missing: Vec<String> = Vec::new();
    for violation in error.violations() {
        if *violation.kind() != ViolationKind::MissingField {
            continue;
        }
        let Some((arguments_at, key)) = violation.pointer().rsplit_once('/') else {
            continue;
        };
        let Some(call_at) = arguments_at.strip_suffix("/arguments") else {
            continue;
        };
        let Some(call) = call_at_pointer(value, call_at) else {
            continue;
        };
        let empty = call
            .get("arguments")
            .and_then(Value::as_object)
            .is_some_and(|a| a.is_empty());
        let Some(name) = call.get("name").and_then(Value::as_str) else {
            continue;
        };
        if !empty || function.is_some_and(|f: &str| f != name) {
            continue;
        }
        function = Some(name);
        let key = unescape(key);
        if !missing.contains(&key) {
            missing.push(key);
        }
    }
    let function = function?;
    let mut names: Vec<String> = missing
        .iter()
        .take(MAX_NAMED)
        .map(|k| quote_bounded(k, NAME_CHARS))
        .collect();
    if missing.len() > MAX_NAMED {
        names.push("…".to_owned());
    }
    Some(format!(
        "The call of {} had empty \"arguments\": write in it the arguments the function \
         requires, {}, each with its value taken from the request.",
        quote_bounded(function, NAME_CHARS),
        names.join(", ")
    ))
}

/// The call at `pointer` in `value`: the violations of a reply under a grammar that
/// wraps it (`{"value": …}`, [`WRAPPER`]) point into the value unwrapped, while the reply
/// as read is still wrapped.
fn call_at_pointer<'a>(value: &'a Value, pointer: &str) -> Option<&'a Value> {
    let is_call = |v: &&Value| v.get("name").is_some();
    value.pointer(pointer).filter(is_call).or_else(|| {
        let inner = value.as_object().filter(|o| o.len() == 1)?.get(WRAPPER)?;
        inner.pointer(pointer).filter(is_call)
    })
}

/// A JSON Pointer token as the key it stands for (`~1` is `/`, `~0` is `~`).
fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::hint;
    use crate::error::{Error, Violation, ViolationKind};

    fn missing(at: &str) -> Violation {
        Violation::new(at, ViolationKind::MissingField)
    }

    #[test]
    fn an_empty_call_is_told_the_arguments_it_needs() {
        let call = json!({"name": "travel_get_visa", "arguments": {}});
        let error = Error::new(vec![
            missing("/arguments/passport_country"),
            missing("/arguments/destination_country"),
        ]);
        let shown = hint(Some(&call), &error).expect("a hint");
        assert_eq!(
            shown,
            "The call of \"travel_get_visa\" had empty \"arguments\": write in it the \
             arguments the function requires, \"passport_country\", \"destination_country\", \
             each with its value taken from the request."
        );
        // Under the grammar's wrapper (the violations point into the value unwrapped),
        // and one call of several.
        let wrapped = json!({"value": call});
        let error = Error::new(vec![missing("/arguments/passport_country")]);
        assert!(hint(Some(&wrapped), &error).is_some());
        let several = json!([{"name": "a", "arguments": {"x": 1}}, {"name": "b", "arguments": {}}]);
        let error = Error::new(vec![missing("/1/arguments/a~1b")]);
        let shown = hint(Some(&several), &error).expect("a hint");
        assert!(
            shown.contains("\"b\"") && shown.contains("\"a/b\""),
            "{shown}"
        );
    }

    #[test]
    fn a_call_with_arguments_or_no_missing_one_has_no_hint() {
        let partial = json!({"name": "f", "arguments": {"x": 1}});
        let error = Error::new(vec![missing("/arguments/y")]);
        assert_eq!(hint(Some(&partial), &error), None);
        let empty = json!({"name": "f", "arguments": {}});
        let wrong = Violation::new(
            "/arguments/y",
            ViolationKind::Invalid {
                message: "no".into(),
            },
        );
        assert_eq!(hint(Some(&empty), &Error::new(vec![wrong])), None);
        // A record's missing field, a value that is no call, no value at all.
        let record = json!({"city": {}});
        assert_eq!(
            hint(Some(&record), &Error::new(vec![missing("/city/name")])),
            None
        );
        assert_eq!(hint(Some(&json!("text")), &error), None);
        assert_eq!(hint(None, &Error::new(vec![missing("/arguments/y")])), None);
    }

    #[test]
    fn past_eight_arguments_the_list_ends_in_an_ellipsis() {
        let call = json!({"name": "f", "arguments": {}});
        let all: Vec<Violation> = (0..10)
            .map(|i| missing(&format!("/arguments/a{i}")))
            .collect();
        let shown = hint(Some(&call), &Error::new(all)).unwrap();
        assert!(
            shown.contains("\"a7\", …,") && !shown.contains("a8"),
            "{shown}"
        );
    }

    #[test]
    fn what_the_model_wrote_is_quoted_and_bounded() {
        let name = format!("f\"\n{}", "x".repeat(500));
        let call = json!({"name": name, "arguments": {}});
        let shown = hint(Some(&call), &Error::new(vec![missing("/arguments/y")])).unwrap();
        assert!(!shown.contains('\n') && shown.len() < 300, "{shown}");
        assert!(shown.contains("f\\\"\\n"), "{shown}");
    }
}
