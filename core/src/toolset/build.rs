//! The union's schema, built as the derive builds a `#[tool]`/`#[answer]` enum.
//!
//! Each tool's input schema goes through the loader of [`Schema::from_json`] into one
//! [`Generator`], so the definitions of every tool live side by side, and the union is
//! put together by the builder the derive's generated code calls
//! (`__private::Union::one_of(…).tool(…).answer(…)`). A tool's arguments become a
//! definition named after the tool, as a derived tool's arguments are the definition of
//! its Rust type: the same tools give the same schema either way.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use super::{Answer, Source, Toolset};
use crate::Error;
use crate::error::{Violation, ViolationKind};
use crate::schema::build::Union;
use crate::schema::union::ToolUnion;
use crate::schema::{Generator, Node, Schema, Types, load_into};
use crate::tool_schema::ToolSchema;
use crate::tool_union::names::model_names;
use crate::tool_union::{ToolNames, UnionDescription};

/// The schema of a set and its model-facing names, built once per set.
pub(super) struct Built {
    pub schema: Arc<Schema>,
    /// By tool index.
    pub model_names: Vec<String>,
    pub by_model_name: HashMap<String, usize>,
    /// The union described once; `None` for a set with no tool.
    pub description: Option<UnionDescription>,
}

impl Clone for Built {
    fn clone(&self) -> Self {
        Built {
            schema: Arc::clone(&self.schema),
            model_names: self.model_names.clone(),
            by_model_name: self.by_model_name.clone(),
            description: self.description.clone(),
        }
    }
}

/// Loads a schema on its own, to report what is wrong with it when the tool is added,
/// each problem located under `at` and naming the tool (`who`).
pub(super) fn check_schema(who: &str, schema: &Value, at: &str) -> Result<(), Error> {
    let label = if who == "the answer" {
        who.to_owned()
    } else {
        format!("tool {}", crate::error::quote(who))
    };
    let mut generator = Generator::default();
    let root = load_into(&mut generator, schema).map_err(|e| {
        let violations = e
            .into_violations()
            .into_iter()
            .map(|v| {
                Violation::new(
                    format!("{at}{}", v.pointer()),
                    ViolationKind::Invalid {
                        message: format!("{label}: {}", v.kind()),
                    },
                )
            })
            .collect();
        Error::new(violations)
    })?;
    let types = generator.resolve(&root).types;
    if who != "the answer"
        && let Some(types) = types
        && !types.contains(Types::OBJECT)
    {
        let names: Vec<&str> = types.names().collect();
        return Err(Error::single(Violation::new(
            format!("{at}/type"),
            ViolationKind::Invalid {
                message: format!(
                    "{label}: the arguments of a tool are an object, but its input schema \
                     takes {}",
                    names.join(" or ")
                ),
            },
        )));
    }
    Ok(())
}

/// The `#[tool]` alternatives of a derived union: (index, name, description).
pub(super) fn derived_tools(schema: &Schema) -> Option<Vec<(usize, String, Option<String>)>> {
    let union = ToolUnion::at_root(schema)?;
    let tools = union.tools.iter().map(|tool| {
        let description = tool.alternative.description.clone();
        (tool.index, tool.name.to_owned(), description)
    });
    Some(tools.collect())
}

/// The arguments of the `index`-th alternative of a derived union the set's own
/// generator described, found by the index [`derived_tools`] gave.
fn derived_arguments(union: &Node, index: usize) -> Option<Node> {
    let alt = union.one_of.get(index)?;
    let arguments = alt.properties.iter().find(|p| p.name == "arguments")?;
    Some(arguments.node.clone())
}

pub(super) fn build(set: &Toolset) -> Built {
    let originals: Vec<&str> = set.tools.iter().map(|t| t.name.as_str()).collect();
    let model_names = model_names(&originals);
    let mut generator = Generator::default();
    // Each derived union is described once; its tools' arguments are taken from it.
    let derived: Vec<Node> = set
        .derived
        .iter()
        .map(|d| {
            let root = (d.describe)(&mut generator);
            generator.resolve(&root).clone()
        })
        .collect();
    let mut union = Union::one_of(None);
    for (tool, model_name) in set.tools.iter().zip(&model_names) {
        let arguments = match &tool.source {
            Source::Json(schema) => definition(&mut generator, &tool.name, schema),
            Source::Derived {
                union, alternative, ..
            } => derived_arguments(&derived[*union], *alternative).unwrap_or_default(),
        };
        union = union.tool(model_name, arguments, tool.description.as_deref());
    }
    match &set.answer {
        Some(Answer::Text) => {
            let text = <String as ToolSchema>::describe(&mut generator);
            union = union.answer(text, None);
        }
        Some(Answer::Schema(schema)) => {
            let payload = definition(&mut generator, "Answer", schema);
            union = union.answer(payload, None);
        }
        None => {}
    }
    let schema = generator.finish(union.build());
    let by_model_name = model_names
        .iter()
        .enumerate()
        .map(|(i, name)| (name.clone(), i))
        .collect();
    let names = ToolNames::new(
        originals
            .iter()
            .zip(&model_names)
            .map(|(server, model)| ((*server).to_owned(), model.clone())),
    );
    let description = UnionDescription::of(&schema, names);
    Built {
        schema: Arc::new(schema),
        model_names,
        by_model_name,
        description,
    }
}

/// A schema loaded as a definition named after `name` (`get_weather` → `GetWeather`);
/// a `$ref` to it. A schema that refers to itself (`"$ref": "#"`) is already one.
fn definition(generator: &mut Generator, name: &str, schema: &Value) -> Node {
    // Reserved first, so the tool's own definitions follow it, as a derived type's do.
    let name = generator.unique_name(&pascal(name));
    let id = generator.reserve(name);
    // Checked when the tool was added: this cannot fail. Should it, the tool takes
    // nothing rather than anything.
    let node = load_into(generator, schema).unwrap_or_else(|_| Node::never());
    if let Some(target) = node.reference
        && node == Node::reference(target)
    {
        // A schema that is only a `$ref` (`"#"`, `"#/$defs/…"`) names its definition
        // already; the slot reserved stays unused and is not written.
        return node;
    }
    generator.set(id, node);
    Node::reference(id)
}

/// `get_weather` → `GetWeather`, `time.get_current_time` → `TimeGetCurrentTime`.
fn pascal(name: &str) -> String {
    let mut out = String::new();
    let mut upper = true;
    for c in name.chars() {
        if c.is_alphanumeric() {
            if upper {
                out.extend(c.to_uppercase());
            } else {
                out.push(c);
            }
            upper = false;
        } else {
            upper = true;
        }
    }
    if out.is_empty() { "Tool".into() } else { out }
}
