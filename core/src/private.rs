//! The runtime the derive's generated code calls into. Not public API.
//!
//! Generated code is data plus calls to these builders, so the logic lives here, where
//! it is written once, tested, and documented.

use std::borrow::Cow;

pub use serde;
pub use serde_json::{Map, Number, Value, json};

// `#[schema(validate = path)]`: the checks run while a value is built.
#[path = "private/validation.rs"]
mod validation;
pub use validation::{IntoRejection, Lend, Validation};

pub use crate::fast_path::{
    Check, Checked, FirstKey, Key, TagKey, end_of_map, rest_through_value, tagged_through_value,
};
pub use crate::schema::build::Limit;
pub use crate::tool_schema::streaming::{
    Strict, checked_value, end_of_seq, item, reject, through_value,
};

/// Reads `T` on the strict deserializer's fast path only: `None` where it gives up.
/// For the agreement test, which holds this path to the schema on its own.
pub fn fast_from_str<T: ToolSchema>(text: &str) -> Option<T> {
    crate::fast_path::from_str(text)
}

pub use crate::schema::build::{
    Alternatives, Field, Object, constant, describe, string_enum, tuple, unit,
};
pub(crate) use crate::tool_schema::reading::wrong_shape;
pub use crate::tool_schema::reading::{
    Items, bridge_build, expect_array, expect_null, expect_object, items_of, members_of,
};

use crate::Error;
use crate::error::{Violation, ViolationKind, quote};
use crate::schema::bridge::Bridge;
use crate::schema::{Generator, Node, Schema};
use crate::tool_schema::ToolSchema;

