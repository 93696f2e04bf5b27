use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Person {
    #[schema(range(min = 150, max = 0))]
    age: u8,
}

fn main() {}
