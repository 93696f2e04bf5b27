use toolschema::ToolSchema;

#[derive(ToolSchema)]
struct Contact {
    #[serde(alias = "mail")]
    email: String,
    #[serde(rename = "mail")]
    backup: Option<String>,
    #[serde(rename = "email")]
    other: String,
}

fn main() {}
