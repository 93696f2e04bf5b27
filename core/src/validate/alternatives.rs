//! `anyOf` and `oneOf`: which alternative a value matches, and when it matches none, the
//! one it was most likely meant to be.

use serde_json::Value;

use super::describe::{self, describe_types, describe_value, list_values};
use super::{Segment, Validator, json_eq, suggest};
use crate::error::{Violation, ViolationKind};
use crate::schema::{Discriminator, Node, Types};

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
            .filter(|&i| self.passes(&alternatives[i], value))
            .take(limit)
            .collect();
        match (matched.len(), exclusive) {
            (1, _) | (_, false) if !matched.is_empty() => return,
            (2.., true) => {
                let all: Vec<usize> = if self.quick {
                    matched
                } else {
                    (0..alternatives.len())
                        .filter(|&i| self.passes(&alternatives[i], value))
                        .collect()
                };
                self.report(ViolationKind::Ambiguous { matched: all }, None);
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
            Some((d, Err(()))) => self.discriminator_violation(d, value),
            None => self.closest_alternative(alternatives, value),
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
            self.report(ViolationKind::NoMatch { expected }, None);
        }
    }

    /// Reports the alternative of the right type with the fewest violations.
    fn closest_alternative(&mut self, alternatives: &'a [Node], value: &'a Value) {
        let trials: Vec<Vec<Violation>> =
            alternatives.iter().map(|a| self.trial(a, value)).collect();
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
                self.report(
                    ViolationKind::WrongType {
                        expected: describe_types(types),
                        found: describe_value(value),
                    },
                    None,
                );
            }
        }
    }

    /// The value names an alternative that does not exist: say which ones do.
    fn discriminator_violation(&mut self, discriminator: &'a Discriminator, value: &'a Value) {
        match (discriminator, value) {
            (Discriminator::Property { name, values, .. }, Value::Object(map)) => {
                let Some(tag) = map.get(name) else { return };
                let allowed: Vec<Value> = values.iter().map(|(v, _)| v.clone()).collect();
                self.at(Segment::Key(name), |v| v.not_allowed(tag, &allowed));
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
                    v.report(
                        ViolationKind::NotAllowed {
                            found: describe::short_json(&Value::String(key.clone())),
                            allowed: list_values(&allowed),
                        },
                        suggestion,
                    )
                });
            }
            (Discriminator::Key { strings, .. }, Value::String(_)) => {
                let allowed: Vec<Value> = strings
                    .iter()
                    .map(|(k, _)| Value::from(k.as_str()))
                    .collect();
                self.not_allowed(value, &allowed);
            }
            _ => {}
        }
    }
}

/// The alternative a discriminator names: `Some(Ok(i))`, `Some(Err(()))` when the value
/// names none, `None` when the value carries no discriminator or names more than one
/// alternative (two run-time alternatives may require the same key).
fn select(discriminator: &Discriminator, value: &Value) -> Option<Result<usize, ()>> {
    fn only(mut named: impl Iterator<Item = usize>) -> Option<Result<usize, ()>> {
        match (named.next(), named.next()) {
            (None, _) => Some(Err(())),
            (Some(i), None) => Some(Ok(i)),
            (Some(_), Some(_)) => None,
        }
    }
    match (discriminator, value) {
        (Discriminator::Property { name, values, .. }, Value::Object(map)) => {
            let tag = map.get(name)?;
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
    use serde_json::json;

    use crate::Schema;

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
        assert!(schema.validate(&json!({ "a": true })).is_err());
    }
}
