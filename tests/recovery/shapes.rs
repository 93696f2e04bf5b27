//! Almost-right shapes: a value for an object's one required field, the object wrapped in a
//! key the schema lacks, several values where a list is expected, an enum value followed by
//! a note or dressed in Markdown.

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde_json::{Value, json};
use toolschema::ToolSchema;

use super::{read, read_at, refused, refused_at, root, text};
use toolschema::Coercion;

#[derive(ToolSchema, Debug, PartialEq, Clone)]
pub(crate) struct Tags {
    tags: Vec<String>,
}

#[derive(ToolSchema, Debug, PartialEq, Clone)]
pub(crate) struct Basket {
    items: Vec<Line>,
    note: Option<String>,
}

#[derive(ToolSchema, Debug, PartialEq, Clone)]
pub(crate) struct Line {
    item: String,
    qty: u32,
}

#[derive(ToolSchema, Debug, PartialEq, Clone)]
pub(crate) struct City {
    city: String,
    country: Option<String>,
}

#[derive(ToolSchema, Debug, PartialEq)]
struct Count {
    n: u32,
}

#[derive(ToolSchema, Debug, PartialEq)]
struct Pair {
    a: Vec<u8>,
    b: Vec<u8>,
}

#[derive(ToolSchema, Debug, PartialEq)]
struct Trip {
    to: City,
    via: Option<City>,
}

#[derive(ToolSchema, Debug, PartialEq, Clone)]
pub(crate) struct Invoice {
    number: String,
    total: f64,
    lines: Vec<Line>,
}

#[derive(ToolSchema, Debug, PartialEq)]
struct Filed {
    invoice: Invoice,
}

#[derive(ToolSchema, Debug, PartialEq, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Sentiment {
    Positive,
    Negative,
    Neutral,
}

#[derive(ToolSchema, Debug, PartialEq, Clone, Copy)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub(crate) enum Priority {
    Low,
    Medium,
    High,
    InProgress,
}

#[derive(ToolSchema, Debug, PartialEq)]
pub(crate) struct Review {
    sentiment: Sentiment,
    priority: Priority,
}

fn tags(items: &[&str]) -> Tags {
    Tags {
        tags: items.iter().map(|s| (*s).to_owned()).collect(),
    }
}

fn line(item: &str, qty: u32) -> Line {
    Line {
        item: item.into(),
        qty,
    }
}

fn city(name: &str) -> City {
    City {
        city: name.into(),
        country: None,
    }
}

const UNDER_TAGS: &str = r#"put the value under its one required key "tags""#;

// A value for an object's one required field.

