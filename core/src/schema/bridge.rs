//! Bridged types (`#[schema(bridge)]`): a schema from schemars, a value from serde.
//!
//! The schema schemars writes is not always all that serde requires (a `Uuid` is
//! `{"type": "string", "format": "uuid"}`, and serde rejects `"not-a-uuid"`). The node
//! of a bridged field carries serde's own check, which the validator runs where the
//! schema's keywords pass, so what serde rejects is a violation at its pointer in the
//! same pass as every other.

use std::fmt;

use serde_json::Value;

/// serde's check of a bridged type, kept on the type's node.
#[derive(Clone)]
pub struct Bridge {
    /// The type's name as written in messages (`Uuid`).
    pub(crate) type_name: String,
    pub(crate) check: fn(&Value) -> Result<(), String>,
    /// Why the type's schema could not be loaded, if it could not: every value is then
    /// rejected with this reason, and an ask fails before calling the model.
    pub(crate) unloadable: Option<String>,
}

impl Bridge {
    pub(crate) fn of<T: serde::de::DeserializeOwned>() -> Bridge {
        Bridge {
            type_name: short_type_name::<T>(),
            check: deserializes::<T>,
            unloadable: None,
        }
    }

    /// Why `value` is not a value of the type, or why the type cannot be checked at all.
    pub(crate) fn problem(&self, value: &Value) -> Option<String> {
        if let Some(reason) = &self.unloadable {
            return Some(reason.clone());
        }
        (self.check)(value)
            .err()
            .map(|e| format!("not a valid {}: {e}", self.type_name))
    }
}

fn deserializes<T: serde::de::DeserializeOwned>(value: &Value) -> Result<(), String> {
    T::deserialize(value).map(drop).map_err(|e| e.to_string())
}

/// `uuid::Uuid` for `uuid::Uuid`, `Option<Uuid>` for `core::option::Option<uuid::Uuid>`.
fn short_type_name<T>() -> String {
    let full = std::any::type_name::<T>();
    let mut out = String::with_capacity(full.len());
    let mut segment = String::new();
    for c in full.chars() {
        if c.is_alphanumeric() || c == '_' || c == ':' {
            segment.push(c);
        } else {
            out.push_str(segment.rsplit("::").next().unwrap_or_default());
            segment.clear();
            out.push(c);
        }
    }
    out.push_str(segment.rsplit("::").next().unwrap_or_default());
    out
}

impl fmt::Debug for Bridge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bridge")
            .field("type_name", &self.type_name)
            .field("unloadable", &self.unloadable)
            .finish_non_exhaustive()
    }
}

/// Two bridges are the same when they check the same type.
impl PartialEq for Bridge {
    fn eq(&self, other: &Self) -> bool {
        self.type_name == other.type_name && self.unloadable == other.unloadable
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_names_drop_their_paths() {
        assert_eq!(short_type_name::<String>(), "String");
        assert_eq!(short_type_name::<Option<Vec<u8>>>(), "Option<Vec<u8>>");
    }

    #[test]
    fn the_check_is_serde_s_own() {
        let bridge = Bridge::of::<std::net::Ipv4Addr>();
        assert_eq!(bridge.problem(&Value::from("10.0.0.1")), None);
        let problem = bridge.problem(&Value::from("10.0.0")).unwrap();
        assert!(problem.starts_with("not a valid Ipv4Addr: "), "{problem}");
    }
}
