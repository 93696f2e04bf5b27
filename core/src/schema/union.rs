//! The one reading of a union of tool calls in a schema.
//!
//! A union of tools is a `oneOf` (or `anyOf`) whose every alternative is a call
//! `{"name": <a constant string>, "arguments": …}` with both keys required and no other,
//! or the answer `{"answer": …}` with its one key required, at most once; one alternative
//! at least is a call. A derived enum with `#[tool]` variants and a run-time `Toolset`
//! build exactly this shape (`schema::build::Alternatives`), and everything that asks whether a
//! schema is a union of tools asks here: the envelope reader, the validator, the prompt
//! forms, Markdown docs, tool definitions and the agent. Anything else is not a union,
//! however close its shape.

use super::{Node, Resolve, Schema};

/// A union of tool calls, and its optional answer, as a schema makes it.
pub(crate) struct ToolUnion<'s> {
    /// The calls, in the schema's order.
    pub tools: Vec<UnionTool<'s>>,
    pub answer: Option<UnionAnswer<'s>>,
}

/// One call of a union.
pub(crate) struct UnionTool<'s> {
    /// The name the schema gives it: the one the model is shown.
    pub name: &'s str,
    /// The alternative `{"name", "arguments"}` (resolved).
    pub alternative: &'s Node,
    /// The arguments' node (not resolved).
    pub arguments: &'s Node,
}

/// The answer alternative of a union.
pub(crate) struct UnionAnswer<'s> {
    /// The alternative `{"answer"}` (resolved).
    pub alternative: &'s Node,
    /// The answer's node (not resolved).
    pub value: &'s Node,
}

impl<'s> UnionTool<'s> {
    /// The tool's description: the alternative's, else its arguments'.
    pub(crate) fn description(&self, schema: &'s Schema) -> Option<&'s str> {
        self.alternative
            .description
            .as_deref()
            .or_else(|| schema.resolve(self.arguments).description.as_deref())
    }
}

impl<'s> ToolUnion<'s> {
    /// The union the alternatives make, if they make one. `schema` is a finished schema, or
    /// the generator of one still being described.
    pub(crate) fn of<R: Resolve>(schema: &'s R, alternatives: &'s [Node]) -> Option<Self> {
        let mut tools = Vec::new();
        let mut answer = None;
        for alt in alternatives {
            let alt = schema.resolve(alt);
            let required = |key: &str| alt.properties.iter().find(|p| p.name == key && p.required);
            match (
                alt.properties.len(),
                required("name"),
                required("arguments"),
                required("answer"),
            ) {
                (2, Some(name), Some(arguments), _) => tools.push(UnionTool {
                    name: schema.resolve(&name.node).constant.as_ref()?.as_str()?,
                    alternative: alt,
                    arguments: &arguments.node,
                }),
                (1, _, _, Some(value)) if answer.is_none() => {
                    answer = Some(UnionAnswer {
                        alternative: alt,
                        value: &value.node,
                    })
                }
                _ => return None,
            }
        }
        (!tools.is_empty()).then_some(ToolUnion { tools, answer })
    }

    /// The union at a node: its `oneOf`, else its `anyOf`.
    pub(crate) fn at<R: Resolve>(schema: &'s R, node: &'s Node) -> Option<Self> {
        let node = schema.resolve(node);
        let alternatives = if node.one_of.is_empty() {
            &node.any_of
        } else {
            &node.one_of
        };
        ToolUnion::of(schema, alternatives)
    }

    /// The union at the root of a schema.
    pub(crate) fn at_root(schema: &'s Schema) -> Option<Self> {
        ToolUnion::at(schema, schema.root())
    }

    /// The union that a list's items make, at the root of a schema: `Vec<Step>`.
    pub(crate) fn in_list(schema: &'s Schema) -> Option<Self> {
        let root = schema.resolve(schema.root());
        ToolUnion::at(schema, root.items.as_deref()?)
    }

    /// Whether the union takes a direct answer beside its calls.
    pub(crate) fn has_answer(&self) -> bool {
        self.answer.is_some()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn schema(json: serde_json::Value) -> Schema {
        Schema::from_json(json).unwrap()
    }

    fn call(name: &str) -> serde_json::Value {
        json!({
            "type": "object",
            "description": format!("Call {name}."),
            "properties": {
                "name": { "const": name },
                "arguments": { "type": "object", "properties": { "x": { "type": "integer" } } }
            },
            "required": ["name", "arguments"],
            "additionalProperties": false
        })
    }

    fn answer() -> serde_json::Value {
        json!({
            "type": "object",
            "properties": { "answer": { "type": "string" } },
            "required": ["answer"],
            "additionalProperties": false
        })
    }

    #[test]
    fn calls_and_one_answer_make_a_union() {
        let s = schema(json!({ "oneOf": [call("a"), call("b"), answer()] }));
        let union = ToolUnion::at_root(&s).unwrap();
        let names: Vec<&str> = union.tools.iter().map(|t| t.name).collect();
        assert_eq!(names, ["a", "b"]);
        assert!(union.has_answer());
        assert_eq!(union.tools[1].description(&s), Some("Call b."));
        let s = schema(json!({ "anyOf": [call("a")] }));
        assert!(!ToolUnion::at_root(&s).unwrap().has_answer());
    }

    #[test]
    fn shapes_close_to_a_union_are_none() {
        let mut extra = call("a");
        extra["properties"]["why"] = json!({ "type": "string" });
        let mut optional = call("a");
        optional["required"] = json!(["name"]);
        let mut open_name = call("a");
        open_name["properties"]["name"] = json!({ "type": "string" });
        for not_a_union in [
            json!({ "oneOf": [extra, answer()] }),
            json!({ "oneOf": [optional] }),
            json!({ "oneOf": [open_name] }),
            json!({ "oneOf": [answer()] }),
            json!({ "oneOf": [call("a"), answer(), answer()] }),
            json!({ "oneOf": [call("a"), { "type": "string" }] }),
            json!({ "type": "object", "properties": { "name": { "const": "a" } } }),
        ] {
            let s = schema(not_a_union.clone());
            assert!(ToolUnion::at_root(&s).is_none(), "{not_a_union}");
        }
    }

    #[test]
    fn a_list_of_calls_is_read_at_its_items() {
        let s = schema(json!({ "type": "array", "items": { "oneOf": [call("a"), answer()] } }));
        assert!(ToolUnion::at_root(&s).is_none());
        assert_eq!(ToolUnion::in_list(&s).unwrap().tools[0].name, "a");
    }
}
