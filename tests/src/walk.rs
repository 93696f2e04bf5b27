//! Walks a JSON Schema and builds a proptest strategy for values meant to be valid.

use std::borrow::Cow;
use std::cell::Cell;

use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::{BoxedStrategy, Union};
use serde_json::{Map, Number, Value};

use crate::mutate;

/// Keywords beside a `$ref` that do not constrain values.
const ANNOTATIONS: &[&str] = &[
    "$ref",
    "$schema",
    "$defs",
    "description",
    "title",
    "default",
    "examples",
];

/// How many `$ref`s deep a value may go: recursive types end here.
const REF_BUDGET: u32 = 3;

/// In a value mutated everywhere, each spot keeps its shape this many times for every
/// mutation.
const KEEP_ODDS: u32 = 4;

/// Characters strings are made of: ASCII, accents, CJK, an emoji (two UTF-16 units),
/// the characters JSON escapes, and two that regex dialects disagree on as whitespace
/// (U+FEFF is whitespace in ECMA-262, U+0085 is in Unicode).
pub(crate) const CHARS: &[char] = &[
    'a', 'b', 'z', 'A', 'Q', '0', '7', ' ', '-', '_', 'é', 'ß', '日', '😀', '"', '\\', '\n',
    '\u{feff}', '\u{85}',
];

/// Where a walk mutates the values it builds.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Nowhere: values meant to be valid.
    Clean,
    /// At the spot with this number (spots are numbered in walk order), and only there.
    At(usize),
    /// Anywhere, one spot in `KEEP_ODDS + 1`.
    Everywhere,
}

/// Walks one schema; each schema the walk meets is a spot where values may be mutated.
#[derive(Clone, Copy)]
pub(crate) struct Walker<'a> {
    root: &'a Value,
    mode: Mode,
    spots: &'a Cell<usize>,
}

impl<'a> Walker<'a> {
    pub fn new(root: &'a Value, mode: Mode, spots: &'a Cell<usize>) -> Self {
        Walker { root, mode, spots }
    }

    /// Values for the root schema.
    pub fn root(self) -> BoxedStrategy<Value> {
        self.node(self.root, REF_BUDGET)
            .unwrap_or_else(|| Just(Value::Null).boxed())
    }

    pub fn clean(self) -> Self {
        Walker {
            mode: Mode::Clean,
            ..self
        }
    }

    /// The schema `schema` stands for: `$ref`s followed, with the keywords written beside
    /// a `$ref` (`minimum` on a newtype field) laid over its target; and how many `$ref`s
    /// were followed.
    pub fn resolve(self, schema: &'a Value) -> (Cow<'a, Value>, u32) {
        let mut current = Cow::Borrowed(schema);
        let mut hops = 0;
        while hops < 16 {
            let Some(reference) = current.get("$ref").and_then(Value::as_str) else {
                break;
            };
            let Some(target) = self.target(reference) else {
                break;
            };
            let siblings: Map<String, Value> = current
                .as_object()
                .into_iter()
                .flatten()
                .filter(|(k, _)| !ANNOTATIONS.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            current = match target {
                Value::Object(map) if !siblings.is_empty() => {
                    let mut merged = map.clone();
                    merged.remove("$defs");
                    merged.extend(siblings);
                    Cow::Owned(Value::Object(merged))
                }
                _ => Cow::Borrowed(target),
            };
            hops += 1;
        }
        (current, hops)
    }

    fn target(self, reference: &str) -> Option<&'a Value> {
        if reference == "#" {
            return Some(self.root);
        }
        let name = reference.strip_prefix("#/$defs/")?;
        let name = name.replace("~1", "/").replace("~0", "~");
        self.root.get("$defs")?.get(name)
    }

