//! Mutations: the values a validator is most likely to misjudge at one spot of a schema.

use proptest::prelude::*;
use proptest::sample::{Index, select};
use proptest::strategy::{BoxedStrategy, Union};
use serde_json::{Map, Value, json};

use crate::walk::{self, CHARS, Walker, float_value, int_value};

/// Mutants for the spot `schema` describes. `clean` builds values meant to be valid
/// there; the edits start from those.
pub(crate) fn mutants(
    walker: Walker<'_>,
    schema: &Value,
    clean: Option<BoxedStrategy<Value>>,
) -> BoxedStrategy<Value> {
    let (resolved, _) = walker.resolve(schema);
    let mut options: Vec<(u32, BoxedStrategy<Value>)> = vec![(1, select(wrong_types()).boxed())];
    let foreign: Vec<Value> = match admitted(walker, &resolved) {
        Some(types) => wrong_types()
            .into_iter()
            .filter(|v| !types.iter().any(|t| has_type(v, t)))
            .collect(),
        None => Vec::new(),
    };
    if !foreign.is_empty() {
        options.push((3, select(foreign).boxed()));
    }
    let empty = Map::new();
    let map = resolved.as_object().unwrap_or(&empty);
    let allowed: Vec<&Value> = map
        .get("enum")
        .and_then(Value::as_array)
        .map(|values| values.iter().collect())
        .or_else(|| map.get("const").map(|c| vec![c]))
        .unwrap_or_default();
    let names: Vec<Value> = allowed
        .iter()
        .filter_map(|v| v.as_str())
        .flat_map(|s| (0..NEAR_MISSES).map(move |i| Value::from(near_miss(s, i))))
        .collect();
    if !names.is_empty() {
        options.push((3, select(names).boxed()));
    }
    let types: Vec<&str> = match map.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if types.contains(&"integer") || types.contains(&"number") {
        let (edges, near) = numbers_at_bounds(map);
        if !edges.is_empty() {
            options.push((4, select(edges).boxed()));
        }
        if !near.is_empty() {
            options.push((2, select(near).boxed()));
        }
        options.push((2, select(extreme_numbers()).boxed()));
    }
    if types.contains(&"string") {
        let min = walk::count(map, "minLength");
        let max = walk::count(map, "maxLength");
        let lengths: Vec<usize> = [
            min.and_then(|n| n.checked_sub(1)),
            min,
            max,
            max.map(|n| n + 1),
        ]
        .into_iter()
        .flatten()
        .collect();
        if !lengths.is_empty() {
            let limits: Vec<_> = lengths.into_iter().map(|n| walk::text(n..=n)).collect();
            options.push((2, Union::new(limits).boxed()));
        }
    }
    if let Some(clean) = clean {
        let groups: Vec<Vec<String>> = walk::alias_groups(map)
            .into_iter()
            .map(|g| g.keys)
            .collect();
        let edited = (clean, any::<Index>(), any::<Index>(), 0..EDITS)
            .prop_map(move |(value, at, pick, kind)| edit(value, [at, pick], kind, &groups))
            .boxed();
        options.push((4, edited));
    }
    Union::new_weighted(options).boxed()
}

/// The JSON types a schema admits, looking through `$ref`, `anyOf` and `oneOf`; `None`
/// when some part admits every type.
fn admitted(walker: Walker<'_>, schema: &Value) -> Option<Vec<String>> {
    let (schema, _) = walker.resolve(schema);
    if let Some(types) = schema.get("type") {
        return match types {
            Value::String(t) => Some(vec![t.clone()]),
            Value::Array(ts) => Some(
                ts.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect(),
            ),
            _ => None,
        };
    }
    let alternatives = schema
        .get("anyOf")
        .or_else(|| schema.get("oneOf"))?
        .as_array()?;
    let mut types = Vec::new();
    for alternative in alternatives {
        types.extend(admitted(walker, alternative)?);
    }
    Some(types)
}

/// Whether `value` has the JSON Schema type `name` (`3.0` is an integer).
fn has_type(value: &Value, name: &str) -> bool {
    match (value, name) {
        (Value::Null, "null") | (Value::Bool(_), "boolean") | (Value::Number(_), "number") => true,
        (Value::Number(n), "integer") => n.as_f64().is_some_and(|f| f.fract() == 0.0),
        (Value::String(_), "string") | (Value::Array(_), "array") => true,
        (Value::Object(_), "object") => true,
        _ => false,
    }
}

