use toolschema::ToolSchema;

#[derive(ToolSchema)]
#[serde(tag = "type")]
struct Person {
    name: String,
}

fn main() {}