    /// Values for `schema`, or `None` when none can be built within `budget` `$ref`s.
    pub fn node(self, schema: &'a Value, budget: u32) -> Option<BoxedStrategy<Value>> {
        let spot = self.spots.get();
        if self.mode != Mode::Clean {
            self.spots.set(spot + 1);
        }
        // Walked in every mode, so that the spots below are numbered alike.
        let shaped = self.shaped(schema, budget)?;
        let mutants = || mutate::mutants(self, schema, self.clean().shaped(schema, budget));
        Some(match self.mode {
            Mode::Clean => shaped,
            Mode::At(target) if target == spot => mutants(),
            Mode::At(_) => shaped,
            Mode::Everywhere => {
                Union::new_weighted(vec![(KEEP_ODDS, shaped), (1, mutants())]).boxed()
            }
        })
    }

    fn shaped(self, schema: &'a Value, budget: u32) -> Option<BoxedStrategy<Value>> {
        let (schema, hops) = self.resolve(schema);
        let budget = budget.checked_sub(hops)?;
        let map = match &*schema {
            Value::Bool(true) => return Some(any_json()),
            Value::Object(map) => map,
            _ => return None,
        };
        // A walker of the shorter lifetime of `schema`, which may be a merged copy.
        let walker: Walker<'_> = self;
        walker.keywords(map, budget)
    }

    fn keywords(self, map: &'a Map<String, Value>, budget: u32) -> Option<BoxedStrategy<Value>> {
        if let Some(constant) = map.get("const") {
            return Some(Just(constant.clone()).boxed());
        }
        if let Some(Value::Array(values)) = map.get("enum")
            && !values.is_empty()
        {
            return Some(select(values.clone()).boxed());
        }
        for keyword in ["anyOf", "oneOf"] {
            if let Some(Value::Array(alternatives)) = map.get(keyword) {
                let options: Vec<_> = alternatives
                    .iter()
                    .filter_map(|alt| self.node(alt, budget))
                    .collect();
                return (!options.is_empty()).then(|| Union::new(options).boxed());
            }
        }
        let types: Vec<&str> = match map.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => return Some(any_json()),
        };
        let options: Vec<_> = types
            .into_iter()
            .filter_map(|t| match t {
                "null" => Some(Just(Value::Null).boxed()),
                "boolean" => Some(any::<bool>().prop_map(Value::Bool).boxed()),
                "integer" => Some(integers(map)),
                "number" => Some(numbers(map)),
                "string" => Some(strings(map)),
                "array" => self.array(map, budget),
                "object" => self.object(map, budget),
                _ => None,
            })
            .collect();
        (!options.is_empty()).then(|| Union::new(options).boxed())
    }

    fn array(self, map: &'a Map<String, Value>, budget: u32) -> Option<BoxedStrategy<Value>> {
        let min = count(map, "minItems").unwrap_or(0);
        if let Some(Value::Array(prefix)) = map.get("prefixItems") {
            let items: Vec<_> = prefix
                .iter()
                .map(|p| self.node(p, budget))
                .collect::<Option<_>>()?;
            let rest = match map.get("items") {
                Some(Value::Bool(false)) => Just(Vec::new()).boxed(),
                Some(items) => match self.node(items, budget) {
                    Some(item) => prop::collection::vec(item, 0..=2).boxed(),
                    None => Just(Vec::new()).boxed(),
                },
                None => prop::collection::vec(any_json(), 0..=2).boxed(),
            };
            return Some(
                (items, rest)
                    .prop_map(|(mut items, rest)| {
                        items.extend(rest);
                        Value::Array(items)
                    })
                    .boxed(),
            );
        }
        let max = count(map, "maxItems").map_or(min + 3, |max| max.min(min + 4));
        let item = match map.get("items") {
            Some(items) => self.node(items, budget),
            None => Some(any_json()),
        };
        let Some(item) = item else {
            // Too deep for another item: only the empty array, if it is allowed.
            return (min == 0).then(|| Just(Value::Array(Vec::new())).boxed());
        };
        let unique = map.get("uniqueItems") == Some(&Value::Bool(true));
        let short = prop::collection::vec(item.clone(), min..=max.max(min));
        let scalars = map
            .get("items")
            .is_some_and(|i| is_scalar(&self.resolve(i).0));
        let items = if scalars && !map.contains_key("maxItems") {
            // Now and then a long array: validators switch to hashing for `uniqueItems`
            // on long arrays (jsonschema past 15 items, toolschema past 64).
            let long = prop::collection::vec(item, min + 14..=min + 70);
            Union::new_weighted(vec![(9, short.boxed()), (1, long.boxed())]).boxed()
        } else {
            short.boxed()
        };
        Some(
            items
                .prop_map(move |items| Value::Array(if unique { dedup(items) } else { items }))
                .boxed(),
        )
    }

    fn object(self, map: &'a Map<String, Value>, budget: u32) -> Option<BoxedStrategy<Value>> {
        let empty = Map::new();
        let properties = map
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let required: Vec<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let groups = alias_groups(map);
        let mut entries: Vec<BoxedStrategy<Option<(String, Value)>>> = Vec::new();
        for (name, schema) in properties {
            if groups.iter().any(|g| g.keys.contains(name)) {
                continue;
            }
            let is_required = required.contains(&name.as_str());
            let value = match self.node(schema, budget) {
                Some(value) => value,
                None if is_required => return None,
                None => continue,
            };
            let name = name.clone();
            let entry = value.prop_map(move |v| (name.clone(), v));
            entries.push(if is_required {
                entry.prop_map(Some).boxed()
            } else {
                prop::option::of(entry).boxed()
            });
        }
        for group in groups {
            let schema = properties.get(&group.keys[0])?;
            let entry = (select(group.keys.clone()), self.node(schema, budget)?);
            entries.push(if group.required {
                entry.prop_map(Some).boxed()
            } else {
                prop::option::of(entry).boxed()
            });
        }
        let extra = match map.get("additionalProperties") {
            Some(Value::Bool(false)) => None,
            Some(schema) => self.node(schema, budget),
            None => Some(any_json()),
        };
        let extras = match extra {
            Some(value) => prop::collection::vec((key(), value), 0..=3).boxed(),
            None => Just(Vec::new()).boxed(),
        };
        let known: Vec<String> = properties.keys().cloned().collect();
        Some(
            (entries.prop_shuffle(), extras)
                .prop_map(move |(entries, extras)| {
                    let mut object: Map<String, Value> = entries.into_iter().flatten().collect();
                    for (k, v) in extras {
                        if !known.contains(&k) && !object.contains_key(&k) {
                            object.insert(k, v);
                        }
                    }
                    Value::Object(object)
                })
                .boxed(),
        )
    }
}