/// A value of every JSON type, and the strings a model writes instead of one.
fn wrong_types() -> Vec<Value> {
    vec![
        Value::Null,
        json!(true),
        json!(false),
        json!(0),
        json!(-7),
        json!(2.5),
        json!(""),
        json!("a"),
        json!("42"),
        json!("null"),
        json!([]),
        json!([null]),
        json!([1, 2]),
        json!({}),
        json!({"a": 1}),
    ]
}

/// The extremes of JSON numbers, and numbers validators misjudge.
fn extreme_numbers() -> Vec<Value> {
    let two_63 = 9_223_372_036_854_775_808.0_f64;
    let f32_max = f64::from(f32::MAX);
    vec![
        json!(0),
        json!(-1),
        json!(1),
        json!(3.0),
        json!(1.5),
        float_value(-0.0),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(i64::MAX),
        json!(1u64 << 63),
        float_value(two_63),
        float_value(-two_63),
        float_value((-two_63).next_down()),
        float_value(two_63 * 2.0),
        float_value(1.0e19),
        float_value(1.0e300),
        float_value(-1.0e300),
        float_value(f32_max),
        float_value(f32_max.next_up()),
        float_value(-f32_max.next_up()),
        float_value(f64::MAX),
        float_value(1.0e-300),
    ]
}

/// Numbers at and just outside the schema's bounds: the integers at and next to each
/// bound, then the floats at, between and next to them.
fn numbers_at_bounds(map: &Map<String, Value>) -> (Vec<Value>, Vec<Value>) {
    let (mut edges, mut near) = (Vec::new(), Vec::new());
    let (min, max) = walk::integer_bounds(map);
    for bound in [min, max].into_iter().flatten() {
        edges.extend([int_value(bound - 1), int_value(bound), int_value(bound + 1)]);
        near.extend([
            float_value(bound as f64),
            float_value(bound as f64 - 0.5),
            float_value(bound as f64 + 0.5),
        ]);
    }
    for keyword in ["minimum", "maximum"] {
        if let Some(f) = map.get(keyword).and_then(Value::as_f64) {
            near.extend([
                float_value(f),
                float_value(f.next_up()),
                float_value(f.next_down()),
            ]);
        }
    }
    edges.retain(|v| !v.is_null());
    near.retain(|v| !v.is_null());
    (edges, near)
}

const EDITS: u8 = 8;

/// One small edit of a value meant to be valid: `kind` says which, `at` where (a key,
/// an item, a character) and `pick` with what (a near-miss form, a character).
fn edit(value: Value, [at, pick]: [Index; 2], kind: u8, groups: &[Vec<String>]) -> Value {
    match value {
        Value::Object(map) => Value::Object(edit_object(map, [at, pick], kind, groups)),
        Value::Array(items) => Value::Array(edit_array(items, at, kind)),
        Value::String(s) => Value::String(edit_string(&s, [at, pick], kind)),
        Value::Number(_) => edit_number(&value, kind),
        Value::Bool(b) => match kind % 2 {
            0 => Value::Bool(!b),
            _ => Value::from(b.to_string()),
        },
        Value::Null => Value::from("null"),
    }
}

fn edit_object(
    mut map: Map<String, Value>,
    [at, pick]: [Index; 2],
    kind: u8,
    groups: &[Vec<String>],
) -> Map<String, Value> {
    let keys: Vec<String> = map.keys().cloned().collect();
    let Some(key) = (!keys.is_empty()).then(|| at.get(&keys).clone()) else {
        map.insert("zzz".into(), json!(1));
        return map;
    };
    match kind {
        // Drop a key (often a required one).
        0 | 1 => {
            map.shift_remove(&key);
        }
        // A near-miss key beside the real one.
        2 => {
            let value = map[&key].clone();
            map.insert(near_miss(&key, pick.index(NEAR_MISSES)), value);
        }
        // The real key misspelt.
        3 => {
            if let Some(value) = map.shift_remove(&key) {
                map.insert(near_miss(&key, pick.index(NEAR_MISSES)), value);
            }
        }
        // A key nothing declares.
        4 => {
            let unknown = ["zzz", "", "extra", "ID"][pick.index(4)];
            map.insert(unknown.into(), json!(1));
        }
        // The same field under two of its names.
        5 => {
            let group = groups
                .iter()
                .find(|g| g.iter().any(|k| map.contains_key(k)));
            match group {
                Some(group) => {
                    let present = group.iter().find(|k| map.contains_key(*k));
                    let value = present.map_or(Value::Null, |k| map[k].clone());
                    map.insert(pick.get(group).clone(), value);
                }
                None => {
                    map.shift_remove(&key);
                }
            }
        }
        // `null` in place of a value.
        6 => {
            map.insert(key, Value::Null);
        }
        _ => map.clear(),
    }
    map
}

