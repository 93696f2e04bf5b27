//! The schema model: one node per JSON Schema, with the keywords toolschema supports.
//!
//! Derived types and schemas loaded at run time both become `Node`s, and one validator
//! and one renderer read them, so a type's schema and its deserializer cannot disagree.

use std::sync::Arc;

use serde_json::{Number, Value};

/// The JSON types a value may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Types(u8);

impl Types {
    pub const NULL: Types = Types(1);
    pub const BOOLEAN: Types = Types(1 << 1);
    pub const INTEGER: Types = Types(1 << 2);
    pub const NUMBER: Types = Types(1 << 3);
    pub const STRING: Types = Types(1 << 4);
    pub const ARRAY: Types = Types(1 << 5);
    pub const OBJECT: Types = Types(1 << 6);

    // `null` last, so a nullable string reads `["string", "null"]`.
    const ALL: [(Types, &'static str); 7] = [
        (Types::BOOLEAN, "boolean"),
        (Types::INTEGER, "integer"),
        (Types::NUMBER, "number"),
        (Types::STRING, "string"),
        (Types::ARRAY, "array"),
        (Types::OBJECT, "object"),
        (Types::NULL, "null"),
    ];

    pub const fn union(self, other: Types) -> Types {
        Types(self.0 | other.0)
    }

    pub const fn contains(self, other: Types) -> bool {
        self.0 & other.0 == other.0
    }

    pub const fn intersects(self, other: Types) -> bool {
        self.0 & other.0 != 0
    }

    pub(crate) fn from_name(name: &str) -> Option<Types> {
        Types::ALL.iter().find(|(_, n)| *n == name).map(|(t, _)| *t)
    }

    /// The type names, `null` last.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        Types::ALL
            .into_iter()
            .filter(move |(t, _)| self.contains(*t))
            .map(|(_, n)| n)
    }

    /// Whether a value has one of these types (`3.0` is an integer, as JSON Schema says).
    pub fn admits(self, value: &Value) -> bool {
        self.admits_of(Types::of(value), value)
    }

    /// The type of a value as one bit (`number` for every number).
    #[inline]
    pub(crate) fn of(value: &Value) -> Types {
        // Constant arms compile to a table lookup rather than a branch per type.
        match value {
            Value::Null => Types::NULL,
            Value::Bool(_) => Types::BOOLEAN,
            Value::Number(_) => Types::NUMBER,
            Value::String(_) => Types::STRING,
            Value::Array(_) => Types::ARRAY,
            Value::Object(_) => Types::OBJECT,
        }
    }

    /// [`Types::admits`] for a value whose type, [`Types::of`], is `bit`.
    #[inline]
    pub(crate) fn admits_of(self, bit: Types, value: &Value) -> bool {
        self.intersects(bit)
            || (bit == Types::NUMBER
                && self.contains(Types::INTEGER)
                && matches!(value, Value::Number(n) if is_integer(n)))
    }
}

pub(crate) fn is_integer(n: &Number) -> bool {
    n.is_i64()
        || n.is_u64()
        || n.as_f64()
            .is_some_and(|f| f.is_finite() && f.fract() == 0.0)
}

/// A compiled regular expression with the source it came from.
#[derive(Debug, Clone)]
pub struct Pattern {
    pub source: String,
    pub regex: regex::Regex,
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

/// Where a `$ref` points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DefId(pub usize);

/// One property of an object, with the other keys that name the same field.
#[derive(Debug, Clone, PartialEq)]
pub struct Property {
    pub name: String,
    pub aliases: Vec<String>,
    pub node: Node,
    pub required: bool,
}

/// How the alternatives of an `anyOf`/`oneOf` are told apart, found when the node is built.
#[derive(Debug, Clone, PartialEq)]
pub enum Discriminator {
    /// Each object alternative fixes one property to a constant (`"type": "circle"`,
    /// a tool's `"name"`).
    Property {
        name: String,
        values: Vec<(Value, usize)>,
        /// Every alternative requires the property with its own constant, so the one it
        /// names is the only one that can match.
        exhaustive: bool,
    },
    /// Each object alternative requires a different single key (serde's external tagging,
    /// `{"answer": …}`); string alternatives list their constants.
    Key {
        keys: Vec<(String, usize)>,
        strings: Vec<(String, usize)>,
        /// Every keyed alternative accepts objects only.
        exhaustive: bool,
    },
}

/// A JSON Schema, reduced to the keywords toolschema validates and renders.
///
/// An empty node (`Node::default()`) accepts anything, like `{}` or `true`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Node {
    /// `false`: nothing is allowed.
    pub never: bool,
    pub types: Option<Types>,
    pub enumeration: Option<Vec<Value>>,
    pub constant: Option<Value>,

