//! Provider dialects that `#[schema(dialect = "...")]` checks at compile time, and what
//! each cannot express. The runtime twin is `toolschema::Dialect`, whose `schema_for`
//! reports the same problems (in the same words) for types the derive cannot see into.

use crate::ty::Shape;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Dialect {
    OpenAiStrict,
    Anthropic,
    Gemini,
}

pub const DIALECT_NAMES: &[(&str, Dialect)] = &[
    ("openai_strict", Dialect::OpenAiStrict),
    ("anthropic", Dialect::Anthropic),
    ("gemini", Dialect::Gemini),
];

/// A check a dialect makes on every field.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Limit {
    /// No field of this shape, anywhere in its type.
    No(Shape),
    /// No field whose type names the type being derived.
    NoRecursion,
    /// No tuple struct or tuple variant.
    NoTupleStructs,
}

impl Dialect {
    pub fn from_name(name: &str) -> Option<Self> {
        DIALECT_NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, d)| *d)
    }

    /// The dialect as `toolschema::Dialect`'s errors name it.
    pub fn title(self) -> &'static str {
        match self {
            Dialect::OpenAiStrict => "OpenAI strict mode",
            Dialect::Anthropic => "Anthropic strict tool use",
            Dialect::Gemini => "Gemini",
        }
    }

    /// What the dialect cannot express, as far as a type's syntax shows it. Gemini
    /// rejects only non-string enum values, which a derived type never has.
    pub fn limits(self) -> &'static [Limit] {
        use Limit::*;
        match self {
            Dialect::OpenAiStrict => &[
                No(Shape::Map),
                No(Shape::Object),
                No(Shape::AnyValue),
                No(Shape::Tuple),
                NoTupleStructs,
            ],
            Dialect::Anthropic => &[
                No(Shape::Map),
                No(Shape::Object),
                No(Shape::AnyValue),
                NoRecursion,
            ],
            Dialect::Gemini => &[],
        }
    }

    /// The shapes of [`Dialect::limits`].
    pub fn forbidden_shapes(self) -> Vec<Shape> {
        self.limits()
            .iter()
            .filter_map(|limit| match limit {
                Limit::No(shape) => Some(*shape),
                _ => None,
            })
            .collect()
    }
}

/// The error for a field (`what`, e.g. `` `labels[]` ``) of a forbidden shape, worded as
/// `toolschema::schema_for` words it, with what to use instead.
pub fn shape_message(what: &str, shape: Shape, dialect: Dialect) -> String {
    let dialect = dialect.title();
    match shape {
        Shape::Map => format!(
            "{what} is a map with free keys, which {dialect} cannot express; use a struct or a list of key/value pairs"
        ),
        Shape::Object => format!(
            "{what} is an object with any keys, which {dialect} cannot express; use a struct"
        ),
        Shape::AnyValue => format!(
            "{what} accepts any JSON value, which {dialect} cannot express; use a struct, or an enum of the shapes you expect"
        ),
        Shape::Tuple => {
            format!("{what} is a tuple, which {dialect} cannot express; use a struct")
        }
    }
}
