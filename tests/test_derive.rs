//! The derive, kind by kind of type and attribute: what the strict deserializer accepts,
//! what it builds, and what it reports.

// Test types are built and compared whole; not every field is read on its own.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde_json::json;
use toolschema::{Bound, ToolSchema, Unit, ViolationKind};

/// The rendered violations of a rejected value, one string per violation.
fn rejected<T: ToolSchema + std::fmt::Debug>(json: serde_json::Value) -> Vec<String> {
    match toolschema::from_value::<T>(json.clone()) {
        Ok(value) => panic!("{json} was accepted as {value:?}"),
        Err(err) => err.violations().iter().map(ToString::to_string).collect(),
    }
}

fn accepted<T: ToolSchema>(json: serde_json::Value) -> T {
    match toolschema::from_value::<T>(json.clone()) {
        Ok(value) => value,
        Err(err) => panic!("{json} was rejected:\n{err}"),
    }
}

#[test]
fn named_struct_reports_every_violation_in_one_pass() {
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Person {
        name: String,
        age: u8,
        email: Option<String>,
        tags: Vec<String>,
    }
    let p: Person = accepted(json!({"name": "Ann", "age": 31, "email": null, "tags": ["a"]}));
    assert_eq!(
        p,
        Person {
            name: "Ann".into(),
            age: 31,
            email: None,
            tags: vec!["a".into()]
        }
    );
    // An absent Option is None; it is not required.
    let p: Person = accepted(json!({"name": "Ann", "age": 31, "tags": []}));
    assert_eq!(p.email, None);
    assert_eq!(
        rejected::<Person>(json!({"name": 1, "agee": 31, "tags": "x", "email": 5})),
        [
            "/name: expected a string, found the number 1",
            "/agee: unknown field; did you mean \"age\"? The allowed keys are \"name\", \"age\", \"email\", \"tags\"; remove the others.",
            "/tags: expected an array, found the string \"x\"",
            "/email: expected a string or null, found the number 5",
            "/age: missing required field",
        ]
    );
}

#[test]
fn integers_enforce_their_natural_range_without_coercion() {
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Ints {
        a: u8,
        b: i8,
        c: u16,
        d: i32,
        e: u64,
        f: i64,
    }
    let v: Ints = accepted(
        json!({"a": 255, "b": -128, "c": 65535, "d": -2147483648, "e": u64::MAX, "f": i64::MIN}),
    );
    assert_eq!(v.e, u64::MAX);
    // 3.0 is the integer 3, as JSON Schema says.
    let v: Ints = accepted(json!({"a": 3.0, "b": 0, "c": 0, "d": 0, "e": 0, "f": 0}));
    assert_eq!(v.a, 3);
    assert_eq!(
        rejected::<Ints>(json!({"a": 256, "b": -129, "c": "42", "d": 1.5, "e": -1, "f": 0})),
        [
            "/a: 256 is above the maximum of 255",
            "/b: -129 is below the minimum of -128",
            "/c: expected an integer, found the string \"42\"",
            "/d: expected an integer, found the number 1.5",
            "/e: -1 is below the minimum of 0",
        ]
    );
}

#[test]
fn floats_chars_and_bools() {
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Misc {
        x: f64,
        y: f32,
        c: char,
        ok: bool,
    }
    let v: Misc = accepted(json!({"x": 1.5, "y": 2, "c": "é", "ok": true}));
    assert_eq!(
        v,
        Misc {
            x: 1.5,
            y: 2.0,
            c: 'é',
            ok: true
        }
    );
    assert_eq!(
        rejected::<Misc>(json!({"x": "1.5", "y": 1e39, "c": "ab", "ok": "true"})),
        [
            "/x: expected a number, found the string \"1.5\"",
            "/y: 1e+39 is above the maximum of 3.4028234663852886e+38",
            "/c: too long: 2 characters, at most 1 character allowed",
            "/ok: expected a boolean, found the string \"true\"",
        ]
    );
}