/// `Page<Item>` → `Page_Item`, the `$defs` name of a generic type.
pub fn generic_name(base: &str, parameters: &[Cow<'static, str>]) -> Cow<'static, str> {
    if parameters.is_empty() {
        return Cow::Owned(base.to_owned());
    }
    let mut name = base.to_owned();
    for p in parameters {
        name.push('_');
        name.push_str(p);
    }
    Cow::Owned(name)
}

// ---------------------------------------------------------------------------------------
// Building values from JSON the schema accepted.

/// The members of an object being taken apart into a struct's fields.
///
/// Members are kept in document order and looked up from where the last one was found,
/// so an object written in field order is taken apart in one sweep without hashing.
pub struct Fields {
    entries: Vec<Option<(String, Value)>>,
    cursor: usize,
}

impl Fields {
    pub fn new(value: Value) -> Result<Self, Error> {
        let map = expect_object(value)?;
        Ok(Fields {
            entries: map.into_iter().map(Some).collect(),
            cursor: 0,
        })
    }

    fn remove(&mut self, name: &str, aliases: &[&str]) -> Option<Value> {
        let len = self.entries.len();
        for step in 0..len {
            let i = (self.cursor + step) % len;
            let hit = matches!(&self.entries[i], Some((key, _)) if key == name || aliases.contains(&key.as_str()));
            if hit {
                self.cursor = i + 1;
                return self.entries[i].take().map(|(_, value)| value);
            }
        }
        None
    }

    /// A field that must be present unless its type allows absence (`Option`).
    pub fn take<T: ToolSchema>(&mut self, name: &str, aliases: &[&str]) -> Result<T, Error> {
        match self.remove(name, aliases) {
            Some(value) => T::from_json(value).map_err(|e| e.under(name)),
            None => T::when_missing().ok_or_else(|| {
                Error::single(Violation::new(
                    format!("/{name}"),
                    ViolationKind::MissingField,
                ))
            }),
        }
    }

    /// A field with a default for when it is absent.
    pub fn take_or<T: ToolSchema>(
        &mut self,
        name: &str,
        aliases: &[&str],
        default: impl FnOnce() -> T,
    ) -> Result<T, Error> {
        match self.remove(name, aliases) {
            Some(value) => T::from_json(value).map_err(|e| e.under(name)),
            None => Ok(default()),
        }
    }

    /// A bridged field (`#[schema(bridge)]`), read by serde.
    pub fn take_bridged<T: serde::de::DeserializeOwned>(
        &mut self,
        name: &str,
        aliases: &[&str],
    ) -> Result<T, Error> {
        match self.remove(name, aliases) {
            Some(value) => bridge_build(value).map_err(|e| e.under(name)),
            None => bridge_missing().ok_or_else(|| {
                Error::single(Violation::new(
                    format!("/{name}"),
                    ViolationKind::MissingField,
                ))
            }),
        }
    }

    /// A bridged field with a default for when it is absent.
    pub fn take_bridged_or<T: serde::de::DeserializeOwned>(
        &mut self,
        name: &str,
        aliases: &[&str],
        default: impl FnOnce() -> T,
    ) -> Result<T, Error> {
        match self.remove(name, aliases) {
            Some(value) => bridge_build(value).map_err(|e| e.under(name)),
            None => Ok(default()),
        }
    }

    /// A flattened field: takes the keys its type knows (every remaining key for a map).
    pub fn take_flattened<T: ToolSchema>(&mut self) -> Result<T, Error> {
        let schema = Schema::of::<T>();
        let root = schema.resolve(schema.root());
        let open = root
            .additional_properties
            .as_deref()
            .is_none_or(|n| !n.never);
        let taken: Map<String, Value> = self
            .entries
            .iter_mut()
            .filter(|e| matches!(e, Some((key, _)) if open || root.property(key).is_some()))
            .filter_map(Option::take)
            .collect();
        T::from_json(Value::Object(taken))
    }

    /// The string value of an internal or adjacent tag.
    pub fn tag(&mut self, name: &str) -> Result<String, Error> {
        match self.remove(name, &[]) {
            Some(Value::String(s)) => Ok(s),
            Some(other) => Err(wrong_shape("a string tag", &other).under(name)),
            None => Err(Error::single(Violation::new(
                format!("/{name}"),
                ViolationKind::MissingField,
            ))),
        }
    }

    /// An adjacent tag's content (`null` when absent, for unit variants).
    pub fn content(&mut self, name: &str) -> Value {
        self.remove(name, &[]).unwrap_or(Value::Null)
    }

    /// What is left, as an object: a newtype variant's struct beside an internal tag.
    pub fn into_value(self) -> Value {
        Value::Object(self.entries.into_iter().flatten().collect())
    }
}

/// serde's external tagging: `"Unit"` or `{"Variant": payload}`.
pub fn external_tag(value: Value) -> Result<(String, Value), Error> {
    match value {
        Value::String(s) => Ok((s, Value::Null)),
        Value::Object(map) if map.len() == 1 => Ok(map.into_iter().next().unwrap_or_default()),
        other => Err(wrong_shape(
            "a variant name or an object with one key",
            &other,
        )),
    }
}

/// A tool union's envelope: `Ok(Some((name, arguments)))` for a call, `Ok(None)` and the
/// answer for a direct answer.
pub enum Envelope {
    Tool(String, Value),
    Answer(Value),
}

pub fn tool_call(value: Value) -> Result<Envelope, Error> {
    let mut map = expect_object(value)?;
    if let Some(answer) = map.remove("answer") {
        return Ok(Envelope::Answer(answer));
    }
    match (map.remove("name"), map.remove("arguments")) {
        (Some(Value::String(name)), Some(arguments)) => Ok(Envelope::Tool(name, arguments)),
        _ => Err(Error::internal("expected a tool call or an answer")),
    }
}

/// The first alternative of an untagged enum the value matches.
pub fn untagged_variant<T: ToolSchema>(value: &Value) -> Result<usize, Error> {
    let schema = Schema::of::<T>();
    let root = schema.resolve(schema.root());
    let count = root.any_of.len().max(root.one_of.len());
    (0..count)
        .find(|&i| schema.matches_alternative(i, value))
        .ok_or_else(|| Error::internal("the value matches no variant"))
}

pub fn unknown_variant(name: &str) -> Error {
    Error::internal(format!("unknown variant {}", quote(name)))
}

/// A bridged field: its schema from schemars, its value from serde, which the node
/// keeps to check values with (see `Bridge`). A schema the loader refuses rejects every
/// value with the reason, naming the type and the keyword.
pub fn bridge_schema<T: schemars::JsonSchema + serde::de::DeserializeOwned>(
    generator: &mut Generator,
) -> Node {
    let settings = schemars::generate::SchemaSettings::draft2020_12();
    let schema = settings.into_generator().into_root_schema_for::<T>();
    let mut json = schema.to_value();
    if let Value::Object(map) = &mut json {
        map.remove("$schema");
        map.remove("title");
    }
    let mut bridge = Bridge::of::<T>();
    let mut node = match crate::schema::load_into(generator, &json) {
        Ok(node) => node,
        Err(e) => {
            let reasons: Vec<String> = e.violations().iter().map(|v| v.to_string()).collect();
            bridge.unloadable = Some(format!(
                "the schema of the bridged type {} cannot be checked: {}",
                bridge.type_name,
                reasons.join("; ")
            ));
            Node::default()
        }
    };
    node.bridge = Some(Box::new(bridge));
    node
}

/// `None` for a bridged `Option` field's absence, so it is not required.
pub fn bridge_missing<T: serde::de::DeserializeOwned>() -> Option<T> {
    serde_json::from_value(Value::Null).ok()
}
