//! The union's schema, built as the derive builds a `#[tool]`/`#[answer]` enum.
//!
//! Each tool's input schema goes through the loader of [`Schema::from_json`] into one
//! [`Generator`], so the definitions of every tool live side by side, and the union is
//! put together by the builder the derive's generated code calls
//! (`__private::Alternatives::one_of(…).tool(…).answer(…)`). A tool's arguments become a
//! definition named after the tool, as a derived tool's arguments are the definition of
//! its Rust type: the same tools give the same schema either way.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use super::{Answer, Source, Toolset};
use crate::Error;
use crate::error::{Violation, ViolationKind};
use crate::schema::build::Alternatives;
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

/// The `#[tool]` alternatives of a derived union: (name, description).
pub(super) fn derived_tools(schema: &Schema) -> Option<Vec<(String, Option<String>)>> {
    let union = ToolUnion::at_root(schema)?;
    let tools = union.tools.iter().map(|tool| {
        let description = tool.alternative.description.clone();
        (tool.name.to_owned(), description)
    });
    Some(tools.collect())
}

/// The arguments of each `#[tool]` of a derived union the set's own generator described
/// (`root`), by the tool's name: read as [`derived_tools`] reads the union's tools.
fn derived_arguments(generator: &Generator, root: &Node) -> HashMap<String, Node> {
    let Some(union) = ToolUnion::at(generator, root) else {
        return HashMap::new();
    };
    let arguments = union.tools.iter().map(|tool| {
        let arguments = tool.arguments.clone();
        (tool.name.to_owned(), arguments)
    });
    arguments.collect()
}

pub(super) fn build(set: &Toolset) -> Built {
    let originals: Vec<&str> = set.tools.iter().map(|t| t.name.as_str()).collect();
    let model_names = model_names(&originals);
    let mut generator = Generator::default();
    // Each derived union is described once; its tools' arguments are taken from it.
    let derived: Vec<HashMap<String, Node>> = set
        .derived
        .iter()
        .map(|d| {
            let root = (d.describe)(&mut generator);
            derived_arguments(&generator, &root)
        })
        .collect();
    let mut union = Alternatives::one_of(None);
    for (tool, model_name) in set.tools.iter().zip(&model_names) {
        let arguments = match &tool.source {
            Source::Json(schema) => definition(&mut generator, &tool.name, schema),
            Source::Derived { union, own_name } => {
                derived[*union].get(own_name).cloned().unwrap_or_default()
            }
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

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use serde_json::{Value, json};

    use crate::schema::build::{Alternatives, Field, Object};
    use crate::schema::union::ToolUnion;
    use crate::schema::{Generator, Node};
    use crate::tool_schema::ToolSchema;
    use crate::{Error, Toolset};

    /// A union of two tools whose arguments differ, described as the derive describes
    /// `enum Step { #[tool] GetWeather { city: String }, #[tool] TurnOn { name: String,
    /// brightness: u8 } }`.
    struct Step;

    impl ToolSchema for Step {
        fn schema_name() -> Cow<'static, str> {
            "Step".into()
        }

        fn describe(generator: &mut Generator) -> Node {
            generator.definition::<Step>(|g| {
                let weather = Object::new()
                    .field(Field::new("city", String::describe(g)))
                    .build();
                let turn_on = Object::new()
                    .field(Field::new("name", String::describe(g)))
                    .field(Field::new("brightness", u8::describe(g)))
                    .build();
                Alternatives::one_of(None)
                    .tool("get_weather", weather, Some("Look up the weather."))
                    .tool("turn_on", turn_on, None)
                    .build()
            })
        }

        fn from_json(_: Value) -> Result<Self, Error> {
            Err(Error::internal("a Step is not read in these tests"))
        }
    }

    /// Each tool of a set's union, with the names of its arguments.
    fn arguments(tools: &Toolset) -> Vec<(String, Vec<String>)> {
        let schema = tools.schema();
        let union = ToolUnion::at_root(schema.as_ref()).expect("a union of tools");
        let of = |tool: &crate::schema::union::UnionTool<'_>| {
            let arguments = schema.resolve(tool.arguments);
            arguments
                .properties
                .iter()
                .map(|p| p.name.clone())
                .collect()
        };
        union
            .tools
            .iter()
            .map(|tool| (tool.name.to_owned(), of(tool)))
            .collect()
    }

    #[test]
    fn each_derived_tool_gets_its_own_arguments() {
        // A run-time tool first and a namespace, so that neither a derived tool's place in
        // the set nor its name there is the one its union gives it.
        let search = json!({ "type": "object", "properties": { "q": { "type": "string" } } });
        let tools = Toolset::new()
            .tool("search", "Search the web.", search)
            .unwrap()
            .merge(
                Toolset::new()
                    .with_derived::<Step>()
                    .unwrap()
                    .namespaced("home"),
            )
            .unwrap()
            .with_answer();
        let found = arguments(&tools);
        let expected = [
            ("search", vec!["q"]),
            ("home_get_weather", vec!["city"]),
            ("home_turn_on", vec!["name", "brightness"]),
        ];
        let expected: Vec<(String, Vec<String>)> = expected
            .iter()
            .map(|(name, args)| {
                (
                    name.to_string(),
                    args.iter().map(|a| a.to_string()).collect(),
                )
            })
            .collect();
        assert_eq!(found, expected);
    }
}
