//! What a set says to a model: one definition per tool in a provider's dialect, Markdown
//! docs, the compact form.

use serde_json::Value;

use super::Toolset;
use crate::Error;
use crate::dialect::Dialect;
use crate::render;
use crate::tool_union::ToolDefinition;

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
        match self.description() {
            Some(union) => union.definitions(dialect),
            None => Ok(Vec::new()),
        }
    }

    /// Markdown docs of the set: one section per tool (model-facing name, description,
    /// arguments in compact form, an example call, field hints) and the answer, as
    /// [`docs::markdown`](crate::docs::markdown) writes them for a derived union.
    pub fn markdown(&self) -> String {
        crate::docs::markdown_schema(self.schema(), "Tools")
    }

    /// The compact, TypeScript-like form of the union for prompts, as
    /// [`render::compact`] writes a derived union's.
    pub fn compact(&self) -> String {
        render::compact_schema(self.schema())
    }

    /// A valid example reply (a call of the first tool).
    pub fn example(&self) -> Value {
        render::example_schema(self.schema())
    }
}