    pub minimum: Option<Number>,
    pub maximum: Option<Number>,
    pub exclusive_minimum: Option<Number>,
    pub exclusive_maximum: Option<Number>,
    pub multiple_of: Option<Number>,

    pub min_length: Option<usize>,
    pub max_length: Option<usize>,
    pub pattern: Option<Pattern>,
    pub format: Option<String>,

    pub prefix_items: Vec<Node>,
    pub items: Option<Box<Node>>,
    pub min_items: Option<usize>,
    pub max_items: Option<usize>,
    pub unique_items: bool,

    pub properties: Vec<Property>,
    /// `None` leaves other keys open; `Some(never)` closes the object.
    pub additional_properties: Option<Box<Node>>,
    pub pattern_properties: Vec<(Pattern, Node)>,
    pub property_names: Option<Box<Node>>,
    pub min_properties: Option<usize>,
    pub max_properties: Option<usize>,
    /// Keys required outside any property (from run-time schemas: `required` naming a key
    /// that has no `properties` entry).
    pub required_extra: Vec<String>,
    pub dependent_required: Vec<(String, Vec<String>)>,

    pub all_of: Vec<Node>,
    pub any_of: Vec<Node>,
    pub one_of: Vec<Node>,
    pub not: Option<Box<Node>>,
    pub reference: Option<DefId>,
    pub discriminator: Option<Discriminator>,

    pub title: Option<String>,
    pub description: Option<String>,
    pub hint: Option<String>,
    pub examples: Vec<Value>,
    pub default: Option<Value>,

    /// serde's own check of a bridged type (`#[schema(bridge)]`), run where the
    /// keywords pass.
    pub(crate) bridge: Option<Box<super::bridge::Bridge>>,

    /// Key → index into `properties` (names and aliases), built by [`Node::index`].
    pub(crate) property_index: super::keys::KeyIndex,
    /// The values of an `enum` of strings, built by [`Node::index`].
    pub(crate) enum_index: super::keys::KeyIndex,
    /// The strings of the `enum`, built by [`Node::index`], shared with each violation
    /// that suggests one of them.
    pub(crate) enum_words: Derived<Option<Arc<EnumStrings>>>,
    /// The `enum`'s values as a violation lists them, made on the first violation.
    pub(crate) enum_listed: Derived<std::sync::OnceLock<Vec<String>>>,
    /// What a string example for this node is made from, built by [`Node::index`] when
    /// the node has a pattern, shared with each violation that advises one.
    pub(crate) string_shape: Derived<Option<Arc<Shape>>>,
    /// The keyword groups this node uses, built by [`Node::index`].
    pub(crate) used: super::Used,
}

/// What the validator derives from a node's keywords and keeps with it, built by
/// [`Node::index`] or on first use. Made from the keywords, it never tells two nodes
/// apart: a node compares equal before and after.
#[derive(Debug, Clone, Default)]
pub(crate) struct Derived<T>(pub(crate) T);

impl<T> PartialEq for Derived<T> {
    fn eq(&self, _: &Derived<T>) -> bool {
        true
    }
}

/// The strings among some allowed values, shared: a violation keeps them to work out its
/// did-you-mean when it is read, after the schema is gone.
#[derive(Debug)]
pub(crate) struct EnumStrings(pub(crate) Vec<String>);

