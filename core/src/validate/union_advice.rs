//! What a reply to a union of tools is told when it is no call and no answer: the shapes
//! it may take, and the call to write, with the tool it seems to mean.

use serde_json::Value;

use crate::schema::union::ToolUnion;
use crate::schema::{Schema, Types};
use crate::suggest;

impl ToolUnion<'_> {
    /// What to write when a reply to the union is no call and no answer (no `name` or
    /// `answer` key, nor a near miss of one): the call's shape, with the tool the reply
    /// seems to mean, and the answer's.
    pub(crate) fn advice(&self, schema: &Schema, value: &Value) -> Option<String> {
        let envelope_key = |k: &str| {
            matches!(k, "name" | "answer") || suggest::closest(k, ["name", "answer"]).is_some()
        };
        if let Value::Object(map) = value
            && map.keys().any(|k| envelope_key(k))
        {
            return None;
        }
        let mentioned = match value {
            Value::String(s) => vec![s.as_str()],
            Value::Object(map) => map.values().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let names = || self.tools.iter().map(|t| t.name);
        let tool = mentioned
            .iter()
            .find_map(|s| {
                names()
                    .find(|n| n == s)
                    .or_else(|| suggest::closest(s, names()))
            })
            .unwrap_or(self.tools[0].name);
        let call = format!(
            "write a tool call as {{\"name\": {}, \"arguments\": {{...}}}}",
            quoted(tool)
        );
        Some(match &self.answer {
            Some(answer) => {
                let text = schema
                    .resolve(answer.value)
                    .types
                    .is_some_and(|t| t == Types::STRING);
                let example = if text { "\"...\"" } else { "..." };
                format!("{call} or the answer as {{\"answer\": {example}}}")
            }
            None => call,
        })
    }

    /// The shapes a reply may take, for the violation the advice goes with.
    pub(crate) fn shapes(&self) -> Vec<String> {
        let mut shapes = vec!["a tool call".to_owned()];
        if self.answer.is_some() {
            shapes.push("the answer".to_owned());
        }
        shapes
    }
}

fn quoted(key: &str) -> String {
    Value::String(key.to_owned()).to_string()
}
