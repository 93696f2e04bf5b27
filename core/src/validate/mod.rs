//! The validator: checks a JSON value against a compiled [`Schema`] and collects every
//! violation in one pass, each at its RFC 6901 pointer.

mod alternatives;
mod compare;
pub(crate) use describe::describe_value as describe_value_pub;
pub(crate) use describe::{list_values as list_values_pub, short_json as short_json_pub};
mod describe;
mod format;
mod near_match;
mod siblings;
pub(crate) use format::conforms;
pub(crate) mod suggest;

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::{Map, Value};

use crate::Error;
use crate::error::{Bound, Unit, Violation, ViolationKind};
use crate::schema::{Node, Schema};

pub(crate) use compare::cmp_number;
use compare::is_multiple_of;
pub(crate) use compare::json_eq;
use describe::{describe_types, describe_value, list_values};

/// How deep schemas and values may nest before validation gives up with an error.
pub const MAX_DEPTH: usize = 128;

/// How deep the validator's own recursion may go: schemas that refer to themselves
/// without consuming the value (`{"$ref": "#"}`) end here instead of in a stack overflow.
const MAX_FRAMES: usize = 640;

impl Schema {
    /// Checks a value, reporting every violation.
    ///
    /// ```
    /// use toolschema::{Schema, ViolationKind};
    ///
    /// let schema = Schema::from_json(serde_json::json!({
    ///     "type": "object",
    ///     "properties": { "unit": { "enum": ["celsius", "fahrenheit"] } },
    ///     "additionalProperties": false
    /// }))?;
    /// let err = schema.validate(&serde_json::json!({ "unit": "Celsius", "x": 1 })).unwrap_err();
    /// assert_eq!(err.violations().len(), 2);
    /// assert!(matches!(err.violations()[0].kind(), ViolationKind::NotAllowed { .. }));
    /// assert_eq!(err.violations()[0].suggestion(), Some("celsius"));
    /// # Ok::<(), toolschema::Error>(())
    /// ```
    pub fn validate(&self, value: &Value) -> Result<(), Error> {
        let violations = self.violations(value);
        if violations.is_empty() {
            Ok(())
        } else {
            Err(Error::new(violations))
        }
    }

    /// Whether a value is valid, stopping at the first violation.
    pub fn is_valid(&self, value: &Value) -> bool {
        Validator::new(self).passes(&self.root, value)
    }

    /// Whether `value` is valid against `node`, a node of this schema.
    pub(crate) fn passes(&self, node: &Node, value: &Value) -> bool {
        Validator::new(self).passes(node, value)
    }

    pub(crate) fn violations(&self, value: &Value) -> Vec<Violation> {
        let mut validator = Validator::new(self);
        validator.check(&self.root, value);
        validator.out
    }

    /// Whether `value` matches the alternative `index` of the `anyOf`/`oneOf` at the root
    /// (after following `$ref`s): how untagged enums pick their variant.
    pub(crate) fn matches_alternative(&self, index: usize, value: &Value) -> bool {
        let root = self.resolve(&self.root);
        let alternatives = if root.one_of.is_empty() {
            &root.any_of
        } else {
            &root.one_of
        };
        alternatives
            .get(index)
            .is_some_and(|alt| Validator::new(self).passes(alt, value))
    }
}

impl Schema {
    /// Whether checking any value parsed from JSON text (which nests at most
    /// [`MAX_DEPTH`] levels) stays within the validator's frame budget.
    pub(crate) fn frames_suffice(&self) -> bool {
        let mut memo = std::collections::HashMap::new();
        self.frames(&self.root, MAX_DEPTH, 0, &mut memo) <= MAX_FRAMES
    }