/// Whether values of `schema` are neither arrays nor objects.
fn is_scalar(schema: &Value) -> bool {
    if schema.get("enum").is_some() || schema.get("const").is_some() {
        return true;
    }
    match schema.get("type") {
        Some(Value::String(t)) => t != "array" && t != "object",
        Some(Value::Array(ts)) => !ts.iter().any(|t| t == "array" || t == "object"),
        _ => false,
    }
}

/// Keys that name the same field (toolschema writes aliases as `allOf` rules): exactly
/// one of them when the field is required, at most one otherwise.
pub(crate) struct AliasGroup {
    pub keys: Vec<String>,
    pub required: bool,
}

pub(crate) fn alias_groups(map: &Map<String, Value>) -> Vec<AliasGroup> {
    let one_of_required = |rule: &Value| -> Option<Vec<String>> {
        rule.get("oneOf")?
            .as_array()?
            .iter()
            .map(|r| Some(r.get("required")?.get(0)?.as_str()?.to_owned()))
            .collect()
    };
    let Some(Value::Array(rules)) = map.get("allOf") else {
        return Vec::new();
    };
    rules
        .iter()
        .filter_map(|rule| {
            if let Some(keys) = one_of_required(rule) {
                return Some(AliasGroup {
                    keys,
                    required: true,
                });
            }
            let keys = one_of_required(rule.get("anyOf")?.get(1)?)?;
            Some(AliasGroup {
                keys,
                required: false,
            })
        })
        .collect()
}

pub(crate) fn count(map: &Map<String, Value>, keyword: &str) -> Option<usize> {
    map.get(keyword)?.as_u64().map(|n| n as usize)
}

