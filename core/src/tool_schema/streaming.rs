//! The std types on the strict deserializer's fast path (see `crate::fast_path`): the seed
//! that reads a type with its own strict deserializer, the visitors of options, arrays
//! and maps, and the slow path for one value. The derive's own pieces are in
//! `crate::fast_path`, above these.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt;
use std::hash::BuildHasher;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::ToolSchema;
use crate::schema::Schema;

/// The error that sends the input to the slow path. Its text is never shown: the slow
/// path reports what is wrong.
pub fn reject<E: de::Error>() -> E {
    E::custom("not taken on the fast path")
}

/// The slow path for one value: validate it against `T`'s own schema, then build `T`.
pub fn through_value<'de, T: ToolSchema, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    let value = Value::deserialize(deserializer)?;
    checked_value(value)
}

/// Builds `T` from a value read whole, if `T`'s schema accepts it.
pub fn checked_value<T: ToolSchema, E: de::Error>(value: Value) -> Result<T, E> {
    if !Schema::of::<T>().is_valid(&value) {
        return Err(reject());
    }
    T::from_json(value).map_err(|_| reject())
}

/// Reads `T` with its strict deserializer: the seed for fields, items and map values.
pub struct Strict<T>(PhantomData<fn() -> T>);

impl<T> Strict<T> {
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        Strict(PhantomData)
    }
}

impl<'de, T: ToolSchema> DeserializeSeed<'de> for Strict<T> {
    type Value = T;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        T::deserialize_strict(deserializer)
    }
}

/// Rejects an array with more items than the fast path read.
pub fn end_of_seq<'de, A: SeqAccess<'de>>(seq: &mut A) -> Result<(), A::Error> {
    match seq.next_element::<IgnoredAny>()? {
        Some(_) => Err(reject()),
        None => Ok(()),
    }
}

/// The next item of a fixed-length array, which must be there.
pub fn item<'de, A: SeqAccess<'de>, S: DeserializeSeed<'de>>(
    seq: &mut A,
    seed: S,
) -> Result<S::Value, A::Error> {
    seq.next_element_seed(seed)?.ok_or_else(reject)
}

// Visitors for the standard types (`impls.rs`).

/// `null` or the inner value.
pub(crate) struct OptionVisitor<T>(PhantomData<fn() -> T>);

impl<T> OptionVisitor<T> {
    pub(crate) fn new() -> Self {
        OptionVisitor(PhantomData)
    }
}

impl<'de, T: ToolSchema> Visitor<'de> for OptionVisitor<T> {
    type Value = Option<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("null or a value")
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        T::deserialize_strict(deserializer).map(Some)
    }
}

/// A sequence an array is read into. (Sets are read through a `Value`: `uniqueItems`
/// compares JSON values, where `1` equals `1.0`, and a type's `Eq` need not agree.)
pub(crate) trait Collection<T>: Default {
    fn push(&mut self, item: T);
}

impl<T> Collection<T> for Vec<T> {
    fn push(&mut self, item: T) {
        Vec::push(self, item);
    }
}

impl<T> Collection<T> for VecDeque<T> {
    fn push(&mut self, item: T) {
        self.push_back(item);
    }
}

/// An array, item by item.
pub(crate) struct SeqVisitor<C, T>(PhantomData<fn() -> (C, T)>);

impl<C, T> SeqVisitor<C, T> {
    pub(crate) fn new() -> Self {
        SeqVisitor(PhantomData)
    }
}

impl<'de, C: Collection<T>, T: ToolSchema> Visitor<'de> for SeqVisitor<C, T> {
    type Value = C;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<C, A::Error> {
        let mut out = C::default();
        while let Some(item) = seq.next_element_seed(Strict::<T>::new())? {
            out.push(item);
        }
        Ok(out)
    }
}

/// A map keyed by strings: what an object is read into.
pub(crate) trait StringMap<V>: Default {
    /// False when the key was there already.
    fn put(&mut self, key: String, value: V) -> bool;
}

impl<V, S: BuildHasher + Default> StringMap<V> for HashMap<String, V, S> {
    fn put(&mut self, key: String, value: V) -> bool {
        self.insert(key, value).is_none()
    }
}

impl<V> StringMap<V> for BTreeMap<String, V> {
    fn put(&mut self, key: String, value: V) -> bool {
        self.insert(key, value).is_none()
    }
}

/// An object, member by member; a key written twice sends the input to the slow path.
pub(crate) struct MapVisitor<M, V>(PhantomData<fn() -> (M, V)>);

impl<M, V> MapVisitor<M, V> {
    pub(crate) fn new() -> Self {
        MapVisitor(PhantomData)
    }
}

impl<'de, M: StringMap<V>, V: ToolSchema> Visitor<'de> for MapVisitor<M, V> {
    type Value = M;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<M, A::Error> {
        let mut out = M::default();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(Strict::<V>::new())?;
            if !out.put(key, value) {
                return Err(reject());
            }
        }
        Ok(out)
    }
}
