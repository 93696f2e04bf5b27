//! `anyOf` and `oneOf`: which alternative a value matches, and when it matches none, the
//! one it was most likely meant to be.

use rustc_hash::FxHashMap as HashMap;

use serde_json::Value;

use super::describe::describe_types;
use super::{Segment, Validator};
use crate::error::{Violation, ViolationKind};
use crate::schema::union::ToolUnion;
use crate::schema::{Discriminator, Node, Types};
use crate::suggest;
use crate::value::{self, describe_value, json_eq, list_values};

impl<'a> Validator<'a> {
    /// `anyOf` (`exclusive == false`) and `oneOf`: exact on validity, checked cheaply
    /// first; when the value fails, reports the alternative it was most likely meant to be.
    pub(super) fn alternatives(
        &mut self,
        node: &'a Node,
        alternatives: &'a [Node],
        value: &'a Value,
        exclusive: bool,
    ) {
        let chosen = node
            .discriminator
            .as_ref()
            .and_then(|d| select(d, value).map(|c| (d, c)));
        // A discriminator that names one alternative rules out every other one.
        if let Some((d, Ok(i))) = chosen
            && d.is_exhaustive()
        {
            self.check(&alternatives[i], value);
            return;
        }
        let limit = if exclusive { 2 } else { 1 };
        let matched: Vec<usize> = (0..alternatives.len())
            .filter(|&i| self.fits(&alternatives[i], value))
            .take(limit)
            .collect();
        match (matched.len(), exclusive) {
            (1, _) | (_, false) if !matched.is_empty() => return,
            (2.., true) => {
                let all: Vec<usize> = if self.quick {
                    matched
                } else {
                    (0..alternatives.len())
                        .filter(|&i| self.fits(&alternatives[i], value))
                        .collect()
                };
                self.report(ViolationKind::Ambiguous { matched: all });
                return;
            }
            _ => {}
        }
        if self.quick {
            self.failed = true;
            return;
        }
        let mark = self.out.len();
        match chosen {
            Some((_, Ok(i))) => self.check(&alternatives[i], value),
            Some((d, Err(()))) => {
                let mark = self.out.len();
                self.discriminator_violation(d, value);
                self.advise_answer(alternatives, mark);
            }
            None => self.closest_alternative_or_shape(alternatives, value),
        }
        // The explanation must not get lost: the value is invalid whatever was found.
        if self.out.len() == mark {
            let expected = alternatives
                .iter()
                .map(|alt| match self.schema.resolve(alt).types {
                    Some(types) => describe_types(types),
                    None => "any value".into(),
                })
                .collect();
            self.report(ViolationKind::NoMatch { expected });
        }
    }

    /// Whether `value` is valid against the alternative `alt`, found once per check.
    fn fits(&self, alt: &'a Node, value: &'a Value) -> bool {
        if !admits_type(self.schema, alt, value) {
            return false;
        }
        let key = self.key(alt, value);
        {
            let tried = self.tried.borrow();
            if !tried.verdicts.is_empty()
                && let Some(&fits) = tried.verdicts.get(&key)
            {
                return fits;
            }
        }
        let fits = self.passes(alt, value);
        let mut tried = self.tried.borrow_mut();
        tried.checked += 1;
        // Only alternatives inside alternatives meet a value again (the checks around
        // them read what they found), and a scalar is checked without descending into
        // the document: those verdicts are not worth keeping.
        if self.inside > 0 && matches!(value, Value::Array(_) | Value::Object(_)) {
            tried.verdicts.insert(key, fits);
        }
        fits
    }

    /// The violations of `value` against the alternative `alt`, found once per check.
    fn attempt(&mut self, alt: &'a Node, value: &'a Value) -> Vec<Violation> {
        // The hint inherited from above goes into the violations of nodes without their own.
        let key = (self.key(alt, value), self.hint.map(std::ptr::from_ref));
        if let Some(found) = self.tried.borrow().reports.get(&key) {
            return found.clone();
        }
        let found = self.trial(alt, value);
        let mut tried = self.tried.borrow_mut();
        tried.checked += 1;
        tried.reports.insert(key, found.clone());
        found
    }

