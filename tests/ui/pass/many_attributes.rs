use toolschema::ToolSchema;

/// One line of an order.
#[derive(ToolSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Line {
    /// Stock-keeping unit, e.g. "A-100".
    #[schema(pattern = "^[A-Z]-[0-9]+$", hint = "an SKU looks like A-100")]
    sku: String,
    #[schema(range(min = 1, max = 99), example = 2)]
    quantity: u8,
    #[schema(range(min = -10.5, max = 10.5))]
    unit_discount: f64,
    #[serde(default, alias = "notes")]
    #[schema(length(min = 1, max = 80), description = "free text for the packer")]
    note: Option<String>,
    #[serde(skip)]
    internal: u32,
}

#[derive(ToolSchema)]
struct Address {
    city: String,
    #[schema(format = "email")]
    email: String,
}

#[derive(ToolSchema)]
#[serde(transparent)]
struct Sku(#[schema(length(max = 16))] String);

#[derive(ToolSchema)]
struct Order {
    #[serde(rename = "orderId")]
    #[schema(bridge)]
    id: uuid::Uuid,
    #[schema(length(min = 1))]
    items: Vec<Line>,
    #[serde(flatten)]
    address: Address,
    #[schema(format = "date", example = "2024-01-31")]
    due: String,
    sku: Sku,
}

#[derive(ToolSchema)]
#[serde(tag = "kind", content = "data", rename_all = "snake_case")]
enum Payment {
    Card { last_four: String },
    Transfer(String),
    Cash,
}

#[derive(ToolSchema)]
#[serde(tag = "kind", rename_all_fields = "camelCase")]
enum Shape {
    Circle {
        radius_cm: f64,
    },
    #[serde(rename = "box")]
    Square {
        side_cm: f64,
    },
    #[serde(skip)]
    #[allow(dead_code)]
    Line(f64, f64),
}

#[derive(ToolSchema)]
#[serde(untagged)]
enum Quantity {
    Exact(u32),
    Range { min: u32, max: u32 },
}

#[derive(ToolSchema)]
#[serde(rename_all = "SCREAMING-KEBAB-CASE")]
enum Priority {
    Low,
    #[serde(alias = "normal")]
    Normal,
    Urgent,
}

#[derive(ToolSchema)]
struct LookUp {
    #[schema(length(min = 1))]
    sku: String,
}

/// What the model does next.
#[derive(ToolSchema)]
enum Step {
    /// Place an order.
    #[tool]
    PlaceOrder(Order),
    #[tool(name = "look_up_stock", description = "Stock for one SKU.")]
    LookUp(LookUp),
    #[tool]
    Cancel {
        #[schema(range(min = 1))]
        order: u64,
    },
    #[tool]
    ListOrders,
    #[answer]
    Answer(String),
}

/// Defaults named through `Self`, and `Self` in a field's type.
#[derive(ToolSchema)]
struct Limits {
    #[serde(default = "Self::default_max")]
    max: u32,
    #[serde(default)]
    nested: Vec<Self>,
    #[serde(skip, default = "Self::default_max")]
    cached: u32,
}

impl Limits {
    fn default_max() -> u32 {
        10
    }
}

fn main() {
    let names = [
        Line::schema_name(),
        Order::schema_name(),
        Payment::schema_name(),
        Shape::schema_name(),
        Quantity::schema_name(),
        Priority::schema_name(),
        Step::schema_name(),
    ];
    assert_eq!(
        names,
        [
            "Line", "Order", "Payment", "Shape", "Quantity", "Priority", "Step"
        ]
    );
    let step: Step =
        toolschema::from_str(r#"{"name": "look_up_stock", "arguments": {"sku": "A-100"}}"#)
            .expect("a valid tool call");
    assert!(matches!(step, Step::LookUp(LookUp { sku }) if sku == "A-100"));
    let schema = Step::json_schema().to_string();
    assert!(schema.contains("look_up_stock"), "{schema}");
    let limits: Limits = toolschema::from_str(r#"{"nested": [{"max": 3}]}"#).expect("valid");
    assert_eq!((limits.max, limits.nested[0].max, limits.cached), (10, 3, 10));
}
