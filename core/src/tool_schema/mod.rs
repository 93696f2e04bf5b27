//! The [`ToolSchema`] trait and its impls for std types, with what a type's values are read
//! by: its compiled schema ([`Schema::of`]), its value built from JSON the schema accepted
//! (`reading`), and its strict deserializer's fast path for std types (`streaming`). The
//! schema model that types are described in lies below, in `crate::schema`; the derive's
//! runtime above, in `crate::fast_path` and `__private`.

mod impls;
pub(crate) mod reading;
pub(crate) mod streaming;

use std::any::TypeId;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock, RwLock};

use serde_json::Value;

use crate::Error;
use crate::schema::{Generator, Node, Schema};

/// A type whose JSON form is described by a JSON Schema and read by a strict deserializer
/// built from that same description.
///
/// Derive it with `#[derive(ToolSchema)]`; the derive reads doc comments, the serde
/// attributes that change the JSON shape, and `#[schema(...)]` constraints.
///
/// ```
/// use toolschema::ToolSchema;
///
/// /// A person.
/// #[derive(ToolSchema)]
/// struct Person {
///     /// Full name
///     name: String,
///     #[schema(range(min = 0, max = 150))]
///     age: u8,
///     email: Option<String>,
/// }
///
/// let schema = Person::json_schema();
/// assert_eq!(schema["properties"]["age"]["maximum"], 150);
/// assert_eq!(schema["required"], serde_json::json!(["name", "age"]));
/// assert_eq!(schema["additionalProperties"], false);
/// ```
pub trait ToolSchema: Sized + 'static {
    /// The type's JSON Schema (draft 2020-12, self-contained: nested types live under
    /// `$defs`, every object is closed with `additionalProperties: false`).
    fn json_schema() -> Value {
        Schema::of::<Self>().to_json()
    }

    /// The name of the type's definition under `$defs`.
    #[doc(hidden)]
    fn schema_name() -> Cow<'static, str>;

    /// Describes the type, registering named definitions in the generator. Derived and
    /// other named types return a `$ref` to their definition.
    #[doc(hidden)]
    fn describe(generator: &mut Generator) -> Node;

    /// Builds the value from JSON the type's schema accepted.
    #[doc(hidden)]
    fn from_json(value: Value) -> Result<Self, Error>;

    /// The value a struct field of this type takes when its key is absent, if the key may
    /// be absent (`Option` fields are `None`).
    #[doc(hidden)]
    fn when_missing() -> Option<Self> {
        None
    }

    /// Reads the value in one streaming pass, checking the schema's rules on the way; an
    /// error only means "read it again on the slow path" (see the `fast_path` module). The
    /// default reads a `Value` and checks it against the type's schema.
    #[doc(hidden)]
    fn deserialize_strict<'de, D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Self, D::Error> {
        streaming::through_value(deserializer)
    }
}

impl Generator {
    /// Returns a `$ref` to `T`'s definition, describing `T` with `describe` the first time.
    /// A type that refers to itself meets its own `$ref` and recursion ends there.
    pub fn definition<T: ToolSchema>(&mut self, describe: impl FnOnce(&mut Self) -> Node) -> Node {
        self.definition_of(TypeId::of::<T>(), T::schema_name, describe)
    }
}

type Cache = RwLock<HashMap<TypeId, Arc<Schema>>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

impl Schema {
    /// The compiled schema of a type, built on first use and shared after.
    pub fn of<T: ToolSchema>() -> Arc<Schema> {
        let key = TypeId::of::<T>();
        if let Some(schema) = cache().read().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Arc::clone(schema);
        }
        let mut generator = Generator::default();
        let root = T::describe(&mut generator);
        let schema = Arc::new(generator.finish(root).asserting_formats(true));
        let mut cache = cache().write().unwrap_or_else(|e| e.into_inner());
        Arc::clone(cache.entry(key).or_insert(schema))
    }
}
