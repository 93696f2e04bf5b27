use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Cache {
    name: String,
    #[serde(skip)]
    #[schema(format = "date")]
    built: String,
}

fn main() {}
