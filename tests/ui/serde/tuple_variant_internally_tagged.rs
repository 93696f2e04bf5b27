use toolschema::ToolSchema;

#[derive(ToolSchema)]
#[serde(tag = "type")]
enum Shape {
    Circle { radius: f64 },
    Rectangle(f64, f64),
}

fn main() {}
