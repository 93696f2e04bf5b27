use toolschema::ToolSchema;

#[derive(ToolSchema)]
#[serde(rename_all = "lowercase")]
enum Colour {
    Red,
    #[serde(rename = "red")]
    Crimson,
}

fn main() {}