impl EnumStrings {
    /// The strings among `values`, if there are any.
    pub(crate) fn of(values: &[Value]) -> Option<Arc<EnumStrings>> {
        let mut strings = values.iter().filter_map(Value::as_str).peekable();
        strings.peek()?;
        Some(Arc::new(EnumStrings(strings.map(str::to_owned).collect())))
    }
}

/// A node with only the keywords a string example is made from (pattern, format,
/// lengths), which outlives the schema.
#[derive(Debug)]
pub(crate) struct Shape(pub(crate) Node);

impl Shape {
    fn build(node: &Node) -> Arc<Shape> {
        Arc::new(Shape(Node {
            pattern: node.pattern.clone(),
            format: node.format.clone(),
            min_length: node.min_length,
            max_length: node.max_length,
            ..Node::default()
        }))
    }

    /// The shape of `node`: the one built when it was indexed, else a new one.
    pub(crate) fn of(node: &Node) -> Arc<Shape> {
        match &node.string_shape.0 {
            Some(shape) => Arc::clone(shape),
            None => Shape::build(node),
        }
    }
}

impl Node {
    /// A node that accepts nothing.
    pub fn never() -> Node {
        Node {
            never: true,
            ..Node::default()
        }
    }

    /// A node of the given types and no other constraint.
    pub fn of_type(types: Types) -> Node {
        Node {
            types: Some(types),
            ..Node::default()
        }
    }

    /// A `$ref` to a definition.
    pub fn reference(id: DefId) -> Node {
        Node {
            reference: Some(id),
            ..Node::default()
        }
    }

    /// Whether the node accepts any value: no keyword constrains it.
    pub fn is_anything(&self) -> bool {
        let mut bare = self.clone();
        bare.title = None;
        bare.description = None;
        bare.hint = None;
        bare.examples.clear();
        bare.default = None;
        bare.format = None;
        bare == Node::default()
    }

    /// The index of the property named `key` (by its name or an alias).
    pub fn property(&self, key: &str) -> Option<usize> {
        // The index is missing on nodes not yet part of a finished schema.
        if self.property_index.is_empty() {
            return self
                .properties
                .iter()
                .position(|p| p.name == key || p.aliases.iter().any(|a| a == key));
        }
        self.property_index.get(key)
    }

    /// [`Node::property`] for the keys of one object in turn: each lookup tries first the
    /// property after the one the last key named.
    pub(crate) fn next_property(
        &self,
        key: &str,
        cursor: &mut super::keys::Cursor,
    ) -> Option<usize> {
        if self.property_index.is_empty() {
            return self.property(key);
        }
        self.property_index.find(key, cursor)
    }

    /// Builds the lookup tables the validator uses: the property index and the
    /// discriminator of `anyOf`/`oneOf`. Called once when a schema is finished.
    pub(crate) fn index(&mut self) {
        // The first property a key names wins, as in the scan of `property`.
        self.property_index =
            super::keys::KeyIndex::new(self.properties.iter().enumerate().flat_map(|(i, p)| {
                std::iter::once(p.name.as_str())
                    .chain(p.aliases.iter().map(String::as_str))
                    .map(move |key| (key, i))
            }));
        let required = (1..=64).contains(&self.properties.len()).then(|| {
            self.properties
                .iter()
                .enumerate()
                .filter(|(_, p)| p.required)
                .fold(0, |bits, (i, _)| bits | 1 << i)
        });
        self.property_index = std::mem::take(&mut self.property_index).with_required(required);
        let alternatives = if !self.one_of.is_empty() {
            &self.one_of
        } else {
            &self.any_of
        };
        self.discriminator = discriminator(alternatives);
        self.enum_index = match &self.enumeration {
            Some(values) if values.iter().all(Value::is_string) => super::keys::KeyIndex::new(
                values
                    .iter()
                    .enumerate()
                    .filter_map(|(i, v)| Some((v.as_str()?, i))),
            ),
            _ => super::keys::KeyIndex::default(),
        };
        self.enum_words = Derived(EnumStrings::of(
            self.enumeration.as_deref().unwrap_or_default(),
        ));
        // Made again from this `enum` on its first violation.
        self.enum_listed = Derived::default();
        self.string_shape = Derived(self.pattern.is_some().then(|| Shape::build(self)));
        self.used = super::Used::of(self);
    }

