//! What `--set choice --check` asserts before any model is asked: sixteen cases of each
//! kind (six in the plain set; twelve irrelevant ones in the near misses), tools arrays that load as a `Toolset` and are open objects as servers send them,
//! expected calls that name a tool of their case and list every argument it has (the
//! required ones never optional), accepted values that fit the tool's parameters (the
//! `jsonschema` crate is the oracle) and score right, and derived unions with the JSON
//! tools' descriptions and arguments' schemas that read the expected calls back as
//! themselves.

use serde_json::{Map, Value, json};
use toolschema::Toolset;

use super::derived::DerivedGroup;
use super::score::{judge, parameters_of};
use super::{Case, Cases, Expected, Kind};
use crate::runtime_check::differences;

/// The problems of the cases; none when all is well.
pub fn problems(set: Cases, cases: &[Case]) -> Vec<String> {
    let mut problems = Vec::new();
    for kind in Kind::ALL {
        let count = cases.iter().filter(|c| c.kind == kind).count();
        let wanted = set.wanted(kind);
        if count < wanted {
            problems.push(format!(
                "{count} {} cases; at least {wanted} wanted",
                kind.name()
            ));
        }
    }
    for (index, case) in cases.iter().enumerate() {
        let at = format!("case {index} ({}, {:?})", case.kind.name(), case.request);
        problems.extend(
            case_problems(case)
                .into_iter()
                .map(|p| format!("{at}: {p}")),
        );
        if cases[..index].iter().any(|c| c.request == case.request) {
            problems.push(format!("{at}: the request is there twice"));
        }
        if set == Cases::NearMiss && !uses_a_tool_word(case) {
            problems.push(format!("{at}: no word of a tool's name is used"));
        }
    }
    for group in set.groups() {
        problems.extend(
            group_problems(&group, cases)
                .into_iter()
                .map(|p| format!("derived group {}: {p}", group.name)),
        );
    }
    problems
}

/// Whether the request uses a word of one of its tools' names (`.` and `_` separate
/// words; a final `s` is not counted), as a near miss must.
fn uses_a_tool_word(case: &Case) -> bool {
    let stem = |word: &str| word.to_lowercase().trim_end_matches('s').to_owned();
    let asked: Vec<String> = case
        .request
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 2)
        .map(stem)
        .collect();
    let tools = case.tools.as_array().into_iter().flatten();
    tools
        .filter_map(|tool| tool["function"]["name"].as_str())
        .flat_map(|name| name.split(['.', '_']))
        .filter(|word| word.len() > 2)
        .any(|word| asked.contains(&stem(word)))
}

fn case_problems(case: &Case) -> Vec<String> {
    let mut found = Vec::new();
    if let Err(e) = Toolset::from_openai_tools(&case.tools) {
        found.push(format!("the tools do not load as a Toolset: {e}"));
    }
    let tools = case.tools.as_array().map(Vec::as_slice).unwrap_or(&[]);
    let allowed = match case.kind {
        Kind::Simple => 1..=1,
        Kind::Multiple => 2..=5,
        Kind::Irrelevant => 1..=5,
        Kind::Chatty => 1..=3,
    };
    if !allowed.contains(&tools.len()) {
        found.push(format!("{} tools; {allowed:?} wanted", tools.len()));
    }
    for tool in tools {
        if contains_key(&tool["function"]["parameters"], "additionalProperties") {
            found.push(format!(
                "{} closes an object; servers send open ones",
                tool["function"]["name"]
            ));
        }
    }
    match (&case.expected, case.kind) {
        (Expected::Answer, Kind::Irrelevant) => {}
        (Expected::Call { name, arguments }, kind) if kind != Kind::Irrelevant => {
            found.extend(call_problems(case, name, arguments));
        }
        (expected, kind) => found.push(format!("a {} case expects {expected:?}", kind.name())),
    }
    found
}

