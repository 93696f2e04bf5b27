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

pub use crate::strict::{
    Check, Checked, FirstKey, Key, Limit, Strict, TagKey, checked_value, end_of_map, end_of_seq,
    item, reject, rest_through_value, tagged_through_value, through_value,
};

/// Reads `T` on the strict deserializer's fast path only: `None` where it gives up.
/// For the agreement test, which holds this path to the schema on its own.
pub fn fast_from_str<T: ToolSchema>(text: &str) -> Option<T> {
    crate::strict::from_str(text)
}

use crate::Error;
use crate::error::{Violation, ViolationKind, quote};
use crate::schema::bridge::Bridge;
use crate::schema::{Generator, Node, Property, Schema, ToolSchema, Types};

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

/// An object schema under construction.
#[derive(Default)]
pub struct Object {
    node: Node,
}

impl Object {
    pub fn new() -> Self {
        Object {
            node: Node {
                additional_properties: Some(Box::new(Node::never())),
                ..Node::of_type(Types::OBJECT)
            },
        }
    }

    pub fn description(mut self, text: &str) -> Self {
        self.node.description = Some(text.to_owned());
        self
    }

    pub fn field(mut self, field: Field) -> Self {
        self.node.properties.push(field.property);
        self
    }

    /// A required property fixed to one string: an internal tag.
    pub fn tag(mut self, name: &str, value: &str) -> Self {
        self.node.properties.insert(
            0,
            Property {
                name: name.to_owned(),
                aliases: Vec::new(),
                node: constant(value),
                required: true,
            },
        );
        self
    }

    /// Merges the properties of a flattened struct, or opens the object to a flattened
    /// map's values.
    pub fn flatten(mut self, node: Node, generator: &Generator) -> Self {
        let inner = generator.resolve(&node);
        self.node
            .properties
            .extend(inner.properties.iter().cloned());
        match inner.additional_properties.as_deref() {
            Some(values) if !values.never => {
                self.node.additional_properties = Some(Box::new(values.clone()));
            }
            Some(_) => {}
            // An open object (`serde_json::Map`) takes any other key.
            None => self.node.additional_properties = Some(Box::new(Node::default())),
        }
        self
    }

    pub fn build(self) -> Node {
        self.node
    }
}

/// A string schema with one allowed value.
pub fn constant(value: &str) -> Node {
    Node {
        constant: Some(Value::from(value)),
        ..Node::of_type(Types::STRING)
    }
}

/// A string enum.
pub fn string_enum(values: &[&str], description: Option<&str>) -> Node {
    Node {
        enumeration: Some(values.iter().map(|v| Value::from(*v)).collect()),
        description: description.map(str::to_owned),
        ..Node::of_type(Types::STRING)
    }
}

/// A fixed-length array: a tuple struct or tuple variant.
pub fn tuple(items: Vec<Node>, description: Option<&str>) -> Node {
    let len = items.len();
    Node {
        prefix_items: items,
        items: Some(Box::new(Node::never())),
        min_items: Some(len),
        description: description.map(str::to_owned),
        ..Node::of_type(Types::ARRAY)
    }
}

/// `null`: a unit struct.
pub fn unit(description: Option<&str>) -> Node {
    Node {
        description: description.map(str::to_owned),
        ..Node::of_type(Types::NULL)
    }
}

/// Adds a description to a node (a newtype or transparent struct's own doc comment).
pub fn describe(mut node: Node, description: Option<&str>) -> Node {
    if let Some(d) = description {
        node.description = Some(d.to_owned());
    }
    node
}

/// One property of an object schema under construction, with its constraints.
pub struct Field {
    property: Property,
}

impl Field {
    pub fn new(name: &str, node: Node) -> Self {
        Field {
            property: Property {
                name: name.to_owned(),
                aliases: Vec::new(),
                node,
                required: true,
            },
        }
    }

    pub fn aliases(mut self, aliases: &[&str]) -> Self {
        self.property.aliases = aliases.iter().map(|a| (*a).to_owned()).collect();
        self
    }

    pub fn required(mut self, required: bool) -> Self {
        self.property.required = required;
        self
    }

    pub fn description(mut self, text: &str) -> Self {
        self.property.node.description = Some(text.to_owned());
        self
    }

    pub fn hint(mut self, text: &str) -> Self {
        self.property.node.hint = Some(text.to_owned());
        self
    }

    pub fn example(mut self, value: Value) -> Self {
        self.property.node.examples.push(value);
        self
    }

