use std::collections::HashMap;

use toolschema::{Dialect, ToolSchema};

/// Fields every dialect can express: a map becomes a list of pairs.
#[derive(ToolSchema)]
#[schema(dialect = "openai_strict")]
struct Device {
    name: String,
    #[schema(length(max = 20))]
    labels: Vec<Label>,
    room: Option<String>,
    kind: Kind,
    // Not in the schema: the check skips it.
    #[serde(skip)]
    #[allow(dead_code)]
    cache: HashMap<String, String>,
}

#[derive(ToolSchema)]
struct Label {
    key: String,
    value: String,
}

#[derive(ToolSchema)]
#[serde(rename_all = "snake_case")]
enum Kind {
    Light,
    Thermostat,
}

/// A tuple is fine for Anthropic.
#[derive(ToolSchema)]
#[schema(dialect = "anthropic")]
struct Area {
    name: String,
    size_m: (f64, f64),
}

/// Gemini takes maps.
#[derive(ToolSchema)]
#[schema(dialect = "gemini")]
struct Readings {
    by_sensor: HashMap<String, f64>,
}

#[derive(ToolSchema)]
#[schema(dialect = "openai_strict")]
enum Step {
    #[tool]
    Describe(Device),
    #[tool]
    TurnOff { device: String },
    #[answer]
    Answer(String),
}

/// The fields of `ui/schema_attr/dialect_*.rs`, without the attribute.
#[derive(ToolSchema)]
struct Unchecked {
    labels: HashMap<String, String>,
    rooms: Vec<HashMap<String, u8>>,
    settings: serde_json::Map<String, serde_json::Value>,
    raw: serde_json::Value,
    position: (f64, f64),
}

#[derive(ToolSchema)]
struct UncheckedArea {
    name: String,
    children: Vec<UncheckedArea>,
}

/// The error `schema_for` reports, as text.
fn runtime_error<T: ToolSchema>(dialect: Dialect) -> String {
    match toolschema::schema_for::<T>(dialect) {
        Ok(schema) => panic!("expected an error, got {schema}"),
        Err(error) => error.to_string(),
    }
}

fn main() {
    // What the compile-time check accepts, the run-time check accepts too.
    toolschema::schema_for::<Device>(Dialect::OpenAiStrict).expect("OpenAI strict");
    toolschema::schema_for::<Step>(Dialect::OpenAiStrict).expect("OpenAI strict");
    toolschema::schema_for::<Area>(Dialect::Anthropic).expect("Anthropic");
    toolschema::schema_for::<Readings>(Dialect::Gemini).expect("Gemini");

    // What it rejects, the run-time check rejects in the same words.
    let openai = runtime_error::<Unchecked>(Dialect::OpenAiStrict);
    for expected in [
        "`labels` is a map with free keys, which OpenAI strict mode cannot express",
        "`rooms[]` is a map with free keys, which OpenAI strict mode cannot express",
        "`settings` is an object with any keys, which OpenAI strict mode cannot express",
        "`raw` accepts any JSON value, which OpenAI strict mode cannot express",
        "`position` is a tuple, which OpenAI strict mode cannot express",
    ] {
        assert!(openai.contains(expected), "{expected:?} not in {openai}");
    }
    let anthropic = runtime_error::<UncheckedArea>(Dialect::Anthropic);
    assert!(
        anthropic.contains("recursive types cannot be expressed in Anthropic strict tool use"),
        "{anthropic}"
    );
}
