use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Address {
    city: String,
}

#[derive(ToolSchema)]
struct Person(String, #[serde(flatten)] Address);

fn main() {}
