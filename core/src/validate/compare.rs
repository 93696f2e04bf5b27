//! JSON equality and number comparison as JSON Schema defines them: `1` equals `1.0`.

use std::cmp::Ordering;

use serde_json::{Number, Value};

/// Equality of JSON values where numbers compare by value.
pub(crate) fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => cmp_number(x, y) == Ordering::Equal,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

/// An exact value of a JSON number: integers stay integers.
enum Exact {
    Int(i128),
    Float(f64),
}

fn exact(n: &Number) -> Exact {
    if let Some(i) = n.as_i64() {
        Exact::Int(i128::from(i))
    } else if let Some(u) = n.as_u64() {
        Exact::Int(i128::from(u))
    } else {
        let f = n.as_f64().unwrap_or(f64::NAN);
        // An integral float within i128 converts exactly.
        if f.fract() == 0.0 && f.abs() < 1.0e38 {
            Exact::Int(f as i128)
        } else {
            Exact::Float(f)
        }
    }
}

/// Compares two JSON numbers exactly where both are integral.
pub(crate) fn cmp_number(a: &Number, b: &Number) -> Ordering {
    match (exact(a), exact(b)) {
        (Exact::Int(x), Exact::Int(y)) => x.cmp(&y),
        (Exact::Int(x), Exact::Float(y)) => (x as f64).partial_cmp(&y).unwrap_or(Ordering::Equal),
        (Exact::Float(x), Exact::Int(y)) => x.partial_cmp(&(y as f64)).unwrap_or(Ordering::Equal),
        (Exact::Float(x), Exact::Float(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
    }
}

/// Whether `n` is a whole multiple of `step`.
pub(crate) fn is_multiple_of(n: &Number, step: &Number) -> bool {
    match (exact(n), exact(step)) {
        (Exact::Int(x), Exact::Int(y)) if y != 0 => x % y == 0,
        _ => {
            let (x, y) = (n.as_f64().unwrap_or(0.0), step.as_f64().unwrap_or(1.0));
            let quotient = x / y;
            if !quotient.is_finite() {
                return false;
            }
            // Decimal steps such as 0.01 are not exact in binary; accept a quotient within
            // rounding error of a whole number.
            (quotient - quotient.round()).abs() <= quotient.abs().max(1.0) * f64::EPSILON * 4.0
        }
    }
}

/// The indices of the first two equal items, if any.
pub(crate) fn first_duplicate(items: &[Value]) -> Option<(usize, usize)> {
    if items.len() > 64 {
        // Hash a canonical form so long arrays stay linear.
        let mut seen = std::collections::HashMap::new();
        for (i, item) in items.iter().enumerate() {
            if let Some(first) = seen.insert(canonical(item), i) {
                return Some((first, i));
            }
        }
        return None;
    }
    for (j, b) in items.iter().enumerate() {
        if let Some(i) = items[..j].iter().position(|a| json_eq(a, b)) {
            return Some((i, j));
        }
    }
    None
}

/// A string that is equal for equal JSON values: sorted keys, integral floats as integers.
fn canonical(value: &Value) -> String {
    match value {
        Value::Number(n) => match exact(n) {
            Exact::Int(i) => i.to_string(),
            Exact::Float(f) => format!("{f:?}"),
        },
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(canonical).collect();
            format!("[{}]", parts.join(","))
        }
        Value::Object(map) => {
            let mut parts: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}:{}", Value::String(k.clone()), canonical(v)))
                .collect();
            parts.sort();
            format!("{{{}}}", parts.join(","))
        }
        other => other.to_string(),
    }
}