    /// The most frames checking a value against `node` can take when the value nests at
    /// most `levels` more levels (an upper bound; `MAX_FRAMES + 1` once past the budget).
    /// Each `check` is one frame; `$ref`s and alternatives stay on the value's level,
    /// items and properties go one level down.
    fn frames<'a>(
        &'a self,
        node: &'a Node,
        levels: usize,
        used: usize,
        memo: &mut std::collections::HashMap<(*const Node, usize), usize>,
    ) -> usize {
        let over = MAX_FRAMES + 1;
        if used >= MAX_FRAMES {
            return over;
        }
        let key = (node as *const Node, levels);
        if let Some(&frames) = memo.get(&key) {
            return frames;
        }
        let mut deepest = 0;
        let same_level = node
            .reference
            .and_then(|id| self.definition(id))
            .into_iter()
            .chain(&node.all_of)
            .chain(&node.any_of)
            .chain(&node.one_of)
            .chain(node.not.as_deref())
            .chain(node.property_names.as_deref());
        for child in same_level {
            deepest = deepest.max(self.frames(child, levels, used + 1, memo));
        }
        if levels > 0 {
            let below = node
                .prefix_items
                .iter()
                .chain(node.items.as_deref())
                .chain(node.properties.iter().map(|p| &p.node))
                .chain(node.additional_properties.as_deref())
                .chain(node.pattern_properties.iter().map(|(_, n)| n));
            for child in below {
                deepest = deepest.max(self.frames(child, levels - 1, used + 1, memo));
            }
        }
        let frames = (deepest + 1).min(over);
        memo.insert(key, frames);
        frames
    }
}

enum Segment<'a> {
    Key(&'a str),
    Index(usize),
}

struct Validator<'a> {
    schema: &'a Schema,
    path: Vec<Segment<'a>>,
    hint: Option<&'a str>,
    /// The object whose property is being checked, and that property's name: where a
    /// value rejected here may be allowed instead (see `siblings`).
    siblings: Option<(&'a Node, &'a str)>,
    depth: usize,
    /// Value nesting above this validator's root (for checks of one alternative).
    outer: usize,
    out: Vec<Violation>,
    /// Only the verdict is wanted: stop at the first violation and build no message.
    quick: bool,
    failed: bool,
    /// Alternatives tried so far in this check, shared with the quick checks it starts.
    tried: Rc<RefCell<alternatives::Tried>>,
}

impl<'a> Validator<'a> {
    fn new(schema: &'a Schema) -> Self {
        Validator {
            schema,
            path: Vec::new(),
            hint: None,
            siblings: None,
            depth: 0,
            outer: 0,
            out: Vec::new(),
            quick: false,
            failed: false,
            tried: Rc::default(),
        }
    }

    /// Whether `value` is valid against `node`, without building any message.
    fn passes(&self, node: &'a Node, value: &'a Value) -> bool {
        let mut quick = Validator::new(self.schema);
        quick.quick = true;
        quick.depth = self.depth;
        quick.outer = self.outer + self.path.len();
        quick.tried = Rc::clone(&self.tried);
        quick.check(node, value);
        !quick.failed
    }

    fn pointer(&self) -> String {
        let mut out = String::new();
        for segment in &self.path {
            out.push('/');
            match segment {
                Segment::Key(key) => {
                    for c in key.chars() {
                        match c {
                            '~' => out.push_str("~0"),
                            '/' => out.push_str("~1"),
                            c => out.push(c),
                        }
                    }
                }
                Segment::Index(i) => out.push_str(&i.to_string()),
            }
        }
        out
    }

    fn report(&mut self, kind: ViolationKind, suggestion: Option<String>) {
        self.report_with(kind, suggestion, None);
    }

    /// Reports a violation with what to write instead (built only when it is reported).
    fn report_with(
        &mut self,
        kind: ViolationKind,
        suggestion: Option<String>,
        advice: Option<&dyn Fn() -> Option<String>>,
    ) {
        if self.quick {
            self.failed = true;
            return;
        }
        let mut violation = Violation::new(self.pointer(), kind);
        if let Some(s) = suggestion {
            violation = violation.with_suggestion(s);
        }
        if let Some(advice) = advice.and_then(|f| f()) {
            violation = violation.with_advice(advice);
        }
        if let Some(hint) = self.hint {
            violation = violation.with_hint(hint);
        }
        self.out.push(violation);
    }

