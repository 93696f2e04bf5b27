//! One description of a union of tool calls, derived or built at run time.
//!
//! A union's schema is read once ([`ToolUnion`](crate::schema::union::ToolUnion), the one
//! reading of its shape) into a [`UnionDescription`]: each tool with the name the model is
//! shown and the name its server spells, its description, its arguments' JSON Schema and
//! their compact form; and the optional answer. The agent's requests (native tool
//! definitions, through [`UnionDescription::definitions`], and the text modes' prompt),
//! [`Toolset::definitions`](crate::Toolset::definitions), the reading of replies and the
//! tool loops read it from here; a derived enum and a `Toolset` of the same tools give
//! the same description.

mod definitions;
pub(crate) mod names;

use serde_json::Value;

pub use definitions::ToolDefinition;
pub(crate) use names::ToolNames;

use crate::render;
use crate::schema::union::ToolUnion;
use crate::schema::{Schema, Types};

/// A union of tool calls, described once.
#[derive(Debug, Clone)]
pub(crate) struct UnionDescription {
    /// The tools, in the schema's order.
    pub tools: Vec<ToolDescription>,
    pub answer: Option<AnswerDescription>,
    /// The names servers spell where the model is shown others.
    pub names: ToolNames,
}

/// One tool of a union.
#[derive(Debug, Clone)]
pub(crate) struct ToolDescription {
    /// As the model is shown it (the schema's name).
    pub name: String,
    /// As its server spells it; the same as `name` for a derived tool.
    pub server_name: String,
    pub description: Option<String>,
    /// The arguments' JSON Schema.
    pub arguments: Value,
    /// The arguments in the compact prompt form.
    pub shape: String,
}

/// The answer of a union.
#[derive(Debug, Clone)]
pub(crate) struct AnswerDescription {
    /// The answer's shape in the compact form, when it is not plain text.
    pub shape: Option<String>,
    /// The name of the tool that gives the answer where calls are native: `answer`, or
    /// another where one of the union's tools has that name ([`answer_tool_name`]).
    pub tool: String,
    /// The answer's alternative `{"answer": …}` as a JSON Schema: the arguments of that
    /// tool.
    pub arguments: Value,
}

impl UnionDescription {
    /// The union at the root of `schema`, its tools' server names taken from `names`;
    /// `None` when the schema is no union of tools.
    pub(crate) fn of(schema: &Schema, names: ToolNames) -> Option<Self> {
        let union = ToolUnion::at_root(schema)?;
        let tools: Vec<ToolDescription> = union
            .tools
            .iter()
            .map(|tool| ToolDescription {
                name: tool.name.to_owned(),
                server_name: names.server_name(tool.name).unwrap_or(tool.name).to_owned(),
                description: tool.description(schema).map(str::to_owned),
                arguments: schema.part_to_json(tool.arguments),
                shape: render::compact::render_node(schema, tool.arguments),
            })
            .collect();
        let answer = union.answer.as_ref().map(|answer| {
            let node = schema.resolve(answer.value);
            let text = node.types == Some(Types::STRING) && node.enumeration.is_none();
            AnswerDescription {
                shape: (!text).then(|| render::compact::render_node(schema, answer.value)),
                tool: answer_tool_name(&tools),
                arguments: schema.part_to_json(answer.alternative),
            }
        });
        Some(UnionDescription {
            tools,
            answer,
            names,
        })
    }

    /// Whether the union takes a direct answer beside its calls.
    pub(crate) fn has_answer(&self) -> bool {
        self.answer.is_some()
    }

    /// The name of the answer's tool, when `name` is it: a call of no tool of the union
    /// by the name the union's answer takes as a tool ([`AnswerDescription::tool`]).
    pub(crate) fn is_answer_tool(&self, name: &str) -> bool {
        self.answer.as_ref().is_some_and(|a| a.tool == name) && self.tool(name).is_none()
    }

    /// The tool either of its names names: as the model is shown it or as its server
    /// spells it.
    pub(crate) fn tool(&self, name: &str) -> Option<&ToolDescription> {
        self.tools
            .iter()
            .find(|t| t.name == name)
            .or_else(|| self.tools.iter().find(|t| t.server_name == name))
    }
}

/// The name the answer takes as a tool: `answer`, unless one of `tools` has that name
/// (as the model is shown it or as its server spells it), then the first of a few others
/// that none has.
fn answer_tool_name(tools: &[ToolDescription]) -> String {
    let taken = |name: &str| {
        tools
            .iter()
            .any(|t| t.name == name || t.server_name == name)
    };
    ["answer", "answer_directly", "reply_with_answer"]
        .into_iter()
        .map(str::to_owned)
        .chain((2..).map(|n| format!("answer_{n}")))
        .find(|name| !taken(name))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::Toolset;

    fn tools() -> Toolset {
        Toolset::from_mcp_tools(&json!({ "tools": [{
            "name": "weather.get_forecast",
            "description": "The forecast for a city.",
            "inputSchema": { "type": "object", "properties": { "city": { "type": "string" } } }
        }, {
            "name": "lights_off",
            "inputSchema": { "type": "object", "properties": {} }
        }]}))
        .unwrap()
    }

    #[test]
    fn a_tool_is_found_by_either_of_its_names() {
        let tools = tools();
        let union = tools.description().unwrap();
        let by_shown = union.tool("weather_get_forecast").unwrap();
        let by_server = union.tool("weather.get_forecast").unwrap();
        assert_eq!(by_shown.server_name, "weather.get_forecast");
        assert_eq!(by_server.name, "weather_get_forecast");
        assert_eq!(
            by_shown.description.as_deref(),
            Some("The forecast for a city.")
        );
        assert_eq!(union.tool("lights_off").unwrap().server_name, "lights_off");
        assert!(union.tool("weather").is_none());
        assert!(!union.has_answer());
    }

    #[test]
    fn the_description_is_read_from_the_schema_alone_but_the_server_names() {
        let tools = tools().with_answer();
        let from_schema = UnionDescription::of(tools.schema(), ToolNames::default()).unwrap();
        let from_set = tools.description().unwrap();
        let view = |d: &UnionDescription| {
            d.tools
                .iter()
                .map(|t| {
                    (
                        t.name.clone(),
                        t.description.clone(),
                        t.arguments.clone(),
                        t.shape.clone(),
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(view(&from_schema), view(from_set));
        assert_eq!(from_schema.tools[0].server_name, "weather_get_forecast");
        assert!(from_schema.has_answer() && from_set.has_answer());
        assert!(from_set.answer.as_ref().unwrap().shape.is_none());
    }

    #[test]
    fn a_record_is_no_union() {
        let schema = Schema::from_json(json!({
            "type": "object",
            "properties": { "name": { "const": "a" }, "arguments": { "type": "object" } },
            "required": ["name", "arguments"]
        }))
        .unwrap();
        assert!(UnionDescription::of(&schema, ToolNames::default()).is_none());
    }
}