fn edit_array(mut items: Vec<Value>, at: Index, kind: u8) -> Vec<Value> {
    if items.is_empty() {
        items.push(if kind.is_multiple_of(2) {
            Value::Null
        } else {
            json!(1)
        });
        return items;
    }
    let i = at.index(items.len());
    match kind {
        0 => {
            items.remove(i);
        }
        // A duplicate: sets must reject it.
        1 => items.push(items[i].clone()),
        // The same number written the other way (`1` and `1.0` are equal).
        2 => items.push(reencode(&items[i])),
        3 => items.push(Value::Null),
        4 => items.clear(),
        5 => items[i] = Value::Null,
        6 => items.reverse(),
        _ => items.insert(i, items[i].clone()),
    }
    items
}

fn edit_string(s: &str, [at, pick]: [Index; 2], kind: u8) -> String {
    let chars: Vec<char> = s.chars().collect();
    let i = at.index(chars.len().max(1));
    match kind {
        0 => s.to_uppercase(),
        1 => format!("{s}{}", pick.get(CHARS)),
        2 if !chars.is_empty() => chars
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, c)| c)
            .collect(),
        3 if !chars.is_empty() => {
            let mut chars = chars;
            chars[i] = *pick.get(CHARS);
            chars.into_iter().collect()
        }
        4 => String::new(),
        5 => format!(" {s}"),
        6 => s.repeat(2),
        _ => near_miss(s, pick.index(NEAR_MISSES)),
    }
}

fn edit_number(value: &Value, kind: u8) -> Value {
    let int = value
        .as_i64()
        .map(i128::from)
        .or(value.as_u64().map(i128::from));
    let f = value.as_f64().unwrap_or(0.0);
    match (kind, int) {
        (0, Some(i)) => int_value(i + 1),
        (1, Some(i)) => int_value(i - 1),
        (0, None) => float_value(f + 1.0),
        (1, None) => float_value(f - 1.0),
        (2, _) => float_value(f * 2.0),
        (3, _) => float_value(f + 0.5),
        (4, _) => reencode(value),
        (5, _) => float_value(-f),
        (6, _) => Value::from(value.to_string()),
        _ => float_value(f * 1.0e10),
    }
}

/// The same number in the other form: `3` as `3.0`, `3.0` as `3`.
fn reencode(value: &Value) -> Value {
    match value {
        Value::Number(n) if n.is_f64() => {
            let f = n.as_f64().unwrap_or(0.0);
            if f.fract() == 0.0 && f.abs() < 9.0e18 {
                int_value(f as i128)
            } else {
                value.clone()
            }
        }
        Value::Number(n) => float_value(n.as_f64().unwrap_or(0.0)),
        other => other.clone(),
    }
}

const NEAR_MISSES: usize = 8;

/// A name a model might write instead of `name`: other case, plural, typo, other style.
fn near_miss(name: &str, which: usize) -> String {
    let mut chars: Vec<char> = name.chars().collect();
    match which {
        0 => {
            if let Some(first) = chars.first_mut() {
                *first = if first.is_uppercase() {
                    first.to_lowercase().next().unwrap_or(*first)
                } else {
                    first.to_uppercase().next().unwrap_or(*first)
                };
            }
            chars.into_iter().collect()
        }
        1 => name.to_uppercase(),
        2 => format!("{name}s"),
        3 => {
            chars.pop();
            chars.into_iter().collect()
        }
        4 => {
            if chars.len() >= 2 {
                chars.swap(0, 1);
            }
            chars.into_iter().collect()
        }
        5 => name.replace('_', "-"),
        6 => camel_to_snake(name),
        _ => format!("{name} "),
    }
}

fn camel_to_snake(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_uppercase() && !out.is_empty() {
            out.push('_');
        }
        out.extend(c.to_lowercase());
    }
    if out == name {
        // Already snake case: the camel case form instead.
        let mut upper = false;
        out = name
            .chars()
            .filter_map(|c| {
                if c == '_' {
                    upper = true;
                    return None;
                }
                let c = if upper { c.to_ascii_uppercase() } else { c };
                upper = false;
                Some(c)
            })
            .collect();
    }
    out
}