#[test]
fn collections_maps_sets_tuples_arrays_and_any_value() {
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Bag {
        list: Vec<u8>,
        fixed: [u8; 2],
        pair: (String, bool),
        set: BTreeSet<String>,
        hashed: HashSet<u8>,
        map: BTreeMap<String, u8>,
        hmap: HashMap<String, bool>,
        boxed: Box<u8>,
        anything: serde_json::Value,
    }
    let v: Bag = accepted(json!({
        "list": [1, 2], "fixed": [3, 4], "pair": ["a", true], "set": ["x", "y"], "hashed": [1],
        "map": {"k": 1}, "hmap": {"k": false}, "boxed": 7, "anything": {"any": [1, "thing"]}
    }));
    assert_eq!(v.fixed, [3, 4]);
    assert_eq!(v.pair, ("a".to_owned(), true));
    assert_eq!(*v.boxed, 7);
    assert_eq!(v.anything, json!({"any": [1, "thing"]}));
    assert_eq!(
        rejected::<Bag>(json!({
            "list": [1, "2"], "fixed": [3], "pair": ["a", true, 1], "set": ["x", "x"], "hashed": [1],
            "map": {"k": -1}, "hmap": [], "boxed": 7, "anything": null
        })),
        [
            "/list/1: expected an integer, found the string \"2\"",
            "/fixed: too short: 1 item, at least 2 items required",
            "/pair: too long: 3 items, at most 2 items allowed",
            "/set: items must be unique, but items 0 and 1 are equal",
            "/map/k: -1 is below the minimum of 0",
            "/hmap: expected an object, found an empty array",
        ]
    );
}

#[test]
fn newtype_tuple_and_unit_structs() {
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Meters(#[schema(range(min = 0))] f64);
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Point(i32, i32);
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Nothing;

    assert_eq!(accepted::<Meters>(json!(2.5)), Meters(2.5));
    assert_eq!(
        rejected::<Meters>(json!(-1)),
        ["(root): -1 is below the minimum of 0"]
    );
    assert_eq!(accepted::<Point>(json!([1, -2])), Point(1, -2));
    assert_eq!(
        rejected::<Point>(json!([1])),
        ["(root): too short: 1 item, at least 2 items required"]
    );
    assert_eq!(accepted::<Nothing>(json!(null)), Nothing);
    assert_eq!(
        rejected::<Nothing>(json!({})),
        ["(root): expected null, found an empty object"]
    );
}

#[test]
fn string_enum_with_every_rename_rule() {
    #[derive(ToolSchema, Debug, PartialEq)]
    #[serde(rename_all = "snake_case")]
    enum Snake {
        HotWater,
    }
    #[derive(ToolSchema, Debug, PartialEq)]
    #[serde(rename_all = "SCREAMING-KEBAB-CASE")]
    enum ScreamingKebab {
        HotWater,
    }
    #[derive(ToolSchema, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    enum Camel {
        HotWater,
    }
    #[derive(ToolSchema, Debug, PartialEq)]
    #[serde(rename_all = "kebab-case")]
    struct Fields {
        first_name: String,
        #[serde(rename = "LAST")]
        last_name: String,
    }
    #[derive(ToolSchema, Debug, PartialEq)]
    #[serde(rename_all = "PascalCase")]
    struct Pascal {
        first_name: String,
    }
    #[derive(ToolSchema, Debug, PartialEq)]
    #[serde(rename_all = "SCREAMING_SNAKE_CASE")]
    struct Screaming {
        first_name: String,
    }
    assert_eq!(accepted::<Snake>(json!("hot_water")), Snake::HotWater);
    assert_eq!(
        accepted::<ScreamingKebab>(json!("HOT-WATER")),
        ScreamingKebab::HotWater
    );
    assert_eq!(accepted::<Camel>(json!("hotWater")), Camel::HotWater);
    accepted::<Fields>(json!({"first-name": "a", "LAST": "b"}));
    accepted::<Pascal>(json!({"FirstName": "a"}));
    accepted::<Screaming>(json!({"FIRST_NAME": "a"}));
    assert_eq!(
        rejected::<Snake>(json!("HotWater")),
        [
            "(root): \"HotWater\" is not allowed here; the only allowed value is \"hot_water\"; did you mean \"hot_water\"?"
        ]
    );
}

