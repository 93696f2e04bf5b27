use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Person {
    #[schema(length(max = 3))]
    age: u8,
}

fn main() {}
