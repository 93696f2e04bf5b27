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
