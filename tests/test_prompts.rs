//! Everything toolschema says to a model, checked: each dialect's schema, the compact
//! form, examples, repair prompts and tool docs as reviewed snapshots (tests/snapshots/);
//! the dialect outputs against the JSON Schema meta-schema and OpenAI's strict-mode rules;
//! and what the compact form and the minimal repair save, in real BPE tokens.
//!
//! The token table: `cargo test -p toolschema-tests --test test_prompts tokens -- --nocapture`

#[path = "prompts/model_text.rs"]
mod model_text;
#[path = "prompts/openai.rs"]
mod openai;
#[path = "prompts/types.rs"]
mod types;

use std::fmt::Write as _;

use serde_json::{Value, json};
use tiktoken_rs::ChatCompletionRequestMessage;
use toolschema::feedback::{RepairPrompt, Template};
use toolschema::{Dialect, Message, RepairStrategy, ToolSchema};

use types::{Comment, DIALECTS, Event, Inventory, Order, Person, Step, cases};

// ---------------------------------------------------------------------------------------
// Snapshots, to be read as a model reads them.

/// Per type: the compact form, the example, and the schema in every dialect with the
/// report of changes (or the error when the dialect cannot express the type).
#[test]
fn type_snapshots() {
    for case in cases() {
        let mut text = String::new();
        let _ = writeln!(text, "== compact ==\n{}\n", (case.compact)());
        let _ = writeln!(text, "== example ==\n{}\n", (case.example)());
        for dialect in DIALECTS {
            let _ = writeln!(text, "== {dialect:?} ==");
            match (case.dialect)(dialect) {
                Ok(out) => {
                    for change in &out.changes {
                        let _ = writeln!(text, "- {change}");
                    }
                    let pretty = serde_json::to_string_pretty(&out.schema).unwrap_or_default();
                    let _ = writeln!(text, "{pretty}\n");
                }
                Err(err) => {
                    let _ = writeln!(text, "cannot be expressed:\n{err}\n");
                }
            }
        }
        insta::assert_snapshot!(format!("type__{}", case.name), text);
    }
}

/// A failed reply of some kind, for one target type.
struct Failure {
    name: &'static str,
    request: &'static str,
    raw: &'static str,
    prompt: fn(&str) -> RepairPrompt,
    compact: fn() -> String,
}

fn failure<T: ToolSchema + std::fmt::Debug>(
    name: &'static str,
    request: &'static str,
    raw: &'static str,
) -> Failure {
    Failure {
        name,
        request,
        raw,
        prompt: |raw| {
            let err = toolschema::parse::<T>(raw).expect_err("the reply must fail");
            RepairPrompt::new::<T>(raw, &err)
        },
        compact: toolschema::render::compact::<T>,
    }
}

/// A failure whose reply the provider cut at its token limit.
fn cut_failure<T: ToolSchema + std::fmt::Debug>(
    name: &'static str,
    request: &'static str,
    raw: &'static str,
) -> Failure {
    Failure {
        prompt: |raw| {
            let err = toolschema::parse::<T>(raw).expect_err("the reply must fail");
            RepairPrompt::new::<T>(raw, &err).truncated(true)
        },
        ..failure::<T>(name, request, raw)
    }
}