    /// Runs `f` one path segment deeper.
    fn at(&mut self, segment: Segment<'a>, f: impl FnOnce(&mut Self)) {
        self.path.push(segment);
        if self.outer + self.path.len() > MAX_DEPTH {
            self.report(ViolationKind::TooDeep { limit: MAX_DEPTH }, None);
        } else {
            f(self);
        }
        self.path.pop();
    }

    /// Runs a check whose violations are only counted: an alternative being tried.
    fn trial(&mut self, node: &'a Node, value: &'a Value) -> Vec<Violation> {
        let mark = self.out.len();
        self.check(node, value);
        self.out.split_off(mark)
    }

    fn check(&mut self, node: &'a Node, value: &'a Value) {
        if self.failed {
            return;
        }
        if self.depth >= MAX_FRAMES {
            let message = format!(
                "the schema refers to itself here without end, or through more than {MAX_FRAMES} subschemas"
            );
            self.report(ViolationKind::Invalid { message }, None);
            return;
        }
        self.depth += 1;
        let saved_hint = self.hint;
        if let Some(hint) = &node.hint {
            self.hint = Some(hint);
        }
        let reported = self.out.len();
        self.keywords(node, value);
        if node.bridge.is_some() {
            self.bridge(node, value, reported);
        }
        self.hint = saved_hint;
        self.depth -= 1;
    }

    /// serde's check of a bridged type, where the schema's keywords found nothing. Out of
    /// line: `check` is on the stack once per level of a value and a schema.
    #[inline(never)]
    fn bridge(&mut self, node: &'a Node, value: &'a Value, reported: usize) {
        if let Some(bridge) = &node.bridge
            && !self.failed
            && self.out.len() == reported
            && let Some(message) = bridge.problem(value)
        {
            self.report(ViolationKind::Invalid { message }, None);
        }
    }

    fn keywords(&mut self, node: &'a Node, value: &'a Value) {
        if node.never {
            let kind = if self.path.is_empty() {
                ViolationKind::Invalid {
                    message: "no value is allowed here".into(),
                }
            } else {
                ViolationKind::UnknownField
            };
            self.report(kind, None);
            return;
        }
        if let Some(id) = node.reference {
            match self.schema.definition(id) {
                Some(target) => self.check(target, value),
                None => self.report(
                    ViolationKind::Invalid {
                        message: "the schema refers to a missing definition".into(),
                    },
                    None,
                ),
            }
        }
        if let Some(types) = node.types
            && !types.admits(value)
        {
            let expected = describe_types(types);
            self.report(
                ViolationKind::WrongType {
                    expected,
                    found: describe_value(value),
                },
                None,
            );
            return;
        }
        if let Some(constant) = &node.constant
            && !json_eq(constant, value)
        {
            self.not_allowed(value, std::slice::from_ref(constant));
        }
        if let Some(values) = &node.enumeration
            && !values.iter().any(|v| json_eq(v, value))
        {
            self.not_allowed(value, values);
        }
        match value {
            Value::Number(_) => self.number(node, value),
            Value::String(s) => self.string(node, s),
            Value::Array(items) => self.array(node, items),
            Value::Object(map) => self.object(node, map),
            Value::Null | Value::Bool(_) => {}
        }
        for sub in &node.all_of {
            self.check(sub, value);
        }
        if !node.any_of.is_empty() {
            self.alternatives(node, &node.any_of, value, false);
        }
        if !node.one_of.is_empty() {
            self.alternatives(node, &node.one_of, value, true);
        }
        if let Some(not) = &node.not
            && self.passes(not, value)
        {
            self.report(
                ViolationKind::Invalid {
                    message: "this value is explicitly not allowed here".into(),
                },
                None,
            );
        }
    }

    fn not_allowed(&mut self, value: &Value, allowed: &[Value]) {
        let suggestion = value.as_str().and_then(|s| {
            suggest::closest(s, allowed.iter().filter_map(Value::as_str)).map(str::to_owned)
        });
        let siblings = self.siblings;
        let elsewhere = || siblings::allowed_in_sibling(self.schema, siblings?, value);
        self.report_with(
            ViolationKind::NotAllowed {
                found: describe::short_json(value),
                allowed: list_values(allowed),
            },
            suggestion,
            Some(&elsewhere),
        );
    }

