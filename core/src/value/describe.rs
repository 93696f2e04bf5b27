//! A JSON value in the words of a message: `the string "3"`, `the number 1.5`, a value
//! quoted as compact JSON, long ones cut with an ellipsis.

use serde_json::Value;

use crate::error::{needs_escape, one_line_json};

/// Quotes longer than this many characters are cut with an ellipsis.
pub(crate) const MAX_QUOTE: usize = 60;

/// `the string "3"`, `the number 1.5`, `an object`.
pub(crate) fn describe_value(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => {
            let mut out = String::from("the number ");
            match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => push_decimal(&mut out, u),
                (None, Some(i)) => {
                    out.push('-');
                    push_decimal(&mut out, i.unsigned_abs());
                }
                _ => out.push_str(&n.to_string()),
            }
            out
        }
        Value::String(_) => format!("the string {}", short_json(value)),
        Value::Array(items) if items.is_empty() => "an empty array".into(),
        Value::Array(_) => "an array".into(),
        Value::Object(map) if map.is_empty() => "an empty object".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// [`short_json`] of a string, without making a `Value` of it first.
pub(crate) fn short_str(s: &str) -> String {
    if s.len() <= MAX_QUOTE && quoted_as_is(s) {
        let mut out = String::with_capacity(s.len() + 2);
        out.push('"');
        out.push_str(s);
        out.push('"');
        return out;
    }
    short_json(&Value::String(s.to_owned()))
}

/// A byte JSON writes as it is inside a string.
fn needs_no_escape(b: u8) -> bool {
    b >= 0x20 && b != b'"' && b != b'\\' && b != 0x7f
}

/// Whether a string is quoted as it is: nothing JSON escapes, and nothing that would
/// break a line (U+2028, the C1 controls), which JSON leaves as it is.
fn quoted_as_is(s: &str) -> bool {
    s.bytes().all(needs_no_escape) && (s.is_ascii() || !s.chars().any(needs_escape))
}

/// A value as compact JSON, long strings cut with an ellipsis.
pub(crate) fn short_json(value: &Value) -> String {
    match value {
        // Most strings need no escape: quoted as they are, without the serializer.
        Value::String(s) if s.len() <= MAX_QUOTE && quoted_as_is(s) => short_str(s),
        Value::String(s) if s.chars().count() > MAX_QUOTE => {
            let cut: String = s.chars().take(MAX_QUOTE).collect();
            format!("{}…", one_line_json(Value::String(cut).to_string()))
        }
        Value::Array(_) | Value::Object(_) => {
            let text = one_line_json(value.to_string());
            if text.chars().count() > MAX_QUOTE {
                let cut: String = text.chars().take(MAX_QUOTE).collect();
                format!("{cut}…")
            } else {
                text
            }
        }
        other => one_line_json(other.to_string()),
    }
}

/// Allowed values for a message, at most 20 listed.
pub(crate) fn list_values(values: &[Value]) -> Vec<String> {
    let mut out: Vec<String> = values.iter().take(20).map(short_json).collect();
    if values.len() > 20 {
        out.push(format!("… ({} more)", values.len() - 20));
    }
    out
}

/// Writes `n` in decimal, without the formatting machinery (every array a pointer passes
/// through, every number a violation quotes).
pub(crate) fn push_decimal(out: &mut String, n: u64) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    let mut rest = n;
    loop {
        start -= 1;
        digits[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    // Only ASCII digits were written.
    out.push_str(std::str::from_utf8(&digits[start..]).unwrap_or_default());
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn decimals_are_written_as_format_writes_them() {
        for n in [0, 1, 9, 10, 99, 100, 12345, u64::MAX] {
            let mut out = String::from("/");
            push_decimal(&mut out, n);
            assert_eq!(out, format!("/{n}"));
        }
    }

    #[test]
    fn numbers_are_described_as_json_writes_them() {
        for n in [
            json!(0),
            json!(7),
            json!(-7),
            json!(i64::MIN),
            json!(u64::MAX),
            json!(1.5),
            json!(-0.25),
            json!(1e300),
        ] {
            let expected = format!("the number {n}");
            assert_eq!(describe_value(&n), expected);
        }
    }
}
