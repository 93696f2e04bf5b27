use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Event {
    #[schema(format = "datetime")]
    at: String,
}

fn main() {}
