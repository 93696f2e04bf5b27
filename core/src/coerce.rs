//! Schema-guided coercion: changes that make a value fit its schema where exactly one
//! reading of it does, each reported. Nothing is rounded, truncated or guessed; the policy,
//! class by class, is in `docs/recovery.md`.
//!
//! Two kinds of change are made. Conversions keep the value and change its JSON type
//! (`"42"` → `42`, one value → a one-item list, an enum value in another case). Readings
//! change the shape around the values the model wrote, or read a value another way
//! (`shapes`, `keys`, `enums`, `abbreviations`, `separators`, `several`): a value put
//! under an object's one required field, an object taken out of a key the schema lacks,
//! a key renamed, an enum value taken out of a note or abbreviated, a patterned string
//! read without its separators; under [`Coercion::Lenient`], a key dropped and several
//! values read as a list. A reading is taken only where it makes the value fit, and among the
//! alternatives of a union only where it makes exactly one fit.

mod abbreviations;
mod enums;
mod keys;
mod separators;
mod several;
mod shapes;

use std::collections::HashMap;

use serde_json::Value;

use crate::envelope::ToolUnion;
use crate::repair::{Fix, FixKind, Location, repair};
use crate::schema::MAX_DEPTH;
use crate::schema::{Node, Schema, Types};
use crate::value::json_eq;

pub(crate) use several::several_values;

/// How much the lenient parse may change a value to fit its schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Coercion {
    /// Syntax repair only: the value must fit as written.
    None,
    /// Changes where exactly one reading fits the schema (the default), each reported:
    /// `"42"` → `42` for a number, `"true"` → `true`, an integer → its digits for text,
    /// one value → a one-item list where a list is expected, JSON inside a string where
    /// an object or array is expected, an enum value matched ignoring case and
    /// `-`/`_`/space, followed by a note, or abbreviated without a vowel (`ml` for
    /// `milliliter` where no other value fits; never a word: `no` is not `normal`); a
    /// value put under an object's one required field, an object taken out of a key the
    /// schema lacks, keys renamed that differ from a field only in case or separators,
    /// a string under a pattern read without the separators between its characters
    /// (`"+47 912 34 567"` → `"+4791234567"` for `^\+\d{7,15}$`), and tool calls
    /// written in other envelopes.
    #[default]
    Safe,
    /// `Safe`, and two readings that take the model's word less literally: keys that are
    /// no near miss of any field dropped where everything else fits, and several values
    /// written one after the other read as the list the schema expects. A dropped key may
    /// hold what the model meant for an optional field under a name of its own
    /// (`reports_to` for `manager`), which the value then lacks: choose this where extra
    /// keys are noise (a `comment`, a `reasoning`), not where every optional field matters.
    Lenient,
}

pub(crate) fn coerce(schema: &Schema, value: &mut Value, level: Coercion, fixes: &mut Vec<Fix>) {
    if level == Coercion::None || schema.is_valid(value) {
        return;
    }
    // A reply that is only a bare word is prose more often than a value for a field.
    let prose = value.is_string()
        && fixes
            .iter()
            .any(|f| *f.kind() == FixKind::UnquotedString && *f.location() == Location::Offset(0));
    let original = (level == Coercion::Lenient).then(|| value.clone());
    let mut found = Vec::new();
    let mut coercer = Coercer::new(schema);
    coercer.prose_root = prose;
    coercer.walk(schema.root(), value, &mut found, 0);
    // Unknown keys are dropped only when everything else fits: otherwise they stay
    // violations, and the model hears which keys are allowed.
    if let Some(mut dropped) = original
        && !schema.is_valid(value)
    {
        let mut dropped_fixes = Vec::new();
        let mut coercer = Coercer::new(schema);
        coercer.prose_root = prose;
        coercer.drop_unknown = true;
        coercer.walk(schema.root(), &mut dropped, &mut dropped_fixes, 0);
        if schema.is_valid(&dropped) {
            *value = dropped;
            found = dropped_fixes;
        }
    }
    fixes.extend(found);
}

fn fix(fixes: &mut Vec<Fix>, kind: FixKind, path: &str) {
    fixes.push(Fix::new(kind, Location::Pointer(path.to_owned())));
}

