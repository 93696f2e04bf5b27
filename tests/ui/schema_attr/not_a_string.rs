use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Person {
    #[schema(hint = 42)]
    age: u8,
}

fn main() {}
