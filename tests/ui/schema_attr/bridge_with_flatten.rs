use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Address {
    city: String,
}

#[derive(ToolSchema)]
struct Person {
    name: String,
    #[serde(flatten)]
    #[schema(bridge)]
    address: Address,
}

fn main() {}
