//! `ToolSchema` for the standard types fields are made of.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, Hash};
use std::sync::Arc;

use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{Deserializer, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use super::ToolSchema;
use super::reading::{Items, expect_object, items_of, members_of, wrong_shape};
use super::streaming::{MapVisitor, OptionVisitor, SeqVisitor, Strict, end_of_seq, item, reject};
use crate::Error;
use crate::schema::{Generator, Node, Types};

impl ToolSchema for String {
    fn schema_name() -> Cow<'static, str> {
        "String".into()
    }
    fn describe(_: &mut Generator) -> Node {
        Node::of_type(Types::STRING)
    }
    fn from_json(value: Value) -> Result<Self, Error> {
        match value {
            Value::String(s) => Ok(s),
            other => Err(wrong_shape("a string", &other)),
        }
    }
    fn deserialize_strict<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)
    }
}

impl ToolSchema for char {
    fn schema_name() -> Cow<'static, str> {
        "char".into()
    }
    fn describe(_: &mut Generator) -> Node {
        Node {
            min_length: Some(1),
            max_length: Some(1),
            ..Node::of_type(Types::STRING)
        }
    }
    fn from_json(value: Value) -> Result<Self, Error> {
        let mut chars = value.as_str().map(str::chars);
        match chars.as_mut().map(|c| (c.next(), c.next())) {
            Some((Some(c), None)) => Ok(c),
            _ => Err(wrong_shape("a single character", &value)),
        }
    }
    fn deserialize_strict<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        char::deserialize(d)
    }
}

impl ToolSchema for bool {
    fn schema_name() -> Cow<'static, str> {
        "bool".into()
    }
    fn describe(_: &mut Generator) -> Node {
        Node::of_type(Types::BOOLEAN)
    }
    fn from_json(value: Value) -> Result<Self, Error> {
        value
            .as_bool()
            .ok_or_else(|| wrong_shape("a boolean", &value))
    }
    fn deserialize_strict<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        bool::deserialize(d)
    }
}

impl ToolSchema for () {
    fn schema_name() -> Cow<'static, str> {
        "Null".into()
    }
    fn describe(_: &mut Generator) -> Node {
        Node::of_type(Types::NULL)
    }
    fn from_json(value: Value) -> Result<Self, Error> {
        value
            .is_null()
            .then_some(())
            .ok_or_else(|| wrong_shape("null", &value))
    }
    fn deserialize_strict<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        <()>::deserialize(d)
    }
}

/// The integer a JSON number holds exactly, if it holds one (`3.0` holds 3).
fn integer_of(value: &Value) -> Option<i128> {
    let n = value.as_number()?;
    if let Some(i) = n.as_i64() {
        Some(i128::from(i))
    } else if let Some(u) = n.as_u64() {
        Some(i128::from(u))
    } else {
        let f = n.as_f64()?;
        (f.fract() == 0.0 && f.abs() < 1.0e38).then_some(f as i128)
    }
}

macro_rules! integers {
    ($($t:ty => $min:expr, $max:expr;)*) => {$(
        impl ToolSchema for $t {
            fn schema_name() -> Cow<'static, str> {
                stringify!($t).into()
            }
            fn describe(_: &mut Generator) -> Node {
                Node {
                    minimum: Some(Number::from($min)),
                    maximum: Some(Number::from($max)),
                    ..Node::of_type(Types::INTEGER)
                }
            }
            fn from_json(value: Value) -> Result<Self, Error> {
                integer_of(&value)
                    .and_then(|i| <$t>::try_from(i).ok())
                    .ok_or_else(|| wrong_shape(concat!("an integer that fits ", stringify!($t)), &value))
            }
            fn deserialize_strict<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                // serde takes integers only (`3.0` goes to the slow path) and checks the
                // type's range; 128-bit types are held to the schema's narrower one.
                let n = <$t>::deserialize(d)?;
                let within = i128::try_from(n)
                    .is_ok_and(|i| ($min as i128..=$max as i128).contains(&i));
                if within { Ok(n) } else { Err(reject()) }
            }
        }
    )*};
}

// JSON numbers without arbitrary precision span i64::MIN..=u64::MAX, so 128-bit
// integers are limited to that range.
integers! {
    i8 => i8::MIN, i8::MAX;
    i16 => i16::MIN, i16::MAX;
    i32 => i32::MIN, i32::MAX;
    i64 => i64::MIN, i64::MAX;
    isize => isize::MIN as i64, isize::MAX as i64;
    i128 => i64::MIN, u64::MAX;
    u8 => 0u8, u8::MAX;
    u16 => 0u16, u16::MAX;
    u32 => 0u32, u32::MAX;
    u64 => 0u64, u64::MAX;
    usize => 0u64, usize::MAX as u64;
    u128 => 0u64, u64::MAX;
}

