use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Person {
    #[schema(range(min = "0", max = 150))]
    age: u8,
}

fn main() {}