#[test]
fn enum_representations() {
    #[derive(ToolSchema, Debug, PartialEq)]
    enum External {
        Unit,
        New(u8),
        Pair(u8, String),
        Named { a: bool },
    }
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Circle {
        r: f64,
    }
    #[derive(ToolSchema, Debug, PartialEq)]
    #[serde(tag = "type", rename_all = "lowercase")]
    enum Internal {
        Circle(Circle),
        Square { side: f64 },
        Empty,
    }
    #[derive(ToolSchema, Debug, PartialEq)]
    #[serde(tag = "t", content = "c")]
    enum Adjacent {
        A(u8),
        B { x: String },
        C,
    }
    #[derive(ToolSchema, Debug, PartialEq)]
    #[serde(untagged)]
    enum Untagged {
        Int(i32),
        Text(String),
        Obj { a: bool },
    }

    assert_eq!(accepted::<External>(json!("Unit")), External::Unit);
    assert_eq!(accepted::<External>(json!({"New": 3})), External::New(3));
    assert_eq!(
        accepted::<External>(json!({"Pair": [3, "x"]})),
        External::Pair(3, "x".into())
    );
    assert_eq!(
        accepted::<External>(json!({"Named": {"a": true}})),
        External::Named { a: true }
    );
    assert_eq!(
        rejected::<External>(json!({"Nwe": 3})),
        ["/Nwe: \"Nwe\" is not one of \"New\", \"Pair\", \"Named\"; did you mean \"New\"?"]
    );
    assert_eq!(
        rejected::<External>(json!({"New": 300})),
        ["/New: 300 is above the maximum of 255"]
    );

    assert_eq!(
        accepted::<Internal>(json!({"type": "circle", "r": 1})),
        Internal::Circle(Circle { r: 1.0 })
    );
    assert_eq!(
        accepted::<Internal>(json!({"type": "empty"})),
        Internal::Empty
    );
    assert_eq!(
        rejected::<Internal>(json!({"type": "circel", "r": 1})),
        [
            "/type: \"circel\" is not one of \"circle\", \"square\", \"empty\"; did you mean \"circle\"?"
        ]
    );
    assert_eq!(
        rejected::<Internal>(json!({"type": "square", "r": 1})),
        [
            "/r: unknown field; the allowed keys are \"type\", \"side\"; remove the others",
            "/side: missing required field"
        ]
    );

    assert_eq!(
        accepted::<Adjacent>(json!({"t": "A", "c": 3})),
        Adjacent::A(3)
    );
    assert_eq!(accepted::<Adjacent>(json!({"t": "C"})), Adjacent::C);
    assert_eq!(
        accepted::<Adjacent>(json!({"t": "B", "c": {"x": "s"}})),
        Adjacent::B { x: "s".into() }
    );

    assert_eq!(accepted::<Untagged>(json!(3)), Untagged::Int(3));
    assert_eq!(accepted::<Untagged>(json!("s")), Untagged::Text("s".into()));
    assert_eq!(
        accepted::<Untagged>(json!({"a": false})),
        Untagged::Obj { a: false }
    );
    assert_eq!(
        rejected::<Untagged>(json!(1.5)),
        ["(root): expected an integer, a string or an object, found the number 1.5"]
    );
}

