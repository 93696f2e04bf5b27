//! The strict deserializer's two paths: `from_str` first streams the text through the
//! derive's visitors (the fast path) and, where that gives up, validates a `Value` (the
//! slow path). Whatever path a text takes, `from_str` must answer exactly as `from_value`
//! does on the parsed value; these cases are the edges where the two paths differ in
//! how they get there. (The agreement test covers the bulk with generated values.)

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::Value;
use toolschema::{Bound, ToolSchema, Unit, ViolationKind};

/// `from_str` on `text`, checked against `from_value` on the parsed value: the same value,
/// or the same violations. Returns it with what the fast path alone made of the text.
fn read<T: ToolSchema + PartialEq + std::fmt::Debug>(
    text: &str,
) -> (Result<T, toolschema::Error>, Option<T>) {
    let by_text = toolschema::from_str::<T>(text);
    let fast = toolschema::__private::fast_from_str::<T>(text);
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        let by_value = toolschema::from_value::<T>(value);
        match (&by_text, &by_value) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{text}"),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{text}"),
            _ => panic!("from_str {by_text:?} but from_value {by_value:?} on {text}"),
        }
    }
    if let Some(fast) = &fast {
        assert_eq!(by_text.as_ref().ok(), Some(fast), "{text}");
    }
    (by_text, fast)
}

fn kinds<T: std::fmt::Debug>(result: &Result<T, toolschema::Error>) -> Vec<(String, String)> {
    let err = result.as_ref().expect_err("rejected");
    err.violations()
        .iter()
        .map(|v| (v.pointer().to_owned(), format!("{:?}", v.kind())))
        .collect()
}

/// Each violation's pointer and kind, in order.
fn violations<T: std::fmt::Debug>(
    result: &Result<T, toolschema::Error>,
) -> Vec<(String, ViolationKind)> {
    let err = result.as_ref().expect_err("rejected");
    err.violations()
        .iter()
        .map(|v| (v.pointer().to_owned(), v.kind().clone()))
        .collect()
}

/// `(pointer, kind)` as [`violations`] gives them.
fn at(pointer: &str, kind: ViolationKind) -> (String, ViolationKind) {
    (pointer.to_owned(), kind)
}

/// JSON strings, as `NotAllowed` quotes them.
fn quoted(values: &[&str]) -> Vec<String> {
    values.iter().map(|v| format!("{v:?}")).collect()
}

/// The violation the validator's frame budget ends a chain with.
fn too_deep_here() -> ViolationKind {
    ViolationKind::Invalid {
        message: "the schema refers to itself here without end, or through more than 640 \
                  subschemas"
            .into(),
    }
}

#[derive(ToolSchema, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Category {
    Tools,
    #[serde(alias = "yard")]
    Garden,
}

#[derive(ToolSchema, Debug, PartialEq)]
#[serde(tag = "status", rename_all = "snake_case")]
enum Stock {
    Available { quantity: u32 },
    Backorder(Backorder),
    Discontinued,
}

#[derive(ToolSchema, Debug, PartialEq)]
struct Backorder {
    days: u16,
}

#[derive(ToolSchema, Debug, PartialEq)]
struct Product {
    #[schema(pattern = "^[A-Z]{3}-[0-9]{4}$")]
    sku: String,
    #[serde(alias = "title")]
    #[schema(length(min = 1, max = 20))]
    name: String,
    #[schema(range(min = 0, max = 100))]
    price: f64,
    qty: u8,
    category: Category,
    stock: Stock,
    note: Option<String>,
}

const PRODUCT: &str = r#"{"sku":"ABC-0001","name":"Saw","price":9.5,"qty":3,"category":"tools","stock":{"status":"available","quantity":7},"note":null}"#;

fn product() -> Product {
    Product {
        sku: "ABC-0001".into(),
        name: "Saw".into(),
        price: 9.5,
        qty: 3,
        category: Category::Tools,
        stock: Stock::Available { quantity: 7 },
        note: None,
    }
}