    fn key(&self, alt: &'a Node, value: &'a Value) -> Trial {
        Trial {
            node: alt,
            value,
            frames: self.depth,
        }
    }

    /// A reply to a union of tools that is no call and no answer gets the shape to write,
    /// not the violations of the alternative it is least far from; any other value, the
    /// closest alternative's violations.
    fn closest_alternative_or_shape(&mut self, alternatives: &'a [Node], value: &'a Value) {
        let union = ToolUnion::of(self.schema, alternatives);
        match union
            .as_ref()
            .and_then(|u| Some((u.shapes(), u.advice(self.schema, value)?)))
        {
            Some((expected, advice)) => {
                self.report_with(ViolationKind::NoMatch { expected }, |violation| {
                    violation.advise(advice)
                });
            }
            None => self.closest_alternative(alternatives, value),
        }
    }

    /// Reports the alternative of the right type with the fewest violations.
    fn closest_alternative(&mut self, alternatives: &'a [Node], value: &'a Value) {
        let trials: Vec<Vec<Violation>> = alternatives
            .iter()
            .map(|a| self.attempt(a, value))
            .collect();
        let admits = |alt: &Node| {
            let alt = self.schema.resolve(alt);
            alt.types.is_none_or(|t| t.admits(value))
        };
        let best = (0..trials.len())
            .filter(|&i| admits(&alternatives[i]))
            .min_by_key(|&i| trials[i].len());
        match best {
            Some(i) => self
                .out
                .extend(trials.into_iter().nth(i).unwrap_or_default()),
            None => {
                let types = alternatives.iter().fold(Types::default(), |acc, alt| {
                    acc.union(self.schema.resolve(alt).types.unwrap_or_default())
                });
                self.report(ViolationKind::WrongType {
                    expected: describe_types(types),
                    found: describe_value(value),
                });
            }
        }
    }

    /// The value names an alternative that does not exist: say which ones do.
    /// A call of a union with an answer that names no tool, nor one near it
    /// (`"translateGoodMorning"`): the model may be saying that no tool fits. The
    /// violation says what to reply then.
    fn advise_answer(&mut self, alternatives: &'a [Node], mark: usize) {
        let has_answer = ToolUnion::of(self.schema, alternatives).is_some_and(|u| u.has_answer());
        if !has_answer {
            return;
        }
        for violation in &mut self.out[mark..] {
            if violation.pointer().ends_with("/name") && violation.suggestion().is_none() {
                violation.advise(
                    "no function has that name; if none of the functions does what the request \
                     asks, reply {\"answer\": …} instead"
                        .to_owned(),
                );
            }
        }
    }

    fn discriminator_violation(&mut self, discriminator: &'a Discriminator, value: &'a Value) {
        match (discriminator, value) {
            (Discriminator::Property { name, values, .. }, Value::Object(map)) => {
                let Some(tag) = map.get(name) else { return };
                let allowed: Vec<Value> = values.iter().map(|(v, _)| v.clone()).collect();
                self.at(Segment::Key(name), |v| v.not_among(tag, &allowed));
            }
            (Discriminator::Key { keys, .. }, Value::Object(map)) => {
                let Some((key, _)) = map.iter().next() else {
                    return;
                };
                let allowed: Vec<Value> =
                    keys.iter().map(|(k, _)| Value::from(k.as_str())).collect();
                let suggestion =
                    suggest::closest(key, keys.iter().map(|(k, _)| k.as_str())).map(str::to_owned);
                self.at(Segment::Key(key), |v| {
                    let kind = ViolationKind::NotAllowed {
                        found: value::short_str(key),
                        allowed: list_values(&allowed),
                    };
                    v.report_with(kind, |violation| {
                        if let Some(suggestion) = suggestion {
                            violation.suggest(suggestion);
                        }
                    })
                });
            }
            (Discriminator::Key { strings, .. }, Value::String(_)) => {
                let allowed: Vec<Value> = strings
                    .iter()
                    .map(|(k, _)| Value::from(k.as_str()))
                    .collect();
                self.not_among(value, &allowed);
            }
            _ => {}
        }
    }
}

