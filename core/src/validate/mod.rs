//! The validator: checks a JSON value against a compiled [`Schema`] and collects every
//! violation in one pass, each at its RFC 6901 pointer.

mod alternatives;
pub(crate) use alternatives::select as select_alternative;
mod describe;
mod frames;
mod near_match;
mod object;
pub(crate) mod separators;
mod siblings;
mod union_advice;

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::Value;

use crate::Error;
use crate::error::{Bound, Unit, Violation, ViolationKind};
use crate::formats;
use crate::schema::{EnumStrings, MAX_DEPTH, Node, Schema, Types, Used};

use crate::value::{self, describe_value, is_multiple_of, json_eq, list_values};
use describe::describe_types;

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
        self.passes(&self.root, value)
    }

    /// Whether `value` is valid against `node`, a node of this schema.
    pub(crate) fn passes(&self, node: &Node, value: &Value) -> bool {
        let mut validator = Validator::new(self);
        validator.quick = true;
        validator.check(node, value);
        !validator.failed
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

enum Segment<'a> {
    Key(&'a str),
    Index(usize),
}

struct Validator<'a> {
    schema: &'a Schema,
    path: Vec<Segment<'a>>,
    /// How many segments deep the check is (the length of `path`, kept by quick checks too).
    level: usize,
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
    /// How many alternatives (or `not`s) being tried this check is inside of.
    inside: usize,
}

impl<'a> Validator<'a> {
    fn new(schema: &'a Schema) -> Self {
        Validator {
            schema,
            path: Vec::new(),
            level: 0,
            hint: None,
            siblings: None,
            depth: 0,
            outer: 0,
            out: Vec::new(),
            quick: false,
            failed: false,
            tried: Rc::default(),
            inside: 0,
        }
    }

    /// Whether `value` is valid against `node`, without building any message.
    fn passes(&self, node: &'a Node, value: &'a Value) -> bool {
        let mut quick = Validator {
            schema: self.schema,
            path: Vec::new(),
            level: 0,
            hint: None,
            siblings: None,
            depth: self.depth,
            outer: self.outer + self.level,
            out: Vec::new(),
            quick: true,
            failed: false,
            tried: Rc::clone(&self.tried),
            inside: self.inside + 1,
        };
        quick.check(node, value);
        !quick.failed
    }

    fn pointer(&self) -> String {
        let length: usize = self
            .path
            .iter()
            .map(|segment| match segment {
                Segment::Key(key) => key.len() + 1,
                Segment::Index(_) => 4,
            })
            .sum();
        let mut out = String::with_capacity(length);
        for segment in &self.path {
            out.push('/');
            match segment {
                Segment::Key(key) if !key.bytes().any(|b| b == b'~' || b == b'/') => {
                    out.push_str(key)
                }
                Segment::Key(key) => out.push_str(&key.replace('~', "~0").replace('/', "~1")),
                Segment::Index(i) => value::push_decimal(&mut out, *i as u64),
            }
        }
        out
    }

    #[cold]
    #[inline(never)]
    fn report(&mut self, kind: ViolationKind) {
        self.report_with(kind, |_| {});
    }

    /// Reports a violation with what `extras` adds to it (a did-you-mean, advice), which
    /// runs only when the violation is reported: a quick check only fails.
    fn report_with(&mut self, kind: ViolationKind, extras: impl FnOnce(&mut Violation)) {
        if self.quick_fail() {
            return;
        }
        self.out.push(Violation::new(self.pointer(), kind));
        let violation = self.out.last_mut().expect("just pushed");
        extras(violation);
        if let Some(hint) = self.hint {
            violation.set_hint(hint);
        }
    }

    /// In a quick check, marks it failed and says so: the caller builds no violation.
    fn quick_fail(&mut self) -> bool {
        if self.quick {
            self.failed = true;
        }
        self.quick
    }

