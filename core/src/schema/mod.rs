//! The schema model: the compiled [`Schema`], its nodes, and the [`Generator`] that
//! collects a type's definitions. The [`ToolSchema`](crate::ToolSchema) trait that
//! describes types in it, and its std impls, lie above, in `crate::tool_schema`.

pub(crate) mod bridge;
pub(crate) mod build;
mod from_json;
pub(crate) use from_json::{compile_pattern, ecma_to_rust, load_into, starts_quantifier};
pub(crate) mod keys;
pub(crate) mod union;
mod used;
pub(crate) use used::Used;
pub(crate) mod node;
mod to_json;

use std::any::TypeId;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::Value;

pub use node::{DefId, Discriminator, Node, Pattern, Property, Types};
pub(crate) use node::{EnumStrings, Shape};
mod listed;
pub(crate) use listed::Listed;

use crate::Error;
use crate::error::{Violation, ViolationKind};

/// How deep schemas and values may nest before validation gives up with an error.
pub const MAX_DEPTH: usize = 128;

/// What follows `$ref`s to the nodes they name: a finished [`Schema`], or the [`Generator`]
/// of one still being described (a run-time set reads the derived unions it holds from its
/// own generator, before its schema is finished).
pub(crate) trait Resolve {
    fn resolve<'a>(&'a self, node: &'a Node) -> &'a Node;
}

impl Resolve for Schema {
    fn resolve<'a>(&'a self, node: &'a Node) -> &'a Node {
        Schema::resolve(self, node)
    }
}

impl Resolve for Generator {
    fn resolve<'a>(&'a self, node: &'a Node) -> &'a Node {
        Generator::resolve(self, node)
    }
}

/// Follows `$ref`s through `definitions` to the node they name (64 hops at most, so that
/// a definition that is only a reference to itself ends).
fn follow<'a>(definitions: &'a [Definition], node: &'a Node) -> &'a Node {
    let mut node = node;
    let mut hops = 0;
    while let Some(id) = node.reference {
        match definitions.get(id.0) {
            Some(def) if hops < 64 => node = &def.node,
            _ => break,
        }
        hops += 1;
    }
    node
}

/// A named definition under `$defs`.
#[derive(Debug, Clone)]
pub(crate) struct Definition {
    pub name: String,
    pub node: Node,
}

/// Collects the named definitions of a type while it is described.
#[derive(Debug, Default)]
pub struct Generator {
    definitions: Vec<Definition>,
    by_type: HashMap<TypeId, DefId>,
    names: HashMap<String, usize>,
}

impl Generator {
    /// Returns a `$ref` to the definition of the type `key`, describing it with `describe`
    /// under the name `name` gives the first time (see [`Generator::definition`]).
    pub(crate) fn definition_of(
        &mut self,
        key: TypeId,
        name: impl FnOnce() -> Cow<'static, str>,
        describe: impl FnOnce(&mut Self) -> Node,
    ) -> Node {
        if let Some(id) = self.by_type.get(&key) {
            return Node::reference(*id);
        }
        let name = self.unique_name(&name());
        let id = self.reserve(name);
        self.by_type.insert(key, id);
        let node = describe(self);
        self.definitions[id.0].node = node;
        Node::reference(id)
    }

    /// Reserves a definition slot under a name not used yet.
    pub(crate) fn reserve(&mut self, name: String) -> DefId {
        let id = DefId(self.definitions.len());
        self.definitions.push(Definition {
            name,
            node: Node::default(),
        });
        id
    }

    pub(crate) fn set(&mut self, id: DefId, node: Node) {
        self.definitions[id.0].node = node;
    }

    pub(crate) fn unique_name(&mut self, base: &str) -> String {
        let base: String = base
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let base = base.trim_matches('_').to_owned();
        let count = self.names.entry(base.clone()).or_insert(0);
        *count += 1;
        if *count == 1 {
            base
        } else {
            format!("{base}{count}")
        }
    }

    /// Follows `$ref`s to the node they name.
    pub fn resolve<'a>(&'a self, node: &'a Node) -> &'a Node {
        follow(&self.definitions, node)
    }

    /// Finishes a schema whose root is `root`.
    pub(crate) fn finish(self, root: Node) -> Schema {
        let (root, root_def) = match root.reference {
            Some(id) if root == Node::reference(id) => (root, Some(id)),
            _ => (root, None),
        };
        Schema::new(self.definitions, root, root_def)
    }
}

