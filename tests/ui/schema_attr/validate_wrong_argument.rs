use toolschema::ToolSchema;

fn known_sku(sku: &String) -> Result<(), String> {
    let _ = sku;
    Ok(())
}

#[derive(ToolSchema)]
struct Line {
    #[schema(validate = known_sku)]
    quantity: u32,
}

fn main() {}