    fn number(&mut self, node: &'a Node, value: &Value) {
        let Value::Number(n) = value else { return };
        use std::cmp::Ordering::{Greater, Less};
        let found = || n.to_string();
        let checks = [
            (
                &node.minimum,
                Less,
                true,
                Bound::Minimum as fn(String) -> Bound,
            ),
            (&node.maximum, Greater, true, Bound::Maximum),
            (
                &node.exclusive_minimum,
                Less,
                false,
                Bound::ExclusiveMinimum,
            ),
            (
                &node.exclusive_maximum,
                Greater,
                false,
                Bound::ExclusiveMaximum,
            ),
        ];
        for (limit, bad, inclusive, bound) in checks {
            if let Some(limit) = limit {
                let ord = cmp_number(n, limit);
                if ord == bad || (!inclusive && ord.is_eq()) {
                    self.report(
                        ViolationKind::OutOfRange {
                            found: found(),
                            bound: bound(limit.to_string()),
                        },
                        None,
                    );
                }
            }
        }
        if let Some(step) = &node.multiple_of
            && !is_multiple_of(n, step)
        {
            self.report(
                ViolationKind::NotMultipleOf {
                    found: found(),
                    step: step.to_string(),
                },
                None,
            );
        }
    }

    fn string(&mut self, node: &'a Node, s: &str) {
        if let Some(format) = &node.format
            && self.schema.asserts_formats
        {
            self.format(format, s);
        }
        if node.min_length.is_some() || node.max_length.is_some() {
            let len = s.chars().count();
            self.lengths(len, node.min_length, node.max_length, Unit::Characters);
        }
        if let Some(pattern) = &node.pattern
            && !pattern.regex.is_match(s)
        {
            // The part of the model's own value that fits, else the schema's example.
            let example = || {
                let example = near_match::near_match(&pattern.regex, s)
                    .unwrap_or_else(|| crate::render::string_example(node));
                pattern
                    .regex
                    .is_match(&example)
                    .then(|| format!("write it like {}", describe::short_json(&example.into())))
            };
            self.report_with(
                ViolationKind::PatternMismatch {
                    found: describe::short_json(&Value::String(s.to_owned())),
                    pattern: pattern.source.clone(),
                },
                None,
                Some(&example),
            );
        }
    }

    fn format(&mut self, format: &str, s: &str) {
        if !format::conforms(format, s) {
            self.report(
                ViolationKind::FormatMismatch {
                    found: describe::short_json(&Value::String(s.to_owned())),
                    format: format.to_owned(),
                    example: format::example(format).unwrap_or_default().to_owned(),
                },
                None,
            );
        }
    }

    fn lengths(&mut self, len: usize, min: Option<usize>, max: Option<usize>, unit: Unit) {
        if let Some(min) = min
            && len < min
        {
            self.report(ViolationKind::TooShort { len, min, unit }, None);
        }
        if let Some(max) = max
            && len > max
        {
            self.report(ViolationKind::TooLong { len, max, unit }, None);
        }
    }

    fn array(&mut self, node: &'a Node, items: &'a [Value]) {
        for (i, item) in items.iter().enumerate() {
            let schema = match node.prefix_items.get(i) {
                Some(prefix) => prefix,
                None => match &node.items {
                    Some(items) => items,
                    None => continue,
                },
            };
            if schema.never && i >= node.prefix_items.len() {
                let kind = ViolationKind::TooLong {
                    len: items.len(),
                    max: node.prefix_items.len(),
                    unit: Unit::Items,
                };
                if node.max_items.is_none_or(|max| items.len() <= max) {
                    self.report(kind, None);
                }
                break;
            }
            self.at(Segment::Index(i), |v| v.check(schema, item));
        }
        self.lengths(items.len(), node.min_items, node.max_items, Unit::Items);
        if node.unique_items
            && let Some((first, second)) = compare::first_duplicate(items)
        {
            self.report(ViolationKind::NotUnique { first, second }, None);
        }
    }

