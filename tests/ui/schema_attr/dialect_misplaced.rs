use toolschema::ToolSchema;

#[derive(ToolSchema)]
#[schema(dialect = "openai_strict", dialect = "anthropic")]
struct Search {
    #[schema(dialect = "openai_strict")]
    query: String,
}

#[derive(ToolSchema)]
enum Unit {
    #[schema(dialect = "gemini")]
    Celsius,
    Fahrenheit,
}

fn main() {}
