//! Which values some `enum` or `const` of a schema lists: a quick no before the search
//! for a sibling property that allows a rejected value (see `validate::siblings`), which
//! most rejected values, listed nowhere, would otherwise walk every sibling for.

use std::hash::{BuildHasher, BuildHasherDefault};

use rustc_hash::{FxHashSet, FxHasher};
use serde_json::Value;

use super::Node;

/// The listed strings, by hash, and whether any listed value is not a string.
#[derive(Debug, Clone, Default)]
pub(crate) struct Listed {
    strings: FxHashSet<u64>,
    others: bool,
}

impl Listed {
    /// Notes the values `node` itself lists.
    pub(crate) fn add(&mut self, node: &Node) {
        for value in node.enumeration.iter().flatten().chain(&node.constant) {
            match value {
                Value::String(s) => {
                    self.strings.insert(hash(s));
                }
                _ => self.others = true,
            }
        }
    }

    /// Whether some node may list `value`: `false` only when none does.
    pub(crate) fn may_list(&self, value: &Value) -> bool {
        match value {
            Value::String(s) => self.strings.contains(&hash(s)),
            _ => self.others,
        }
    }
}

fn hash(s: &str) -> u64 {
    BuildHasherDefault::<FxHasher>::default().hash_one(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn listing(values: Value) -> Node {
        Node {
            enumeration: values.as_array().cloned(),
            ..Node::default()
        }
    }

    #[test]
    fn says_no_only_for_values_listed_nowhere() {
        let mut listed = Listed::default();
        listed.add(&listing(json!(["light", "switch"])));
        listed.add(&Node {
            constant: Some(json!("fan")),
            ..Node::default()
        });
        for value in [json!("light"), json!("switch"), json!("fan")] {
            assert!(listed.may_list(&value), "{value}");
        }
        for value in [
            json!("lights"),
            json!("Light"),
            json!(""),
            json!(1),
            json!(null),
        ] {
            assert!(!listed.may_list(&value), "{value}");
        }
        listed.add(&listing(json!([1, null])));
        assert!(listed.may_list(&json!(1)) && listed.may_list(&json!(true)));
    }
}