impl ToolSchema for f64 {
    fn schema_name() -> Cow<'static, str> {
        "f64".into()
    }
    fn describe(_: &mut Generator) -> Node {
        Node::of_type(Types::NUMBER)
    }
    fn from_json(value: Value) -> Result<Self, Error> {
        value
            .as_f64()
            .ok_or_else(|| wrong_shape("a number", &value))
    }
    fn deserialize_strict<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        f64::deserialize(d)
    }
}

impl ToolSchema for f32 {
    fn schema_name() -> Cow<'static, str> {
        "f32".into()
    }
    fn describe(_: &mut Generator) -> Node {
        let max = f64::from(f32::MAX);
        Node {
            minimum: Number::from_f64(-max),
            maximum: Number::from_f64(max),
            ..Node::of_type(Types::NUMBER)
        }
    }
    fn from_json(value: Value) -> Result<Self, Error> {
        match value.as_f64() {
            Some(f) if (f as f32).is_finite() => Ok(f as f32),
            _ => Err(wrong_shape("a number that fits f32", &value)),
        }
    }
    fn deserialize_strict<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // Read as f64 and held to the schema's bounds, which `as f32` would round into.
        let f = f64::deserialize(d)?;
        if f.abs() <= f64::from(f32::MAX) {
            Ok(f as f32)
        } else {
            Err(reject())
        }
    }
}

impl<T: ToolSchema> ToolSchema for Option<T> {
    fn schema_name() -> Cow<'static, str> {
        format!("Nullable_{}", T::schema_name()).into()
    }
    fn describe(generator: &mut Generator) -> Node {
        nullable(T::describe(generator))
    }
    fn from_json(value: Value) -> Result<Self, Error> {
        match value {
            Value::Null => Ok(None),
            other => T::from_json(other).map(Some),
        }
    }
    fn deserialize_strict<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_option(OptionVisitor::new())
    }
    fn when_missing() -> Option<Self> {
        Some(None)
    }
}

/// `inner` or `null`: a type list gains `null` where it can, otherwise `anyOf`.
pub(crate) fn nullable(mut inner: Node) -> Node {
    if inner.is_anything() {
        return inner;
    }
    let simple = inner.reference.is_none()
        && inner.all_of.is_empty()
        && inner.any_of.is_empty()
        && inner.one_of.is_empty()
        && inner.not.is_none();
    if let (true, Some(types)) = (simple, inner.types) {
        inner.types = Some(types.union(Types::NULL));
        if let Some(constant) = inner.constant.take() {
            inner.enumeration = Some(vec![constant]);
        }
        if let Some(values) = &mut inner.enumeration
            && !values.contains(&Value::Null)
        {
            values.push(Value::Null);
        }
        return inner;
    }
    Node {
        any_of: vec![inner, Node::of_type(Types::NULL)],
        ..Node::default()
    }
}

macro_rules! forward {
    ($($wrapper:ident),*) => {$(
        impl<T: ToolSchema> ToolSchema for $wrapper<T> {
            fn schema_name() -> Cow<'static, str> {
                T::schema_name()
            }
            fn describe(generator: &mut Generator) -> Node {
                T::describe(generator)
            }
            fn from_json(value: Value) -> Result<Self, Error> {
                T::from_json(value).map($wrapper::new)
            }
            fn deserialize_strict<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                T::deserialize_strict(d).map($wrapper::new)
            }
            fn when_missing() -> Option<Self> {
                T::when_missing().map($wrapper::new)
            }
        }
    )*};
}

forward!(Box, Arc);

fn array_of(items: Node) -> Node {
    Node {
        items: Some(Box::new(items)),
        ..Node::of_type(Types::ARRAY)
    }
}

macro_rules! sequences {
    ($($seq:ident),*) => {$(
        impl<T: ToolSchema> ToolSchema for $seq<T> {
            fn schema_name() -> Cow<'static, str> {
                format!("Array_of_{}", T::schema_name()).into()
            }
            fn describe(generator: &mut Generator) -> Node {
                array_of(T::describe(generator))
            }
            fn from_json(value: Value) -> Result<Self, Error> {
                items_of(value)
            }
            fn deserialize_strict<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_seq(SeqVisitor::<Self, T>::new())
            }
        }
    )*};
}

sequences!(Vec, VecDeque);

// Sets keep the default `deserialize_strict`, through a `Value`: `uniqueItems` compares
// JSON values (`1` equals `1.0`), which a type's `Eq` need not do.
macro_rules! sets {
    ($($set:ident<T: $($bound:path),+ $(; $hasher:ident)?> named $name:literal;)*) => {$(
        impl<T: ToolSchema $(+ $bound)+ $(, $hasher: BuildHasher + Default + 'static)?> ToolSchema
            for $set<T $(, $hasher)?>
        {
            fn schema_name() -> Cow<'static, str> {
                format!(concat!($name, "_of_{}"), T::schema_name()).into()
            }
            fn describe(generator: &mut Generator) -> Node {
                Node { unique_items: true, ..array_of(T::describe(generator)) }
            }
            fn from_json(value: Value) -> Result<Self, Error> {
                items_of(value)
            }
        }
    )*};
}

