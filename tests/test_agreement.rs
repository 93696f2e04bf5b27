//! The agreement test: for many generated values, the schema (checked by an independent
//! validator, the `jsonschema` crate) and toolschema's strict deserializer must agree on
//! accept/reject.
//!
//! Values come from `toolschema_tests::values`, a proptest strategy that walks each
//! type's JSON Schema and mutates what it builds. The normal run tries 2 000 values per
//! type; a long run:
//!
//! ```sh
//! AGREEMENT_CASES=100000 cargo test -p toolschema-tests --test test_agreement --release
//! ```
//!
//! A failure prints the type, the smallest disagreeing value proptest found, both
//! verdicts and both validators' reasons. Fix the disagreement, never the test.

// Test types exist to be read from JSON; their fields are never read.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Map, Value};
use toolschema::ToolSchema;

// ---------------------------------------------------------------------------------------
// The types.

/// Structs with `Option`, `Vec`, maps and nested structs.
#[derive(ToolSchema, Debug, PartialEq)]
struct Order {
    customer: String,
    note: Option<String>,
    lines: Vec<Line>,
    discounts: BTreeMap<String, u8>,
    shipping: Option<Address>,
}

#[derive(ToolSchema, Debug, PartialEq)]
struct Line {
    #[schema(pattern = "^[A-Z]-[0-9]{1,3}$")]
    sku: String,
    #[schema(range(min = 1, max = 99))]
    quantity: u8,
}

#[derive(ToolSchema, Debug, PartialEq)]
struct Address {
    street: String,
    #[schema(length(min = 2, max = 2))]
    country: String,
    zip: Option<u32>,
}

/// Every integer width, to its bounds.
#[derive(ToolSchema, Debug, PartialEq)]
struct Integers {
    a: i8,
    b: i16,
    c: i32,
    d: i64,
    e: isize,
    f: i128,
    g: u8,
    h: u16,
    i: u32,
    j: u64,
    k: usize,
    l: u128,
}

/// Floats and characters.
#[derive(ToolSchema, Debug, PartialEq)]
struct Floats {
    single: f32,
    double: f64,
    initial: char,
    #[schema(range(min = 0.0, max = 1.0))]
    ratio: Option<f64>,
}

/// Tuples, fixed-size arrays and a tuple struct.
#[derive(ToolSchema, Debug, PartialEq)]
struct Shapes {
    pair: (u8, String),
    triple: (bool, i16, char),
    rgb: [u8; 3],
    corner: Point,
}

#[derive(ToolSchema, Debug, PartialEq)]
struct Point(i32, i32);

/// Sets: `uniqueItems`.
#[derive(ToolSchema, Debug, PartialEq)]
struct Sets {
    words: HashSet<String>,
    small: BTreeSet<u8>,
    letters: BTreeSet<char>,
    ids: HashSet<i64>,
    pairs: BTreeSet<(u8, bool)>,
}

/// `serde_json::Value` fields accept anything.
#[derive(ToolSchema, Debug, PartialEq)]
struct Envelope {
    id: u32,
    payload: Value,
    extra: Option<Value>,
    meta: Map<String, Value>,
}

/// Unit-only enums with `rename_all`, at the root and in fields.
#[derive(ToolSchema, Debug, PartialEq)]
#[serde(rename_all = "kebab-case")]
enum Color {
    DeepRed,
    SkyBlue,
    Black,
}

#[derive(ToolSchema, Debug, PartialEq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Priority {
    Low,
    Normal,
    VeryUrgent,
}

#[derive(ToolSchema, Debug, PartialEq)]
struct Palette {
    primary: Color,
    fallback: Option<Color>,
    levels: Vec<Priority>,
}

/// serde's default, external tagging.
#[derive(ToolSchema, Debug, PartialEq)]
enum Figure {
    Circle { radius: f64 },
    Rect(u16, u16),
    Label(String),
    Empty,
}

