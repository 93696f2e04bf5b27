use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Event {
    #[serde(with = "time::serde::rfc3339")]
    at: String,
}

fn main() {}
