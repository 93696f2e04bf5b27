//! The fast path of the strict deserializer.
//!
//! [`crate::from_str`] first reads the text in one streaming pass with serde, through
//! [`ToolSchema::deserialize_strict`]: derived types check their schema's rules as they go
//! (unknown and duplicate keys, missing fields, tags, constraints) and build the value
//! without a `serde_json::Value` tree in between. The fast path only ever says "valid, and
//! here is the value" or "not sure": at the first thing it does not take, it gives up,
//! and the text is read again on the slow path, which validates a `Value` against the
//! compiled [`Schema`] and reports every violation.
//!
//! So the fast path must never accept what the schema rejects, and must build the same
//! value the slow path builds; it may reject more (`3.0` for an integer, a duplicated key,
//! shapes it does not stream), which only costs the second reading. Shapes it does not
//! stream (untagged enums, tool unions, flattened and bridged fields) are read into a
//! `Value` where they start and checked there against their own schema, so one such field
//! does not send the whole document to the slow path. The agreement test holds both
//! paths to the `jsonschema` crate's verdicts.

use std::fmt;
use std::marker::PhantomData;
use std::sync::OnceLock;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use crate::schema::build::Limit;
use crate::schema::{Schema, compile_pattern};
use crate::tool_schema::ToolSchema;
use crate::tool_schema::streaming::{checked_value, reject};
use crate::value::cmp_number;

/// Reads `T` from `text` on the fast path: `None` when the fast path does not take it.
pub(crate) fn from_str<T: ToolSchema>(text: &str) -> Option<T> {
    if !Schema::of::<T>().streams() {
        return None;
    }
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = T::deserialize_strict(&mut deserializer).ok()?;
    deserializer.end().ok()?;
    Some(value)
}

/// A field's own constraints (`range`, `length`, `pattern`, `format`), checked on its JSON
/// value.
///
/// Written by the derive as a `static` beside the field. It checks lengths of strings,
/// arrays and objects alike, so it is never looser than the schema, whose `length`
/// applies to the one kind the field's type has.
#[derive(Debug)]
pub struct Check {
    minimum: Option<Limit>,
    maximum: Option<Limit>,
    min_len: Option<usize>,
    max_len: Option<usize>,
    pattern: Option<&'static str>,
    regex: OnceLock<Option<regex::Regex>>,
    format: Option<&'static str>,
}

impl Check {
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        Check {
            minimum: None,
            maximum: None,
            min_len: None,
            max_len: None,
            pattern: None,
            regex: OnceLock::new(),
            format: None,
        }
    }

    pub const fn range(mut self, min: Option<Limit>, max: Option<Limit>) -> Self {
        self.minimum = min;
        self.maximum = max;
        self
    }

    pub const fn length(mut self, min: Option<usize>, max: Option<usize>) -> Self {
        self.min_len = min;
        self.max_len = max;
        self
    }

    pub const fn pattern(mut self, source: &'static str) -> Self {
        self.pattern = Some(source);
        self
    }

    pub const fn format(mut self, format: &'static str) -> Self {
        self.format = Some(format);
        self
    }

    fn passes(&self, value: &Value) -> bool {
        match value {
            Value::Number(n) => self.passes_number(n),
            Value::String(s) => self.passes_string(s),
            Value::Array(items) => self.len_ok(items.len()),
            Value::Object(map) => self.len_ok(map.len()),
            Value::Null | Value::Bool(_) => true,
        }
    }

    fn passes_number(&self, n: &Number) -> bool {
        let below = self
            .minimum
            .is_some_and(|min| cmp_number(n, &min.number()).is_lt());
        let above = self
            .maximum
            .is_some_and(|max| cmp_number(n, &max.number()).is_gt());
        !below && !above
    }

    fn passes_string(&self, s: &str) -> bool {
        let counted = self.min_len.is_some() || self.max_len.is_some();
        (!counted || self.len_ok(s.chars().count()))
            && self.matches(s)
            && self
                .format
                .is_none_or(|format| crate::formats::conforms(format, s))
    }

    fn len_ok(&self, len: usize) -> bool {
        self.min_len.is_none_or(|min| len >= min) && self.max_len.is_none_or(|max| len <= max)
    }

    fn matches(&self, s: &str) -> bool {
        let Some(source) = self.pattern else {
            return true;
        };
        // As the schema builder does: a pattern that does not compile is not in the
        // schema (the derive rejects such patterns at compile time).
        match self.regex.get_or_init(|| compile_pattern(source).ok()) {
            Some(regex) => regex.is_match(s),
            None => true,
        }
    }
}

/// Reads a constrained field: its JSON value is checked against the field's [`Check`],
/// then the value is built by the type's strict deserializer. Scalars are checked as they
/// are read; arrays and objects (a `length` on a collection) are read into a `Value` first.
pub struct Checked<T> {
    check: &'static Check,
    _type: PhantomData<fn() -> T>,
}

impl<T> Checked<T> {
    pub const fn new(check: &'static Check) -> Self {
        Checked {
            check,
            _type: PhantomData,
        }
    }

    fn number<'de, E: de::Error>(self, n: Number, scalar: Scalar<'_, 'de, E>) -> Result<T, E>
    where
        T: ToolSchema,
    {
        if !self.check.passes_number(&n) {
            return Err(reject());
        }
        T::deserialize_strict(scalar)
    }

    fn string<'de, E: de::Error>(self, s: &str, scalar: Scalar<'_, 'de, E>) -> Result<T, E>
    where
        T: ToolSchema,
    {
        if !self.check.passes_string(s) {
            return Err(reject());
        }
        T::deserialize_strict(scalar)
    }

