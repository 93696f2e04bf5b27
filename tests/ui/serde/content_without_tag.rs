use toolschema::ToolSchema;

#[derive(ToolSchema)]
#[serde(content = "data")]
enum Shape {
    Circle { radius: f64 },
    Square { side: f64 },
}

fn main() {}