fn failures() -> Vec<Failure> {
    vec![
        failure::<Person>(
            "wrong_type",
            "Ann Lee, 31, no email, tagged vip.",
            r#"{"name": "Ann Lee", "age": "31 years", "email": null, "tags": "vip"}"#,
        ),
        failure::<Person>(
            "missing_field",
            "Ann Lee, 31, tagged vip.",
            r#"{"name": "Ann Lee", "email": null}"#,
        ),
        failure::<Person>(
            "unknown_near_miss_key",
            "Ann Lee, 31.",
            r#"{"name": "Ann Lee", "agee": 31, "tag": [], "email": null}"#,
        ),
        failure::<Order>(
            "enum_value",
            "Ann wants 2 of A-100 at 9.50, as soon as possible, by 1 May 2024.",
            r#"{"customer": "Ann", "priority": "asap", "items": [{"sku": "A-100", "quantity": 2, "unit_price": 9.5}], "note": null, "due": "2024-05-01", "gift": false}"#,
        ),
        failure::<Person>(
            "out_of_range",
            "Methuselah, 969 years old.",
            r#"{"name": "Methuselah", "age": 969, "email": null, "tags": []}"#,
        ),
        failure::<Order>(
            "pattern",
            "Bob: three b7 at 2 euros, normal priority, due 2024-06-01.",
            r#"{"customer": "Bob", "priority": "normal", "items": [{"sku": "b7", "quantity": 3, "unit_price": 2}], "note": null, "due": "2024-06-01", "gift": false}"#,
        ),
        failure::<Person>(
            "code_fence_and_prose",
            "Ann Lee, 31.",
            "Sure! Here is the JSON you asked for:\n```json\n{\"name\": \"Ann Lee\", \"age\": 31}\n```\nLet me know if you need anything else.",
        ),
        failure::<Order>(
            "truncated",
            "Ann's order: A-100 x2 at 9.50, B-7 x1 at 20, low priority, due 2024-05-01.",
            r#"{"customer": "Ann", "priority": "low", "items": [{"sku": "A-100", "quantity": 2, "unit_price": 9.5}, {"sku": "B-7", "quant"#,
        ),
        cut_failure::<Order>(
            "looped",
            "Ann wants 2 of A-100 at 9.50, low priority, by 1 May 2024; leave it at the door.",
            concat!(
                r#"{"customer": "Ann", "priority": "low", "items": [{"sku": "A-100", "quantity": 2, "unit_price": 9.5}], "note": "Leave it at the door"#,
                ", then ring twice and wait",
                ", then ring twice and wait",
                ", then ring twice and wait",
                ", then ring twice and wait",
                ", then ring twice and wait",
                ", then ring twice and wait",
                ", then ring twice and wait",
                ", then ring t",
            ),
        ),
        failure::<Person>(
            "schema_echoed",
            "Ann Lee, 31.",
            r#"{"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}}, "required": ["name", "age"]}"#,
        ),
        failure::<Step>(
            "tool_name_misspelled",
            "What's the weather in Paris this week?",
            r#"{"name": "get_wether", "arguments": {"city": "Paris", "unit": null, "days": 7}}"#,
        ),
        failure::<Person>(
            "single_quotes_trailing_comma",
            "Ann Lee, 31.",
            "{'name': 'Ann Lee', 'age': 'thirty-one', 'tags': [],}",
        ),
        failure::<Step>(
            "xml_wrapper",
            "Turn on the kitchen light.",
            "<tool_call>\n{\"name\": \"lights_on\", \"arguments\": {\"rooom\": \"kitchen\"}}\n</tool_call>",
        ),
        failure::<Person>(
            "not_json",
            "Ann Lee, 31.",
            "I'm sorry, I can't share personal data.",
        ),
        failure::<Event>(
            "several_at_once",
            "Standup every day at 9, 15 minutes, with Ann and Bob.",
            r#"{"title": "", "id": "not-a-uuid", "startsAt": "2024-05-01T09:00:00Z", "durationMinutes": 1, "attendees": ["Ann", "Ann"], "room": "B12"}"#,
        ),
    ]
}

/// Both strategies' messages for each failure kind: what the model reads next.
#[test]
fn repair_prompt_snapshots() {
    for f in failures() {
        let prompt = (f.prompt)(f.raw).attempt(1, 3).request(f.request);
        let conversation = first_request(f.compact, f.request);
        let mut text = String::new();
        for strategy in [RepairStrategy::Conversation, RepairStrategy::Minimal] {
            let messages = prompt.messages(strategy, &conversation);
            let new = match strategy {
                RepairStrategy::Minimal => &messages[..],
                _ => &messages[conversation.len()..],
            };
            let _ = writeln!(text, "== {strategy:?} ==");
            for m in new {
                let _ = writeln!(text, "--- {:?} ---\n{}", m.role, m.content);
            }
            text.push('\n');
        }
        insta::assert_snapshot!(format!("repair__{}", f.name), text);
    }
}