/// Internal tagging.
#[derive(ToolSchema, Debug, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Event {
    Click { x: i32, y: i32 },
    Key(KeyPress),
    Close,
}

#[derive(ToolSchema, Debug, PartialEq)]
struct KeyPress {
    key: char,
    shift: Option<bool>,
}

/// Adjacent tagging.
#[derive(ToolSchema, Debug, PartialEq)]
#[serde(tag = "t", content = "c")]
enum Message {
    Text(String),
    Move { dx: i8, dy: i8 },
    Pair(u8, u8),
    Ping,
}

/// Untagged: the first alternative that matches.
#[derive(ToolSchema, Debug, PartialEq)]
#[serde(untagged)]
enum Scalar {
    Int(i64),
    Text(String),
    List(Vec<u8>),
    Pointish { x: f64, y: f64 },
    Nothing,
}

/// A tool union: tool calls and a direct answer.
#[derive(ToolSchema, Debug, PartialEq)]
enum Step {
    /// Look up the weather.
    #[tool]
    GetWeather(GetWeather),
    #[tool(name = "search")]
    Search { query: String, limit: Option<u8> },
    #[tool]
    Ping,
    #[answer]
    Answer(String),
}

#[derive(ToolSchema, Debug, PartialEq)]
struct GetWeather {
    city: String,
    unit: Option<Color>,
}

/// Generics.
#[derive(ToolSchema, Debug, PartialEq)]
struct Page<T> {
    items: Vec<T>,
    next: Option<String>,
    #[schema(range(max = 1000))]
    total: u32,
}

/// A recursive type.
#[derive(ToolSchema, Debug, PartialEq)]
struct Tree {
    label: String,
    children: Vec<Tree>,
    weight: Option<Box<Tree>>,
}

/// `#[serde(default)]` on fields and on a container, and `alias`.
#[derive(ToolSchema, Debug, PartialEq)]
struct Settings {
    #[serde(default)]
    retries: u8,
    #[serde(default = "default_name")]
    name: String,
    #[serde(alias = "userName", alias = "user")]
    user_name: String,
    #[serde(alias = "lang")]
    language: Option<String>,
    nested: Defaults,
}

fn default_name() -> String {
    "anonymous".into()
}

#[derive(ToolSchema, Debug, PartialEq, Default)]
#[serde(default)]
struct Defaults {
    verbose: bool,
    level: i8,
}

/// `flatten`, of a struct and of a map.
#[derive(ToolSchema, Debug, PartialEq)]
struct Flat {
    id: u32,
    #[serde(flatten)]
    meta: Meta,
    #[serde(flatten)]
    rest: HashMap<String, i32>,
}

#[derive(ToolSchema, Debug, PartialEq)]
struct Meta {
    author: String,
    #[serde(alias = "rev")]
    revision: Option<u16>,
}

/// `#[schema(range/length/pattern/format)]` constraints.
#[derive(ToolSchema, Debug, PartialEq)]
struct Constrained {
    #[schema(range(min = -5, max = 5))]
    offset: i32,
    #[schema(range(min = 0.5, max = 2.5))]
    scale: f64,
    #[schema(length(min = 2, max = 4))]
    tags: Vec<String>,
    #[schema(length(min = 1, max = 3))]
    code: String,
    #[schema(pattern = "^[a-z]{2,3}$")]
    lang: String,
    #[schema(pattern = "^[a-z]+(-[a-z]+)*$")]
    slug: String,
    #[schema(length(max = 5))]
    note: Option<String>,
    #[schema(format = "email")]
    email: String,
}

/// `transparent` and newtype structs.
#[derive(ToolSchema, Debug, PartialEq)]
struct Wrapped {
    id: UserId,
    length: Meters,
    code: Code,
    maybe: Option<UserId>,
}

#[derive(ToolSchema, Debug, PartialEq)]
#[serde(transparent)]
struct UserId {
    id: u64,
}