#[test]
fn valid_documents_take_the_fast_path() {
    let (result, fast) = read::<Product>(PRODUCT);
    assert_eq!(result.unwrap(), product());
    assert_eq!(fast, Some(product()), "the fast path read it alone");
    let (_, fast) = read::<Vec<Product>>(&format!("[{PRODUCT},{PRODUCT}]"));
    assert_eq!(fast.map(|p| p.len()), Some(2));
}

#[test]
fn what_the_fast_path_gives_up_on_the_slow_path_decides() {
    // An integer written as 3.0 is the integer 3 in JSON Schema; serde does not take it.
    let (result, fast) = read::<Product>(&PRODUCT.replace(r#""qty":3"#, r#""qty":3.0"#));
    assert_eq!(result.unwrap().qty, 3);
    assert_eq!(fast, None);
    // A key written twice: the last value counts, as when parsed into a Value.
    let twice = PRODUCT.replace(r#""qty":3"#, r#""qty":3,"qty":4"#);
    let (result, fast) = read::<Product>(&twice);
    assert_eq!(result.unwrap().qty, 4);
    assert_eq!(fast, None);
    // The internal tag after the other keys.
    let late = PRODUCT.replace(
        r#"{"status":"available","quantity":7}"#,
        r#"{"quantity":7,"status":"available"}"#,
    );
    let (result, fast) = read::<Product>(&late);
    assert_eq!(result.unwrap(), product());
    assert_eq!(
        fast,
        Some(product()),
        "read whole where it starts, not sent back"
    );
    // A newtype variant beside an internal tag.
    let (result, _) = read::<Stock>(r#"{"status":"backorder","days":5}"#);
    assert_eq!(result.unwrap(), Stock::Backorder(Backorder { days: 5 }));
}

#[test]
fn violations_are_the_slow_paths_whatever_the_fast_path_saw() {
    let cases = [
        (
            r#""sku":"ABC-0001""#,
            r#""sku":"abc-1""#,
            "/sku",
            "PatternMismatch",
        ),
        (r#""name":"Saw""#, r#""name":"""#, "/name", "TooShort"),
        (r#""price":9.5"#, r#""price":100.5"#, "/price", "OutOfRange"),
        (r#""qty":3"#, r#""qty":256"#, "/qty", "OutOfRange"),
        (
            r#""category":"tools""#,
            r#""category":"yard""#,
            "/category",
            "NotAllowed",
        ),
        (
            r#""quantity":7"#,
            r#""quantity":7,"days":1"#,
            "/stock/days",
            "UnknownField",
        ),
        (
            r#""note":null"#,
            r#""notes":null"#,
            "/notes",
            "UnknownField",
        ),
        (
            r#""name":"Saw""#,
            r#""name":"Saw","title":"Saw""#,
            "/title",
            "Conflict",
        ),
    ];
    for (from, to, pointer, kind) in cases {
        let text = PRODUCT.replace(from, to);
        assert_ne!(text, PRODUCT);
        let (result, fast) = read::<Product>(&text);
        assert_eq!(fast, None, "{text}");
        let found = kinds(&result);
        assert!(
            found
                .iter()
                .any(|(p, k)| p == pointer && k.starts_with(kind)),
            "{text}: expected {kind} at {pointer}, got {found:?}"
        );
    }
    // Several at once, all reported.
    let text = PRODUCT
        .replace(r#""qty":3"#, r#""qty":"3""#)
        .replace(r#""price":9.5"#, r#""price":-1"#);
    assert_eq!(
        violations(&read::<Product>(&text).0),
        [
            at(
                "/price",
                ViolationKind::OutOfRange {
                    found: "-1".into(),
                    bound: Bound::Minimum("0".into()),
                }
            ),
            at(
                "/qty",
                ViolationKind::WrongType {
                    expected: "an integer".into(),
                    found: r#"the string "3""#.into(),
                }
            ),
        ]
    );
    // An alias is a key, not an enum value.
    let (result, _) = read::<Category>(r#""yard""#);
    assert_eq!(
        violations(&result),
        [at(
            "",
            ViolationKind::NotAllowed {
                found: quoted(&["yard"])[0].clone(),
                allowed: quoted(&["tools", "garden"]),
            }
        )]
    );
}

#[test]
fn numbers_hold_to_the_schema_not_to_the_rust_type() {
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Wide {
        big: u128,
        small: f32,
    }
    // u128 reads up to u64::MAX, as its schema says; serde alone would take 2^70.
    let (result, fast) = read::<Wide>(r#"{"big":1180591620717411303424,"small":1}"#);
    let found = violations(&result);
    assert!(
        matches!(
            found.as_slice(),
            [(pointer, ViolationKind::OutOfRange { bound: Bound::Maximum(max), .. })]
                if pointer == "/big" && *max == u64::MAX.to_string()
        ),
        "{found:?}"
    );
    assert_eq!(fast, None);
    let (result, _) = read::<Wide>(r#"{"big":18446744073709551615,"small":1.5}"#);
    assert_eq!(result.unwrap().big, u128::from(u64::MAX));
    // Past f32::MAX is out of range, though `as f32` would round it into range.
    let (result, fast) = read::<Wide>(r#"{"big":1,"small":3.4028235677973366e38}"#);
    assert_eq!(
        violations(&result),
        [at(
            "/small",
            ViolationKind::OutOfRange {
                found: "3.4028235677973366e+38".into(),
                bound: Bound::Maximum("3.4028234663852886e+38".into()),
            }
        )]
    );
    assert_eq!(fast, None);
}

#[test]
fn collections_keep_their_rules() {
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Bag {
        tags: HashSet<String>,
        #[schema(length(min = 1, max = 2))]
        scores: HashMap<String, u8>,
        extra: serde_json::Map<String, Value>,
        sizes: BTreeMap<String, [u8; 2]>,
    }
    let ok = r#"{"tags":["a","b"],"scores":{"x":1},"extra":{},"sizes":{"m":[1,2]}}"#;
    let (result, fast) = read::<Bag>(ok);
    assert!(result.is_ok());
    assert!(fast.is_some());
    let schema = Bag::json_schema();
    assert_eq!(schema["properties"]["scores"]["minProperties"], 1);
    assert_eq!(schema["properties"]["scores"]["maxProperties"], 2);
    for (bad, kind) in [
        (ok.replace(r#"["a","b"]"#, r#"["a","a"]"#), "NotUnique"),
        (ok.replace(r#"{"x":1}"#, "{}"), "TooShort"),
        (
            ok.replace(r#"{"x":1}"#, r#"{"x":1,"y":2,"z":3}"#),
            "TooLong",
        ),
        (ok.replace(r#""extra":{}"#, r#""extra":null"#), "WrongType"),
        (ok.replace("[1,2]", "[1,2,3]"), "TooLong"),
        (ok.replace("[1,2]", "[1]"), "TooShort"),
    ] {
        let (result, fast) = read::<Bag>(&bad);
        assert_eq!(fast, None, "{bad}");
        let found = kinds(&result);
        assert!(
            found.iter().any(|(_, k)| k.starts_with(kind)),
            "{bad}: {found:?}"
        );
    }
}

#[test]
fn external_tagging_and_odd_shapes() {
    #[derive(ToolSchema, Debug, PartialEq)]
    enum Shape {
        Empty,
        Circle(f64),
        Rect { w: u8, h: u8 },
        Pair(u8, u8),
    }
    assert_eq!(read::<Shape>(r#""Empty""#).1, Some(Shape::Empty));
    assert_eq!(
        read::<Shape>(r#"{"Circle":1.5}"#).1,
        Some(Shape::Circle(1.5))
    );
    assert_eq!(
        read::<Shape>(r#"{"Rect":{"w":1,"h":2}}"#).1,
        Some(Shape::Rect { w: 1, h: 2 })
    );
    assert_eq!(
        read::<Shape>(r#"{"Pair":[1,2]}"#).1,
        Some(Shape::Pair(1, 2))
    );
    let cases = [
        // A unit variant is written as its name, not as a key.
        (
            r#"{"Empty":null}"#,
            at(
                "/Empty",
                ViolationKind::NotAllowed {
                    found: quoted(&["Empty"])[0].clone(),
                    allowed: quoted(&["Circle", "Rect", "Pair"]),
                },
            ),
        ),
        // And a variant with data is not written as its name.
        (
            r#""Circle""#,
            at(
                "",
                ViolationKind::NotAllowed {
                    found: quoted(&["Circle"])[0].clone(),
                    allowed: quoted(&["Empty"]),
                },
            ),
        ),
        // One key per object: the second is not a field of the first.
        (
            r#"{"Circle":1,"Pair":[1,2]}"#,
            at("/Pair", ViolationKind::UnknownField),
        ),
        (
            r#"{"Pair":[1,2,3]}"#,
            at(
                "/Pair",
                ViolationKind::TooLong {
                    len: 3,
                    max: 2,
                    unit: Unit::Items,
                },
            ),
        ),
        (r#"{}"#, at("/Circle", ViolationKind::MissingField)),
    ];
    for (bad, expected) in cases {
        let (result, fast) = read::<Shape>(bad);
        assert_eq!(violations(&result), [expected], "{bad}");
        assert_eq!(fast, None, "{bad}");
    }

    /// `Self` in a field's type, a unit struct, defaults and a skipped field.
    #[derive(ToolSchema, Debug, PartialEq, Default)]
    #[serde(default)]
    struct Node {
        name: String,
        children: Vec<Self>,
        #[serde(skip)]
        seen: bool,
        marker: Option<Marker>,
    }
    #[derive(ToolSchema, Debug, PartialEq, Default)]
    struct Marker;
    let (result, fast) = read::<Node>(r#"{"children":[{"name":"leaf","marker":null}]}"#);
    let expected = Node {
        children: vec![Node {
            name: "leaf".into(),
            ..Node::default()
        }],
        ..Node::default()
    };
    assert_eq!(result.unwrap(), expected);
    assert!(fast.is_some());
    // A skipped field is not a key the JSON may hold.
    assert_eq!(
        violations(&read::<Node>(r#"{"seen":true}"#).0),
        [at("/seen", ViolationKind::UnknownField)]
    );
}

#[test]
fn text_after_the_value_is_a_syntax_error() {
    let (result, fast) = read::<Category>(r#""tools" x"#);
    assert_eq!(fast, None);
    assert_eq!(
        violations(&result),
        [at(
            "",
            ViolationKind::Syntax {
                line: 1,
                column: 9,
                message: "trailing characters".into(),
            }
        )]
    );
}

#[test]
fn sets_compare_json_values() {
    // `uniqueItems` says 1 and 1.0 are equal; `Value`'s `Eq` does not.
    let (result, fast) = read::<HashSet<Value>>("[1, 1.0]");
    assert_eq!(fast, None);
    assert!(kinds(&result)[0].1.starts_with("NotUnique"));
    assert_eq!(read::<HashSet<Value>>("[1, 2]").0.unwrap().len(), 2);
}

/// Five newtypes per level of nesting.
#[derive(ToolSchema, Debug, PartialEq)]
struct A(Vec<B>);
#[derive(ToolSchema, Debug, PartialEq)]
struct B(C);
#[derive(ToolSchema, Debug, PartialEq)]
struct C(D);
#[derive(ToolSchema, Debug, PartialEq)]
struct D(E);
#[derive(ToolSchema, Debug, PartialEq)]
struct E(A);

/// A type that refers to itself without any JSON in between.
#[derive(ToolSchema, Debug, PartialEq)]
struct Endless(Option<Box<Endless>>);

#[test]
fn schemas_that_chain_or_loop_are_read_on_the_slow_path() {
    // Deep enough for the validator's frame budget to end it, though serde_json's
    // nesting limit would not: both paths must give the same answer.
    let deep = format!("{}{}", "[".repeat(120), "]".repeat(120));
    let (result, fast) = read::<A>(&deep);
    assert_eq!(fast, None);
    // It ends inside the arrays, where the budget runs out.
    let found = violations(&result);
    let [(pointer, kind)] = found.as_slice() else {
        panic!("one violation: {found:?}");
    };
    assert_eq!(*kind, too_deep_here());
    let depth = pointer.len() / 2;
    assert!(
        *pointer == "/0".repeat(depth) && (1..120).contains(&depth),
        "{pointer}"
    );
    let shallow = format!("{}{}", "[".repeat(5), "]".repeat(5));
    assert!(read::<A>(&shallow).0.is_ok());
    // Anything but null sends the fast path round in circles: an error, not a crash.
    assert_eq!(read::<Endless>("null").0.unwrap(), Endless(None));
    assert_eq!(
        violations(&read::<Endless>("0").0),
        [at("", too_deep_here())]
    );
}

#[test]
fn long_reference_chains_load_and_fail_cleanly() {
    // 5 000 `$ref`s in a row, loaded and checked on a thread with a 2 MiB stack: the
    // loader follows references one after another, and the validator's frame budget
    // ends the chain with a violation.
    let run = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let n = 5_000;
            let mut defs = serde_json::Map::new();
            for i in 0..n {
                let next = format!("#/$defs/a{}", i + 1);
                defs.insert(format!("a{i}"), serde_json::json!({ "$ref": next }));
            }
            defs.insert(format!("a{n}"), serde_json::json!({ "type": "integer" }));
            let schema = toolschema::Schema::from_json(
                serde_json::json!({ "$defs": defs, "$ref": "#/$defs/a0" }),
            )
            .expect("loads");
            schema
                .validate(&serde_json::json!(1))
                .unwrap_err()
                .to_string()
        })
        .expect("thread");
    let message = run.join().expect("no overflow");
    assert!(message.contains("more than 640 subschemas"), "{message}");
    // Subschemas nested past the limit are a load error, not a deep recursion.
    let mut nested = serde_json::json!({ "type": "integer" });
    for _ in 0..200 {
        nested = serde_json::json!({ "items": nested });
    }
    let err = toolschema::Schema::from_json(nested).unwrap_err();
    assert!(err.to_string().contains("nest more than"), "{err}");
}

#[test]
fn field_bounds_narrow_the_types_own() {
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Narrow {
        #[schema(range(min = -5, max = 300))]
        small: u8,
        #[schema(length(min = 1))]
        triple: [u8; 3],
    }
    let schema = Narrow::json_schema();
    assert_eq!(schema["properties"]["small"]["minimum"], 0);
    assert_eq!(schema["properties"]["small"]["maximum"], 255);
    assert_eq!(schema["properties"]["triple"]["minItems"], 3);
    let (result, _) = read::<Narrow>(r#"{"small": -1, "triple": [1]}"#);
    let found = kinds(&result);
    assert!(
        found[0].0 == "/small" && found[0].1.starts_with("OutOfRange"),
        "{found:?}"
    );
    assert!(
        found[1].0 == "/triple" && found[1].1.starts_with("TooShort"),
        "{found:?}"
    );
}

/// A generic type with a default parameter and `Self` paths in defaults.
#[derive(ToolSchema, Debug, PartialEq)]
#[serde(default = "Self::empty")]
struct Page<T: Clone = String>
where
    Self: Sized,
{
    items: Vec<T>,
    #[serde(default = "Self::first")]
    start: u32,
}

impl<T: Clone> Page<T> {
    fn empty() -> Self {
        Page {
            items: Vec::new(),
            start: 0,
        }
    }

    fn first() -> u32 {
        1
    }
}

#[test]
fn generics_with_defaults_and_self_paths() {
    let (result, fast) = read::<Page>(r#"{"items": ["a"]}"#);
    let page = result.unwrap();
    assert_eq!(
        (page.items.as_slice(), page.start),
        (&["a".to_owned()][..], 1)
    );
    assert!(fast.is_some());
}
