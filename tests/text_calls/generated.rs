//! Calls of random arguments rendered in each format, read back equal through a derived
//! union and a `Toolset`.

use proptest::prelude::*;
use serde_json::{Map, json};

use super::*;

/// Text with quotes, brackets, commas, parentheses, backslashes, blank and unicode.
fn text() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 ,.:;=!?'\"(){}\\[\\]\\\\\n\té李🙂-]{0,16}"
}

fn one_call() -> impl Strategy<Value = Call> {
    prop_oneof![
        (text(), any::<Option<u8>>())
            .prop_map(|(city, days)| call("get_weather", json!({ "city": city, "days": days }))),
        (text(), any::<bool>())
            .prop_map(|(name, on)| call("switch_lamp", json!({ "name": name, "on": on }))),
        (
            text(),
            prop::collection::vec(text(), 0..3),
            text(),
            any::<i64>()
        )
            .prop_map(|(title, attendees, room, floor)| call(
                "create_event",
                json!({
                    "title": title,
                    "attendees": attendees,
                    "place": { "room": room, "floor": floor }
                })
            )),
        text().prop_map(|query| call("search", json!({ "query": query }))),
    ]
}

/// The formats calls are rendered in.
#[derive(Debug, Clone, Copy)]
enum Format {
    Hermes,
    MistralList,
    MistralArgs,
    LlamaFunction,
    PythonTag,
    Python,
    Object,
}

impl Format {
    fn render(self, calls: &[Call], single_quotes: bool) -> String {
        let json_call = |(name, arguments): &Call| json!({ "name": name, "arguments": arguments });
        let each = |f: &dyn Fn(&Call) -> String, sep: &str| {
            calls.iter().map(f).collect::<Vec<_>>().join(sep)
        };
        match self {
            Format::Hermes => each(
                &|c| format!("<tool_call>\n{}\n</tool_call>", json_call(c)),
                "\n",
            ),
            Format::MistralList => {
                let list: Vec<Value> = calls.iter().map(json_call).collect();
                format!("[TOOL_CALLS]{}", Value::Array(list))
            }
            Format::MistralArgs => each(&|(n, a)| format!("[TOOL_CALLS]{n}[ARGS]{a}"), ""),
            Format::LlamaFunction => each(&|(n, a)| format!("<function={n}>{a}</function>"), "\n"),
            Format::PythonTag => format!(
                "<|python_tag|>{}<|eom_id|>",
                each(
                    &|(n, a)| json!({ "name": n, "parameters": a }).to_string(),
                    "; "
                )
            ),
            Format::Python => format!(
                "[{}]",
                each(
                    &|(n, a)| {
                        let arguments: Vec<String> = a
                            .as_object()
                            .unwrap()
                            .iter()
                            .map(|(k, v)| format!("{k}={}", python(v, single_quotes)))
                            .collect();
                        format!("{n}({})", arguments.join(", "))
                    },
                    ", "
                )
            ),
            Format::Object => each(&|(n, a)| format!("{n}({})", python(a, single_quotes)), "\n"),
        }
    }

    /// Whether the calls are this change's reading, not an earlier one (one JSON call in
    /// a marker, or a JSON list, was read before).
    fn read_as_text(self, count: usize) -> bool {
        match self {
            Format::Hermes | Format::PythonTag => count > 1,
            Format::MistralList => false,
            _ => true,
        }
    }
}

/// A value as a Python literal.
fn python(value: &Value, single_quotes: bool) -> String {
    match value {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => {
            let quote = if single_quotes { '\'' } else { '"' };
            let mut out = String::from(quote);
            for c in s.chars() {
                match c {
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\t' => out.push_str("\\t"),
                    c if c == quote => {
                        out.push('\\');
                        out.push(c);
                    }
                    c => out.push(c),
                }
            }
            out.push(quote);
            out
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(|v| python(v, single_quotes)).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(map) => {
            let members: Vec<String> = map
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{}: {}",
                        python(&Value::String(k.clone()), single_quotes),
                        python(v, single_quotes)
                    )
                })
                .collect();
            format!("{{{}}}", members.join(", "))
        }
    }
}

fn format() -> impl Strategy<Value = Format> {
    prop::sample::select(vec![
        Format::Hermes,
        Format::MistralList,
        Format::MistralArgs,
        Format::LlamaFunction,
        Format::PythonTag,
        Format::Python,
        Format::Object,
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn rendered_calls_read_back_equal(
        calls in prop::collection::vec(one_call(), 1..4),
        format in format(),
        single_quotes in any::<bool>(),
        prose in any::<bool>(),
    ) {
        let mut raw = format.render(&calls, single_quotes);
        if prose {
            raw = format!("<think>\nWhich tools?\n</think>\n{raw}");
        }
        let (found, fixes) = from_toolset(&raw);
        prop_assert_eq!(&found, &calls, "{}", raw);
        let (steps_read, derived_fixes) = derived(&raw, calls.len());
        prop_assert_eq!(steps_read, steps(&calls), "{}", raw);
        if format.read_as_text(calls.len()) {
            let fix = text_fix_prefix(calls.len());
            prop_assert!(fixes.iter().any(|f| f.starts_with(&fix)), "{}: {:?}", raw, fixes);
            prop_assert!(derived_fixes.iter().any(|f| f.starts_with(&fix)), "{}: {:?}", raw, derived_fixes);
        }
    }
}

fn text_fix_prefix(count: usize) -> String {
    if count == 1 {
        "read a tool call written as text".into()
    } else {
        format!("read {count} tool calls written as text")
    }
}

#[test]
fn python_renders_as_expected() {
    let mut map = Map::new();
    map.insert("a".into(), json!(["x'y", null, true, -3]));
    assert_eq!(
        python(&Value::Object(map), true),
        r#"{'a': ['x\'y', None, True, -3]}"#
    );
}
