use std::collections::{BTreeMap, HashMap};

use serde_json::Value;
use toolschema::ToolSchema;

/// A smart-home device, as the model reports it.
#[derive(ToolSchema)]
#[schema(dialect = "openai_strict")]
struct Device {
    name: String,
    labels: HashMap<String, String>,
    #[serde(rename = "readings")]
    last_readings: Option<BTreeMap<String, f64>>,
    rooms: Vec<HashMap<String, u8>>,
    settings: serde_json::Map<String, Value>,
    raw: Value,
    position: (f64, f64),
    #[serde(skip)]
    cache: HashMap<String, String>,
}

fn main() {}
