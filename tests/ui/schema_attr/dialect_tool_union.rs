use std::collections::HashMap;

use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct SetScene {
    room: String,
}

#[derive(ToolSchema)]
#[schema(dialect = "openai_strict")]
enum Step {
    #[tool]
    SetScene(SetScene),
    /// Tag devices for later lookups.
    #[tool]
    TagDevices {
        device_ids: Vec<String>,
        tags: HashMap<String, String>,
    },
    #[answer]
    Answer(serde_json::Value),
}

fn main() {}
