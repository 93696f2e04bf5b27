use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Person {
    #[schema(rnage(min = 0, max = 150))]
    age: u8,
}

#[derive(ToolSchema)]
#[schema(title = "A colour")]
enum Colour {
    #[schema(hint = "a variant takes only a description")]
    Red,
}

fn main() {}
