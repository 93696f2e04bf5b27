//! What `--check` asserts about the run-time tools before any row runs: that the set
//! builds, that the derived union is the same union (names as the model sees them, tool
//! descriptions, each tool's arguments schema equal to the JSON one, and the tool
//! definitions of tools mode equal in every dialect), that every tool has a task, and
//! that both unions read every expected call back as itself, under the server's name.
//!
//! Schemas are compared with every `$ref` inlined: the derived union names its enums
//! (`Domain`, shared by `HassTurnOn` and `HassTurnOff`), the JSON tools repeat them, so
//! the prompts differ in that alone (`type Domain = …` once against the values twice).

use serde_json::{Map, Value, json};
use toolschema::{Dialect, ToolSchema, Toolset};

use crate::runtime_tools::{self, RuntimeStep, TOOLS};
use crate::tasks::Task;

/// The problems of the run-time tools and their tasks; none when all is well.
pub fn problems(tasks: &[Task]) -> Vec<String> {
    let tools = match runtime_tools::build() {
        Ok(tools) => tools,
        Err(e) => return vec![format!("the run-time tools do not load: {e}")],
    };
    let json_tools = runtime_tools::json_tools();
    let mut problems = Vec::new();
    let mut model_names = Vec::new();
    for (name, description, schema) in &json_tools {
        let Some(shown) = tools.model_name(name) else {
            problems.push(format!("the run-time union has no tool `{name}`"));
            continue;
        };
        model_names.push(shown.to_owned());
        problems.extend(
            differences(shown, description, schema, &RuntimeStep::json_schema())
                .into_iter()
                .map(|d| format!("tool `{name}`: {d}")),
        );
        let used = tasks
            .iter()
            .any(|t| t.expected.get("name").and_then(Value::as_str) == Some(name));
        if !used {
            problems.push(format!("no task expects a call of `{name}`"));
        }
    }
    let derived: Vec<String> = alternatives(&RuntimeStep::json_schema())
        .filter_map(|alt| {
            alt.pointer("/properties/name/const")?
                .as_str()
                .map(str::to_owned)
        })
        .collect();
    if derived != model_names {
        problems.push(format!(
            "the derived union's tools are {derived:?}; the run-time union shows {model_names:?}"
        ));
    }
    problems.extend(definition_differences(&tools));
    problems
}

/// How the tool definitions sent in tools mode differ between the two unions, per dialect.
fn definition_differences(runtime: &Toolset) -> Vec<String> {
    let derived = match Toolset::new().with_derived::<RuntimeStep>() {
        Ok(derived) => derived.with_answer(),
        Err(e) => return vec![format!("the derived union is not a union of tools: {e}")],
    };
    let dialects = [
        Dialect::Strict,
        Dialect::OpenAiStrict,
        Dialect::Anthropic,
        Dialect::Gemini,
    ];
    let mut found = Vec::new();
    for dialect in dialects {
        let (ours, theirs) = match (runtime.definitions(dialect), derived.definitions(dialect)) {
            (Ok(ours), Ok(theirs)) => (ours, theirs),
            (Err(e), _) | (_, Err(e)) => {
                found.push(format!("{dialect:?}: a definition cannot be written: {e}"));
                continue;
            }
        };
        for (ours, theirs) in ours.iter().zip(&theirs) {
            let (a, b) = (
                inline(&ours.parameters, &ours.parameters),
                inline(&theirs.parameters, &theirs.parameters),
            );
            if ours.name != theirs.name || ours.description != theirs.description || a != b {
                found.push(format!(
                    "{dialect:?}: the run-time tool {} is sent as {a}, the derived {} as {b}",
                    ours.name, theirs.name
                ));
            }
        }
        if ours.len() != theirs.len() {
            found.push(format!(
                "{dialect:?}: {} run-time tool definitions, {} derived",
                ours.len(),
                theirs.len()
            ));
        }
    }
    found
}

/// How the derived union's tool `shown` differs from the JSON tool: its description, or
/// its arguments' schema (both with every `$ref` inlined).
pub fn differences(shown: &str, description: &Value, schema: &Value, union: &Value) -> Vec<String> {
    let Some(alt) = alternatives(union).find(|alt| {
        alt.pointer("/properties/name/const")
            .and_then(Value::as_str)
            == Some(shown)
    }) else {
        return vec![format!("the derived union has no tool `{shown}`")];
    };
    let mut found = Vec::new();
    let derived_description = alt.get("description").cloned().unwrap_or(Value::Null);
    if &derived_description != description {
        found.push(format!(
            "the derived description is {derived_description}, the JSON one {description}"
        ));
    }
    let derived = alt
        .pointer("/properties/arguments")
        .map(|arguments| inline(arguments, union))
        .unwrap_or(Value::Null);
    let given = inline(schema, schema);
    if derived != given {
        found.push(format!(
            "the derived arguments' schema is {derived}; the JSON one is {given}"
        ));
    }
    found
}

fn alternatives(union: &Value) -> impl Iterator<Item = &Value> {
    union["oneOf"].as_array().into_iter().flatten()
}

/// `schema` with each `{"$ref": "#/$defs/X", …}` replaced by the definition `X` of `root`
/// (the `$ref`'s siblings kept over it), an `anyOf` of one branch merged into its parent
/// (how dialects give a `$ref` siblings), and without `$defs` and `$schema`: the shape a
/// server that inlines its types would send.
pub fn inline(schema: &Value, root: &Value) -> Value {
    inline_at(schema, root, 0)
}

