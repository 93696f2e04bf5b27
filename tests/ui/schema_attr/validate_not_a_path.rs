use toolschema::ToolSchema;

fn known_sku(sku: &str) -> Result<(), String> {
    let _ = sku;
    Ok(())
}

#[derive(ToolSchema)]
#[schema(validate = "check_line")]
struct Line {
    #[schema(validate = |sku: &str| known_sku(sku))]
    sku: String,
    #[schema(validate)]
    quantity: u32,
}

fn main() {}