/// One coercion of a value: where the walk is, and the alternatives it has tried.
struct Coercer<'s> {
    schema: &'s Schema,
    /// The RFC 6901 pointer of the value being walked.
    path: String,
    /// Two alternatives that recurse into the same key meet the same alternatives on the
    /// same values below; coercing toward each again would double the work per level.
    /// Values are copied and changed as the walk goes, so an attempt is known by its
    /// alternative, pointer and depth, and reused only on the very same input.
    /// Whether a value is being put under a field is part of it: that changes the walk.
    /// So is whether a number may be read as text.
    tried: HashMap<(*const Node, String, usize, bool, bool), Vec<Trial>>,
    /// Attempts made rather than remembered: the work done, for the tests.
    attempts: usize,
    /// The node about to be walked is an alternative of a union: `Some(true)` for a union
    /// of tools. The union took the value out of a wrapping key already, against all its
    /// alternatives; and whether a value is a call or the answer is the envelope's question
    /// (`crate::envelope`), so it is not put under the answer's key.
    alternative: Option<bool>,
    /// The root is a bare word, not a JSON value: it is not put under a field.
    prose_root: bool,
    /// Keys that are no near miss of any field are dropped (the second walk).
    drop_unknown: bool,
    /// The depth of an object being read out of its wrapping key: it is not unwrapped again.
    unwrapping: Option<usize>,
    /// A value is being put under a field: what it is walked against is not given another
    /// field to be put under (which, in a schema that refers to itself, would never end).
    wrapping: bool,
    /// The number being walked is tried against a union that may take numbers: it is not
    /// read as text to fit another alternative (`0` against an integer of at least 1 or a
    /// string is a number too small, not the text "0").
    number_alternative: bool,
}

/// An alternative tried on a value: what coercion made of it, and whether that fits.
struct Trial {
    input: Value,
    output: Value,
    fixes: Vec<Fix>,
    fits: bool,
}

impl<'s> Coercer<'s> {
    fn new(schema: &'s Schema) -> Self {
        Coercer {
            schema,
            path: String::new(),
            tried: HashMap::new(),
            attempts: 0,
            alternative: None,
            prose_root: false,
            drop_unknown: false,
            unwrapping: None,
            wrapping: false,
            number_alternative: false,
        }
    }

