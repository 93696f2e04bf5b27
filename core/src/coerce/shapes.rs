//! Almost-right shapes: a value where an object with one required field was expected, and
//! the right object or list wrapped once in a key the schema lacks.

use serde_json::{Map, Value};

use super::{Coercer, fix};
use crate::repair::{Fix, FixKind};
use crate::schema::{Node, Types};
use crate::suggest;

impl<'s> Coercer<'s> {
    /// `"Paris"` for `{city}`, `[…]` for `{items: […]}`: the value is put under the object's
    /// one required field, where that makes the object fit. `null` is left alone: it says
    /// there is nothing, not what the field holds. Once: a value put under a field is not
    /// put under another inside it (`"Oslo"` is no `{"to": {"city": "Oslo"}}`).
    pub(super) fn put_under_field(
        &mut self,
        node: &'s Node,
        value: &mut Value,
        fixes: &mut Vec<Fix>,
        depth: usize,
    ) {
        let takes_object = node.types.is_some_and(|t| t.contains(Types::OBJECT));
        if self.wrapping
            || !takes_object
            || value.is_null()
            || value.is_object()
            || !node.required_extra.is_empty()
        {
            return;
        }
        let mut required = node.properties.iter().filter(|p| p.required);
        let (Some(field), None) = (required.next(), required.next()) else {
            return;
        };
        let mut wrapped = Value::Object(Map::from_iter([(field.name.clone(), value.clone())]));
        let mut found = Vec::new();
        self.wrapping = true;
        self.walk(node, &mut wrapped, &mut found, depth);
        self.wrapping = false;
        if self.schema.passes(node, &wrapped) {
            let key = field.name.clone();
            fix(fixes, FixKind::WrappedInField { key }, &self.path);
            fixes.extend(found);
            *value = wrapped;
        }
    }

    /// `{"invoice": {…}}` for an invoice, `{"results": […]}` for a list: the object or list
    /// inside one key that neither the node nor its alternatives have is taken out, where
    /// it fits and the value as written does not. Once: the value inside is not unwrapped
    /// again. A list is not unwrapped where the object, put in a one-item list, fits too.
    pub(super) fn unwrap(
        &mut self,
        node: &'s Node,
        value: &mut Value,
        fixes: &mut Vec<Fix>,
        depth: usize,
    ) -> bool {
        let Value::Object(map) = &*value else {
            return false;
        };
        let Some((key, inner)) = map.iter().next() else {
            return false;
        };
        let takes = node.types.is_none_or(|t| t.admits(inner));
        if map.len() != 1
            || !(inner.is_object() || inner.is_array())
            || !takes
            || self.unwrapping == Some(depth)
            || self.names_key(node, key)
            || self.schema.passes(node, value)
        {
            return false;
        }
        let key = key.clone();
        let mut unwrapped = inner.clone();
        let mut found = Vec::new();
        let outer = self.unwrapping.replace(depth);
        self.walk(node, &mut unwrapped, &mut found, depth);
        self.unwrapping = outer;
        if !self.schema.passes(node, &unwrapped) {
            return false;
        }
        let lists_too = node
            .types
            .is_some_and(|t| t.contains(Types::ARRAY) && !t.contains(Types::OBJECT));
        if lists_too && self.schema.passes(node, &Value::Array(vec![value.clone()])) {
            return false;
        }
        fix(fixes, FixKind::Unwrapped { key }, &self.path);
        fixes.extend(found);
        *value = unwrapped;
        true
    }

    /// Whether `key` is one the node gives a meaning to: a field (by its name, an alias, or
    /// a near miss of one: `{"them": {}}` may be a `theme` left empty), a pattern property
    /// or a map's key, or a field of one of its alternatives.
    fn names_key(&self, node: &Node, key: &str) -> bool {
        let own = |node: &Node| {
            let names = node.properties.iter().flat_map(|p| {
                std::iter::once(p.name.as_str()).chain(p.aliases.iter().map(String::as_str))
            });
            node.property(key).is_some()
                || super::keys::folded_field(node, key).is_some()
                || suggest::closest(key, names).is_some()
                || node
                    .pattern_properties
                    .iter()
                    .any(|(p, _)| p.regex.is_match(key))
                || node
                    .additional_properties
                    .as_deref()
                    .is_some_and(|n| !n.never)
        };
        own(node)
            || node
                .any_of
                .iter()
                .chain(&node.one_of)
                .any(|alt| own(self.schema.resolve(alt)))
    }
}