#[derive(ToolSchema, Debug, PartialEq)]
struct Meters(f64);

#[derive(ToolSchema, Debug, PartialEq)]
struct Code(#[schema(pattern = "^[A-Z]{3}$")] String);

/// `\d` in a pattern. JSON Schema patterns are ECMA-262 regular expressions, where `\d`
/// is `[0-9]`.
#[derive(ToolSchema, Debug, PartialEq)]
struct Digits {
    #[schema(pattern = r"^\d{3}$")]
    code: String,
}

/// `\w` in a pattern: `[A-Za-z0-9_]` in ECMA-262.
#[derive(ToolSchema, Debug, PartialEq)]
struct Word {
    #[schema(pattern = r"^\w+$")]
    word: String,
}

/// `\s` in a pattern: in ECMA-262, its whitespace (with U+FEFF) and line terminators.
#[derive(ToolSchema, Debug, PartialEq)]
struct FullName {
    #[schema(pattern = r"^[a-z]+\s[a-z]+$")]
    name: String,
}

/// A recursive, internally tagged enum.
#[derive(ToolSchema, Debug, PartialEq)]
#[serde(tag = "op", rename_all = "lowercase")]
enum Expr {
    Num { value: i64 },
    Neg { arg: Box<Expr> },
    Add { left: Box<Expr>, right: Box<Expr> },
    Var(Variable),
}

#[derive(ToolSchema, Debug, PartialEq)]
struct Variable {
    name: String,
}

/// Untagged alternatives that overlap: the first that matches wins.
#[derive(ToolSchema, Debug, PartialEq)]
#[serde(untagged)]
enum Amount {
    Small(u8),
    Large(u64),
    Signed(i64),
    Fraction(f32),
    Words(String),
    Pair(u8, String),
    Flag(bool),
}

/// Odds and ends: renames, a skipped field, nested options and collections, unit types,
/// a wide tuple, constraints on a newtype and on an optional collection.
#[derive(ToolSchema, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Misc {
    #[serde(rename = "ID")]
    id: u16,
    first_name: String,
    #[serde(skip)]
    cache: Vec<u8>,
    maybe_maybe: Option<Option<u8>>,
    grid: Vec<Vec<u8>>,
    index: HashMap<String, Vec<Line>>,
    nothing: (),
    marker: Marker,
    boxed: Box<Address>,
    wide: (u8, u16, u32, u64, i8, i16, i32, i64),
    #[schema(range(min = 0.0, max = 10.0))]
    bounded: Meters,
    #[schema(length(min = 1, max = 2))]
    few: Option<Vec<bool>>,
}

#[derive(ToolSchema, Debug, PartialEq)]
struct Marker;

/// A bridged type (`uuid::Uuid`: schemars writes `format: "uuid"`, serde reads it) and
/// formats asserted on plain strings.
#[derive(ToolSchema, Debug, PartialEq)]
struct Booking {
    #[schema(bridge)]
    id: uuid::Uuid,
    #[schema(bridge)]
    parent: Option<uuid::Uuid>,
    #[schema(format = "date")]
    day: String,
    #[schema(format = "date-time")]
    at: Option<String>,
    #[schema(format = "time")]
    start: String,
}

// ---------------------------------------------------------------------------------------
// The check.

