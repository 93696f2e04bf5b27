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

/// The number as a float, when the float is exactly it.
pub(crate) fn exact_float(n: &Number) -> Option<f64> {
    const EXACT: u64 = 1 << 53;
    if let Some(i) = n.as_i64() {
        (i.unsigned_abs() <= EXACT).then_some(i as f64)
    } else if let Some(u) = n.as_u64() {
        (u <= EXACT).then_some(u as f64)
    } else {
        n.as_f64()
    }
}

/// Compares two JSON numbers exactly where both are integral.
pub(crate) fn cmp_number(a: &Number, b: &Number) -> Ordering {
    cmp_number_as(a, exact_float(a), b)
}

/// [`cmp_number`] with `a` already read as a float where that is exact (`exact_float`):
/// a value compared with several limits is read once.
pub(crate) fn cmp_number_as(a: &Number, a_float: Option<f64>, b: &Number) -> Ordering {
    // Floats and integers below 2^53 compare exactly as floats.
    if let (Some(x), Some(y)) = (a_float, exact_float(b)) {
        return x.partial_cmp(&y).unwrap_or(Ordering::Equal);
    }
    match (exact(a), exact(b)) {
        (Exact::Int(x), Exact::Int(y)) => x.cmp(&y),
        (Exact::Int(x), Exact::Float(y)) => (x as f64).partial_cmp(&y).unwrap_or(Ordering::Equal),
        (Exact::Float(x), Exact::Int(y)) => x.partial_cmp(&(y as f64)).unwrap_or(Ordering::Equal),
        (Exact::Float(x), Exact::Float(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
    }
}

/// Whether `n` is a whole multiple of `step`, exactly, taking both as the decimals they
/// were written as: `0.0075` is a multiple of `0.0001` and `1e308` of `0.5`, though
/// neither division is exact in binary floating point.
pub(crate) fn is_multiple_of(n: &Number, step: &Number) -> bool {
    let (Some(x), Some(y)) = (Decimal::of(n), Decimal::of(step)) else {
        return false;
    };
    if y.digits == 0 {
        return false;
    }
    if x.digits == 0 {
        return true;
    }
    // x / y = (x.digits / y.digits) × 10^(x.exponent - y.exponent)
    if x.exponent >= y.exponent {
        let shift = (x.exponent - y.exponent).unsigned_abs();
        (x.digits % y.digits * pow10_mod(shift, y.digits)).is_multiple_of(y.digits)
    } else {
        let shift = (y.exponent - x.exponent).unsigned_abs();
        10u128
            .checked_pow(shift)
            .and_then(|scale| scale.checked_mul(y.digits))
            .is_some_and(|divisor| x.digits.is_multiple_of(divisor))
    }
}

/// The magnitude of a JSON number as `digits × 10^exponent`, `digits` below 2^64.
#[derive(Debug, PartialEq)]
struct Decimal {
    digits: u128,
    exponent: i32,
}

impl Decimal {
    fn of(n: &Number) -> Option<Decimal> {
        let (mut digits, mut exponent) = if let Some(u) = n.as_u64() {
            (u128::from(u), 0)
        } else if let Some(i) = n.as_i64() {
            (u128::from(i.unsigned_abs()), 0)
        } else {
            let f = n.as_f64().filter(|f| f.is_finite())?;
            // `{:e}` writes the fewest digits that read back as the same float: the
            // number as the JSON text wrote it, up to 17 significant digits.
            let text = format!("{:e}", f.abs());
            let (mantissa, exponent) = text.split_once('e')?;
            let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
            let digits: u128 = format!("{whole}{fraction}").parse().ok()?;
            let exponent = exponent.parse::<i32>().ok()? - i32::try_from(fraction.len()).ok()?;
            (digits, exponent)
        };
        while digits != 0 && digits.is_multiple_of(10) {
            digits /= 10;
            exponent += 1;
        }
        Some(Decimal { digits, exponent })
    }
}

/// 10^exponent mod modulus, for a modulus below 2^64 (so products fit in a u128).
fn pow10_mod(mut exponent: u32, modulus: u128) -> u128 {
    let mut result = 1 % modulus;
    let mut base = 10 % modulus;
    while exponent > 0 {
        if exponent & 1 == 1 {
            result = result * base % modulus;
        }
        base = base * base % modulus;
        exponent >>= 1;
    }
    result
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

#[cfg(test)]
mod tests {
    use super::*;

    fn number(text: &str) -> Number {
        serde_json::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn multiple(n: &str, step: &str) -> bool {
        is_multiple_of(&number(n), &number(step))
    }

    #[test]
    fn multiples_are_exact_in_decimal() {
        assert!(multiple("0.0075", "0.0001"));
        assert!(!multiple("0.00751", "0.0001"));
        assert!(multiple("4.5", "1.5"));
        assert!(!multiple("35", "1.5"));
        assert!(multiple("0.3", "0.1"));
        assert!(multiple("19.99", "0.01"));
        assert!(multiple("1e308", "0.5"));
        assert!(!multiple("1e308", "0.123456789"));
        assert!(multiple("12391239123", "1e-8"));
        assert!(multiple("-12", "4"));
        assert!(multiple("0", "0.7"));
        assert!(multiple("18446744073709551615", "5"));
        assert!(!multiple("0.5", "1e30"));
        assert!(multiple("1e30", "1e29"));
    }

    #[test]
    fn numbers_compare_by_value() {
        assert!(json_eq(&number("1").into(), &number("1.0").into()));
        assert_eq!(cmp_number(&number("-0.5"), &number("0")), Ordering::Less);
        // Around 2^53, where floats stop holding every integer.
        let cases = [
            ("9007199254740993", "9007199254740992.0", Ordering::Greater),
            ("9007199254740992", "9007199254740992.0", Ordering::Equal),
            ("-9007199254740993", "-9007199254740992", Ordering::Less),
            (
                "18446744073709551615",
                "18446744073709551614",
                Ordering::Greater,
            ),
            ("-3", "2.5", Ordering::Less),
            ("1e300", "5", Ordering::Greater),
            ("0.99", "0", Ordering::Greater),
            ("100000", "100000.0", Ordering::Equal),
        ];
        for (a, b, expected) in cases {
            assert_eq!(cmp_number(&number(a), &number(b)), expected, "{a} vs {b}");
            assert_eq!(
                cmp_number(&number(b), &number(a)),
                expected.reverse(),
                "{b} vs {a}"
            );
        }
        assert_eq!(
            first_duplicate(&[1.into(), number("1.0").into()]),
            Some((0, 1))
        );
        // Long arrays compare canonical forms.
        let mut long: Vec<Value> = (0..100).map(Value::from).collect();
        long.push(number("42.0").into());
        assert_eq!(first_duplicate(&long), Some((42, 100)));
    }
}
