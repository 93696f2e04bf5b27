//! Building std values from JSON the schema accepted: objects, arrays and null taken
//! apart, a collection's items each built with its problems under its index, a bridged
//! type read through serde. Used by the std impls of [`ToolSchema`] and by derived code
//! (through `__private`).

use serde_json::{Map, Value};

use super::ToolSchema;
use crate::Error;
use crate::error::{Violation, ViolationKind};

pub(crate) fn wrong_shape(expected: &str, found: &Value) -> Error {
    Error::single(Violation::new(
        "",
        ViolationKind::WrongType {
            expected: expected.to_owned(),
            found: crate::value::describe_value(found),
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
