use toolschema::ToolSchema;

#[derive(ToolSchema)]
#[serde(rename_all = "camelcase")]
struct Person {
    first_name: String,
}

fn main() {}