sets! {
    BTreeSet<T: Ord> named "Array";
    HashSet<T: Eq, Hash; S> named "Set";
}

impl<T: ToolSchema, const N: usize> ToolSchema for [T; N] {
    fn schema_name() -> Cow<'static, str> {
        format!("Array_{N}_of_{}", T::schema_name()).into()
    }
    fn describe(generator: &mut Generator) -> Node {
        Node {
            min_items: Some(N),
            max_items: Some(N),
            ..array_of(T::describe(generator))
        }
    }
    fn from_json(value: Value) -> Result<Self, Error> {
        let items: Vec<T> = items_of(value)?;
        items
            .try_into()
            .map_err(|_| Error::internal(format!("expected exactly {N} items")))
    }
    fn deserialize_strict<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let items = d.deserialize_seq(SeqVisitor::<Vec<T>, T>::new())?;
        items.try_into().map_err(|_| reject())
    }
}

fn map_of(values: Node) -> Node {
    Node {
        additional_properties: Some(Box::new(values)),
        ..Node::of_type(Types::OBJECT)
    }
}

impl<V: ToolSchema, S: BuildHasher + Default + 'static> ToolSchema for HashMap<String, V, S> {
    fn schema_name() -> Cow<'static, str> {
        format!("Map_of_{}", V::schema_name()).into()
    }
    fn describe(generator: &mut Generator) -> Node {
        map_of(V::describe(generator))
    }
    fn from_json(value: Value) -> Result<Self, Error> {
        members_of(value)
    }
    fn deserialize_strict<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(MapVisitor::<Self, V>::new())
    }
}

impl<V: ToolSchema> ToolSchema for BTreeMap<String, V> {
    fn schema_name() -> Cow<'static, str> {
        format!("Map_of_{}", V::schema_name()).into()
    }
    fn describe(generator: &mut Generator) -> Node {
        map_of(V::describe(generator))
    }
    fn from_json(value: Value) -> Result<Self, Error> {
        members_of(value)
    }
    fn deserialize_strict<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(MapVisitor::<Self, V>::new())
    }
}

/// Anything at all: `serde_json::Value` accepts every JSON value.
impl ToolSchema for Value {
    fn schema_name() -> Cow<'static, str> {
        "Value".into()
    }
    fn describe(_: &mut Generator) -> Node {
        Node::default()
    }
    fn from_json(value: Value) -> Result<Self, Error> {
        Ok(value)
    }
    fn deserialize_strict<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Value::deserialize(d)
    }
}

impl ToolSchema for Map<String, Value> {
    fn schema_name() -> Cow<'static, str> {
        "Object".into()
    }
    fn describe(_: &mut Generator) -> Node {
        Node::of_type(Types::OBJECT)
    }
    fn from_json(value: Value) -> Result<Self, Error> {
        expect_object(value)
    }
    fn deserialize_strict<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // Not `Map::deserialize`, which takes `null` as an empty map.
        match Value::deserialize(d)? {
            Value::Object(map) => Ok(map),
            _ => Err(reject()),
        }
    }
}

macro_rules! tuples {
    ($($len:literal => ($($name:ident),+);)*) => {$(
        impl<$($name: ToolSchema),+> ToolSchema for ($($name,)+) {
            fn schema_name() -> Cow<'static, str> {
                let parts: Vec<Cow<'static, str>> = vec![$($name::schema_name()),+];
                format!("Tuple_of_{}", parts.join("_and_")).into()
            }
            fn describe(generator: &mut Generator) -> Node {
                Node {
                    prefix_items: vec![$($name::describe(generator)),+],
                    items: Some(Box::new(Node::never())),
                    min_items: Some($len),
                    ..Node::of_type(Types::ARRAY)
                }
            }
            fn from_json(value: Value) -> Result<Self, Error> {
                let mut items = Items::new(value)?;
                Ok(($(items.take::<$name>()?,)+))
            }
            fn deserialize_strict<'de, De: Deserializer<'de>>(d: De) -> Result<Self, De::Error> {
                struct Tuple<$($name),+>(PhantomData<fn() -> ($($name,)+)>);
                impl<'de, $($name: ToolSchema),+> Visitor<'de> for Tuple<$($name),+> {
                    type Value = ($($name,)+);
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        write!(f, "an array of {} items", $len)
                    }
                    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Self::Value, S::Error> {
                        let value = ($(item(&mut seq, Strict::<$name>::new())?,)+);
                        end_of_seq(&mut seq)?;
                        Ok(value)
                    }
                }
                d.deserialize_seq(Tuple(PhantomData))
            }
        }
    )*};
}

tuples! {
    1 => (A);
    2 => (A, B);
    3 => (A, B, C);
    4 => (A, B, C, D);
    5 => (A, B, C, D, E);
    6 => (A, B, C, D, E, F);
    7 => (A, B, C, D, E, F, G);
    8 => (A, B, C, D, E, F, G, H);
}
