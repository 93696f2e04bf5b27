use toolschema::ToolSchema;

#[derive(ToolSchema)]
#[schema(dialect = "openai_strict")]
struct Point(f64, f64);

#[derive(ToolSchema)]
#[schema(dialect = "openai_strict")]
#[serde(rename_all = "snake_case")]
enum Move {
    To { x: f64, y: f64 },
    By(f64, f64),
    Home,
}

fn main() {}
