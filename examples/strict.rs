//! The derive and the strict deserializer: a schema from a Rust type, and every
//! violation in a model's JSON reported at once, in words a model can act on.
//!
//! Run it with `cargo run --example strict`.

use toolschema::ToolSchema;

/// One line of an order.
#[derive(ToolSchema, Debug)]
struct Line {
    /// Stock-keeping unit, e.g. "A-100".
    #[schema(pattern = "^[A-Z]-[0-9]+$", hint = "an SKU looks like A-100")]
    sku: String,
    #[schema(range(min = 1, max = 99))]
    quantity: u8,
}

#[derive(ToolSchema, Debug)]
#[serde(rename_all = "lowercase")]
enum Priority {
    Low,
    Normal,
    Urgent,
}

/// An order extracted from a customer's message.
#[derive(ToolSchema, Debug)]
struct Order {
    customer: String,
    priority: Priority,
    items: Vec<Line>,
    note: Option<String>,
}

fn main() {
    let schema = Order::json_schema();
    println!(
        "JSON Schema of Order:\n{}\n",
        serde_json::to_string_pretty(&schema).expect("a schema is JSON")
    );

    let good =
        r#"{"customer": "Ann", "priority": "urgent", "items": [{"sku": "A-100", "quantity": 2}]}"#;
    match toolschema::from_str::<Order>(good) {
        Ok(order) => {
            println!("accepted: {order:?}");
            let units: u32 = order
                .items
                .iter()
                .map(|line| u32::from(line.quantity))
                .sum();
            let skus: Vec<&str> = order.items.iter().map(|line| line.sku.as_str()).collect();
            println!(
                "{} ordered {units} units of {skus:?}, priority {:?}, note {:?}\n",
                order.customer, order.priority, order.note
            );
        }
        Err(err) => println!("unexpected rejection:\n{err}\n"),
    }

    let bad = r#"{
        "customer": "Ann",
        "priority": "Urgent",
        "items": [{"sku": "A-100", "quantity": 2}, {"sku": "b7", "quantity": 0}, {"sku": "C-3", "qty": "3"}],
        "notes": "leave at the door"
    }"#;
    match toolschema::from_str::<Order>(bad) {
        Ok(order) => println!("unexpectedly accepted: {order:?}"),
        Err(err) => {
            println!(
                "rejected with {} violations, as a model would read them:\n{err}",
                err.violations().len()
            );
        }
    }
}
