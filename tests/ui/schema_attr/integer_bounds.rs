use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Person {
    #[schema(range(min = 0.5, max = 150))]
    age: u8,
}

fn main() {}
