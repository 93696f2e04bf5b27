use toolschema::ToolSchema;

#[derive(ToolSchema)]
#[serde(tag = "type")]
enum Shape {
    Circle {
        #[serde(rename = "type")]
        kind: Option<String>,
        radius: f64,
    },
    Square {
        #[serde(alias = "type")]
        side: f64,
    },
}

fn main() {}