/// Values tried per type: 2 000, or `AGREEMENT_CASES`.
fn cases() -> u32 {
    std::env::var("AGREEMENT_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2_000)
}

/// Generates values for `T`'s schema and checks that the `jsonschema` crate,
/// `toolschema::from_value` and `toolschema::from_str` agree on each, and that the
/// streaming fast path of `from_str` accepts nothing the schema rejects and builds the same
/// value as the slow path; then that both verdicts were common enough for the agreement
/// to mean something.
fn agreement<T: ToolSchema + PartialEq + std::fmt::Debug>(type_name: &str) {
    let schema = T::json_schema();
    assert!(
        jsonschema::meta::is_valid(&schema),
        "{type_name}: the schema is not valid draft 2020-12:\n{schema:#}"
    );
    // The example shown to models is a value of the type.
    let example = toolschema::render::example::<T>();
    if let Err(e) = toolschema::from_value::<T>(example.clone()) {
        panic!("{type_name}: the example {example} is rejected:\n{e}");
    }
    let Tally {
        accepted,
        rejected,
        fast,
    } = match compare::<T>(type_name, &schema, cases()) {
        Ok(tally) => tally,
        Err(report) => panic!("{report}\nschema: {schema}"),
    };
    let total = accepted + rejected;
    eprintln!(
        "{type_name}: {accepted} accepted ({fast} on the fast path), {rejected} rejected, all agreed"
    );
    assert!(
        accepted * 10 >= total && rejected * 10 >= total,
        "{type_name}: {accepted} values accepted and {rejected} rejected; \
         the generator must produce at least 10% of each"
    );
}

struct Tally {
    accepted: usize,
    rejected: usize,
    /// Accepted values the fast path of `from_str` took on its own.
    fast: usize,
}

/// Runs the values generated for `schema` through the `jsonschema` crate (on `schema`)
/// and through `toolschema::from_value::<T>`, `toolschema::from_str::<T>` and the fast
/// path alone; `Err` reports the smallest value they disagree on.
fn compare<T: ToolSchema + PartialEq + std::fmt::Debug>(
    type_name: &str,
    schema: &Value,
    cases: u32,
) -> Result<Tally, String> {
    // A derived type's schema asserts `uuid`, `date`, `time` and `date-time` (see
    // `Schema::asserting_formats`); other formats stay annotations, for both.
    let mut options = jsonschema::options().should_validate_formats(true);
    for annotation in ["email", "uri", "hostname", "ipv4", "ipv6", "duration"] {
        options = options.with_format(annotation, |_: &str| true);
    }
    for format in ["date", "time", "date-time"] {
        options = options.with_format(format, rfc3339(format));
    }
    let validator = options
        .build(schema)
        .map_err(|e| format!("{type_name}: jsonschema cannot compile the schema: {e}"))?;
    let accepted = AtomicUsize::new(0);
    let rejected = AtomicUsize::new(0);
    let fast = AtomicUsize::new(0);
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let result = runner.run(&toolschema_tests::values(schema), |value| {
        let by_schema = validator.is_valid(&value);
        let by_toolschema = toolschema::from_value::<T>(value.clone());
        let text = value.to_string();
        let by_text = toolschema::from_str::<T>(&text);
        let by_fast_path = toolschema::__private::fast_from_str::<T>(&text);
        let text_agrees = by_text.is_ok() == by_toolschema.is_ok()
            && by_text.as_ref().ok() == by_toolschema.as_ref().ok();
        // The fast path may give up on a valid value (the slow path then reads it), but
        // what it accepts must be valid and equal to what the slow path builds.
        let fast_agrees =
            by_fast_path.is_none() || by_toolschema.as_ref().ok() == by_fast_path.as_ref();
        if by_schema == by_toolschema.is_ok() && text_agrees && fast_agrees {
            let counter = if by_schema { &accepted } else { &rejected };
            counter.fetch_add(1, Ordering::Relaxed);
            if by_fast_path.is_some() {
                fast.fetch_add(1, Ordering::Relaxed);
            }
            return Ok(());
        }
        let mut report = format!(
            "{type_name} disagrees on {}\n  schema (jsonschema crate): {}\n",
            ascii_json(&value),
            verdict(by_schema)
        );
        for error in validator.iter_errors(&value) {
            let _ = writeln!(report, "    {}: {error}", error.instance_path());
        }
        let _ = writeln!(
            report,
            "  toolschema::from_value: {}",
            verdict(by_toolschema.is_ok())
        );
        if let Err(err) = &by_toolschema {
            for violation in err.violations() {
                let _ = writeln!(report, "    {violation} ({:?})", violation.kind());
            }
        }
        let _ = writeln!(
            report,
            "  toolschema::from_str: {:?}\n  fast path: {:?}\n  from_value built: {:?}",
            by_text.map_err(|e| e.to_string()),
            by_fast_path,
            by_toolschema.ok(),
        );
        Err(TestCaseError::fail(report))
    });
    match result {
        Ok(()) => Ok(Tally {
            accepted: accepted.into_inner(),
            rejected: rejected.into_inner(),
            fast: fast.into_inner(),
        }),
        Err(failure) => Err(failure.to_string()),
    }
}

/// JSON text with every non-ASCII character escaped, so that invisible ones show.
fn ascii_json(value: &Value) -> String {
    let mut out = String::new();
    for c in value.to_string().chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            for unit in c.encode_utf16(&mut [0; 2]) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        }
    }
    out
}