fn call_problems(case: &Case, name: &str, accepted: &Value) -> Vec<String> {
    let Some(parameters) = parameters_of(&case.tools, name) else {
        return vec![format!("the case has no tool `{name}`")];
    };
    let mut found = Vec::new();
    let properties = parameters["properties"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let Some(accepted) = accepted.as_object() else {
        return vec![format!(
            "the accepted arguments are not an object: {accepted}"
        )];
    };
    for key in accepted.keys().filter(|k| !properties.contains_key(*k)) {
        found.push(format!("`{name}` has no argument `{key}`"));
    }
    for key in properties.keys().filter(|k| !accepted.contains_key(*k)) {
        found.push(format!("the argument `{key}` has no accepted values"));
    }
    let required = parameters["required"].as_array().into_iter().flatten();
    for key in required.filter_map(Value::as_str) {
        let optional = accepted[key]
            .as_array()
            .is_some_and(|o| o.contains(&json!("")));
        if optional {
            found.push(format!("the required argument `{key}` is accepted absent"));
        }
    }
    let validator = match jsonschema::validator_for(parameters) {
        Ok(validator) => validator,
        Err(e) => return vec![format!("the jsonschema crate rejects `{name}`: {e}")],
    };
    // The first accepted value of each argument, `""` meaning left out.
    let mut first = Map::new();
    for (key, options) in accepted {
        match options.as_array().and_then(|o| o.first()) {
            None => found.push(format!("`{key}` accepts nothing: {options}")),
            Some(Value::String(s)) if s.is_empty() => {}
            Some(value) => {
                first.insert(key.clone(), canonical(value));
            }
        }
    }
    let first = Value::Object(first);
    let misfits: Vec<String> = validator
        .iter_errors(&first)
        .map(|error| format!("the expected arguments {first} do not fit: {error}"))
        .collect();
    if !misfits.is_empty() {
        found.extend(misfits);
        return found;
    }
    // Every other accepted value fits too, in place of the first.
    for (key, options) in accepted {
        for option in options.as_array().into_iter().flatten().skip(1) {
            if option.as_str() == Some("") {
                continue;
            }
            let mut other = first.clone();
            other[key] = canonical(option);
            if !validator.is_valid(&other) {
                found.push(format!(
                    "the accepted value {option} of `{key}` does not fit"
                ));
            }
        }
    }
    let call = json!({"name": name, "arguments": first});
    if let Err(e) = judge(case, Some(&call)) {
        found.push(format!("the expected call scores wrong: {e}"));
    }
    found
}

/// An accepted value as a reply would write it: the keys of nested objects accepted
/// absent (`""`) left out.
fn canonical(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, v)| v.as_str() != Some(""))
                .map(|(k, v)| (k.clone(), canonical(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

/// Whether `key` is a key of any object in `value`.
fn contains_key(value: &Value, key: &str) -> bool {
    match value {
        Value::Object(map) => map.contains_key(key) || map.values().any(|v| contains_key(v, key)),
        Value::Array(items) => items.iter().any(|v| contains_key(v, key)),
        _ => false,
    }
}

fn group_problems(group: &DerivedGroup, cases: &[Case]) -> Vec<String> {
    let tools = (group.tools)();
    let set = match Toolset::from_openai_tools(&tools) {
        Ok(set) => set,
        Err(e) => return vec![format!("the tools do not load: {e}")],
    };
    let union = (group.union)();
    let mut found = Vec::new();
    let mut shown = Vec::new();
    for tool in tools.as_array().into_iter().flatten() {
        let function = &tool["function"];
        let name = function["name"].as_str().unwrap_or_default();
        let Some(model_name) = set.model_name(name) else {
            found.push(format!("the Toolset has no tool `{name}`"));
            continue;
        };
        shown.push(model_name.to_owned());
        let schema = closed(&function["parameters"]);
        found.extend(
            differences(model_name, &function["description"], &schema, &union)
                .into_iter()
                .map(|d| format!("tool `{name}`: {d}")),
        );
    }
    let derived: Vec<&str> = union["oneOf"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|alt| alt.pointer("/properties/name/const")?.as_str())
        .collect();
    if derived != shown {
        found.push(format!(
            "the derived tools are {derived:?}; the Toolset shows {shown:?}"
        ));
    }
    let mine: Vec<&Case> = cases.iter().filter(|c| c.tools == tools).collect();
    if mine.is_empty() {
        found.push("no case uses the group".into());
    }
    for case in mine {
        found.extend(read_back(group, &set, case));
    }
    found
}

/// Whether the derived union reads the case's expected reply (first accepted values, the
/// model's name for the tool) as a reply that scores right.
fn read_back(group: &DerivedGroup, set: &Toolset, case: &Case) -> Option<String> {
    let reply = match &case.expected {
        Expected::Answer => json!({"answer": "A direct answer."}),
        Expected::Call { name, arguments } => {
            let first: Map<String, Value> = arguments
                .as_object()
                .into_iter()
                .flatten()
                .filter_map(|(key, options)| {
                    let value = options.as_array()?.first()?;
                    (value.as_str() != Some("")).then(|| (key.clone(), canonical(value)))
                })
                .collect();
            json!({"name": set.model_name(name).unwrap_or(name), "arguments": first})
        }
    };
    let problem = match (group.read)(&reply.to_string()) {
        Ok(value) => judge(case, Some(&value)).err(),
        Err(e) => Some(format!("rejects {reply}: {e}")),
    };
    problem.map(|p| format!("{:?}: the derived union {p}", case.request))
}

/// `schema` with every object that lists properties closed, as derived objects are.
fn closed(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => {
            let mut out: Map<String, Value> =
                map.iter().map(|(k, v)| (k.clone(), closed(v))).collect();
            if map.contains_key("properties") {
                out.insert("additionalProperties".into(), json!(false));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(closed).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{all, call, function};
    use super::*;

    #[test]
    fn the_cases_are_sound() {
        for set in [Cases::Main, Cases::Plain, Cases::NearMiss] {
            assert_eq!(problems(set, &all(set)), Vec::<String>::new(), "{set:?}");
        }
    }

    #[test]
    fn a_near_miss_must_use_a_word_of_a_tool_name() {
        let tools = json!([function(
            "music.set_volume",
            "Sets the volume.",
            json!({"type": "object", "properties": {"level": {"type": "integer"}}})
        )]);
        let case = |request| Case {
            kind: Kind::Irrelevant,
            tools: tools.clone(),
            request,
            expected: Expected::Answer,
        };
        assert!(uses_a_tool_word(&case(
            "What volumes do encyclopedias run to?"
        )));
        assert!(!uses_a_tool_word(&case("Who wrote Moby-Dick?")));
        let problems = problems(Cases::NearMiss, &[case("Who wrote Moby-Dick?")]);
        assert!(
            problems
                .iter()
                .any(|p| p.contains("no word of a tool's name")),
            "{problems:?}"
        );
    }

    #[test]
    fn a_wrong_case_is_reported() {
        let tools = json!([function(
            "math.triangle_area",
            "Area.",
            json!({"type": "object", "properties": {
                "base": {"type": "number"},
                "unit": {"type": "string", "enum": ["cm", "m"]}
            }, "required": ["base"]})
        )]);
        let case = |arguments: Value| Case {
            kind: Kind::Simple,
            tools: tools.clone(),
            request: "Area?",
            expected: call("math.triangle_area", arguments),
        };
        let found = case_problems(&case(json!({"base": ["3"], "unit": [""], "height": [1]})));
        let joined = found.join("\n");
        assert!(joined.contains("has no argument `height`"), "{joined}");
        assert!(joined.contains("do not fit"), "{joined}");
        let found = case_problems(&case(json!({"base": [3], "unit": ["", "inch"]})));
        let joined = found.join("\n");
        assert!(
            joined.contains("the accepted value \"inch\" of `unit`"),
            "{joined}"
        );
        let found = case_problems(&case(json!({"base": ["", 3]})));
        let joined = found.join("\n");
        assert!(joined.contains("`base` is accepted absent"), "{joined}");
        assert!(joined.contains("`unit` has no accepted values"), "{joined}");
        assert_eq!(
            case_problems(&case(json!({"base": [3], "unit": ["", "cm"]}))),
            Vec::<String>::new()
        );
    }

    #[test]
    fn objects_are_closed_for_comparing_with_derived_ones() {
        let schema =
            json!({"type": "object", "properties": {"c": {"type": "object", "properties": {}}}});
        assert_eq!(
            closed(&schema),
            json!({"type": "object", "additionalProperties": false, "properties": {
                "c": {"type": "object", "properties": {}, "additionalProperties": false}
            }})
        );
    }
}