fn inline_at(schema: &Value, root: &Value, depth: usize) -> Value {
    // The tools are not recursive; a cycle stays a `$ref` rather than looping.
    if depth > 32 {
        return schema.clone();
    }
    match schema {
        Value::Object(map) => {
            let mut out = Map::new();
            if let Some(target) = map.get("$ref").and_then(Value::as_str)
                && let Some(definition) = target
                    .strip_prefix('#')
                    .and_then(|pointer| root.pointer(pointer))
                && let Value::Object(definition) = inline_at(definition, root, depth + 1)
            {
                out = definition;
            }
            for (key, value) in map {
                if key == "$defs" || key == "$schema" || (key == "$ref" && !out.is_empty()) {
                    continue;
                }
                match (key.as_str(), inline_at(value, root, depth + 1)) {
                    ("anyOf", Value::Array(mut branches)) if branches.len() == 1 => {
                        if let Value::Object(branch) = branches.remove(0) {
                            out.extend(branch);
                        }
                    }
                    (_, value) => {
                        out.insert(key.clone(), value);
                    }
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|item| inline_at(item, root, depth + 1))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// An expected reply read by both unions and written back with the servers' names: the
/// run-time union's value, or why it or the derived union reads it differently.
pub fn roundtrip(expected: &Value) -> Result<Value, String> {
    let shown = shown_names(expected);
    let text = shown.to_string();
    let runtime = TOOLS
        .parse(&text)
        .map(|choice| runtime_tools::choice_json(&choice))
        .map_err(|e| format!("the run-time union rejects {text}: {e}"))?;
    let derived = toolschema::from_str::<RuntimeStep>(&text)
        .map_err(|e| format!("the derived union rejects {text}: {e}"))
        .and_then(|step| serde_json::to_value(&step).map_err(|e| e.to_string()))?;
    if crate::score::exactly_right(&runtime, &derived, false) {
        Ok(runtime)
    } else {
        Err(format!(
            "the run-time union reads {text} as {runtime}, the derived union as {derived}"
        ))
    }
}

/// A call under the server's name, renamed as the model is shown it.
fn shown_names(expected: &Value) -> Value {
    let mut value = expected.clone();
    if let Some(name) = expected.get("name").and_then(Value::as_str)
        && let Some(shown) = TOOLS.model_name(name)
    {
        value["name"] = json!(shown);
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refs_are_inlined_with_their_siblings_and_defs_dropped() {
        let root = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "unit": {"description": "The unit.", "$ref": "#/$defs/Unit"},
                "units": {"type": "array", "items": {"$ref": "#/$defs/Unit"}},
                "other": {"description": "Other.", "anyOf": [{"$ref": "#/$defs/Unit"}]}
            },
            "$defs": {"Unit": {"type": "string", "enum": ["c", "f"]}}
        });
        assert_eq!(
            inline(&root, &root),
            json!({
                "type": "object",
                "properties": {
                    "unit": {"description": "The unit.", "type": "string", "enum": ["c", "f"]},
                    "units": {"type": "array", "items": {"type": "string", "enum": ["c", "f"]}},
                    "other": {"description": "Other.", "type": "string", "enum": ["c", "f"]}
                }
            })
        );
    }

    #[test]
    fn the_derived_union_matches_the_json_tools() {
        assert_eq!(problems(&crate::runtime_tasks::all()), Vec::<String>::new());
    }

    #[test]
    fn a_schema_that_drifts_is_reported() {
        let (name, description, mut schema) = runtime_tools::json_tools()
            .into_iter()
            .find(|(name, ..)| name == "time.convert_time")
            .expect("the time server has convert_time");
        schema["properties"]["time"]["pattern"] = json!("^[0-9:]+$");
        let shown = TOOLS.model_name(&name).expect("a model name");
        let found = differences(shown, &description, &schema, &RuntimeStep::json_schema());
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].contains("^[0-9:]+$"), "{}", found[0]);
        let found = differences(
            shown,
            &json!("Other."),
            &schema,
            &RuntimeStep::json_schema(),
        );
        assert!(
            found[0].starts_with("the derived description is"),
            "{found:?}"
        );
    }

    #[test]
    fn both_unions_read_calls_under_the_servers_names() {
        let call = json!({"name": "notes/add note", "arguments": {"title": "A", "body": "b"}});
        assert_eq!(roundtrip(&call), Ok(call));
        let wrong = json!({"name": "time.get_current_time", "arguments": {}});
        let err = roundtrip(&wrong).unwrap_err();
        assert!(err.contains("/arguments/timezone"), "{err}");
    }

    #[test]
    fn several_calls_are_a_list_and_never_exactly_one_expected_call() {
        let reply = r#"[{"name": "HassTurnOff", "arguments": {"area": "kitchen"}},
                        {"name": "time_get_current_time", "arguments": {"timezone": "UTC"}}]"#;
        let got = runtime_tools::choice_json(&TOOLS.parse(reply).expect("two calls"));
        let first = json!({"name": "HassTurnOff", "arguments": {"area": "kitchen"}});
        assert_eq!(
            got,
            json!([first, {"name": "time.get_current_time", "arguments": {"timezone": "UTC"}}])
        );
        assert!(!crate::score::exactly_right(&first, &got, true));
    }
}