    /// Narrows the type's own range (a `u8` stays within 0..=255 whatever the bounds).
    pub fn range(mut self, min: Option<Limit>, max: Option<Limit>) -> Self {
        let (min, max) = (min.map(Limit::number), max.map(Limit::number));
        use std::cmp::Ordering::{Greater, Less};
        let narrow = |own: &mut Option<Number>, new: Option<Number>, keep: std::cmp::Ordering| {
            if let Some(new) = new
                && own
                    .as_ref()
                    .is_none_or(|own| crate::validate::cmp_number(&new, own) == keep)
            {
                *own = Some(new);
            }
        };
        self.constrain(|n| {
            narrow(&mut n.minimum, min, Greater);
            narrow(&mut n.maximum, max, Less);
        });
        self
    }

    /// Characters for strings, items for arrays, members for maps.
    pub fn length(mut self, min: Option<usize>, max: Option<usize>) -> Self {
        self.constrain(|n| {
            let is = |kind| n.types.is_some_and(|t: Types| t.contains(kind));
            let (lo, hi) = if is(Types::ARRAY) {
                (&mut n.min_items, &mut n.max_items)
            } else if is(Types::OBJECT) {
                (&mut n.min_properties, &mut n.max_properties)
            } else {
                (&mut n.min_length, &mut n.max_length)
            };
            // Narrows the type's own length (a `[T; 3]` keeps exactly 3 items).
            if let Some(min) = min {
                *lo = Some(lo.map_or(min, |own| own.max(min)));
            }
            if let Some(max) = max {
                *hi = Some(hi.map_or(max, |own| own.min(max)));
            }
        });
        self
    }

    pub fn pattern(mut self, source: &str) -> Self {
        // A pattern means what JSON Schema says (ECMA-262: `\d` is ASCII digits), so it is
        // compiled as the run-time loader compiles it. The derive checked it already.
        if let Ok(regex) = crate::schema::compile_pattern(source) {
            let pattern = crate::schema::Pattern {
                source: source.to_owned(),
                regex,
            };
            self.constrain(|n| n.pattern = Some(pattern));
        }
        self
    }

    pub fn format(mut self, format: &str) -> Self {
        self.constrain(|n| n.format = Some(format.to_owned()));
        self
    }

    /// The node alone: a positional field (newtype, tuple) has no key.
    pub fn into_node(self) -> Node {
        self.property.node
    }

    /// Applies a constraint to the value itself, through an `Option`'s `anyOf`.
    fn constrain(&mut self, f: impl FnOnce(&mut Node)) {
        let node = &mut self.property.node;
        let nullable_any_of =
            node.any_of.len() == 2 && node.any_of[1] == Node::of_type(Types::NULL);
        if nullable_any_of {
            f(&mut node.any_of[0]);
        } else {
            f(node);
        }
    }
}

/// The alternatives of an enum's schema.
pub struct Union {
    node: Node,
    exclusive: bool,
}

impl Union {
    /// Tagged alternatives (`oneOf`): exactly one matches by construction.
    pub fn one_of(description: Option<&str>) -> Self {
        Union {
            node: describe(Node::default(), description),
            exclusive: true,
        }
    }

    /// Untagged alternatives (`anyOf`): the first that matches wins.
    pub fn any_of(description: Option<&str>) -> Self {
        Union {
            node: describe(Node::default(), description),
            exclusive: false,
        }
    }

    pub fn variant(mut self, node: Node) -> Self {
        if self.exclusive {
            self.node.one_of.push(node);
        } else {
            self.node.any_of.push(node);
        }
        self
    }

    /// `{"Name": payload}`: a variant in serde's default external tagging.
    pub fn external(self, name: &str, payload: Node, description: Option<&str>) -> Self {
        let node = Object::new().field(Field::new(name, payload)).build();
        self.variant(describe(node, description))
    }

    /// `{"name": "tool", "arguments": {…}}`: a tool call.
    pub fn tool(self, name: &str, arguments: Node, description: Option<&str>) -> Self {
        let node = Object::new()
            .field(Field::new("name", constant(name)))
            .field(Field::new("arguments", arguments))
            .build();
        self.variant(describe(node, description))
    }

    /// `{"answer": …}`: the direct answer of a tool union.
    pub fn answer(self, payload: Node, description: Option<&str>) -> Self {
        let node = Object::new().field(Field::new("answer", payload)).build();
        self.variant(describe(node, description))
    }

    /// `{"tag": "Name", "content": payload}`: adjacent tagging; unit variants have no content.
    pub fn adjacent(
        self,
        tag: &str,
        content: &str,
        name: &str,
        payload: Option<Node>,
        description: Option<&str>,
    ) -> Self {
        let mut object = Object::new().tag(tag, name);
        if let Some(payload) = payload {
            object = object.field(Field::new(content, payload));
        }
        self.variant(describe(object.build(), description))
    }