#[test]
fn tool_union_validates_the_envelope_then_the_arguments() {
    #[derive(ToolSchema, Debug, PartialEq)]
    #[serde(rename_all = "lowercase")]
    enum Unit {
        Celsius,
        Fahrenheit,
    }
    #[derive(ToolSchema, Debug, PartialEq)]
    struct GetWeather {
        city: String,
        unit: Unit,
    }
    #[derive(ToolSchema, Debug, PartialEq)]
    enum Step {
        /// Look up the weather.
        #[tool]
        GetWeather(GetWeather),
        #[tool(name = "lights_on")]
        TurnOn { room: String },
        #[tool]
        Now,
        #[answer]
        Answer(String),
    }
    assert_eq!(
        accepted::<Step>(
            json!({"name": "get_weather", "arguments": {"city": "Oslo", "unit": "celsius"}})
        ),
        Step::GetWeather(GetWeather {
            city: "Oslo".into(),
            unit: Unit::Celsius
        })
    );
    assert_eq!(
        accepted::<Step>(json!({"name": "lights_on", "arguments": {"room": "hall"}})),
        Step::TurnOn {
            room: "hall".into()
        }
    );
    assert_eq!(
        accepted::<Step>(json!({"name": "now", "arguments": {}})),
        Step::Now
    );
    assert_eq!(
        accepted::<Step>(json!({"answer": "42"})),
        Step::Answer("42".into())
    );

    assert_eq!(
        rejected::<Step>(json!({"name": "get_wether", "arguments": {"city": 1}})),
        [
            "/name: \"get_wether\" is not one of \"get_weather\", \"lights_on\", \"now\"; did you mean \"get_weather\"?"
        ]
    );
    assert_eq!(
        rejected::<Step>(
            json!({"name": "get_weather", "arguments": {"city": "Oslo", "unit": "kelvin"}})
        ),
        ["/arguments/unit: \"kelvin\" is not one of \"celsius\", \"fahrenheit\""]
    );
    assert_eq!(
        rejected::<Step>(json!({"answr": "x"})),
        [
            "/answr: unknown field; did you mean \"answer\"? The allowed keys are \"answer\"; remove the others.",
            "/answer: missing required field"
        ]
    );
}

#[test]
fn defaults_skips_aliases_and_flatten() {
    fn five() -> u8 {
        5
    }
    #[derive(ToolSchema, Debug, PartialEq, Default)]
    struct Inner {
        a: u8,
        b: Option<String>,
    }
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Outer {
        #[serde(alias = "colour")]
        color: String,
        #[serde(default = "five")]
        level: u8,
        #[serde(default)]
        tags: Vec<String>,
        #[serde(skip)]
        cache: Option<u32>,
        #[serde(flatten)]
        inner: Inner,
        #[serde(flatten)]
        rest: HashMap<String, u32>,
    }
    let v: Outer = accepted(json!({"colour": "red", "a": 1, "extra": 9}));
    assert_eq!(v.color, "red");
    assert_eq!(v.level, 5);
    assert!(v.tags.is_empty());
    assert_eq!(v.cache, None);
    assert_eq!(v.inner, Inner { a: 1, b: None });
    assert_eq!(v.rest, HashMap::from([("extra".to_owned(), 9)]));
    assert_eq!(
        // A skipped field's key falls to the flattened map.
        rejected::<Outer>(json!({"color": "red", "colour": "blue", "a": 1, "cache": "x"})),
        [
            "/colour: \"color\" and \"colour\" name the same field; give only one",
            "/cache: expected an integer, found the string \"x\"",
        ]
    );
}

#[test]
fn container_default_and_transparent() {
    #[derive(ToolSchema, Debug, PartialEq)]
    #[serde(default)]
    struct Settings {
        verbose: bool,
        level: u8,
    }
    impl Default for Settings {
        fn default() -> Self {
            Settings {
                verbose: true,
                level: 3,
            }
        }
    }
    #[derive(ToolSchema, Debug, PartialEq)]
    #[serde(transparent)]
    struct Wrapper {
        inner: Vec<u8>,
    }
    assert_eq!(
        accepted::<Settings>(json!({"level": 1})),
        Settings {
            verbose: true,
            level: 1
        }
    );
    assert_eq!(
        accepted::<Wrapper>(json!([1, 2])),
        Wrapper { inner: vec![1, 2] }
    );
    assert_eq!(Settings::json_schema().get("required"), None);
}

