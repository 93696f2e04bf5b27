use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Person {
    #[schema(pattern = "^[0-9]+$")]
    age: u8,
}

fn main() {}