    fn walk(&mut self, node: &'s Node, value: &mut Value, fixes: &mut Vec<Fix>, depth: usize) {
        let alternative = self.alternative.take();
        if depth > MAX_DEPTH {
            return;
        }
        let node = self.schema.resolve(node);
        if alternative.is_none() && self.unwrap(node, value, fixes, depth) {
            return;
        }
        if let Some(types) = node.types
            && !types.admits(value)
        {
            // A number is read as text only as the value the model wrote for this field:
            // not as one put under a field, and not where the union takes numbers.
            let number_as_text = !self.wrapping && !self.number_alternative;
            convert(types, value, number_as_text, &self.path, fixes);
            let prose = self.prose_root && self.path.is_empty();
            if alternative != Some(true) && !prose && !types.admits(value) {
                self.put_under_field(node, value, fixes, depth);
            }
        }
        if let (Some(allowed), Value::String(s)) = (&node.enumeration, &*value)
            && !allowed.iter().any(|a| json_eq(a, value))
        {
            let folded = fold(s);
            let matches: Vec<&str> = allowed
                .iter()
                .filter_map(Value::as_str)
                .filter(|a| fold(a) == folded)
                .collect();
            let kind = match matches.as_slice() {
                [only] => Some(FixKind::EnumCase {
                    from: s.clone(),
                    to: (*only).to_owned(),
                }),
                [] => enums::named_in_prose(s, allowed)
                    .map(|only| FixKind::EnumInProse {
                        from: s.clone(),
                        to: only.to_owned(),
                    })
                    .or_else(|| {
                        abbreviations::abbreviated(s, allowed).map(|only| {
                            FixKind::EnumAbbreviation {
                                from: s.clone(),
                                to: only.to_owned(),
                            }
                        })
                    }),
                _ => None,
            };
            if let Some(kind) = kind {
                if let FixKind::EnumCase { to, .. }
                | FixKind::EnumInProse { to, .. }
                | FixKind::EnumAbbreviation { to, .. } = &kind
                {
                    *value = Value::String(to.clone());
                }
                fix(fixes, kind, &self.path);
            }
        }
        if let Value::String(s) = value
            && let Some(to) = separators::without_pattern_separators(node, s)
            && self.schema.passes(node, &Value::String(to.clone()))
        {
            let from = std::mem::replace(s, to.clone());
            fix(fixes, FixKind::PatternSeparators { from, to }, &self.path);
        }
        if let Value::Object(map) = value {
            let mut found = keys::rename(node, map);
            if self.drop_unknown {
                found.extend(keys::drop_unknown(node, map));
            }
            for kind in found {
                fix(fixes, kind, &self.path);
            }
        }
        match value {
            Value::Object(map) => {
                for (key, member) in map.iter_mut() {
                    let child = match node.property(key) {
                        Some(i) => Some(&node.properties[i].node),
                        None => node.additional_properties.as_deref().filter(|n| !n.never),
                    };
                    if let Some(child) = child {
                        let len = self.path.len();
                        self.path.push('/');
                        self.path
                            .push_str(&key.replace('~', "~0").replace('/', "~1"));
                        self.walk(child, member, fixes, depth + 1);
                        self.path.truncate(len);
                    }
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter_mut().enumerate() {
                    let child = node
                        .prefix_items
                        .get(i)
                        .or(node.items.as_deref())
                        .filter(|n| !n.never);
                    if let Some(child) = child {
                        let len = self.path.len();
                        self.path.push('/');
                        self.path.push_str(&i.to_string());
                        self.walk(child, item, fixes, depth + 1);
                        self.path.truncate(len);
                    }
                }
            }
            _ => {}
        }
        for alternatives in [&node.any_of, &node.one_of] {
            let alternatives = named_alternative(node, alternatives, value);
            self.alternatives(alternatives, value, fixes, depth);
        }
    }

    /// A value that fits none of the alternatives takes the first one conversions alone
    /// make it fit; failing that, the one alternative a reading makes it fit, if only one
    /// does.
    fn alternatives(
        &mut self,
        alternatives: &'s [Node],
        value: &mut Value,
        fixes: &mut Vec<Fix>,
        depth: usize,
    ) {
        if alternatives.is_empty()
            || alternatives
                .iter()
                .any(|alt| self.schema.passes(alt, value))
        {
            return;
        }
        let tools = ToolUnion::of(self.schema, alternatives).is_some();
        let saved = self.number_alternative;
        self.number_alternative |= value.is_number()
            && alternatives.iter().any(|alt| {
                let types = self.schema.resolve(alt).types;
                types.is_none_or(|t| t.intersects(Types::INTEGER.union(Types::NUMBER)))
            });
        self.try_alternatives(alternatives, value, fixes, depth, tools);
        self.number_alternative = saved;
    }

    /// Takes the alternative that conversions alone make fit, else the one reading that
    /// makes one fit.
    fn try_alternatives(
        &mut self,
        alternatives: &'s [Node],
        value: &mut Value,
        fixes: &mut Vec<Fix>,
        depth: usize,
        tools: bool,
    ) {
        let mut read: Option<(Value, Vec<Fix>)> = None;
        let mut readings = 0;
        for alt in alternatives {
            if let Some((coerced, attempt_fixes)) = self.attempt(alt, value, depth + 1, tools) {
                if !attempt_fixes.iter().any(|f| is_reading(f.kind())) {
                    *value = coerced;
                    fixes.extend(attempt_fixes);
                    return;
                }
                readings += 1;
                read.get_or_insert((coerced, attempt_fixes));
            }
        }
        if let (1, Some((coerced, attempt_fixes))) = (readings, read) {
            *value = coerced;
            fixes.extend(attempt_fixes);
        }
    }

    /// The value and fixes coercion toward `alt` makes of a copy of `value`, if that fits.
    /// `tools`: the alternative is one of a union of tools.
    fn attempt(
        &mut self,
        alt: &'s Node,
        value: &Value,
        depth: usize,
        tools: bool,
    ) -> Option<(Value, Vec<Fix>)> {
        let key = (
            std::ptr::from_ref(alt),
            self.path.clone(),
            depth,
            self.wrapping,
            self.number_alternative,
        );
        let seen = self
            .tried
            .get(&key)
            .and_then(|attempts| attempts.iter().find(|a| same(&a.input, value)));
        let attempt = match seen {
            Some(attempt) => attempt,
            None => {
                let mut output = value.clone();
                let mut fixes = Vec::new();
                self.alternative = Some(tools);
                self.walk(alt, &mut output, &mut fixes, depth);
                let fits = self.schema.passes(alt, &output);
                self.attempts += 1;
                let attempts = self.tried.entry(key).or_default();
                attempts.push(Trial {
                    input: value.clone(),
                    output,
                    fixes,
                    fits,
                });
                attempts.last()?
            }
        };
        attempt
            .fits
            .then(|| (attempt.output.clone(), attempt.fixes.clone()))
    }
}

/// The one alternative a discriminator names (a tool's `name`, a tag), when only it can
/// match: no coercion turns a value into another alternative's constant, so a union of a
/// thousand tools tries one. Else all of them.
fn named_alternative<'s>(node: &'s Node, alternatives: &'s [Node], value: &Value) -> &'s [Node] {
    let named = node
        .discriminator
        .as_ref()
        .filter(|d| d.is_exhaustive())
        .and_then(|d| crate::validate::select_alternative(d, value))
        .and_then(Result::ok);
    match named.and_then(|i| alternatives.get(i)) {
        Some(alt) => std::slice::from_ref(alt),
        None => alternatives,
    }
}

/// Whether a fix changes the shape around the values, or reads a value another way, rather
/// than change a value's type: a reading, taken in a union only where it makes exactly one
/// alternative fit.
fn is_reading(kind: &FixKind) -> bool {
    matches!(
        kind,
        FixKind::EnumInProse { .. }
            | FixKind::EnumAbbreviation { .. }
            | FixKind::PatternSeparators { .. }
            | FixKind::WrappedInField { .. }
            | FixKind::Unwrapped { .. }
            | FixKind::RenamedKey { .. }
            | FixKind::DroppedUnknownKey { .. }
    )
}

/// Equality that also tells apart what `==` does not, since a remembered attempt must be
/// what walking this input would give: the order of keys (which the fixes follow and the
/// output keeps) and the sign of a zero.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|((ka, va), (kb, vb))| ka == kb && same(va, vb))
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b))
        }
        (Value::Number(a), Value::Number(b)) => {
            a == b && a.as_f64().map(f64::to_bits) == b.as_f64().map(f64::to_bits)
        }
        _ => a == b,
    }
}