#[test]
fn schema_attributes_constrain_and_explain() {
    #[derive(ToolSchema, Debug)]
    struct Form {
        /// Shown to people.
        #[schema(length(min = 2, max = 5), hint = "a short nickname")]
        nick: String,
        #[schema(pattern = "^[0-9]{4}$", description = "Four digits.")]
        pin: String,
        #[schema(range(min = -10, max = 10.5))]
        temperature: f64,
        #[schema(length(max = 2))]
        tags: Vec<String>,
        #[schema(format = "date", example = "2024-01-31")]
        day: String,
        #[schema(range(min = 1, max = 5))]
        stars: Option<u8>,
    }
    let schema = Form::json_schema();
    assert_eq!(
        schema["properties"]["nick"]["description"],
        "Shown to people."
    );
    assert_eq!(schema["properties"]["pin"]["description"], "Four digits.");
    assert_eq!(
        schema["properties"]["day"]["examples"],
        json!(["2024-01-31"])
    );
    assert_eq!(
        schema["properties"]["stars"]["type"],
        json!(["integer", "null"])
    );
    assert_eq!(schema["properties"]["stars"]["maximum"], 5);

    let err = toolschema::from_value::<Form>(json!({
        "nick": "x", "pin": "12a4", "temperature": 11, "tags": ["a", "b", "c"], "day": "today", "stars": 0
    }))
    .unwrap_err();
    let kinds: Vec<&ViolationKind> = err.violations().iter().map(|v| v.kind()).collect();
    assert_eq!(
        kinds,
        [
            &ViolationKind::TooShort {
                len: 1,
                min: 2,
                unit: Unit::Characters
            },
            &ViolationKind::PatternMismatch {
                found: "\"12a4\"".into(),
                pattern: "^[0-9]{4}$".into()
            },
            &ViolationKind::OutOfRange {
                found: "11".into(),
                bound: Bound::Maximum("10.5".into())
            },
            &ViolationKind::TooLong {
                len: 3,
                max: 2,
                unit: Unit::Items
            },
            // `format = "date"` is asserted on derived types.
            &ViolationKind::FormatMismatch {
                found: "\"today\"".into(),
                format: "date".into(),
                form: "YYYY-MM-DD".into()
            },
            &ViolationKind::OutOfRange {
                found: "0".into(),
                bound: Bound::Minimum("1".into())
            },
        ]
    );
    assert_eq!(err.violations()[0].hint(), Some("a short nickname"));
    assert_eq!(
        err.violations()[0].to_string(),
        "/nick: too short: 1 character, at least 2 characters required (hint: a short nickname)"
    );
    // A missing field carries its hint too.
    let err = toolschema::from_value::<Form>(
        json!({"pin": "1234", "temperature": 1, "tags": [], "day": "2025-06-14"}),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "/nick: missing required field (hint: a short nickname)"
    );
}

#[test]
fn generics_and_recursion() {
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Page<T> {
        items: Vec<T>,
        next: Option<String>,
    }
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Tree {
        name: String,
        children: Vec<Tree>,
    }
    let page: Page<Tree> =
        accepted(json!({"items": [{"name": "a", "children": [{"name": "b", "children": []}]}]}));
    assert_eq!(page.items[0].children[0].name, "b");
    assert_eq!(
        rejected::<Page<Tree>>(
            json!({"items": [{"name": "a", "children": [{"nam": "b", "children": []}]}]})
        ),
        [
            "/items/0/children/0/nam: unknown field; did you mean \"name\"? The allowed keys are \"name\", \"children\"; remove the others.",
            "/items/0/children/0/name: missing required field",
        ]
    );
    let schema = Page::<Tree>::json_schema();
    assert_eq!(
        schema["properties"]["items"]["items"]["$ref"],
        "#/$defs/Tree"
    );
    assert_eq!(
        schema["$defs"]["Tree"]["properties"]["children"]["items"]["$ref"],
        "#/$defs/Tree"
    );
    // A recursive root refers to itself as "#".
    assert_eq!(
        Tree::json_schema()["properties"]["children"]["items"]["$ref"],
        "#"
    );
}

