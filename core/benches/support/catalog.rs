//! The benchmark document: a shop's catalogue of products, as a model might extract it,
//! with the keywords a derived schema uses (patterns, ranges, lengths, an internally
//! tagged enum, optional fields, nested objects).

use serde::{Deserialize, Serialize};
use toolschema::ToolSchema;

#[derive(ToolSchema, Deserialize, Serialize, Clone)]
#[serde(rename_all = "lowercase")]
enum Category {
    Tools,
    Garden,
    Kitchen,
    Toys,
}

#[derive(ToolSchema, Deserialize, Serialize, Clone)]
#[serde(tag = "status", rename_all = "snake_case")]
enum Stock {
    Available { quantity: u32 },
    Backorder { days: u16 },
    Discontinued,
}

#[derive(ToolSchema, Deserialize, Serialize, Clone)]
struct Dimensions {
    #[schema(range(min = 0, max = 10000))]
    width_mm: f64,
    #[schema(range(min = 0, max = 10000))]
    height_mm: f64,
    #[schema(range(min = 0, max = 1000))]
    weight_kg: f32,
}

/// A product in a catalogue, as a model might extract it.
#[derive(ToolSchema, Deserialize, Serialize, Clone)]
struct Product {
    id: u32,
    #[schema(pattern = "^[A-Z]{3}-[0-9]{4}$")]
    sku: String,
    #[schema(length(min = 1, max = 120))]
    name: String,
    description: Option<String>,
    #[schema(range(min = 0, max = 100000))]
    price: f64,
    currency: String,
    tags: Vec<String>,
    category: Category,
    stock: Stock,
    dimensions: Option<Dimensions>,
    rating: Option<u8>,
}

#[derive(ToolSchema, Deserialize, Serialize, Clone)]
pub struct Catalog {
    store: String,
    products: Vec<Product>,
}

fn product(i: u32) -> Product {
    let categories = [
        Category::Tools,
        Category::Garden,
        Category::Kitchen,
        Category::Toys,
    ];
    Product {
        id: i,
        sku: format!("ABC-{:04}", i % 10000),
        name: format!("Product number {i}"),
        description: (!i.is_multiple_of(3))
            .then(|| format!("A sturdy item, model {i}, made to last.")),
        price: f64::from(i % 500) + 0.99,
        currency: "EUR".into(),
        tags: vec!["new".into(), format!("batch-{}", i % 7)],
        category: categories[(i % 4) as usize].clone(),
        stock: match i % 3 {
            0 => Stock::Available { quantity: i * 3 },
            1 => Stock::Backorder {
                days: (i % 30) as u16,
            },
            _ => Stock::Discontinued,
        },
        dimensions: (i.is_multiple_of(2)).then_some(Dimensions {
            width_mm: 120.5,
            height_mm: 80.0,
            weight_kg: 1.25,
        }),
        rating: (!i.is_multiple_of(4)).then_some((i % 5) as u8 + 1),
    }
}

/// A catalogue whose JSON is at least `bytes` long.
pub fn document(bytes: usize) -> String {
    let mut catalog = Catalog {
        store: "Example Store".into(),
        products: Vec::new(),
    };
    let mut i = 0;
    loop {
        let text = serde_json::to_string(&catalog).expect("serializable");
        if text.len() >= bytes {
            return text;
        }
        catalog.products.push(product(i));
        i += 1;
    }
}
