//! What a set says to a model: one definition per tool in a provider's dialect, Markdown
//! docs, the compact form.

use serde_json::Value;

use super::Toolset;
use crate::Error;
use crate::dialect::{Change, Dialect, DialectSchema};
use crate::error::{Violation, ViolationKind, quote};
use crate::provider::ToolSpec;
use crate::render;

/// One tool as a provider's native tool calling takes it.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDefinition {
    /// The name the model sees and calls (see [`Toolset::model_name`]).
    pub name: String,
    /// The name as the server spells it.
    pub original_name: String,
    pub description: Option<String>,
    /// The arguments' JSON Schema in the dialect.
    pub parameters: Value,
    /// What the dialect changed: keywords moved into descriptions and the like. What it
    /// dropped is still enforced when the reply is read.
    pub changes: Vec<Change>,
    shaped: DialectSchema,
}

impl ToolDefinition {
    /// Arguments written against [`ToolDefinition::parameters`] as the tool's own schema
    /// reads them: without the nulls OpenAI strict mode asks for in place of absent
    /// optional keys, and out of the wrapper of a root that is not an object.
    pub fn restore(&self, arguments: Value) -> Value {
        self.shaped.unwrap(arguments)
    }

    /// The tool as a provider request carries it.
    pub fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: self.name.clone(),
            description: self.description.clone(),
            parameters: self.parameters.clone(),
        }
    }
}

impl Toolset {
    /// Every tool in a provider's dialect, in order: the model-facing name, the
    /// description, the parameters shaped by the dialect and the report of what it
    /// changed. These are the same definitions the agent sends for a derived union of the
    /// same tools.
    ///
    /// A schema the dialect cannot express is an error naming the tool and the field.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::{Dialect, Toolset};
    ///
    /// let tools = Toolset::from_mcp_tools(&json!({ "tools": [{
    ///     "name": "light/set",
    ///     "description": "Set a light.",
    ///     "inputSchema": {
    ///         "type": "object",
    ///         "properties": {
    ///             "name": { "type": "string", "minLength": 1 },
    ///             "brightness": { "type": "integer", "maximum": 255 }
    ///         },
    ///         "required": ["name"]
    ///     }
    /// }]}))?;
    /// let [light] = &tools.definitions(Dialect::OpenAiStrict)?[..] else { unreachable!() };
    /// assert_eq!(light.name, "light_set");
    /// assert_eq!(light.parameters["required"], json!(["name", "brightness"]));
    /// let changes: Vec<String> = light.changes.iter().map(|c| c.to_string()).collect();
    /// assert_eq!(changes, [
    ///     r#"(root): made optional ["brightness"] required and nullable; null means absent"#,
    ///     "(root): closed the object with additionalProperties: false",
    ///     "/properties/name: moved at least 1 character into the description",
    /// ]);
    /// // What the model writes for an absent key is read back as absent.
    /// assert_eq!(light.restore(json!({ "name": "desk", "brightness": null })), json!({ "name": "desk" }));
    ///
    /// let err = Toolset::from_mcp_tools(&json!({ "tools": [{
    ///     "name": "tag",
    ///     "inputSchema": { "type": "object", "properties": { "labels": { "type": "object" } } }
    /// }]}))?
    /// .definitions(Dialect::OpenAiStrict)
    /// .unwrap_err();
    /// assert!(err.to_string().starts_with(r#"/properties/labels: tool "tag": "#), "{err}");
    /// # Ok::<(), toolschema::Error>(())
    /// ```
    pub fn definitions(&self, dialect: Dialect) -> Result<Vec<ToolDefinition>, Error> {
        let schema = self.schema();
        let root = schema.resolve(schema.root());
        let mut out = Vec::with_capacity(self.tools.len());
        let mut errors = Vec::new();
        let tools = root.one_of.iter().take(self.tools.len());
        for ((tool, alt), model_name) in self.tools.iter().zip(tools).zip(&self.built().model_names)
        {
            let Some(arguments) = alt.properties.iter().find(|p| p.name == "arguments") else {
                continue;
            };
            // As the agent's request for a derived union takes them.
            let description = alt
                .description
                .clone()
                .or_else(|| schema.resolve(&arguments.node).description.clone());
            match dialect.apply(schema.part_to_json(&arguments.node)) {
                Ok(shaped) => out.push(ToolDefinition {
                    name: model_name.clone(),
                    original_name: tool.name.clone(),
                    description,
                    parameters: shaped.schema.clone(),
                    changes: shaped.changes.clone(),
                    shaped,
                }),
                Err(e) => errors.extend(e.into_violations().into_iter().map(|v| {
                    Violation::new(
                        v.pointer(),
                        ViolationKind::Invalid {
                            message: format!("tool {}: {}", quote(&tool.name), v.kind()),
                        },
                    )
                })),
            }
        }
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(Error::new(errors))
        }
    }

    /// Markdown docs of the set: one section per tool (model-facing name, description,
    /// arguments in compact form, an example call, field hints) and the answer, as
    /// [`docs::markdown`](crate::docs::markdown) writes them for a derived union.
    pub fn markdown(&self) -> String {
        crate::docs::markdown_schema(self.schema(), "Tools")
    }

    /// The compact, TypeScript-like form of the union for prompts, as
    /// [`render::compact`](crate::render::compact) writes a derived union's.
    pub fn compact(&self) -> String {
        render::compact_schema(self.schema())
    }

    /// A valid example reply (a call of the first tool).
    pub fn example(&self) -> Value {
        render::example_schema(self.schema())
    }
}