#[test]
fn bridged_types_use_schemars_and_serde() {
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Record {
        #[schema(bridge)]
        id: uuid::Uuid,
        #[schema(bridge)]
        parent: Option<uuid::Uuid>,
    }
    let schema = Record::json_schema();
    assert_eq!(
        schema["properties"]["id"],
        json!({"type": "string", "format": "uuid"})
    );
    assert_eq!(schema["required"], json!(["id"]));
    let r: Record = accepted(json!({"id": "67e55044-10b1-426f-9247-bb680e5fe0c8"}));
    assert_eq!(r.parent, None);
    let err = toolschema::from_value::<Record>(json!({"id": "nope"})).unwrap_err();
    assert_eq!(err.violations()[0].pointer(), "/id");
}

#[test]
fn invalid_json_is_one_violation_with_line_and_column() {
    #[derive(ToolSchema, Debug)]
    struct One {
        a: u8,
    }
    let err = toolschema::from_str::<One>("{\n  \"a\": 1,\n}").unwrap_err();
    assert_eq!(err.violations().len(), 1);
    match err.violations()[0].kind() {
        ViolationKind::Syntax { line, column, .. } => assert_eq!((*line, *column), (3, 1)),
        other => panic!("expected a syntax violation, found {other:?}"),
    }
    assert_eq!(
        err.to_string(),
        "(root): invalid JSON at line 3, column 1: trailing comma"
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let deep = "[".repeat(100_000) + &"]".repeat(100_000);
    let err = toolschema::from_str::<serde_json::Value>(&deep).unwrap_err();
    assert!(
        matches!(err.violations()[0].kind(), ViolationKind::Syntax { message, .. } if message.contains("recursion limit")),
        "{err}"
    );
    #[derive(ToolSchema, Debug)]
    struct Tree {
        children: Vec<Tree>,
    }
    let deep = "{\"children\":[".repeat(50_000) + &"]}".repeat(50_000);
    let err = toolschema::from_str::<Tree>(&deep).unwrap_err();
    assert!(
        matches!(err.violations()[0].kind(), ViolationKind::Syntax { message, .. } if message.contains("recursion limit")),
        "{err}"
    );
}

#[test]
fn pointers_escape_and_paths_read_naturally() {
    #[derive(ToolSchema, Debug)]
    struct Odd {
        #[serde(rename = "a/b~c")]
        odd: u8,
        items: Vec<u8>,
    }
    let err = toolschema::from_value::<Odd>(json!({"a/b~c": "x", "items": [1, "2"]})).unwrap_err();
    assert_eq!(err.violations()[0].pointer(), "/a~1b~0c");
    assert_eq!(err.violations()[1].pointer(), "/items/1");
    assert_eq!(err.violations()[1].path(), "items[1]");
}

#[test]
fn a_flattened_json_map_takes_the_other_keys() {
    #[derive(ToolSchema, Debug, PartialEq)]
    struct Extra {
        id: u32,
        #[serde(flatten)]
        rest: serde_json::Map<String, serde_json::Value>,
    }
    let v: Extra = accepted(json!({"id": 1, "x": [2], "y": null}));
    assert_eq!(v.rest.len(), 2);
    assert_eq!(v.rest["x"], json!([2]));
}

#[test]
fn values_nest_up_to_max_depth() {
    #[derive(ToolSchema, Debug)]
    struct Tree {
        children: Vec<Tree>,
    }
    fn nested(levels: usize) -> serde_json::Value {
        let mut v = json!({"children": []});
        for _ in 1..levels {
            v = json!({ "children": [v] });
        }
        v
    }
    // 64 trees are 127 levels of JSON (object, array, object …).
    assert!(toolschema::from_value::<Tree>(nested(64)).is_ok());
    let err = toolschema::from_value::<Tree>(nested(70)).unwrap_err();
    assert!(
        matches!(
            err.violations()[0].kind(),
            ViolationKind::TooDeep { limit: 128 }
        ),
        "{err}"
    );
}