/// A compiled JSON Schema: what the validator checks and the renderer writes.
///
/// Derived types compile theirs once ([`Schema::of`]); schemas known only at run time are
/// loaded with [`Schema::from_json`].
#[derive(Debug)]
pub struct Schema {
    pub(crate) definitions: Vec<Definition>,
    pub(crate) root: Node,
    /// When the root is a named type, its definition is written inline at the top and
    /// `$ref`s to it become `"#"`.
    pub(crate) root_def: Option<DefId>,
    json: OnceLock<Value>,
    /// Whether the validator's frame budget always outlasts JSON text (see `streams`).
    streams: OnceLock<bool>,
    /// Why parts of the schema could not be loaded (a bridged type's schema with a
    /// keyword the loader does not support): values are checked against nothing there.
    problems: Vec<String>,
    /// Whether `format` is asserted (see [`Schema::asserts_formats`]).
    pub(crate) asserts_formats: bool,
    /// The values the schema's `enum`s and `const`s list.
    pub(crate) listed: Listed,
}

impl Schema {
    pub(crate) fn new(
        mut definitions: Vec<Definition>,
        mut root: Node,
        root_def: Option<DefId>,
    ) -> Self {
        let mut problems = Vec::new();
        let mut listed = Listed::default();
        let mut finish = |node: &mut Node| {
            node.index();
            listed.add(node);
            if let Some(reason) = node.bridge.as_ref().and_then(|b| b.unloadable.as_ref())
                && !problems.contains(reason)
            {
                problems.push(reason.clone());
            }
        };
        for def in &mut definitions {
            def.node.for_each_mut(&mut finish);
        }
        root.for_each_mut(&mut finish);
        Schema {
            definitions,
            root,
            root_def,
            json: OnceLock::new(),
            streams: OnceLock::new(),
            problems,
            asserts_formats: false,
            listed,
        }
    }

    /// Why this schema cannot check every value it should: the schema of a bridged type
    /// (`#[schema(bridge)]`) used a keyword the loader does not support. Such a schema
    /// rejects every value at that type with the reason, and [`Agent`](crate::Agent)
    /// asks fail before calling a model.
    pub fn problem(&self) -> Option<Error> {
        if self.problems.is_empty() {
            return None;
        }
        let violations = self
            .problems
            .iter()
            .map(|reason| {
                Violation::new(
                    "",
                    ViolationKind::Invalid {
                        message: reason.clone(),
                    },
                )
            })
            .collect();
        Some(Error::new(violations))
    }

    /// Whether `format` is checked: `uuid`, `date`, `time` and `date-time` (RFC 4122 and
    /// RFC 3339); other formats are annotations either way.
    ///
    /// A derived type's schema asserts them: `#[schema(format = "date")]` and bridged
    /// types such as `Uuid` say what the value must be. A schema loaded at run time follows
    /// draft 2020-12, where `format` is an annotation, unless this is turned on.
    ///
    /// ```
    /// let schema = toolschema::Schema::from_json(serde_json::json!({ "format": "date" }))?;
    /// assert!(schema.is_valid(&"31/01/2025".into()));
    /// let schema = schema.asserting_formats(true);
    /// assert!(!schema.is_valid(&"31/01/2025".into()));
    /// assert!(schema.is_valid(&"2025-01-31".into()));
    /// # Ok::<(), toolschema::Error>(())
    /// ```
    pub fn asserting_formats(mut self, assert: bool) -> Self {
        self.asserts_formats = assert;
        self
    }

    /// Whether `format` is checked (see [`Schema::asserting_formats`]).
    pub fn asserts_formats(&self) -> bool {
        self.asserts_formats
    }

    /// The root node.
    pub fn root(&self) -> &Node {
        &self.root
    }

    /// Follows `$ref`s to the node they name.
    pub fn resolve<'a>(&'a self, node: &'a Node) -> &'a Node {
        follow(&self.definitions, node)
    }

    pub(crate) fn definition(&self, id: DefId) -> Option<&Node> {
        self.definitions.get(id.0).map(|d| &d.node)
    }

    /// One node of this schema as a standalone JSON Schema with the definitions it uses
    /// (a tool's arguments).
    pub fn part_to_json(&self, part: &Node) -> Value {
        to_json::render_part(self, part)
    }

    /// Whether `from_str` may take the streaming fast path for this schema: the validator
    /// can never run out of frames on a value parsed from text, so every verdict of the
    /// slow path comes from the schema's keywords, which the fast path checks too.
    /// Schemas that refer to themselves without consuming the value (a newtype of
    /// `Option<Box<Self>>`) or that chain many references per level are read on the slow
    /// path only.
    pub(crate) fn streams(&self) -> bool {
        *self.streams.get_or_init(|| self.frames_suffice())
    }

    /// The schema as draft 2020-12 JSON.
    pub fn to_json(&self) -> Value {
        self.json.get_or_init(|| to_json::render(self)).clone()
    }
}
