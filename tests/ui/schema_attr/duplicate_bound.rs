use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Person {
    #[schema(range(min = 0, min = 1))]
    age: u8,
}

fn main() {}
