use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Person {
    #[schema(range(minimum = 0, max = 150))]
    age: u8,
}

fn main() {}