    /// Visits this node and every node inside it, depth first.
    pub(crate) fn for_each_mut(&mut self, f: &mut dyn FnMut(&mut Node)) {
        f(self);
        for node in self.children_mut() {
            node.for_each_mut(f);
        }
    }

    fn children_mut(&mut self) -> Vec<&mut Node> {
        let mut out: Vec<&mut Node> = Vec::new();
        out.extend(self.prefix_items.iter_mut());
        out.extend(self.items.as_deref_mut());
        out.extend(self.properties.iter_mut().map(|p| &mut p.node));
        out.extend(self.additional_properties.as_deref_mut());
        out.extend(self.pattern_properties.iter_mut().map(|(_, n)| n));
        out.extend(self.property_names.as_deref_mut());
        out.extend(self.all_of.iter_mut());
        out.extend(self.any_of.iter_mut());
        out.extend(self.one_of.iter_mut());
        out.extend(self.not.as_deref_mut());
        out
    }
}

impl Discriminator {
    /// Whether the alternative the discriminator names is the only one that can match.
    pub fn is_exhaustive(&self) -> bool {
        match self {
            Discriminator::Property { exhaustive, .. } | Discriminator::Key { exhaustive, .. } => {
                *exhaustive
            }
        }
    }
}

/// Finds how the alternatives are told apart, if they can be.
fn discriminator(alternatives: &[Node]) -> Option<Discriminator> {
    if alternatives.len() < 2 {
        return None;
    }
    // A property every object alternative fixes to a constant.
    let candidates: Vec<&str> = alternatives
        .iter()
        .flat_map(|alt| alt.properties.iter())
        .filter(|p| p.required && constant_of(&p.node).is_some())
        .map(|p| p.name.as_str())
        .collect();
    for name in candidates {
        let mut values = Vec::new();
        for (i, alt) in alternatives.iter().enumerate() {
            if let Some(p) = alt.properties.iter().find(|p| p.name == name)
                && let Some(value) = constant_of(&p.node)
            {
                values.push((value.clone(), i));
            }
        }
        if values.len() >= 2 {
            // Compared as JSON text, in one pass: a union of a thousand tools stays linear.
            let mut seen = std::collections::HashSet::new();
            let distinct = values.iter().all(|(v, _)| seen.insert(v.to_string()));
            let exhaustive = distinct
                && values.len() == alternatives.len()
                && alternatives
                    .iter()
                    .all(|alt| alt.properties.iter().any(|p| p.name == name && p.required));
            return Some(Discriminator::Property {
                name: name.to_owned(),
                values,
                exhaustive,
            });
        }
    }
    // Each alternative is either a constant string or an object with one required key.
    let mut keys = Vec::new();
    let mut strings = Vec::new();
    let mut objects_only = true;
    for (i, alt) in alternatives.iter().enumerate() {
        if let Some(Value::String(s)) = constant_of(alt) {
            strings.push((s.clone(), i));
        } else if let Some(values) = &alt.enumeration
            && values.iter().all(Value::is_string)
        {
            strings.extend(
                values
                    .iter()
                    .filter_map(|v| Some((v.as_str()?.to_owned(), i))),
            );
        } else {
            let required: Vec<&Property> = alt.properties.iter().filter(|p| p.required).collect();
            match required.as_slice() {
                [only] => keys.push((only.name.clone(), i)),
                _ => return None,
            }
            objects_only &= alt.types == Some(Types::OBJECT);
        }
    }
    // A one-key object can only match the alternative that requires that key; a string
    // only the alternative that allows it, when keyed alternatives accept objects only.
    (!keys.is_empty()).then_some(Discriminator::Key {
        keys,
        strings,
        exhaustive: objects_only,
    })
}

/// The one value a node allows, if it allows exactly one.
pub(crate) fn constant_of(node: &Node) -> Option<&Value> {
    node.constant
        .as_ref()
        .or(match node.enumeration.as_deref() {
            Some([only]) => Some(only),
            _ => None,
        })
}