/// What trying alternatives found, remembered for the rest of one check (shared by the
/// quick checks it starts).
///
/// Two alternatives that recurse into the same key meet the same alternatives on the same
/// values below; trying each again would double the work per level of nesting. Values are
/// borrowed for the whole check, so an address names one position in the document (and
/// with it the pointer and the nesting depth); checks of other values, such as property
/// names, start their own.
#[derive(Default)]
pub(super) struct Tried {
    verdicts: HashMap<Trial, bool>,
    reports: HashMap<(Trial, Option<*const str>), Vec<Violation>>,
    /// Alternatives checked rather than remembered: the work done, for the tests.
    checked: usize,
}

/// One alternative tried on one value. The frames already used are part of it: a schema
/// that refers to itself may run out of frames on one path to a value and not on another.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Trial {
    node: *const Node,
    value: *const Value,
    frames: usize,
}

/// Whether the type keywords on the way to `alt`'s definition allow the value's type: an
/// alternative of another type is ruled out without a check.
fn admits_type(schema: &crate::Schema, alt: &Node, value: &Value) -> bool {
    let mut node = alt;
    for _ in 0..64 {
        if node.never || node.types.is_some_and(|t| !t.admits(value)) {
            return false;
        }
        match node.reference.and_then(|id| schema.definition(id)) {
            Some(target) => node = target,
            None => return true,
        }
    }
    true
}