    fn whole<E: de::Error>(self, value: Value) -> Result<T, E>
    where
        T: ToolSchema,
    {
        if !self.check.passes(&value) {
            return Err(reject());
        }
        T::deserialize_strict(value).map_err(|_| reject())
    }
}

impl<'de, T: ToolSchema> DeserializeSeed<'de> for Checked<T> {
    type Value = T;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, T: ToolSchema> Visitor<'de> for Checked<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a value within the field's constraints")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<T, E> {
        T::deserialize_strict(Scalar::Bool(v, PhantomData))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        self.number(Number::from(v), Scalar::I64(v, PhantomData))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        self.number(Number::from(v), Scalar::U64(v, PhantomData))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
        let n = Number::from_f64(v).ok_or_else(reject)?;
        self.number(n, Scalar::F64(v, PhantomData))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        self.string(v, Scalar::Str(v, PhantomData))
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<T, E> {
        self.string(v, Scalar::Borrowed(v, PhantomData))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<T, E> {
        if !self.check.passes_string(&v) {
            return Err(reject());
        }
        T::deserialize_strict(Scalar::String(v, PhantomData))
    }

    fn visit_unit<E: de::Error>(self) -> Result<T, E> {
        T::deserialize_strict(Scalar::Null(PhantomData))
    }

    fn visit_none<E: de::Error>(self) -> Result<T, E> {
        T::deserialize_strict(Scalar::Null(PhantomData))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
        let value = Value::deserialize(de::value::SeqAccessDeserializer::new(seq))?;
        self.whole(value)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        let value = Value::deserialize(de::value::MapAccessDeserializer::new(map))?;
        self.whole(value)
    }
}

/// One JSON scalar already read, handed on to a type's strict deserializer. Unlike serde's
/// own value deserializers, an `Option` reads a non-null scalar as `Some`.
enum Scalar<'a, 'de, E> {
    Null(PhantomData<E>),
    Bool(bool, PhantomData<E>),
    I64(i64, PhantomData<E>),
    U64(u64, PhantomData<E>),
    F64(f64, PhantomData<E>),
    Str(&'a str, PhantomData<E>),
    Borrowed(&'de str, PhantomData<E>),
    String(String, PhantomData<E>),
}

impl<'de, E: de::Error> Deserializer<'de> for Scalar<'_, 'de, E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self {
            Scalar::Null(_) => visitor.visit_unit(),
            Scalar::Bool(v, _) => visitor.visit_bool(v),
            Scalar::I64(v, _) => visitor.visit_i64(v),
            Scalar::U64(v, _) => visitor.visit_u64(v),
            Scalar::F64(v, _) => visitor.visit_f64(v),
            Scalar::Str(v, _) => visitor.visit_str(v),
            Scalar::Borrowed(v, _) => visitor.visit_borrowed_str(v),
            Scalar::String(v, _) => visitor.visit_string(v),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        match self {
            Scalar::Null(_) => visitor.visit_none(),
            other => visitor.visit_some(other),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// The slot of a key among a struct's fields or an enum's variants (an alias shares its
/// field's slot); an unknown key is rejected.
pub struct Key(pub &'static [(&'static str, usize)]);

impl<'de> DeserializeSeed<'de> for Key {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a known key")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<usize, E> {
        self.0
            .iter()
            .find(|(key, _)| *key == v)
            .map(|(_, slot)| *slot)
            .ok_or_else(reject)
    }
}

/// The first key of an internally tagged enum's object: the tag, or another key.
pub enum FirstKey {
    Tag,
    Other(String),
}

/// Reads the first key of an object, telling the tag from other keys.
pub struct TagKey(pub &'static str);

impl<'de> DeserializeSeed<'de> for TagKey {
    type Value = FirstKey;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<FirstKey, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for TagKey {
    type Value = FirstKey;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<FirstKey, E> {
        Ok(if v == self.0 {
            FirstKey::Tag
        } else {
            FirstKey::Other(v.to_owned())
        })
    }
}

/// Rejects an object with more keys than the fast path read.
pub fn end_of_map<'de, A: MapAccess<'de>>(map: &mut A) -> Result<(), A::Error> {
    match map.next_key::<IgnoredAny>()? {
        Some(_) => Err(reject()),
        None => Ok(()),
    }
}

/// An object whose first key was not its tag, read whole from `first` on, then checked
/// against `T`'s schema: the slow path for this one value.
pub fn rest_through_value<'de, T: ToolSchema, A: MapAccess<'de>>(
    first: String,
    mut map: A,
) -> Result<T, A::Error> {
    let value = map.next_value()?;
    rest_of_object(Map::from_iter([(first, value)]), map)
}

/// As [`rest_through_value`], for an object whose tag was read first and names a variant
/// the fast path does not stream (a newtype variant beside an internal tag).
pub fn tagged_through_value<'de, T: ToolSchema, A: MapAccess<'de>>(
    tag: &str,
    name: &str,
    map: A,
) -> Result<T, A::Error> {
    rest_of_object(Map::from_iter([(tag.to_owned(), Value::from(name))]), map)
}

/// The members of `map` not read yet, added to `object` (a later key wins, as when the
/// text is parsed into a `Value`), then checked against `T`'s schema.
fn rest_of_object<'de, T: ToolSchema, A: MapAccess<'de>>(
    mut object: Map<String, Value>,
    mut map: A,
) -> Result<T, A::Error> {
    while let Some((key, value)) = map.next_entry::<String, Value>()? {
        object.insert(key, value);
    }
    checked_value(Value::Object(object))
}