    fn object(&mut self, node: &'a Node, map: &'a Map<String, Value>) {
        let mut seen: Vec<Option<&'a str>> = vec![None; node.properties.len()];
        for (key, value) in map {
            // A key may match a property and patterns both: each schema applies.
            let mut matched = false;
            if let Some(i) = node.property(key) {
                matched = true;
                let property = &node.properties[i];
                if let Some(other) = seen[i] {
                    self.at(Segment::Key(key), |v| {
                        v.report(
                            ViolationKind::Conflict {
                                keys: vec![other.to_owned(), key.clone()],
                            },
                            None,
                        )
                    });
                }
                seen[i] = Some(key);
                let outer = self.siblings.replace((node, property.name.as_str()));
                self.at(Segment::Key(key), |v| v.check(&property.node, value));
                self.siblings = outer;
            }
            for (pattern, schema) in &node.pattern_properties {
                if pattern.regex.is_match(key) {
                    matched = true;
                    self.at(Segment::Key(key), |v| v.check(schema, value));
                }
            }
            if let Some(names) = &node.property_names {
                let name = Value::String(key.clone());
                let mut inner = Validator::new(self.schema);
                inner.quick = true;
                inner.depth = self.depth;
                inner.check(names, &name);
                if inner.failed {
                    self.at(Segment::Key(key), |v| {
                        v.report(
                            ViolationKind::Invalid {
                                message: format!(
                                    "the key {} is not allowed here",
                                    describe::short_json(&name)
                                ),
                            },
                            None,
                        )
                    });
                }
            }
            if matched {
                continue;
            }
            match node.additional_properties.as_deref() {
                Some(additional) if additional.never => {
                    let candidates = node
                        .properties
                        .iter()
                        .zip(&seen)
                        .filter(|(p, _)| !map.contains_key(&p.name))
                        .map(|(p, _)| p.name.as_str());
                    let suggestion = suggest::closest(key, candidates).map(str::to_owned);
                    let allowed = || Some(allowed_keys(node));
                    self.at(Segment::Key(key), |v| {
                        v.report_with(ViolationKind::UnknownField, suggestion, Some(&allowed))
                    });
                }
                Some(additional) => self.at(Segment::Key(key), |v| v.check(additional, value)),
                None => {}
            }
        }
        for (property, seen) in node.properties.iter().zip(&seen) {
            if property.required && seen.is_none() {
                self.at(Segment::Key(&property.name), |v| {
                    let saved = v.hint;
                    v.hint = v
                        .schema
                        .resolve(&property.node)
                        .hint
                        .as_deref()
                        .or(property.node.hint.as_deref())
                        .or(saved);
                    v.report(ViolationKind::MissingField, None);
                    v.hint = saved;
                });
            }
        }
        for name in &node.required_extra {
            if !map.contains_key(name) {
                self.at(Segment::Key(name), |v| {
                    v.report(ViolationKind::MissingField, None)
                });
            }
        }
        for (trigger, keys) in &node.dependent_required {
            if map.contains_key(trigger) {
                for name in keys.iter().filter(|k| !map.contains_key(*k)) {
                    self.at(Segment::Key(name), |v| {
                        v.report(ViolationKind::MissingField, None)
                    });
                }
            }
        }
        self.lengths(
            map.len(),
            node.min_properties,
            node.max_properties,
            Unit::Members,
        );
    }
}

/// The keys an object allows, for the advice on an unknown one.
fn allowed_keys(node: &Node) -> String {
    const SHOWN: usize = 12;
    let names: Vec<String> = node
        .properties
        .iter()
        .take(SHOWN)
        .map(|p| crate::error::quote(&p.name))
        .collect();
    let more = if node.properties.len() > SHOWN {
        ", …"
    } else {
        ""
    };
    match names.len() {
        0 => "this object takes no keys; remove it".to_owned(),
        _ => format!(
            "the allowed keys are {}{more}; remove the others",
            names.join(", ")
        ),
    }
}
