use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Person {
    #[schema(range(minimum = 0))]
    age: u8,
    #[schema(length())]
    name: String,
}

fn main() {}