/// The alternative a discriminator names: `Some(Ok(i))`, `Some(Err(()))` when the value
/// names none, `None` when the value carries no discriminator or names more than one
/// alternative (two run-time alternatives may require the same key).
pub(crate) fn select(discriminator: &Discriminator, value: &Value) -> Option<Result<usize, ()>> {
    fn only(mut named: impl Iterator<Item = usize>) -> Option<Result<usize, ()>> {
        match (named.next(), named.next()) {
            (None, _) => Some(Err(())),
            (Some(i), None) => Some(Ok(i)),
            (Some(_), Some(_)) => None,
        }
    }
    match (discriminator, value) {
        (Discriminator::Property { name, values, .. }, Value::Object(map)) => {
            let tag = super::object::member(map, name)?;
            only(
                values
                    .iter()
                    .filter(|(v, _)| json_eq(v, tag))
                    .map(|(_, i)| *i),
            )
        }
        (Discriminator::Key { keys, .. }, Value::Object(map)) if map.len() == 1 => {
            let (key, _) = map.iter().next()?;
            only(keys.iter().filter(|(k, _)| k == key).map(|(_, i)| *i))
        }
        (Discriminator::Key { strings, .. }, Value::String(s)) if !strings.is_empty() => {
            only(strings.iter().filter(|(k, _)| k == s).map(|(_, i)| *i))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::Validator;
    use crate::Schema;
    use crate::error::Violation;

    /// Pointer and kind of each violation, the kind as its `Debug` form.
    fn described(violations: &[Violation]) -> Vec<(String, String)> {
        violations
            .iter()
            .map(|v| (v.pointer().to_owned(), format!("{:?}", v.kind())))
            .collect()
    }

    /// Every violation of `value`, and how many alternatives were checked (not remembered).
    fn full_check(schema: &Schema, value: &Value) -> (Vec<Violation>, usize) {
        let mut validator = Validator::new(schema);
        validator.check(&schema.root, value);
        let checked = validator.tried.borrow().checked;
        (validator.out, checked)
    }

    /// Whether `value` is valid, and how many alternatives were checked (not remembered).
    fn quick_check(schema: &Schema, value: &Value) -> (bool, usize) {
        let validator = Validator::new(schema);
        let valid = validator.passes(&schema.root, value);
        let checked = validator.tried.borrow().checked;
        (valid, checked)
    }

    #[test]
    fn alternatives_may_require_the_same_key() {
        // Both alternatives look like `{"a": …}`: the key names neither on its own.
        let schema = Schema::from_json(json!({
            "anyOf": [
                { "type": "object", "properties": { "a": { "type": "string" } }, "required": ["a"] },
                { "type": "object", "properties": { "a": { "type": "integer" } }, "required": ["a"] }
            ]
        }))
        .unwrap();
        for value in [json!({ "a": "x" }), json!({ "a": 1 })] {
            assert!(schema.is_valid(&value), "{value}");
            assert!(schema.validate(&value).is_ok(), "{value}");
        }
        assert!(!schema.is_valid(&json!({ "a": true })));
        let err = schema.validate(&json!({ "a": true })).unwrap_err();
        // Each alternative has one violation: the first is reported.
        assert_eq!(
            described(err.violations()),
            [(
                "/a".to_owned(),
                r#"WrongType { expected: "a string", found: "the boolean true" }"#.to_owned()
            )]
        );
    }

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
    fn chain(depth: usize, leaf: i64) -> Value {
        let mut value = json!({ "value": leaf });
        for _ in 0..depth {
            value = json!({ "next": value, "right": true });
        }
        value
    }

    #[test]
    fn alternatives_recursing_into_the_same_key_are_checked_once_per_value() {
        let schema = chain_schema();
        let mut counts = Vec::new();
        for depth in [1, 8, 16] {
            let (valid, quick_valid) = quick_check(&schema, &chain(depth, 1));
            assert!(valid, "depth {depth}");
            let (valid, quick_invalid) = quick_check(&schema, &chain(depth, -1));
            assert!(!valid, "depth {depth}");
            let (violations, full_invalid) = full_check(&schema, &chain(depth, -1));
            let pointer = format!("{}/value", "/next".repeat(depth));
            let kind = r#"OutOfRange { found: "-1", bound: Minimum("0") }"#;
            assert_eq!(described(&violations), [(pointer, kind.to_owned())]);
            counts.push((depth, [quick_valid, quick_invalid, full_invalid]));
        }
        // Per level, each of the three alternatives is checked once for its verdict and,
        // when none fits, once more for its violations.
        let within = |(depth, checked): &(usize, [usize; 3])| {
            checked.iter().all(|&c| c <= 2 * 3 * (depth + 1))
        };
        assert!(counts.iter().all(within), "checks per depth: {counts:?}");
    }

    #[test]
    fn a_remembered_alternative_keeps_the_hint_of_its_path() {
        // Both alternatives reach `sign` at `/x`; only the second fits elsewhere, so its
        // report is the one shown, with its own hint, not the first one's.
        let mut schema = Schema::from_json(json!({
            "$defs": {
                "sign": { "anyOf": [
                    { "type": "integer", "minimum": 0 },
                    { "type": "integer", "multipleOf": 2 }
                ] }
            },
            "anyOf": [
                { "type": "object", "properties": { "x": { "$ref": "#/$defs/sign" }, "y": {} },
                  "required": ["x", "y"] },
                { "type": "object", "properties": { "x": { "$ref": "#/$defs/sign" } },
                  "required": ["x"] }
            ]
        }))
        .unwrap();
        schema.root.any_of[0].hint = Some("first".into());
        schema.root.any_of[1].hint = Some("second".into());
        // Indexed again, as a schema is when it is finished.
        schema.root.for_each_mut(&mut crate::schema::Node::index);
        let (violations, _) = full_check(&schema, &json!({ "x": -1 }));
        let found: Vec<(&str, Option<&str>)> =
            violations.iter().map(|v| (v.pointer(), v.hint())).collect();
        assert_eq!(found, [("/x", Some("second"))]);
        assert_eq!(
            described(&violations)[0].1,
            r#"OutOfRange { found: "-1", bound: Minimum("0") }"#
        );
    }
}
