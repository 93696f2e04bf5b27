use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Person {
    name: String,
    #[serde(skip)]
    #[schema(range(max = 150))]
    age: u8,
}

fn main() {}