/// A long reply is cut, and the fence around it cannot be closed by what it quotes.
#[test]
fn quoted_reply_is_cut_and_fenced() {
    let raw = format!(
        "Here: ```` {} {{\"name\": 1}}",
        "a very long preamble ".repeat(10)
    );
    let err = toolschema::parse::<Person>(&raw).unwrap_err();
    let prompt = RepairPrompt::new::<Person>(&raw, &err).max_reply_chars(40);
    let quoted = prompt.quoted_reply();
    insta::assert_snapshot!("repair__quoted_reply_cut", quoted);
    let fence = quoted.lines().next().unwrap_or_default();
    assert!(fence.len() > 4 && fence.chars().all(|c| c == '`'));
}

/// A user template fills its placeholders; a wrong one is refused when it is built.
#[test]
fn user_template() {
    let raw = r#"{"name": "Ann"}"#;
    let err = toolschema::parse::<Person>(raw).unwrap_err();
    let prompt = RepairPrompt::new::<Person>(raw, &err)
        .attempt(2, 3)
        .request("Ann, 31");
    let template = Template::new("Try {attempt}/{max_attempts} for {{{request}}}:\n{violations}")
        .expect("the template parses");
    assert_eq!(
        template.render(&prompt),
        "Try 2/3 for {Ann, 31}:\n- /age: missing required field (hint: age in whole years)\n- /tags: missing required field"
    );
    let err = Template::new("{violations} {reply_text}").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("unknown placeholder {reply_text}")
    );
    assert_eq!(err.offset, 13);
}

#[test]
fn tool_docs_snapshots() {
    insta::assert_snapshot!("docs__tool_union", toolschema::docs::markdown::<Step>());
    insta::assert_snapshot!("docs__order", toolschema::docs::markdown::<Order>());
    insta::assert_snapshot!("docs__event", toolschema::docs::markdown::<Event>());
}

// ---------------------------------------------------------------------------------------
// Validity.