    /// The fields of a struct (or a newtype's struct) beside an internal tag.
    pub fn internal(
        self,
        tag: &str,
        name: &str,
        payload: Option<Node>,
        generator: &Generator,
        description: Option<&str>,
    ) -> Self {
        let mut object = Object::new();
        if let Some(payload) = payload {
            object = object.flatten(payload, generator);
        }
        let node = object.tag(tag, name).build();
        self.variant(describe(node, description))
    }

    pub fn build(self) -> Node {
        self.node
    }
}

// ---------------------------------------------------------------------------------------
// Building values from JSON the schema accepted.

pub(crate) fn wrong_shape(expected: &str, found: &Value) -> Error {
    Error::single(Violation::new(
        "",
        ViolationKind::WrongType {
            expected: expected.to_owned(),
            found: crate::validate::describe_value_pub(found),
        },
    ))
}

pub fn expect_object(value: Value) -> Result<Map<String, Value>, Error> {
    match value {
        Value::Object(map) => Ok(map),
        other => Err(wrong_shape("an object", &other)),
    }
}

pub fn expect_array(value: Value) -> Result<Vec<Value>, Error> {
    match value {
        Value::Array(items) => Ok(items),
        other => Err(wrong_shape("an array", &other)),
    }
}

pub fn expect_null(value: Value) -> Result<(), Error> {
    <()>::from_json(value)
}

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

/// The items of an array being taken apart into a tuple.
pub struct Items {
    items: std::vec::IntoIter<Value>,
    index: usize,
}

impl Items {
    pub fn new(value: Value) -> Result<Self, Error> {
        expect_array(value).map(|items| Items {
            items: items.into_iter(),
            index: 0,
        })
    }

    pub fn take<T: ToolSchema>(&mut self) -> Result<T, Error> {
        let index = self.index;
        self.index += 1;
        match self.items.next() {
            Some(value) => T::from_json(value).map_err(|e| e.under(&index.to_string())),
            None => Err(Error::internal(format!("missing item {index}"))),
        }
    }

    pub fn take_bridged<T: serde::de::DeserializeOwned>(&mut self) -> Result<T, Error> {
        let index = self.index;
        self.index += 1;
        match self.items.next() {
            Some(value) => bridge_build(value).map_err(|e| e.under(&index.to_string())),
            None => Err(Error::internal(format!("missing item {index}"))),
        }
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
pub enum Call {
    Tool(String, Value),
    Answer(Value),
}

pub fn tool_call(value: Value) -> Result<Call, Error> {
    let mut map = expect_object(value)?;
    if let Some(answer) = map.remove("answer") {
        return Ok(Call::Answer(answer));
    }
    match (map.remove("name"), map.remove("arguments")) {
        (Some(Value::String(name)), Some(arguments)) => Ok(Call::Tool(name, arguments)),
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
/// keeps to check values with (see [`Bridge`]). A schema the loader refuses rejects every
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

pub fn bridge_build<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, Error> {
    serde_json::from_value(value).map_err(|e| {
        Error::single(Violation::new(
            "",
            ViolationKind::Invalid {
                message: e.to_string(),
            },
        ))
    })
}

/// `None` for a bridged `Option` field's absence, so it is not required.
pub fn bridge_missing<T: serde::de::DeserializeOwned>() -> Option<T> {
    serde_json::from_value(Value::Null).ok()
}

/// The items of an array built into a collection, every item's problems reported under
/// its index (`/2/sku`), all of them, not the first.
pub fn items_of<T: ToolSchema, C: FromIterator<T>>(value: Value) -> Result<C, Error> {
    let mut violations = Vec::new();
    let items: Vec<T> = expect_array(value)?
        .into_iter()
        .enumerate()
        .filter_map(|(i, item)| match T::from_json(item) {
            Ok(item) => Some(item),
            Err(e) => {
                violations.extend(e.under(&i.to_string()).into_violations());
                None
            }
        })
        .collect();
    if violations.is_empty() {
        Ok(items.into_iter().collect())
    } else {
        Err(Error::new(violations))
    }
}

/// The members of an object built into a map, every value's problems reported under its
/// key.
pub fn members_of<V: ToolSchema, C: FromIterator<(String, V)>>(value: Value) -> Result<C, Error> {
    let mut violations = Vec::new();
    let members: Vec<(String, V)> = expect_object(value)?
        .into_iter()
        .filter_map(|(key, member)| match V::from_json(member) {
            Ok(member) => Some((key, member)),
            Err(e) => {
                violations.extend(e.under(&key).into_violations());
                None
            }
        })
        .collect();
    if violations.is_empty() {
        Ok(members.into_iter().collect())
    } else {
        Err(Error::new(violations))
    }
}