/// The `jsonschema` crate's check of an RFC 3339 `format`, with digits required where
/// digits go (`-000-01-01`, `00:0-:00Z`, the offset of `00:00:00+00:0-`): the crate
/// (0.60: `parse_four_digits` and `parse_two_digits` in its `format` keyword) tests
/// digits with arithmetic that lets some other bytes through.
fn rfc3339(format: &'static str) -> impl Fn(&str) -> bool + Send + Sync + 'static {
    let theirs = jsonschema::options()
        .should_validate_formats(true)
        .build(&serde_json::json!({ "format": format }))
        .expect("a format schema compiles");
    move |s: &str| {
        let b = s.as_bytes();
        let digits = |slots: &[usize]| {
            slots
                .iter()
                .all(|&i| b.get(i).is_some_and(u8::is_ascii_digit))
        };
        let date = [0, 1, 2, 3, 5, 6, 8, 9];
        let time = [0, 1, 3, 4, 6, 7];
        // A numeric offset, `+hh:mm` or `-hh:mm`, after the seconds and any fraction
        // of the time that starts at `at`.
        let offset = |at: usize| {
            let mut i = at + 8;
            if b.get(i) == Some(&b'.') {
                i += 1;
                while b.get(i).is_some_and(u8::is_ascii_digit) {
                    i += 1;
                }
            }
            !matches!(b.get(i), Some(b'+' | b'-')) || digits(&[i + 1, i + 2, i + 4, i + 5])
        };
        let placed = match format {
            "date" => digits(&date),
            "time" => digits(&time) && offset(0),
            _ => digits(&date) && digits(&time.map(|i| i + 11)) && offset(11),
        };
        placed && theirs.is_valid(&Value::String(s.to_owned()))
    }
}

fn verdict(ok: bool) -> &'static str {
    if ok { "accepts" } else { "rejects" }
}

macro_rules! agree {
    ($($test:ident: $ty:ty;)*) => {$(
        #[test]
        fn $test() {
            agreement::<$ty>(stringify!($ty));
        }
    )*};
}

agree! {
    order_with_options_vecs_maps_nested: Order;
    integers_of_every_width: Integers;
    floats_and_chars: Floats;
    tuples_and_arrays: Shapes;
    sets: Sets;
    json_values: Envelope;
    unit_enum_at_root: Priority;
    unit_enums_in_fields: Palette;
    externally_tagged: Figure;
    internally_tagged: Event;
    adjacently_tagged: Message;
    untagged: Scalar;
    tool_union: Step;
    generic_page: Page<Line>;
    generic_page_of_numbers: Page<u16>;
    recursive_tree: Tree;
    defaults_and_aliases: Settings;
    flatten_struct_and_map: Flat;
    schema_constraints: Constrained;
    transparent_and_newtypes: Wrapped;
    pattern_digit_escape: Digits;
    pattern_word_escape: Word;
    pattern_space_escape: FullName;
    recursive_internally_tagged: Expr;
    untagged_overlapping: Amount;
    odds_and_ends: Misc;
    bridged_and_formats: Booking;
}

