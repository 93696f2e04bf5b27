//! What a field's type looks like from its syntax, for the checks that can be made at
//! compile time (`range` on a `String`). Types it does not recognise pass every check.

use syn::{GenericArgument, PathArguments, Type};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Number,
    String,
    Collection,
    Bool,
    Unknown,
}

/// The kind of a field's type, looking through `Option`, `Box` and `Arc`.
pub fn kind(ty: &Type) -> Kind {
    match ty {
        Type::Array(_) | Type::Slice(_) | Type::Tuple(_) => Kind::Collection,
        Type::Reference(r) => kind(&r.elem),
        Type::Group(g) => kind(&g.elem),
        Type::Paren(p) => kind(&p.elem),
        Type::Path(path) if path.qself.is_none() => {
            let Some(last) = path.path.segments.last() else {
                return Kind::Unknown;
            };
            let name = last.ident.to_string();
            match name.as_str() {
                "Option" | "Box" | "Arc" => {
                    first_argument(&last.arguments).map_or(Kind::Unknown, kind)
                }
                "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "u8" | "u16" | "u32" | "u64"
                | "u128" | "usize" | "f32" | "f64" => Kind::Number,
                "String" | "str" | "char" => Kind::String,
                "bool" => Kind::Bool,
                "Vec" | "VecDeque" | "HashSet" | "BTreeSet" | "HashMap" | "BTreeMap" => {
                    Kind::Collection
                }
                _ => Kind::Unknown,
            }
        }
        _ => Kind::Unknown,
    }
}

fn first_argument(arguments: &PathArguments) -> Option<&Type> {
    match arguments {
        PathArguments::AngleBracketed(args) => args.args.iter().find_map(|a| match a {
            GenericArgument::Type(t) => Some(t),
            _ => None,
        }),
        _ => None,
    }
}

pub fn describe(kind: Kind) -> &'static str {
    match kind {
        Kind::Number => "a number",
        Kind::String => "a string",
        Kind::Collection => "a collection",
        Kind::Bool => "a bool",
        Kind::Unknown => "this type",
    }
}

/// A part of a type that some provider dialects cannot express.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Shape {
    /// `HashMap<String, V>`, `BTreeMap<String, V>`, `IndexMap<String, V>`: keys chosen
    /// by the data.
    Map,
    /// `serde_json::Map<String, Value>`: any keys, any values.
    Object,
    /// `serde_json::Value`: any JSON value.
    AnyValue,
    /// `(A, B)`: a fixed list of positions.
    Tuple,
}

/// A part of a field's type, with its data path below the field as `toolschema` writes
/// it: `[]` for the items of a list and the values of a map.
pub struct Found<'a> {
    pub ty: &'a Type,
    pub path: String,
}

/// The outermost part of `ty` whose shape is one of `shapes`.
pub fn find_shape<'a>(ty: &'a Type, shapes: &[Shape]) -> Option<(Shape, Found<'a>)> {
    if let Some(shape) = shape(ty).filter(|s| shapes.contains(s)) {
        let found = Found {
            ty,
            path: String::new(),
        };
        return Some((shape, found));
    }
    inner_types(ty).into_iter().find_map(|(inner, step)| {
        find_shape(inner, shapes).map(|(shape, found)| (shape, found.below(step)))
    })
}

/// The outermost part of `ty` that names the type `ident` (or `Self`): a recursive type.
pub fn find_recursion<'a>(ty: &'a Type, ident: &syn::Ident) -> Option<Found<'a>> {
    if let Type::Path(path) = ty
        && path.qself.is_none()
        && path.path.segments.len() == 1
        && (path.path.segments[0].ident == *ident || path.path.segments[0].ident == "Self")
    {
        return Some(Found {
            ty,
            path: String::new(),
        });
    }
    inner_types(ty)
        .into_iter()
        .find_map(|(inner, step)| find_recursion(inner, ident).map(|found| found.below(step)))
}

impl Found<'_> {
    fn below(self, step: &str) -> Self {
        Found {
            path: format!("{step}{}", self.path),
            ..self
        }
    }
}

/// A type's own shape, judged by its name: `serde_json::Value` or `Value`, and so on.
fn shape(ty: &Type) -> Option<Shape> {
    match ty {
        Type::Tuple(t) if !t.elems.is_empty() => Some(Shape::Tuple),
        Type::Path(path) if path.qself.is_none() => {
            let names: Vec<String> = path
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            let from_serde_json = |name: &str| match names.as_slice() {
                [only] => only == name,
                [krate, last] => krate == "serde_json" && last == name,
                _ => false,
            };
            match names.last().map(String::as_str) {
                Some("HashMap" | "BTreeMap" | "IndexMap") => Some(Shape::Map),
                Some("Map") if from_serde_json("Map") => Some(Shape::Object),
                Some("Value") if from_serde_json("Value") => Some(Shape::AnyValue),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The types inside a type that `toolschema` describes in its schema, with the data path
/// step to each. Other generic types are opaque: their parameters may not be data.
fn inner_types(ty: &Type) -> Vec<(&Type, &'static str)> {
    match ty {
        Type::Tuple(t) => t.elems.iter().map(|e| (e, "")).collect(),
        Type::Array(a) => vec![(&*a.elem, "[]")],
        Type::Slice(s) => vec![(&*s.elem, "[]")],
        Type::Reference(r) => vec![(&*r.elem, "")],
        Type::Group(g) => vec![(&*g.elem, "")],
        Type::Paren(p) => vec![(&*p.elem, "")],
        Type::Path(path) if path.qself.is_none() => {
            let Some(last) = path.path.segments.last() else {
                return Vec::new();
            };
            let arguments: Vec<&Type> = match &last.arguments {
                PathArguments::AngleBracketed(args) => args
                    .args
                    .iter()
                    .filter_map(|a| match a {
                        GenericArgument::Type(t) => Some(t),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            match last.ident.to_string().as_str() {
                "Option" | "Box" | "Arc" => {
                    arguments.into_iter().take(1).map(|t| (t, "")).collect()
                }
                "Vec" | "VecDeque" | "HashSet" | "BTreeSet" => {
                    arguments.into_iter().take(1).map(|t| (t, "[]")).collect()
                }
                "HashMap" | "BTreeMap" | "IndexMap" | "Map" => arguments
                    .into_iter()
                    .skip(1)
                    .take(1)
                    .map(|t| (t, "[]"))
                    .collect(),
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    }
}
