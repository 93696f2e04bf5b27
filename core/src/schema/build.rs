//! Building schemas: objects field by field, enums, tuples, and the alternatives of an
//! enum (tagged, untagged, tool calls and the answer). The derive's generated code calls
//! these (through `__private`), and so does a run-time tool set.

use serde_json::{Number, Value};

use super::{Generator, Node, Property, Types};

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
                    .is_none_or(|own| crate::value::cmp_number(&new, own) == keep)
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
pub struct Alternatives {
    node: Node,
    exclusive: bool,
}

impl Alternatives {
    /// Tagged alternatives (`oneOf`): exactly one matches by construction.
    pub fn one_of(description: Option<&str>) -> Self {
        Alternatives {
            node: describe(Node::default(), description),
            exclusive: true,
        }
    }

    /// Untagged alternatives (`anyOf`): the first that matches wins.
    pub fn any_of(description: Option<&str>) -> Self {
        Alternatives {
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

/// A bound of `#[schema(range)]`, as written.
#[derive(Debug, Clone, Copy)]
pub enum Limit {
    Int(i64),
    Float(f64),
}

impl Limit {
    /// The number the schema holds for this bound.
    pub(crate) fn number(self) -> Number {
        match self {
            Limit::Int(i) => Number::from(i),
            Limit::Float(f) => Number::from_f64(f).unwrap_or_else(|| Number::from(0)),
        }
    }
}
