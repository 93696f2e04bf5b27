//! What a row did on one task, and how it is scored.
//!
//! Every row hands back a [`Trace`]: its attempts (one per model call for content) and
//! the JSON it ended with. The same scoring applies to all rows, so "exactly right" means
//! the same thing for a typed value written back by serde and for JSON a validator passed.

use serde::Serialize;
use serde_json::Value;

/// One model call for content.
#[derive(Debug, Clone, Default, Serialize)]
pub struct AttemptTrace {
    /// The reply gave a value that fits the type.
    pub ok: bool,
    /// Prompt and completion tokens, as the server counted them.
    pub tokens: u64,
    /// Why the reply was rejected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The reply as received, when it was rejected and the row kept it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw: Option<String>,
}

/// What a row did on one task.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    pub attempts: Vec<AttemptTrace>,
    /// The answer as JSON: the typed value written back, or the validated JSON.
    pub value: Option<Value>,
    /// Why there is no value (attempts ran out, the server failed …).
    pub error: Option<String>,
    /// Modes given up on during the task (the toolschema rows under `Mode::Auto`, the
    /// instructor row when forced tool choice is rejected).
    pub fallbacks: usize,
    /// Calls repeated after a transport failure (timeout, 429, 5xx); not attempts.
    pub retries: usize,
}

/// A scored trace: one row on one task.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub row: String,
    pub task: usize,
    #[serde(rename = "type")]
    pub type_name: &'static str,
    /// A value came back that fits the type.
    pub success: bool,
    /// That value is the expected answer.
    pub exact: bool,
    pub calls: usize,
    pub tokens: u64,
    pub seconds: f64,
    /// The model replied to the first attempt, and the reply gave no value.
    pub first_failed: bool,
    /// The first attempt gave no value and the second one did.
    pub fixed_next: bool,
    pub fallbacks: usize,
    pub retries: usize,
    pub value: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub attempts: Vec<AttemptTrace>,
}

impl Outcome {
    pub fn score(
        row: &str,
        task: usize,
        type_name: &'static str,
        union: bool,
        expected: &Value,
        trace: Trace,
        seconds: f64,
    ) -> Outcome {
        let first_failed = trace.attempts.first().is_some_and(|a| !a.ok);
        let second_ok = trace.attempts.get(1).is_some_and(|a| a.ok);
        let exact = trace
            .value
            .as_ref()
            .is_some_and(|got| exactly_right(expected, got, union));
        Outcome {
            row: row.to_owned(),
            task,
            type_name,
            success: trace.value.is_some(),
            exact,
            calls: trace.attempts.len(),
            tokens: trace.attempts.iter().map(|a| a.tokens).sum(),
            seconds,
            first_failed,
            fixed_next: first_failed && second_ok,
            fallbacks: trace.fallbacks,
            retries: trace.retries,
            value: trace.value,
            error: trace.error,
            attempts: trace.attempts,
        }
    }

    /// The last reply the model sent that the row kept, or the last error.
    pub fn last_reply(&self) -> Option<&str> {
        self.attempts
            .iter()
            .rev()
            .find_map(|a| a.raw.as_deref().or(a.error.as_deref()))
            .or(self.error.as_deref())
    }
}

/// Whether `got` is the expected answer: strings exactly, numbers numerically, an absent
/// key the same as `null`; in a union, any direct answer when a direct answer was expected.
pub fn exactly_right(expected: &Value, got: &Value, union: bool) -> bool {
    if union && expected.get("answer").is_some() {
        return got.get("answer").is_some();
    }
    same(expected, got)
}

fn same(expected: &Value, got: &Value) -> bool {
    match (expected, got) {
        (Value::Number(a), Value::Number(b)) => match (a.as_f64(), b.as_f64()) {
            (Some(a), Some(b)) => (a - b).abs() <= 1e-9 * a.abs().max(1.0),
            _ => a == b,
        },
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b))
        }
        (Value::Object(a), Value::Object(b)) => {
            let at = |map: &serde_json::Map<String, Value>, key: &str| {
                map.get(key).cloned().unwrap_or(Value::Null)
            };
            a.keys()
                .chain(b.keys())
                .all(|key| same(&at(a, key), &at(b, key)))
        }
        _ => expected == got,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_compare_by_value_and_absent_keys_are_null() {
        let expected = json!({"amount": 86, "merchant": null, "items": [1.5]});
        assert!(exactly_right(
            &expected,
            &json!({"amount": 86.0, "items": [1.5]}),
            false
        ));
        assert!(!exactly_right(
            &expected,
            &json!({"amount": 86.0, "merchant": "", "items": [1.5]}),
            false
        ));
        assert!(!exactly_right(
            &expected,
            &json!({"amount": 86.01, "items": [1.5]}),
            false
        ));
    }

    #[test]
    fn a_union_answer_is_right_whatever_its_text_but_a_call_is_not() {
        let expected = json!({"answer": "(any text)"});
        assert!(exactly_right(&expected, &json!({"answer": "Hello!"}), true));
        assert!(!exactly_right(
            &expected,
            &json!({"name": "get_weather", "arguments": {}}),
            true
        ));
        let call = json!({"name": "get_weather", "arguments": {"city": "Lyon"}});
        assert!(!exactly_right(&call, &json!({"answer": "Lyon"}), true));
        assert!(!exactly_right(
            &call,
            &json!({"name": "get_weather", "arguments": {"city": "lyon"}}),
            true
        ));
    }
}
