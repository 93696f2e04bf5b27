use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Person {
    #[schema]
    name: String,
    #[schema(example)]
    nickname: String,
    #[schema(range = 150)]
    age: u8,
}

fn main() {}
