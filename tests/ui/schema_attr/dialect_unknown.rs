use toolschema::ToolSchema;

#[derive(ToolSchema)]
#[schema(dialect = "openai")]
struct Search {
    query: String,
}

#[derive(ToolSchema)]
#[schema(dialect = openai_strict)]
struct Lookup {
    id: u64,
}

fn main() {}
