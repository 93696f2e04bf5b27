//! Objects: each key against its property, its patterns or the other keys' schema, then
//! what is missing.

use serde_json::{Map, Value};

use super::{Segment, Validator};
use crate::error::{Unit, ViolationKind};
use crate::schema::Node;
use crate::schema::keys::Cursor;
use crate::suggest;

impl<'a> Validator<'a> {
    pub(super) fn object(&mut self, node: &'a Node, map: &'a Map<String, Value>) {
        let mut seen = Seen::new(node.properties.len());
        let mut cursor = Cursor::default();
        for (key, value) in map {
            // A key may match a property and patterns both: each schema applies.
            let mut matched = false;
            if let Some(i) = node.next_property(key, &mut cursor) {
                matched = true;
                if !seen.insert(i) {
                    self.conflict(node, map, i, key);
                }
                let property = &node.properties[i];
                let outer = self.siblings.replace((node, property.name.as_str()));
                self.at(Segment::Key(key), |v| v.check(&property.node, value));
                self.siblings = outer;
            }
            if !node.pattern_properties.is_empty() {
                matched |= self.pattern_properties(node, key, value);
            }
            if let Some(names) = &node.property_names {
                self.property_name(names, key);
            }
            if !matched {
                self.additional(node, map, key, value);
            }
        }
        self.missing(node, map, &seen);
        self.lengths(
            map.len(),
            node.min_properties,
            node.max_properties,
            Unit::Members,
        );
    }

    /// A second key naming property `i` (by an alias): both keys are reported.
    fn conflict(&mut self, node: &'a Node, map: &'a Map<String, Value>, i: usize, key: &'a str) {
        let Some(first) = map
            .keys()
            .find(|k| k.as_str() != key && node.property(k) == Some(i))
        else {
            return;
        };
        self.at(Segment::Key(key), |v| {
            v.report(ViolationKind::Conflict {
                keys: vec![first.clone(), key.to_owned()],
            })
        });
    }

    /// Checks `value` against every pattern its key matches; whether any did.
    fn pattern_properties(&mut self, node: &'a Node, key: &'a str, value: &'a Value) -> bool {
        let mut matched = false;
        for (pattern, schema) in &node.pattern_properties {
            if pattern.regex.is_match(key) {
                matched = true;
                self.at(Segment::Key(key), |v| v.check(schema, value));
            }
        }
        matched
    }

    fn property_name(&mut self, names: &'a Node, key: &'a str) {
        let name = Value::String(key.to_owned());
        let mut inner = Validator::new(self.schema);
        inner.quick = true;
        inner.depth = self.depth;
        inner.check(names, &name);
        if inner.failed {
            self.at(Segment::Key(key), |v| {
                v.report(ViolationKind::Invalid {
                    message: format!(
                        "the key {} is not allowed here",
                        crate::value::short_json(&name)
                    ),
                })
            });
        }
    }

    /// A key no property or pattern names: checked against `additionalProperties`.
    fn additional(
        &mut self,
        node: &'a Node,
        map: &'a Map<String, Value>,
        key: &'a str,
        value: &'a Value,
    ) {
        match node.additional_properties.as_deref() {
            Some(additional) if additional.never => {
                let candidates = node
                    .properties
                    .iter()
                    .filter(|p| !map.contains_key(&p.name))
                    .map(|p| p.name.as_str());
                self.at(Segment::Key(key), |v| {
                    v.report_with(ViolationKind::UnknownField, |violation| {
                        violation.advise(allowed_keys(node));
                        if let Some(suggestion) = suggest::closest(key, candidates) {
                            violation.suggest(suggestion.to_owned());
                        }
                    })
                });
            }
            Some(additional) => self.at(Segment::Key(key), |v| v.check(additional, value)),
            None => {}
        }
    }

    /// Required properties and keys the object lacks.
    fn missing(&mut self, node: &'a Node, map: &'a Map<String, Value>, seen: &Seen) {
        let all_given = match (seen, node.property_index.required()) {
            (Seen::Few(bits), Some(required)) => bits & required == required,
            _ => false,
        };
        let properties = if all_given { &[][..] } else { &node.properties };
        for (i, property) in properties.iter().enumerate() {
            if property.required && !seen.contains(i) {
                self.at(Segment::Key(&property.name), |v| {
                    let saved = v.hint;
                    v.hint = v
                        .schema
                        .resolve(&property.node)
                        .hint
                        .as_deref()
                        .or(property.node.hint.as_deref())
                        .or(saved);
                    v.report(ViolationKind::MissingField);
                    v.hint = saved;
                });
            }
        }
        for name in &node.required_extra {
            if !map.contains_key(name) {
                self.at(Segment::Key(name), |v| {
                    v.report(ViolationKind::MissingField)
                });
            }
        }
        for (trigger, keys) in &node.dependent_required {
            if map.contains_key(trigger) {
                for name in keys.iter().filter(|k| !map.contains_key(*k)) {
                    self.at(Segment::Key(name), |v| {
                        v.report(ViolationKind::MissingField)
                    });
                }
            }
        }
    }
}

/// The member `key` of `map`. A small object is scanned: comparing a few keys costs less
/// than hashing one.
pub(super) fn member<'v>(map: &'v Map<String, Value>, key: &str) -> Option<&'v Value> {
    const SCANNED: usize = 8;
    if map.len() <= SCANNED {
        map.iter().find_map(|(k, v)| (k == key).then_some(v))
    } else {
        map.get(key)
    }
}

/// The properties an object has given so far: bits for the few most objects have, with
/// no allocation.
enum Seen {
    Few(u64),
    Many(Vec<bool>),
}

impl Seen {
    fn new(properties: usize) -> Seen {
        if properties <= 64 {
            Seen::Few(0)
        } else {
            Seen::Many(vec![false; properties])
        }
    }

    /// Marks property `i`; false when it was already marked.
    fn insert(&mut self, i: usize) -> bool {
        match self {
            Seen::Few(bits) => {
                let fresh = *bits & (1 << i) == 0;
                *bits |= 1 << i;
                fresh
            }
            Seen::Many(flags) => !std::mem::replace(&mut flags[i], true),
        }
    }

    fn contains(&self, i: usize) -> bool {
        match self {
            Seen::Few(bits) => bits & (1 << i) != 0,
            Seen::Many(flags) => flags[i],
        }
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