/// Lossless type changes toward one of `types`.
fn convert(
    types: Types,
    value: &mut Value,
    number_as_text: bool,
    path: &str,
    fixes: &mut Vec<Fix>,
) {
    if let Value::String(s) = &*value {
        let text = s.trim();
        if types.intersects(Types::INTEGER.union(Types::NUMBER))
            && let Some(n) = number(text)
            && types.admits(&Value::Number(n.clone()))
        {
            fix(fixes, FixKind::StringToNumber, path);
            *value = Value::Number(n);
            return;
        }
        if types.contains(Types::BOOLEAN) {
            let b = match text {
                "true" | "True" | "TRUE" => Some(true),
                "false" | "False" | "FALSE" => Some(false),
                _ => None,
            };
            if let Some(b) = b {
                fix(fixes, FixKind::StringToBoolean, path);
                *value = Value::Bool(b);
                return;
            }
        }
        if types.intersects(Types::OBJECT.union(Types::ARRAY))
            && (text.starts_with('{') || text.starts_with('['))
            && let Ok((inner, repairs)) = repair(text)
            && repairs.is_empty()
            && types.admits(&inner)
        {
            fix(fixes, FixKind::DoubleEncoded, path);
            *value = inner;
            return;
        }
    }
    // An integer's digits are the ones the model wrote (JSON writes an integer one way);
    // a fraction's are not kept (`1.10` is read as 1.1), so it is left as it is.
    if number_as_text
        && types.contains(Types::STRING)
        && let Value::Number(n) = &*value
        && (n.is_i64() || n.is_u64())
    {
        let text = n.to_string();
        fix(fixes, FixKind::NumberToString, path);
        *value = Value::String(text);
        return;
    }
    if types == Types::ARRAY && !value.is_null() {
        fix(fixes, FixKind::WrappedInList, path);
        *value = Value::Array(vec![value.take()]);
    }
}

/// The JSON number `text` is, if it is one: integers exactly, anything else as the nearest
/// f64 (serde_json rounds correctly only with its `float_roundtrip` feature).
fn number(text: &str) -> Option<serde_json::Number> {
    let n = serde_json::from_str::<serde_json::Number>(text).ok()?;
    if n.is_f64() {
        text.parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
    } else {
        Some(n)
    }
}

fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{Coercer, same};
    use crate::Schema;

    /// Two alternatives that both recurse into `next`, told apart only by a flag checked
    /// after `next`, and a leaf.
    fn chain_schema() -> Schema {
        let step = |flag: &str| {
            json!({
                "type": "object",
                "properties": { "next": { "$ref": "#/$defs/chain" }, flag: { "type": "boolean" } },
                "required": ["next", flag],
                "additionalProperties": false
            })
        };
        let leaf = json!({
            "type": "object",
            "properties": { "value": { "type": "integer", "minimum": 0 } },
            "required": ["value"],
            "additionalProperties": false
        });
        Schema::from_json(json!({
            "$defs": { "chain": { "anyOf": [step("left"), step("right"), leaf] } },
            "$ref": "#/$defs/chain"
        }))
        .unwrap()
    }

    /// `depth` levels of the second alternative around `{"value": leaf}`.
    fn chain(depth: usize, leaf: Value) -> Value {
        let mut value = json!({ "value": leaf });
        for _ in 0..depth {
            value = json!({ "next": value, "right": true });
        }
        value
    }

    /// The coerced value, its fixes as text, and how many attempts were made (not remembered).
    fn coerced(schema: &Schema, mut value: Value) -> (Value, Vec<String>, usize) {
        let mut coercer = Coercer::new(schema);
        let mut fixes = Vec::new();
        coercer.walk(schema.root(), &mut value, &mut fixes, 0);
        let fixes = fixes.iter().map(ToString::to_string).collect();
        (value, fixes, coercer.attempts)
    }

    #[test]
    fn alternatives_recursing_into_the_same_key_are_attempted_once_per_value() {
        let schema = chain_schema();
        let mut counts = Vec::new();
        for depth in [1, 8, 16] {
            let (value, fixes, fixed) = coerced(&schema, chain(depth, json!("7")));
            assert_eq!(value, chain(depth, json!(7)), "depth {depth}");
            let pointer = format!("{}/value", "/next".repeat(depth));
            let read = format!("{pointer}: read a string holding a number as the number");
            assert_eq!(fixes, [read]);
            let (value, fixes, unfixable) = coerced(&schema, chain(depth, json!(-1)));
            assert_eq!(value, chain(depth, json!(-1)), "depth {depth}");
            assert_eq!(fixes, Vec::<String>::new());
            counts.push((depth, [fixed, unfixable]));
        }
        // Per level, each of the three alternatives is attempted at most once.
        let within = |(depth, attempts): &(usize, [usize; 2])| {
            attempts.iter().all(|&a| a <= 3 * (depth + 1))
        };
        assert!(counts.iter().all(within), "attempts per depth: {counts:?}");
    }

    /// A union of `n` tools, each `{"name": "tool_i", "arguments": {"count": integer}}`.
    fn tools_schema(n: usize) -> Schema {
        let tool = |i: usize| {
            json!({
                "type": "object",
                "properties": {
                    "name": { "const": format!("tool_{i}") },
                    "arguments": {
                        "type": "object",
                        "properties": { "count": { "type": "integer" } },
                        "required": ["count"]
                    }
                },
                "required": ["name", "arguments"]
            })
        };
        Schema::from_json(json!({ "oneOf": (0..n).map(tool).collect::<Vec<_>>() })).unwrap()
    }

    #[test]
    fn a_call_that_names_its_tool_is_coerced_toward_that_tool_alone() {
        let schema = tools_schema(1000);
        let call = |count: Value| json!({ "name": "tool_517", "arguments": { "count": count } });
        let (value, fixes, attempts) = coerced(&schema, call(json!("7")));
        assert_eq!(value, call(json!(7)));
        assert_eq!(
            fixes,
            ["/arguments/count: read a string holding a number as the number"]
        );
        assert_eq!(attempts, 1);
        // A name no tool has: every tool is still tried, and nothing is changed.
        let unknown = json!({ "name": "tool_x", "arguments": { "count": "7" } });
        let (value, fixes, attempts) = coerced(&tools_schema(50), unknown.clone());
        assert_eq!((value, fixes), (unknown, Vec::<String>::new()));
        assert_eq!(attempts, 50);
    }

    #[test]
    fn a_remembered_attempt_is_reused_on_the_very_same_input_only() {
        assert!(same(
            &json!({ "a": [1, 2.5, "x"], "b": null }),
            &json!({ "a": [1, 2.5, "x"], "b": null })
        ));
        // `==` holds for each of these pairs; a walk would not give the same output.
        assert!(!same(
            &json!({ "a": 1, "b": 2 }),
            &json!({ "b": 2, "a": 1 })
        ));
        assert!(!same(&json!(0.0), &json!(-0.0)));
    }
}