/// The integer bounds of a schema, where it has them.
pub(crate) fn integer_bounds(map: &Map<String, Value>) -> (Option<i128>, Option<i128>) {
    let is_integer = match map.get("type") {
        Some(Value::String(t)) => t == "integer",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "integer"),
        _ => false,
    };
    if !is_integer {
        return (None, None);
    }
    let bound = |keyword: &str, round: fn(f64) -> f64| {
        let n = map.get(keyword)?.as_number()?;
        n.as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from))
            .or_else(|| n.as_f64().map(|f| round(f) as i128))
    };
    (bound("minimum", f64::ceil), bound("maximum", f64::floor))
}

/// A JSON integer: `i64`, then `u64`, then the nearest float.
pub(crate) fn int_value(i: i128) -> Value {
    if let Ok(i) = i64::try_from(i) {
        Value::from(i)
    } else if let Ok(u) = u64::try_from(i) {
        Value::from(u)
    } else {
        float_value(i as f64)
    }
}

pub(crate) fn float_value(f: f64) -> Value {
    Number::from_f64(f).map_or(Value::Null, Value::Number)
}

fn integers(map: &Map<String, Value>) -> BoxedStrategy<Value> {
    let (min, max) = integer_bounds(map);
    let lo = min.unwrap_or(-1000);
    let hi = max.unwrap_or(1000).max(lo);
    let mut picks = vec![lo, hi, (lo + 1).min(hi), (hi - 1).max(lo), 0.clamp(lo, hi)];
    picks.dedup();
    let near_zero = (-10i128).clamp(lo, hi)..=10i128.clamp(lo, hi);
    let integer = Union::new_weighted(vec![
        (2, select(picks).boxed()),
        (3, (lo..=hi).boxed()),
        (3, near_zero.boxed()),
    ]);
    // JSON Schema counts `3.0` as an integer: write one in ten as a float.
    (integer, 0..10u8)
        .prop_map(|(i, form)| {
            if form == 0 && i.abs() <= 1 << 53 {
                float_value(i as f64)
            } else {
                int_value(i)
            }
        })
        .boxed()
}

fn numbers(map: &Map<String, Value>) -> BoxedStrategy<Value> {
    let bound = |keyword: &str| map.get(keyword).and_then(Value::as_f64);
    let lo = bound("minimum").unwrap_or(-1.0e6);
    let hi = bound("maximum").unwrap_or(1.0e6).max(lo);
    let unbounded = bound("minimum").is_none() && bound("maximum").is_none();
    let mut nice = vec![lo, hi, 0.5, -2.25, 0.1, 1.0e-7, -0.0];
    if unbounded {
        nice.extend([1.0e300, -1.0e300, f64::MAX, f64::MIN_POSITIVE]);
    }
    let nice: Vec<Value> = nice
        .into_iter()
        .filter(|f| (lo..=hi).contains(f))
        .map(float_value)
        .collect();
    let whole: Vec<Value> = (-3i64..=3)
        .filter(|&i| (lo..=hi).contains(&(i as f64)))
        .map(Value::from)
        .collect();
    let mut options = vec![
        (2, select(nice).boxed()),
        (3, (lo..=hi).prop_map(float_value).boxed()),
    ];
    if !whole.is_empty() {
        options.push((2, select(whole).boxed()));
    }
    Union::new_weighted(options).boxed()
}

fn strings(map: &Map<String, Value>) -> BoxedStrategy<Value> {
    if let Some(formatted) = map
        .get("format")
        .and_then(Value::as_str)
        .and_then(formatted)
    {
        return formatted;
    }
    if let Some(pattern) = map.get("pattern").and_then(Value::as_str) {
        let inner = pattern.strip_prefix('^').unwrap_or(pattern);
        let inner = inner.strip_suffix('$').unwrap_or(inner);
        // JSON Schema's `\d`, `\w` and `\s` are ECMA's ASCII classes; proptest reads them as
        // Unicode. Mostly ASCII strings (the valid ones), sometimes Unicode (the edge).
        let ascii = inner
            .replace("\\d", "[0-9]")
            .replace("\\w", "[A-Za-z0-9_]")
            .replace("\\s", "[ \\t\\n]");
        if let (Ok(ascii), Ok(wide)) = (
            proptest::string::string_regex(&ascii),
            proptest::string::string_regex(inner),
        ) {
            let ascii = ascii.prop_map(Value::String).boxed();
            let wide = wide.prop_map(Value::String).boxed();
            return Union::new_weighted(vec![(3, ascii), (1, wide)]).boxed();
        }
    }
    let min = count(map, "minLength").unwrap_or(0);
    let max = count(map, "maxLength").map_or(min + 6, |max| max.min(min + 6));
    text(min..=max.max(min))
}

