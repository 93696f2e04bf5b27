//! Which groups of keywords a node uses, found when its schema is finished: the
//! validator looks at those groups only, and at nothing for a node that constrains
//! nothing the value's type can break.

use super::Node;

/// A set of keyword groups. The default, for a node that was never indexed, holds every
/// group, so an unindexed node is checked in full.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Used(u16);

/// Derived from the node's keywords, so it never tells two nodes apart: a node compares
/// equal before and after it is indexed.
impl PartialEq for Used {
    fn eq(&self, _: &Used) -> bool {
        true
    }
}

impl Default for Used {
    fn default() -> Used {
        Used(u16::MAX)
    }
}

impl Used {
    pub(crate) const REFERENCE: Used = Used(1);
    /// `const` and `enum`.
    pub(crate) const VALUES: Used = Used(1 << 1);
    pub(crate) const NUMBER: Used = Used(1 << 2);
    pub(crate) const STRING: Used = Used(1 << 3);
    pub(crate) const ARRAY: Used = Used(1 << 4);
    pub(crate) const OBJECT: Used = Used(1 << 5);
    /// `allOf`, `anyOf`, `oneOf`, `not`.
    pub(crate) const COMBINATORS: Used = Used(1 << 6);
    /// A hint for the violations inside, or serde's check of a bridged type.
    pub(crate) const EXTRAS: Used = Used(1 << 7);

    pub(crate) const fn has(self, group: Used) -> bool {
        self.0 & group.0 != 0
    }

    /// The groups `node`'s own keywords use (not those of the nodes inside it).
    pub(crate) fn of(node: &Node) -> Used {
        let groups = [
            (Used::REFERENCE, node.reference.is_some()),
            (
                Used::VALUES,
                node.constant.is_some() || node.enumeration.is_some(),
            ),
            (
                Used::NUMBER,
                node.minimum.is_some()
                    || node.maximum.is_some()
                    || node.exclusive_minimum.is_some()
                    || node.exclusive_maximum.is_some()
                    || node.multiple_of.is_some(),
            ),
            (
                Used::STRING,
                node.min_length.is_some()
                    || node.max_length.is_some()
                    || node.pattern.is_some()
                    || node.format.is_some(),
            ),
            (
                Used::ARRAY,
                !node.prefix_items.is_empty()
                    || node.items.is_some()
                    || node.min_items.is_some()
                    || node.max_items.is_some()
                    || node.unique_items,
            ),
            (
                Used::OBJECT,
                !node.properties.is_empty()
                    || node.additional_properties.is_some()
                    || !node.pattern_properties.is_empty()
                    || node.property_names.is_some()
                    || node.min_properties.is_some()
                    || node.max_properties.is_some()
                    || !node.required_extra.is_empty()
                    || !node.dependent_required.is_empty(),
            ),
            (
                Used::COMBINATORS,
                !node.all_of.is_empty()
                    || !node.any_of.is_empty()
                    || !node.one_of.is_empty()
                    || node.not.is_some(),
            ),
            (Used::EXTRAS, node.hint.is_some() || node.bridge.is_some()),
        ];
        Used(
            groups
                .into_iter()
                .filter(|(_, used)| *used)
                .fold(0, |bits, (group, _)| bits | group.0),
        )
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::Used;
    use crate::Schema;
    use crate::schema::Node;

    #[test]
    fn a_node_never_indexed_uses_every_group() {
        let node = Node::default();
        for group in [
            Used::REFERENCE,
            Used::VALUES,
            Used::OBJECT,
            Used::COMBINATORS,
        ] {
            assert!(node.used.has(group));
        }
    }

    #[test]
    fn each_keyword_marks_its_group_only() {
        let cases = [
            (json!({ "enum": [1] }), Used::VALUES),
            (json!({ "const": 1 }), Used::VALUES),
            (json!({ "minimum": 1 }), Used::NUMBER),
            (json!({ "multipleOf": 2 }), Used::NUMBER),
            (json!({ "pattern": "a" }), Used::STRING),
            (json!({ "maxLength": 2 }), Used::STRING),
            (json!({ "format": "date" }), Used::STRING),
            (json!({ "items": {} }), Used::ARRAY),
            (json!({ "uniqueItems": true }), Used::ARRAY),
            (json!({ "required": ["a"] }), Used::OBJECT),
            (json!({ "maxProperties": 1 }), Used::OBJECT),
            (json!({ "not": {} }), Used::COMBINATORS),
            (
                json!({ "anyOf": [{}, { "type": "null" }] }),
                Used::COMBINATORS,
            ),
        ];
        let all = [
            Used::REFERENCE,
            Used::VALUES,
            Used::NUMBER,
            Used::STRING,
            Used::ARRAY,
            Used::OBJECT,
            Used::COMBINATORS,
            Used::EXTRAS,
        ];
        for (json, group) in cases {
            let schema = Schema::from_json(json.clone()).unwrap();
            for other in all {
                assert_eq!(
                    schema.root.used.has(other),
                    other.0 == group.0,
                    "{json} {other:?}"
                );
            }
        }
    }
}
