//! A value rejected at one key that another key of the same object allows: `"light"` in
//! `device_class` when `domain` takes it. The violation says where it is allowed, so the
//! model moves it rather than picking the nearest allowed value where it put it.

use serde_json::Value;

use crate::error::quote;
use crate::schema::{Node, Schema};
use crate::value::{json_eq, short_json};

/// Advice naming the first other property of `object` that allows `value` (as its value,
/// or as an item of its list), if one does.
pub(super) fn allowed_in_sibling(
    schema: &Schema,
    (object, own): (&Node, &str),
    value: &Value,
) -> Option<String> {
    if value.is_object() || value.is_array() || !schema.listed.may_list(value) {
        return None;
    }
    let property = object
        .properties
        .iter()
        .filter(|p| p.name != own)
        .find(|p| allows(schema, &p.node, value, 0))?;
    Some(format!(
        "{} is allowed in {} instead; move it there if that is what you meant",
        short_json(value),
        quote(&property.name)
    ))
}

/// Whether the node lists `value` among its allowed values, its items' or those of an
/// alternative (a nullable enum is an `anyOf`).
fn allows(schema: &Schema, node: &Node, value: &Value, depth: usize) -> bool {
    let node = schema.resolve(node);
    let listed = node
        .enumeration
        .iter()
        .flatten()
        .chain(node.constant.as_ref())
        .any(|allowed| json_eq(allowed, value));
    listed
        || (depth < 3
            && node
                .items
                .as_deref()
                .into_iter()
                .chain(&node.any_of)
                .chain(&node.one_of)
                .any(|inner| allows(schema, inner, value, depth + 1)))
}