    /// Runs `f` one path segment deeper.
    fn at(&mut self, segment: Segment<'a>, f: impl FnOnce(&mut Self)) {
        // A quick check builds no pointer: it only counts the levels.
        if !self.quick {
            self.path.push(segment);
        }
        self.level += 1;
        if self.outer + self.level > MAX_DEPTH {
            self.report(ViolationKind::TooDeep { limit: MAX_DEPTH });
        } else {
            f(self);
        }
        self.level -= 1;
        if !self.quick {
            self.path.pop();
        }
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
            self.report(ViolationKind::Invalid { message });
            return;
        }
        self.depth += 1;
        if node.used.has(Used::EXTRAS) {
            self.keywords_and_extras(node, value);
        } else {
            // The reference is followed here, not in a function of its own: a chain of
            // references costs one frame per link.
            if node.used.has(Used::REFERENCE)
                && let Some(id) = node.reference
            {
                self.follow(id, value);
            }
            self.keywords(node, value);
        }
        self.depth -= 1;
    }

    /// The keywords of a node with a hint for its violations or a bridged type's check.
    #[inline(never)]
    fn keywords_and_extras(&mut self, node: &'a Node, value: &'a Value) {
        let saved_hint = self.hint;
        if let Some(hint) = &node.hint {
            self.hint = Some(hint);
        }
        let reported = self.out.len();
        if let Some(id) = node.reference {
            self.follow(id, value);
        }
        self.keywords(node, value);
        if node.bridge.is_some() {
            self.bridge(node, value, reported);
        }
        self.hint = saved_hint;
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
            self.report(ViolationKind::Invalid { message });
        }
    }

    fn keywords(&mut self, node: &'a Node, value: &'a Value) {
        if node.never {
            self.never_allowed();
            return;
        }
        let used = node.used;
        // The value's type is read once; the groups are then tested one by one, which
        // predicts better than a jump on the value's type for each node.
        let kind = Types::of(value);
        if let Some(types) = node.types
            && !types.admits_of(kind, value)
        {
            self.wrong_type(types, value);
            return;
        }
        if used.has(Used::VALUES) {
            self.values(node, value);
        }
        if used.has(Used::OBJECT)
            && kind == Types::OBJECT
            && let Value::Object(map) = value
        {
            self.object(node, map);
        } else if used.has(Used::STRING)
            && kind == Types::STRING
            && let Value::String(s) = value
        {
            self.string(node, s);
        } else if used.has(Used::NUMBER) && kind == Types::NUMBER {
            self.number(node, value);
        } else if used.has(Used::ARRAY)
            && kind == Types::ARRAY
            && let Value::Array(items) = value
        {
            self.array(node, items);
        }
        if used.has(Used::COMBINATORS) {
            self.combinators(node, value);
        }
    }

    #[cold]
    #[inline(never)]
    fn never_allowed(&mut self) {
        let kind = if self.level == 0 {
            ViolationKind::Invalid {
                message: "no value is allowed here".into(),
            }
        } else {
            ViolationKind::UnknownField
        };
        self.report(kind);
    }

    #[cold]
    #[inline(never)]
    fn wrong_type(&mut self, types: crate::schema::Types, value: &Value) {
        if self.quick {
            self.failed = true;
            return;
        }
        let expected = describe_types(types);
        self.report(ViolationKind::WrongType {
            expected,
            found: describe_value(value),
        });
    }

    /// Checks the value against the definition a `$ref` names.
    fn follow(&mut self, id: crate::schema::DefId, value: &'a Value) {
        match self.schema.definition(id) {
            Some(target) => self.check(target, value),
            None => self.report(ViolationKind::Invalid {
                message: "the schema refers to a missing definition".into(),
            }),
        }
    }

    /// `const` and `enum`.
    fn values(&mut self, node: &'a Node, value: &'a Value) {
        if let Some(constant) = &node.constant
            && !json_eq(constant, value)
        {
            self.not_among(value, std::slice::from_ref(constant));
        }
        if let Some(values) = &node.enumeration {
            // An enum of strings is indexed; other values are never among them.
            let among = if node.enum_index.is_empty() {
                values.iter().any(|v| json_eq(v, value))
            } else {
                value
                    .as_str()
                    .is_some_and(|s| node.enum_index.get(s).is_some())
            };
            if !among && !self.quick_fail() {
                self.not_in_enum(node, values, value);
            }
        }
    }

    /// `allOf`, `anyOf`, `oneOf` and `not`.
    fn combinators(&mut self, node: &'a Node, value: &'a Value) {
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
            self.report(ViolationKind::Invalid {
                message: "this value is explicitly not allowed here".into(),
            });
        }
    }

    /// `value` is none of the node's `enum`, `values`.
    #[cold]
    #[inline(never)]
    fn not_in_enum(&mut self, node: &'a Node, values: &[Value], value: &Value) {
        // The listing and the strings to suggest from are made once per `enum`.
        let listing = node.enum_listed.0.get_or_init(|| list_values(values));
        self.not_allowed(value, listing.to_vec(), node.enum_words.0.clone());
    }

    /// `value` is none of `allowed` (a `const`, the tags of a discriminator).
    #[cold]
    #[inline(never)]
    pub(super) fn not_among(&mut self, value: &Value, allowed: &[Value]) {
        if !self.quick_fail() {
            self.not_allowed(value, list_values(allowed), EnumStrings::of(allowed));
        }
    }

    /// `value` is none of the values `listing` lists; `words` are the strings among
    /// them, to suggest one from.
    #[cold]
    #[inline(never)]
    fn not_allowed(
        &mut self,
        value: &Value,
        listing: Vec<String>,
        words: Option<std::sync::Arc<EnumStrings>>,
    ) {
        let kind = ViolationKind::NotAllowed {
            found: value::short_json(value),
            allowed: listing,
        };
        let suggestion = value
            .as_str()
            .zip(words)
            .map(|(s, words)| describe::whole(s, words));
        let elsewhere = self
            .siblings
            .and_then(|siblings| siblings::allowed_in_sibling(self.schema, siblings, value));
        self.report_with(kind, |violation| {
            if let Some(suggestion) = suggestion {
                violation.suggest_later(suggestion);
            }
            if let Some(advice) = elsewhere {
                violation.advise(advice);
            }
        });
    }

    fn number(&mut self, node: &'a Node, value: &Value) {
        let Value::Number(n) = value else { return };
        use std::cmp::Ordering::{Greater, Less};
        let limits = [
            (&node.minimum, Less, true),
            (&node.maximum, Greater, true),
            (&node.exclusive_minimum, Less, false),
            (&node.exclusive_maximum, Greater, false),
        ];
        let as_float = value::exact_float(n);
        for (which, (limit, bad, inclusive)) in limits.into_iter().enumerate() {
            if let Some(limit) = limit {
                let ord = value::cmp_number_as(n, as_float, limit);
                if ord == bad || (!inclusive && ord.is_eq()) {
                    self.out_of_range(n, limit, which);
                }
            }
        }
        if let Some(step) = &node.multiple_of
            && !is_multiple_of(n, step)
        {
            self.report(ViolationKind::NotMultipleOf {
                found: n.to_string(),
                step: step.to_string(),
            });
        }
    }

    /// `n` is past `limit`, the minimum, maximum, exclusive minimum or exclusive maximum
    /// (`which`, in that order).
    #[cold]
    #[inline(never)]
    fn out_of_range(&mut self, n: &serde_json::Number, limit: &serde_json::Number, which: usize) {
        let bounds: [fn(String) -> Bound; 4] = [
            Bound::Minimum,
            Bound::Maximum,
            Bound::ExclusiveMinimum,
            Bound::ExclusiveMaximum,
        ];
        self.report(ViolationKind::OutOfRange {
            found: n.to_string(),
            bound: bounds[which](limit.to_string()),
        });
    }

    fn string(&mut self, node: &'a Node, s: &str) {
        if let Some(format) = &node.format
            && self.schema.asserts_formats
        {
            self.format(format, s);
        }
        if (node.min_length.is_some() || node.max_length.is_some())
            && !lengths_hold(s, node.min_length, node.max_length)
        {
            let len = s.chars().count();
            self.lengths(len, node.min_length, node.max_length, Unit::Characters);
        }
        if let Some(pattern) = &node.pattern
            && !pattern.regex.is_match(s)
            && !self.quick_fail()
        {
            let kind = ViolationKind::PatternMismatch {
                found: value::short_str(s),
                pattern: pattern.source.clone(),
            };
            let advice = describe::whole(s, crate::schema::Shape::of(node));
            self.report_with(kind, |violation| violation.advise_later(advice));
        }
    }

    fn format(&mut self, format: &str, s: &str) {
        if !formats::conforms(format, s) {
            self.report(ViolationKind::FormatMismatch {
                found: value::short_str(s),
                format: format.to_owned(),
                form: formats::form(format).unwrap_or_default().to_owned(),
            });
        }
    }

    fn lengths(&mut self, len: usize, min: Option<usize>, max: Option<usize>, unit: Unit) {
        if let Some(min) = min
            && len < min
        {
            self.report(ViolationKind::TooShort { len, min, unit });
        }
        if let Some(max) = max
            && len > max
        {
            self.report(ViolationKind::TooLong { len, max, unit });
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
                    self.report(kind);
                }
                break;
            }
            self.at(Segment::Index(i), |v| v.check(schema, item));
        }
        self.lengths(items.len(), node.min_items, node.max_items, Unit::Items);
        if node.unique_items
            && let Some((first, second)) = value::first_duplicate(items)
        {
            self.report(ViolationKind::NotUnique { first, second });
        }
    }
}

/// Whether a string's length in characters is surely within the bounds, from its length
/// in bytes alone: a character takes one to four bytes. `false` means count them.
fn lengths_hold(s: &str, min: Option<usize>, max: Option<usize>) -> bool {
    let bytes = s.len();
    min.is_none_or(|min| bytes.div_ceil(4) >= min) && max.is_none_or(|max| bytes <= max)
}

#[cfg(test)]
mod tests;
