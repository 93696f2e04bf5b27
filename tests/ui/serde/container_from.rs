use toolschema::ToolSchema;

#[derive(ToolSchema)]
#[serde(from = "String")]
struct Name {
    first: String,
    last: String,
}

fn main() {}
