use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Line {
    #[schema(pattern = "^([A-Z]-[0-9]+$")]
    sku: String,
}

fn main() {}
