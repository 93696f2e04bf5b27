use std::collections::HashMap;

use toolschema::ToolSchema;

/// A room and the rooms inside it.
#[derive(ToolSchema)]
#[schema(dialect = "anthropic")]
struct Area {
    name: String,
    // A tuple is fine for Anthropic.
    size_m: (f64, f64),
    sensors: Option<HashMap<String, f64>>,
    extra: Vec<(String, serde_json::Value)>,
    parent: Option<Box<Area>>,
    children: Vec<Self>,
}

fn main() {}