#[test]
fn a_bare_list_is_put_under_the_one_required_list_field() {
    assert_eq!(
        read::<Tags>(r#"["red", "blue"]"#),
        (tags(&["red", "blue"]), vec![root(UNDER_TAGS)])
    );
    assert_eq!(read::<Tags>("[]"), (tags(&[]), vec![root(UNDER_TAGS)]));
    // Optional fields beside it stay absent; the items are coerced as usual.
    let (basket, fixes) = read::<Basket>(r#"[{"item": "milk", "qty": "2"}]"#);
    assert_eq!(
        basket,
        Basket {
            items: vec![line("milk", 2)],
            note: None
        }
    );
    assert_eq!(
        fixes,
        [
            root(r#"put the value under its one required key "items""#),
            "/items/0/qty: read a string holding a number as the number".to_owned()
        ]
    );
}

#[test]
fn a_bare_scalar_is_put_under_the_one_required_field() {
    let under_city = root(r#"put the value under its one required key "city""#);
    assert_eq!(
        read::<City>(r#""Paris""#),
        (city("Paris"), vec![under_city])
    );
    assert_eq!(
        read::<Count>("42"),
        (
            Count { n: 42 },
            vec![root(r#"put the value under its one required key "n""#)]
        )
    );
    // Inside a document, and in an optional field (an `anyOf` with `null`).
    let (trip, fixes) = read::<Trip>(r#"{"to": "Oslo", "via": "Bergen"}"#);
    assert_eq!(
        trip,
        Trip {
            to: city("Oslo"),
            via: Some(city("Bergen"))
        }
    );
    assert_eq!(
        fixes,
        [
            r#"/to: put the value under its one required key "city""#,
            r#"/via: put the value under its one required key "city""#
        ]
    );
}

#[test]
fn a_value_is_not_put_under_a_field_it_does_not_fit_or_that_is_not_the_only_one() {
    // The reply fits as written.
    assert_eq!(
        read::<Tags>(r#"{"tags": ["a"]}"#),
        (tags(&["a"]), Vec::<String>::new())
    );
    // Two required fields: which one is meant is not known.
    refused::<Pair>("[1, 2]");
    // The one field does not take the value.
    refused::<Count>("[1]");
    refused::<Count>(r#""many""#);
    refused::<Tags>("7");
    refused::<Tags>("true");
    // Put under a field once, not twice.
    refused::<Trip>(r#""Oslo""#);
    // `null` says there is nothing.
    refused::<City>("null");
    // A reply that is a bare word is prose, not a city.
    refused::<City>("I will look that up");
    refused::<City>("Paris");
}

proptest! {
    #[test]
    fn any_list_of_strings_is_read_as_tags(items in prop::collection::vec("[a-z 0-9,.:'-]{0,12}", 0..6)) {
        let raw = text(&json!(items));
        let (value, fixes) = read::<Tags>(&raw);
        prop_assert_eq!(value, Tags { tags: items });
        prop_assert_eq!(fixes, vec![root(UNDER_TAGS)]);
    }

    #[test]
    fn any_string_is_read_as_the_city(name in "[A-Za-z0-9 ,.'()-]{0,24}") {
        let (value, fixes) = read::<City>(&text(&json!(name)));
        prop_assert_eq!(value, city(&name));
        prop_assert_eq!(fixes.len(), 1);
    }
}

// The object wrapped in a key the schema lacks.

fn invoice() -> (Invoice, Value) {
    let value = json!({ "number": "A-17", "total": 12.5, "lines": [{ "item": "tea", "qty": 2 }] });
    let invoice = Invoice {
        number: "A-17".into(),
        total: 12.5,
        lines: vec![line("tea", 2)],
    };
    (invoice, value)
}

#[test]
fn the_object_is_taken_out_of_a_key_the_schema_lacks() {
    let (expected, value) = invoice();
    let raw = text(&json!({ "invoice": value }));
    assert_eq!(
        read::<Invoice>(&raw),
        (
            expected.clone(),
            vec![root(
                r#"took the object out of the key "invoice", which the schema does not have"#
            )]
        )
    );
    // What is inside is coerced as usual, at its pointer once taken out.
    let raw =
        r#"{"result": {"number": "A-17", "total": "12.5", "lines": [{"item": "tea", "qty": 2}]}}"#;
    let (read_invoice, fixes) = read::<Invoice>(raw);
    assert_eq!(read_invoice, expected);
    assert_eq!(
        fixes,
        [
            root(r#"took the object out of the key "result", which the schema does not have"#),
            "/total: read a string holding a number as the number".to_owned()
        ]
    );
    // A list, too.
    let (lines, fixes) = read::<Vec<Line>>(r#"{"lines": [{"item": "tea", "qty": 2}]}"#);
    assert_eq!(lines, [line("tea", 2)]);
    assert_eq!(
        fixes,
        [root(
            r#"took the object out of the key "lines", which the schema does not have"#
        )]
    );
}

#[test]
fn an_object_is_not_taken_out_of_a_key_the_schema_has() {
    let (expected, value) = invoice();
    // The key is the field.
    let raw = text(&json!({ "invoice": value }));
    assert_eq!(
        read::<Filed>(&raw),
        (Filed { invoice: expected }, Vec::<String>::new())
    );
    // A map's keys are its data.
    let raw = r#"{"tea": {"item": "tea", "qty": 2}}"#;
    let (map, fixes) = read::<BTreeMap<String, Line>>(raw);
    assert_eq!(map, BTreeMap::from([("tea".to_owned(), line("tea", 2))]));
    assert!(fixes.is_empty());
    // A near miss of a field: `{"them": {}}` may be a `theme` left empty.
    #[derive(ToolSchema, Debug)]
    struct Settings {
        theme: Option<Theme>,
    }
    #[derive(ToolSchema, Debug)]
    struct Theme {
        color: Option<String>,
    }
    refused::<Settings>(r#"{"them": {}}"#);
    assert_eq!(read::<Settings>(r#"{"display": {}}"#).1.len(), 1);
    // Another key beside it, twice wrapped, or what is inside does not fit.
    refused::<Invoice>(&text(&json!({ "invoice": value, "id": 1 })));
    refused::<Invoice>(&text(&json!({ "data": { "invoice": value } })));
    refused::<Invoice>(r#"{"invoice": {"number": "A-17"}}"#);
    // A list where the object in a one-item list fits too: two readings.
    let (values, fixes) = read::<Vec<Value>>(r#"{"items": [1, 2]}"#);
    assert_eq!(values, [json!({ "items": [1, 2] })]);
    assert_eq!(fixes, [root("wrapped a single value in a list")]);
}

proptest! {
    #[test]
    fn an_invoice_under_any_other_key_is_taken_out(key in "[a-zA-Z_ ]{1,16}") {
        let folded: String = key.chars().filter(|c| c.is_alphanumeric()).collect::<String>().to_lowercase();
        prop_assume!(!["number", "total", "lines"].contains(&folded.as_str()));
        let (expected, value) = invoice();
        let raw = text(&json!({ key.clone(): value }));
        match toolschema::Parser::new().parse::<Invoice>(&raw) {
            Ok(parsed) => {
                prop_assert_eq!(parsed.value, expected);
                let fix = format!(
                    "took the object out of the key {}, which the schema does not have",
                    json!(key)
                );
                prop_assert_eq!(super::lines(&parsed.fixes), vec![root(&fix)]);
            }
            // A near miss of a field (`nr` for `number`) may be that field: it is reported
            // with its did-you-mean instead.
            Err(e) => prop_assert!(e.violations()[0].suggestion().is_some(), "{}", e),
        }
    }
}

// Several values where a list is expected.

#[test]
fn several_values_are_read_as_the_list_when_lenient() {
    let several = |n: usize| format!("read {n} JSON values as the items of a list");
    let lenient = |raw| read_at::<Vec<String>>(Coercion::Lenient, raw);
    assert_eq!(
        lenient(r#""yes", "no""#),
        (vec!["yes".to_owned(), "no".to_owned()], vec![several(2)])
    );
    assert_eq!(
        read_at::<Vec<u8>>(Coercion::Lenient, "1, 2, 3"),
        (vec![1, 2, 3], vec![several(3)])
    );
    // One object per line, as JSON Lines: the spans found one by one are parts of it.
    let raw = "{\"item\": \"tea\", \"qty\": 2}\n{\"item\": \"milk\", \"qty\": 1}";
    let (lines, fixes) = read_at::<Vec<Line>>(Coercion::Lenient, raw);
    assert_eq!(lines, [line("tea", 2), line("milk", 1)]);
    assert_eq!(
        fixes,
        [
            several(2),
            "added a missing comma (at byte 26)".to_owned(),
            "took JSON value 3 of 3 (several values where a list is expected)".to_owned()
        ]
    );
    // In a code fence, in Python's quotes.
    let (words, fixes) = lenient("```\n'yes', 'no'\n```");
    assert_eq!(words, ["yes", "no"]);
    assert_eq!(
        fixes[..2],
        ["took the JSON out of a code fence", &several(2)]
    );
    // By default too; only syntax repair alone refuses it.
    assert_eq!(
        read::<Vec<String>>(r#""yes", "no""#),
        (vec!["yes".to_owned(), "no".to_owned()], vec![several(2)])
    );
    refused_at::<Vec<String>>(Coercion::None, r#""yes", "no""#);
}

#[test]
fn several_values_are_not_read_as_a_list_where_one_is_not_expected_or_they_are_prose() {
    let lenient = |raw| refused_at::<Vec<String>>(Coercion::Lenient, raw);
    assert_eq!(
        read_at::<Vec<String>>(Coercion::Lenient, r#"["yes", "no"]"#),
        (
            vec!["yes".to_owned(), "no".to_owned()],
            Vec::<String>::new()
        )
    );
    refused_at::<Tags>(Coercion::Lenient, r#""yes", "no""#);
    lenient("yes, no");
    lenient(r#""key": "value""#);
    // An earlier value that is not one of them is the reply's first: the several values
    // after it are not preferred to it.
    let (first, _) = read_at::<Vec<u8>>(Coercion::Lenient, "```\n[1, 2]\n```\n```\n3, 4\n```");
    assert_eq!(first, [1, 2]);
}

proptest! {
    #[test]
    fn any_lines_of_json_objects_are_read_as_the_list_when_lenient(
        items in prop::collection::vec(("[a-z ]{0,8}", 0u32..1000), 2..6),
        separator in prop::sample::select(vec![",", "\n", ", ", " ", ",\n"]),
    ) {
        let lines: Vec<Line> = items.iter().map(|(item, qty)| line(item, *qty)).collect();
        let raw = items
            .iter()
            .map(|(item, qty)| text(&json!({ "item": item, "qty": qty })))
            .collect::<Vec<_>>()
            .join(separator);
        let (value, fixes) = read_at::<Vec<Line>>(Coercion::Lenient, &raw);
        prop_assert_eq!(value, lines);
        let several = format!("read {} JSON values as the items of a list", items.len());
        prop_assert!(fixes.contains(&several), "{:?}", fixes);
    }

    #[test]
    fn strings_after_one_another_are_read_as_the_list_when_lenient_or_not_at_all(
        strings in prop::collection::vec("[a-z \"',:]{0,8}", 2..5),
        separator in prop::sample::select(vec![",", ", ", "\n", " "]),
    ) {
        let raw = strings.iter().map(|s| text(&json!(s))).collect::<Vec<_>>().join(separator);
        // Never another list: where the quotes inside leave a doubt, the reply is refused.
        if let Ok(parsed) = toolschema::Parser::new().coercion(Coercion::Lenient).parse::<Vec<String>>(&raw) {
            prop_assert_eq!(parsed.value, strings.clone());
            let several = format!("read {} JSON values as the items of a list", strings.len());
            prop_assert_eq!(super::lines(&parsed.fixes[..1]), vec![several]);
        }
        // Without quotes, commas and colons inside, no doubt is left.
        let plain: Vec<String> = strings.iter().map(|s| s.replace(['"', ':', ','], "")).collect();
        let raw = plain.iter().map(|s| text(&json!(s))).collect::<Vec<_>>().join(separator);
        let (value, _) = read_at::<Vec<String>>(Coercion::Lenient, &raw);
        prop_assert_eq!(value, plain);
    }
}

// An enum value followed by a note, or in Markdown.

#[test]
fn an_enum_value_with_a_note_or_in_markdown_is_read() {
    let raw = r#"{"sentiment": "positive - warm tone", "priority": "**HIGH**"}"#;
    assert_eq!(
        read::<Review>(raw),
        (
            Review {
                sentiment: Sentiment::Positive,
                priority: Priority::High
            },
            vec![
                r#"/sentiment: took the allowed value "positive" out of "positive - warm tone""#
                    .to_owned(),
                r#"/priority: took the allowed value "HIGH" out of "**HIGH**""#.to_owned()
            ]
        )
    );
    let (sentiment, _) = read::<Sentiment>(r#""Negative: the customer asks for a refund.""#);
    assert_eq!(sentiment, Sentiment::Negative);
    let (priority, _) = read::<Priority>(r#""`in progress` (since Monday)""#);
    assert_eq!(priority, Priority::InProgress);
}

#[test]
fn an_enum_value_is_not_read_out_of_a_note_that_names_another_or_starts_otherwise() {
    for raw in [
        "not positive",
        "mostly positive",
        "positive or negative",
        "positively glowing",
        "neutral-to-negative",
    ] {
        refused::<Sentiment>(&text(&json!(raw)));
    }
    // A value that is itself the longer text.
    #[derive(ToolSchema, Debug, PartialEq)]
    enum Tone {
        #[serde(rename = "warm")]
        Warm,
        #[serde(rename = "warm - formal")]
        WarmFormal,
    }
    assert_eq!(
        read::<Tone>(r#""warm - formal""#),
        (Tone::WarmFormal, Vec::<String>::new())
    );
    refused::<Tone>(r#""warm - formal, mostly""#);
}

fn sentiment_name(s: Sentiment) -> &'static str {
    match s {
        Sentiment::Positive => "positive",
        Sentiment::Negative => "negative",
        Sentiment::Neutral => "neutral",
    }
}

proptest! {
    #[test]
    fn an_enum_value_with_any_note_is_read(
        value in prop::sample::select(vec![Sentiment::Positive, Sentiment::Negative, Sentiment::Neutral]),
        upper in any::<bool>(),
        dressed in prop::sample::select(vec![("", ""), ("**", "**"), ("`", "`"), ("_", "_"), ("# ", "")]),
        separator in prop::sample::select(vec![" - ", ": ", " (", ", ", ". ", " — ", "\n"]),
        note in prop::collection::vec(prop::sample::select(vec!["warm", "tone", "the", "customer", "is", "happy", "upset", "refund", "overall", "mixed"]), 0..6),
    ) {
        let name = sentiment_name(value);
        let name = if upper { name.to_uppercase() } else { name.to_owned() };
        let note = note.join(" ");
        let written = if note.is_empty() {
            format!("{}{name}{}", dressed.0, dressed.1)
        } else {
            format!("{}{name}{}{separator}{note}", dressed.0, dressed.1)
        };
        let (read_value, fixes) = read::<Sentiment>(&text(&json!(written)));
        prop_assert_eq!(read_value, value);
        prop_assert!(fixes.len() <= 1);
    }
}