/// Every dialect output is a valid draft 2020-12 schema that the `jsonschema` crate
/// compiles, and the type's example, wrapped as the dialect wraps it, passes it.
#[test]
fn dialect_outputs_are_valid_schemas() {
    let mut problems = Vec::new();
    for case in cases() {
        for dialect in DIALECTS {
            let Ok(out) = (case.dialect)(dialect) else {
                continue;
            };
            let at = format!("{} in {dialect:?}", case.name);
            if let Err(e) = jsonschema::draft202012::meta::validate(&out.schema) {
                problems.push(format!("{at}: not a valid schema: {e}"));
                continue;
            }
            let validator = match jsonschema::draft202012::new(&out.schema) {
                Ok(v) => v,
                Err(e) => {
                    problems.push(format!("{at}: does not compile: {e}"));
                    continue;
                }
            };
            let example = (case.example)();
            let sent = if out.wrapped {
                json!({ toolschema::dialect::WRAPPER: example })
            } else {
                example
            };
            for e in validator.iter_errors(&sent) {
                problems.push(format!("{at}: example {sent} fails: {e}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The documented strict-mode rules (prompts/openai.rs) hold for every OpenAI output.
#[test]
fn openai_strict_rules() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for case in cases() {
        let Ok(out) = (case.dialect)(Dialect::OpenAiStrict) else {
            continue;
        };
        checked += 1;
        for problem in openai::check(&out.schema) {
            broken.push(format!("{}: {problem}", case.name));
        }
    }
    assert!(checked >= 8, "only {checked} types expressible");
    assert!(broken.is_empty(), "{}", broken.join("\n"));
    // The rules catch what they should.
    let bad = json!({
        "type": "object",
        "properties": { "a": { "type": "string", "minLength": 1, "format": "regex" }, "b": { "$ref": "#/$defs/B", "description": "x" } },
        "required": ["a"],
    });
    assert_eq!(
        openai::check(&bad),
        [
            "(root): an object needs additionalProperties: false",
            "(root): required must list every property: missing \"b\"",
            "/properties/a: unsupported keyword minLength",
            "/properties/a: unsupported format \"regex\"",
            "/properties/b: $ref must stand alone, found description beside it",
        ]
    );
}

/// The example of every type is accepted; under OpenAI strict mode, a reply that sets
/// every nullable field to null is accepted once unwrapped.
#[test]
fn examples_are_accepted() {
    let mut problems = Vec::new();
    for case in cases() {
        let example = (case.example)();
        if let Err(e) = (case.accepts)(example.clone()) {
            problems.push(format!("{}: example {example} rejected:\n{e}", case.name));
        }
        let Ok(out) = (case.dialect)(Dialect::OpenAiStrict) else {
            continue;
        };
        let Ok(validator) = jsonschema::draft202012::new(&out.schema) else {
            problems.push(format!("{}: OpenAI schema does not compile", case.name));
            continue;
        };
        let full = if out.wrapped {
            json!({ toolschema::dialect::WRAPPER: example })
        } else {
            example
        };
        let nulls = null_everything_nullable(&full, &|v| validator.is_valid(v));
        for sent in [full, nulls] {
            if !validator.is_valid(&sent) {
                problems.push(format!("{}: {sent} fails the OpenAI schema", case.name));
                continue;
            }
            if let Err(e) = (case.accepts)(out.unwrap(sent.clone())) {
                problems.push(format!(
                    "{}: OpenAI reply {sent} rejected once unwrapped:\n{e}",
                    case.name
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// What a lazy model writes: every object member that may be null, null.
fn null_everything_nullable(value: &Value, valid: &dyn Fn(&Value) -> bool) -> Value {
    let mut out = value.clone();
    let mut pointers = Vec::new();
    members(value, String::new(), &mut pointers);
    for pointer in pointers {
        let mut trial = out.clone();
        if let Some(slot) = trial.pointer_mut(&pointer) {
            *slot = Value::Null;
            if valid(&trial) {
                out = trial;
            }
        }
    }
    out
}

fn members(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let here = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                out.push(here.clone());
                members(v, here, out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                members(v, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// A dialect that cannot express a type says which field, in words and as a pointer.
#[test]
fn inexpressible_types_name_the_field() {
    let err = toolschema::schema_for::<Inventory>(Dialect::OpenAiStrict).unwrap_err();
    assert_eq!(
        err.to_string(),
        "/properties/levels: `levels` is a map with free keys, which OpenAI strict mode cannot express"
    );
    let err = toolschema::schema_for::<Inventory>(Dialect::Anthropic).unwrap_err();
    assert!(err.to_string().contains("`levels` is a map with free keys"));
    let err = toolschema::schema_for::<Comment>(Dialect::Anthropic).unwrap_err();
    assert!(err.to_string().contains("recursive"), "{err}");
}

/// A run-time schema that asks for one key of several (`anyOf` of bare `required` lists,
/// as servers write "give a city or a postal code") says which keys, not `any | any`.
#[test]
fn keys_asked_by_alternatives_are_named() {
    let compact = |schema: Value| {
        toolschema::render::compact_schema(&toolschema::Schema::from_json(schema).expect("schema"))
    };
    let object = |alternatives: &str, sets: Value| {
        let mut schema = json!({
            "type": "object",
            "properties": {"city": {"type": "string"}, "zip": {"type": "string"}, "country": {"type": "string"}}
        });
        schema[alternatives] = sets;
        compact(schema)
    };
    let either = object(
        "anyOf",
        json!([{"required": ["city"]}, {"required": ["zip", "country"]}]),
    );
    assert_eq!(
        either,
        "{ city?: string, zip?: string, country?: string, [key: string]: any } \
         /* with at least one of: city | zip and country */"
    );
    let one = object(
        "oneOf",
        json!([{"required": ["city"]}, {"required": ["zip"]}]),
    );
    assert!(
        one.ends_with("/* with exactly one of: city | zip */"),
        "{one}"
    );
    // Alternatives that say more than their keys are still types.
    let typed = object(
        "anyOf",
        json!([{"required": ["city"]}, {"required": ["zip"], "properties": {"zip": {"minLength": 4}}}]),
    );
    assert!(
        typed.contains(" & ") && !typed.contains("one of:"),
        "{typed}"
    );
    // Described alternatives keep their descriptions.
    let described = object(
        "anyOf",
        json!([
            {"required": ["city"], "description": "Look up by city name."},
            {"required": ["zip"], "description": "By postal code, faster."}
        ]),
    );
    assert!(
        described.contains("Look up by city name.")
            && described.contains("By postal code, faster."),
        "{described}"
    );
    // Inside an `allOf`, the keys are said of the whole object, with no `& any`.
    let all = object(
        "allOf",
        json!([{"anyOf": [{"required": ["city"]}, {"required": ["zip"]}]}]),
    );
    assert!(
        all.ends_with("} /* with at least one of: city | zip */") && !all.contains("any /*"),
        "{all}"
    );
}

/// The compact form states every constraint of the JSON Schema (the validator's rules).
#[test]
fn compact_states_every_constraint() {
    let mut missing = Vec::new();
    for case in cases() {
        let compact = (case.compact)();
        let mut wanted = Vec::new();
        constraints(&(case.json_schema)(), &mut wanted);
        for (keyword, value) in wanted {
            let said = match &value {
                Value::String(s) => compact.contains(s.as_str()),
                Value::Number(n) => {
                    let text = n.to_string();
                    compact.contains(&text) || machine_bound(n, &compact)
                }
                _ => true,
            };
            if !said {
                missing.push(format!(
                    "{}: {keyword} {value} not in\n{compact}",
                    case.name
                ));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// Bounds the compact form writes short: the whole range of a machine type (`int32`,
/// `uint64`, `float32`), or a large bound as a power of two (`2^16-1`).
fn machine_bound(n: &serde_json::Number, compact: &str) -> bool {
    let sized = ["int32", "int64", "float32"]
        .iter()
        .any(|name| compact.contains(name));
    let large = n.as_f64().is_some_and(|f| f.abs() >= 65_535.0);
    let zero = n.as_f64() == Some(0.0);
    (large && (sized || compact.contains("2^"))) || (zero && compact.contains("uint"))
}

/// Constraint keywords and their values, everywhere in a schema.
fn constraints(schema: &Value, out: &mut Vec<(String, Value)>) {
    const KEYWORDS: &[&str] = &[
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "pattern",
        "format",
        "multipleOf",
        "const",
    ];
    match schema {
        Value::Object(map) => {
            for (k, v) in map {
                if KEYWORDS.contains(&k.as_str()) {
                    out.push((k.clone(), v.clone()));
                } else if k == "enum" {
                    out.extend(
                        v.as_array()
                            .into_iter()
                            .flatten()
                            .map(|e| (k.clone(), e.clone())),
                    );
                } else if k != "description" && k != "examples" {
                    constraints(v, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| constraints(v, out)),
        _ => {}
    }
}

// ---------------------------------------------------------------------------------------
// Tokens.

/// The first request a model got: a system prompt with the shape, and the user's words.
fn first_request(compact: fn() -> String, request: &str) -> Vec<Message> {
    vec![
        Message::system(format!(
            "Reply with only a JSON value of this shape:\n{}",
            compact()
        )),
        Message::user(request),
    ]
}

fn text_tokens(text: &str) -> usize {
    tiktoken_rs::o200k_base_singleton()
        .encode_with_special_tokens(text)
        .len()
}

/// Prompt tokens of a chat request to gpt-4o (o200k_base, with the per-message framing).
fn prompt_tokens(messages: &[Message]) -> usize {
    let messages: Vec<ChatCompletionRequestMessage> = messages
        .iter()
        .map(|m| ChatCompletionRequestMessage {
            role: serde_json::to_value(m.role)
                .ok()
                .and_then(|r| r.as_str().map(str::to_owned))
                .unwrap_or_default(),
            content: Some(m.content.clone()),
            name: None,
            function_call: None,
        })
        .collect();
    tiktoken_rs::num_tokens_from_messages("gpt-4o", &messages).expect("gpt-4o is known")
}

/// Compact form against the pretty-printed JSON Schema, and the minimal repair request
/// against the continued conversation, in o200k_base tokens. Prints the tables.
#[test]
fn tokens() {
    println!("\ncompact form vs JSON Schema (o200k_base tokens; ratio = compact / pretty)");
    println!(
        "{:<20} {:>8} {:>9} {:>8} {:>6} {:>10}",
        "type", "pretty", "minified", "compact", "ratio", "/minified"
    );
    let (mut pretty_total, mut minified_total, mut compact_total) = (0, 0, 0);
    for case in cases() {
        let schema = (case.json_schema)();
        let pretty = text_tokens(&serde_json::to_string_pretty(&schema).unwrap_or_default());
        let minified = text_tokens(&schema.to_string());
        let compact = text_tokens(&(case.compact)());
        pretty_total += pretty;
        minified_total += minified;
        compact_total += compact;
        println!(
            "{:<20} {pretty:>8} {minified:>9} {compact:>8} {:>6.2} {:>10.2}",
            case.name,
            compact as f64 / pretty as f64,
            compact as f64 / minified as f64
        );
    }
    let ratio = compact_total as f64 / pretty_total as f64;
    println!(
        "{:<20} {pretty_total:>8} {minified_total:>9} {compact_total:>8} {ratio:>6.2} {:>10.2}",
        "all",
        compact_total as f64 / minified_total as f64
    );
    assert!(ratio <= 0.4, "compact/schema = {ratio:.2}, target 0.4");

    println!("\nrepair request per test type: its example with an unknown key added");
    println!(
        "{:<20} {:>12} {:>8} {:>6}",
        "type", "conversation", "minimal", "ratio"
    );
    let (mut conversation_total, mut minimal_total) = (0, 0);
    for case in cases() {
        let raw = match (case.example)() {
            Value::Object(mut map) => {
                map.insert("comment".into(), json!("all fields filled in"));
                Value::Object(map)
            }
            other => json!({ "result": other }),
        }
        .to_string();
        let request = format!("Give me one {} as JSON.", case.name.replace('_', " "));
        let prompt = (case.repair)(&raw)
            .unwrap_or_else(|| panic!("{}: {raw} should fail", case.name))
            .attempt(1, 3)
            .request(request.as_str());
        let first = first_request(case.compact, &request);
        let conversation = prompt_tokens(&prompt.messages(RepairStrategy::Conversation, &first));
        let minimal = prompt_tokens(&prompt.messages(RepairStrategy::Minimal, &first));
        conversation_total += conversation;
        minimal_total += minimal;
        println!(
            "{:<20} {conversation:>12} {minimal:>8} {:>6.2}",
            case.name,
            minimal as f64 / conversation as f64
        );
        assert!(
            minimal < conversation,
            "{}: minimal {minimal} ≥ conversation {conversation}",
            case.name
        );
    }
    println!(
        "{:<20} {conversation_total:>12} {minimal_total:>8} {:>6.2}",
        "all",
        minimal_total as f64 / conversation_total as f64
    );

    println!("\nrepair request per failure kind, prompt tokens of the whole message list");
    println!(
        "{:<30} {:>12} {:>8} {:>6}",
        "failure", "conversation", "minimal", "ratio"
    );
    let (mut conversation_total, mut minimal_total) = (0, 0);
    for f in failures() {
        let prompt = (f.prompt)(f.raw).attempt(1, 3).request(f.request);
        let first = first_request(f.compact, f.request);
        let conversation = prompt_tokens(&prompt.messages(RepairStrategy::Conversation, &first));
        let minimal = prompt_tokens(&prompt.messages(RepairStrategy::Minimal, &first));
        conversation_total += conversation;
        minimal_total += minimal;
        println!(
            "{:<30} {conversation:>12} {minimal:>8} {:>6.2}",
            f.name,
            minimal as f64 / conversation as f64
        );
        assert!(
            minimal < conversation,
            "{}: minimal {minimal} ≥ conversation {conversation}",
            f.name
        );
    }
    println!(
        "{:<30} {conversation_total:>12} {minimal_total:>8} {:>6.2}",
        "all",
        minimal_total as f64 / conversation_total as f64
    );
}
