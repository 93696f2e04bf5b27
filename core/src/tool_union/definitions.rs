//! The one writer of tool definitions: each tool of a union in a provider's dialect, for
//! native tool calling, whether the union was derived or built at run time.

use serde_json::Value;

use super::UnionDescription;
use crate::Error;
use crate::dialect::{Change, Dialect, DialectSchema};
use crate::error::{Violation, ViolationKind, quote};
use crate::provider::ToolSpec;

/// One tool as a provider's native tool calling takes it.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDefinition {
    /// The name the model sees and calls (see [`Toolset::model_name`](crate::Toolset::model_name)).
    pub name: String,
    /// The name as the server spells it.
    pub original_name: String,
    pub description: Option<String>,
    /// The arguments' JSON Schema in the dialect.
    pub parameters: Value,
    /// What the dialect changed: keywords moved into descriptions and the like. What it
    /// dropped is still enforced when the reply is read.
    pub changes: Vec<Change>,
    pub(crate) shaped: DialectSchema,
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

impl UnionDescription {
    /// Every tool in `dialect`, in order: the model-facing name, the description, the
    /// arguments shaped by the dialect and the report of what it changed. A tool the
    /// dialect cannot express is a violation naming the tool and the field; every such
    /// tool is reported.
    pub(crate) fn definitions(&self, dialect: Dialect) -> Result<Vec<ToolDefinition>, Error> {
        let mut out = Vec::with_capacity(self.tools.len());
        let mut errors = Vec::new();
        for tool in &self.tools {
            let defined = define(
                &tool.name,
                &tool.server_name,
                tool.description.as_deref(),
                &tool.arguments,
                dialect,
            );
            match defined {
                Ok(definition) => out.push(definition),
                Err(e) => errors.extend(e.into_violations()),
            }
        }
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(Error::new(errors))
        }
    }

    /// The answer as one more tool, for native tool calling: named
    /// [`AnswerDescription::tool`](super::AnswerDescription::tool), its arguments the
    /// answer's alternative `{"answer": …}`. `None` for a union without an answer.
    pub(crate) fn answer_definition(
        &self,
        dialect: Dialect,
    ) -> Result<Option<ToolDefinition>, Error> {
        let Some(answer) = &self.answer else {
            return Ok(None);
        };
        define(
            &answer.tool,
            &answer.tool,
            Some(ANSWER_TOOL),
            &answer.arguments,
            dialect,
        )
        .map(Some)
    }
}

/// What the answer's tool is for, as its description says it to the model. Measured in
/// `examples/eval` (docs/measurements.md): listed first with these words, a small model
/// answers where none of the other tools fits more often than told to in the system
/// prompt, and calls the others as often where one fits.
const ANSWER_TOOL: &str =
    "Answer the request yourself, when none of the other tools does what it asks.";

/// One tool in `dialect`, or the violations of what the dialect cannot express, each
/// naming the tool.
fn define(
    name: &str,
    server_name: &str,
    description: Option<&str>,
    arguments: &Value,
    dialect: Dialect,
) -> Result<ToolDefinition, Error> {
    match dialect.apply(arguments.clone()) {
        Ok(shaped) => Ok(ToolDefinition {
            name: name.to_owned(),
            original_name: server_name.to_owned(),
            description: description.map(str::to_owned),
            parameters: shaped.schema.clone(),
            changes: shaped.changes.clone(),
            shaped,
        }),
        Err(e) => Err(Error::new(
            e.into_violations()
                .into_iter()
                .map(|v| {
                    Violation::new(
                        v.pointer(),
                        ViolationKind::Invalid {
                            message: format!("tool {}: {}", quote(server_name), v.kind()),
                        },
                    )
                })
                .collect(),
        )),
    }
}