/// The check can fail: each schema here is `T`'s with one keyword changed, as a buggy
/// generator or validator might, and the values must expose the change. (Four times the
/// usual cases, so that a miss means the generator lacks the value, not luck; a run ends
/// at the first disagreement, so this stays quick.)
#[test]
fn a_tampered_schema_is_caught() {
    use serde_json::json;
    macro_rules! missed {
        ($($ty:ty, $pointer:literal, $change:expr;)*) => {
            [$((!tampered::<$ty>($pointer, $change)).then_some(concat!(stringify!($ty), $pointer))),*]
        };
    }
    #[rustfmt::skip]
    let missed = missed![
        Order, "/$defs/Line/additionalProperties", Some(json!(true));
        Order, "/$defs/Line/properties/quantity/maximum", Some(json!(100));
        Order, "/required/1", Some(json!("customer"));
        Integers, "/properties/j/maximum", Some(json!(u64::MAX - 1));
        Integers, "/properties/d/minimum", Some(json!(i64::MIN + 1));
        Sets, "/properties/small/uniqueItems", None;
        Event, "/oneOf/0/properties/type/const", Some(json!("Click"));
        Settings, "/allOf", None;
        Constrained, "/properties/code/maxLength", Some(json!(4));
        Shapes, "/properties/pair/items", Some(json!(true));
        Floats, "/properties/single/maximum", None;
        Palette, "/$defs/Color/enum/0", Some(json!("deep_red"));
        Step, "/oneOf/2/properties/arguments/additionalProperties", None;
        Message, "/oneOf/1/required", Some(json!(["t"]));
        Flat, "/additionalProperties", Some(json!(true));
        Tree, "/required", None;
        Misc, "/properties/bounded/maximum", Some(json!(11));
        Amount, "/anyOf/3/maximum", Some(json!(1.0e39));
    ];
    let missed: Vec<&str> = missed.into_iter().flatten().collect();
    assert!(missed.is_empty(), "no disagreement found for: {missed:?}");
}

/// Whether the values expose a change to `T`'s schema at `pointer`: `Some(value)` sets
/// it, `None` removes it.
fn tampered<T: ToolSchema + PartialEq + std::fmt::Debug>(
    pointer: &str,
    change: Option<Value>,
) -> bool {
    let mut schema = T::json_schema();
    match change {
        Some(value) => {
            let slot = schema.pointer_mut(pointer);
            *slot.unwrap_or_else(|| panic!("no {pointer} in the schema")) = value;
        }
        None => {
            let (parent, key) = pointer.rsplit_once('/').expect("a pointer with a parent");
            let removed = schema
                .pointer_mut(parent)
                .and_then(Value::as_object_mut)
                .and_then(|map| map.remove(key));
            assert!(removed.is_some(), "no {pointer} in the schema");
        }
    }
    compare::<T>("tampered", &schema, cases() * 4).is_err()
}

#[test]
fn the_oracle_requires_digits_where_rfc_3339_puts_them() {
    let time = rfc3339("time");
    let date_time = rfc3339("date-time");
    for valid in ["00:00:00Z", "00:00:00+00:00", "12:30:00.25-01:30"] {
        assert!(time(valid), "{valid}");
        assert!(date_time(&format!("2024-01-01T{valid}")), "{valid}");
    }
    for invalid in [
        "00:00:00+00:0-",
        "00:00:00-0-:00",
        "00:00:00.5+0a:00",
        "00:0-:00Z",
    ] {
        assert!(!time(invalid), "{invalid}");
        assert!(!date_time(&format!("2024-01-01T{invalid}")), "{invalid}");
    }
    assert!(!rfc3339("date")("-000-01-01"));
}
