use toolschema::ToolSchema;

#[derive(ToolSchema)]
enum Colour {
    Red,
    #[serde(other)]
    Unknown,
}

fn main() {}
