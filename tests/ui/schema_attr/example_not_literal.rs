use toolschema::ToolSchema;

const AGE: u8 = 42;

#[derive(ToolSchema)]
struct Person {
    #[schema(example = AGE)]
    age: u8,
}

fn main() {}
