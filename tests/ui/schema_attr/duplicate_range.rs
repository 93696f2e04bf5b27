use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Person {
    #[schema(range(min = 0))]
    #[schema(range(max = 150))]
    age: u8,
}

fn main() {}