/// Values of the formats toolschema asserts, and near misses: other spellings serde or a
/// person would accept, impossible dates and times.
fn formatted(format: &str) -> Option<BoxedStrategy<Value>> {
    let hex = "[0-9a-fA-F]";
    let uuid = format!("{hex}{{8}}-{hex}{{4}}-{hex}{{4}}-{hex}{{4}}-{hex}{{12}}");
    let valid = match format {
        "uuid" => uuid.clone(),
        "date" => "[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])".to_owned(),
        "time" => "([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{1,3})?(Z|z|[+-]0[0-9]:[0-5][0-9])".to_owned(),
        "date-time" => "[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])[Tt]([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](Z|[+-]0[0-9]:[0-5][0-9])".to_owned(),
        _ => return None,
    };
    let near = match format {
        "uuid" => format!("{hex}{{32}}|\\{{{uuid}\\}}|urn:uuid:{uuid}|{hex}{{8}}-{hex}{{4}}-{hex}{{4}}-{hex}{{4}}-{hex}{{11}}[g-z]"),
        "date" => "[0-9]{4}-(0[0-9]|1[0-4])-(0[0-9]|2[89]|3[0-2])|[0-9]{2}/[0-9]{2}/[0-9]{4}|[0-9]{4}-[1-9]-[1-9]".to_owned(),
        "time" => "(2[3-5]|[01][0-9]):(59|60):(59|60|61)(Z|[+-](0[0-9]|2[3-5]):[0-9]{2})?|[0-9]{2}:[0-9]{2}:[0-9]{2} [A-Z]{3}".to_owned(),
        _ => "[0-9]{4}-(02-(2[89]|3[01])|(0[469]|11)-3[01])[T ](23:59:60|12:00:00)(Z|[+-]0[0-9]:[0-5][0-9])?|[0-9]{4}-[0-9]{2}-[0-9]{2}".to_owned(),
    };
    let valid = proptest::string::string_regex(&valid)
        .ok()?
        .prop_map(Value::String);
    let near = proptest::string::string_regex(&near)
        .ok()?
        .prop_map(Value::String);
    Some(Union::new_weighted(vec![(8, valid.boxed()), (1, near.boxed())]).boxed())
}

/// Strings of `CHARS` with a length (in characters) in `lengths`.
pub(crate) fn text(lengths: std::ops::RangeInclusive<usize>) -> BoxedStrategy<Value> {
    prop::collection::vec(select(CHARS), lengths)
        .prop_map(|chars| Value::String(chars.into_iter().collect()))
        .boxed()
}

/// Object keys for maps: short, sometimes odd.
fn key() -> BoxedStrategy<String> {
    let odd = select(vec!["", "~a/b", "ключ", "Id", "0", "a b"]).prop_map(str::to_owned);
    prop_oneof![3 => "[a-z]{1,4}", 1 => odd].boxed()
}

/// Any small JSON value.
pub(crate) fn any_json() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-5i64..5).prop_map(Value::from),
        select(vec![0.5, -1.25, 1.0e300]).prop_map(float_value),
        "[a-z]{0,3}".prop_map(Value::String),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::vec(("[a-z]{1,2}", inner), 0..3)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
    .boxed()
}

/// The items without repeats (JSON equality: `1` equals `1.0`), first occurrence kept.
fn dedup(items: Vec<Value>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::with_capacity(items.len());
    for item in items {
        if !out.iter().any(|seen| json_eq(seen, &item)) {
            out.push(item);
        }
    }
    out
}

fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
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
