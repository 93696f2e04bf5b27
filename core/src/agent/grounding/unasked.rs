//! Optional arguments the user never gave, and arguments the tool does not take.
//!
//! A model calling the right tool with the right values still fills in the optional
//! arguments it was not asked for: an age for a BMI (`"age": 16` for "I'm 165cm and
//! 80kg"), the description's example for a unit (`"unit": "cm"` where the user gave
//! none), a date of its own for a lookup that takes today's by default. The tool would
//! use these values as if the user had said them. An optional argument whose value
//! appears nowhere in the conversation (its words, its numbers, the counts its words of
//! time and quantity stand for, the initials of its phrases), is none of the values or
//! bounds its schema lists, and is not the default its schema or its description states,
//! is left out of the call, so that the tool's default applies; the loop reports it as a
//! fix ([`crate::FixKind::UnaskedArgument`]). So is an argument the tool's schema does
//! not list, of any type, with nothing in it that the conversation gives
//! (`"compounds_per_year": 12`, from another tool, in a currency conversion;
//! `"explicit": true`), where the schema lists its arguments and describes no other keys;
//! inside the arguments, `undeclared` finds such keys. Neither is left out where the
//! model wrote the value to fix a violation there, nor where the call would not fit the
//! tool's schema without it (`doubts::leave_out_unasked`).
//!
//! The conversation is what the developer, the user and the tools wrote (see
//! [`Conversation`]), in any script: a value in a script written without spaces (`上海`)
//! is looked for as a part of its text.
//!
//! It applies only to replies to a union of tools with an answer, as the other checks of
//! this module do: with no answer to choose, the model's call is taken as written.
//! `Agent::grounded_calls(false)` turns it off with the others, and keeps every argument
//! as written.
//!
//! Sending such a call back does not work: measured on the tool-choice evaluation, a
//! model under a grammar told to leave the argument out writes it again, word for word.
//! What this loses is a value that follows from the request without being written there
//! (two guests for "me and my husband").

use serde_json::Value;

use super::Conversation;
use super::words::{numbers, sentence, words};

/// How far after the word "default" a description's default is looked for, in chars.
const DEFAULT_WINDOW: usize = 40;

impl Conversation {
    /// The names of the optional arguments of a call `{"name": …, "arguments": …}` of a
    /// tool whose arguments' schema is `schema`, that the conversation never gives (see
    /// the module), and of the keys the tool does not take that hold nothing the
    /// conversation gives ([`Conversation::gives`]). Of the optional arguments, only
    /// strings and numbers are judged: booleans, nulls, arrays and objects say too little
    /// of where they came from.
    pub fn unasked(&self, call: &Value, schema: &Value) -> Vec<String> {
        let Some(arguments) = call.get("arguments").and_then(Value::as_object) else {
            return Vec::new();
        };
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let properties = schema.get("properties").and_then(Value::as_object);
        arguments
            .iter()
            .filter(|(name, _)| !required.contains(&name.as_str()))
            .filter(
                |(name, value)| match properties.and_then(|p| p.get(name.as_str())) {
                    Some(property) => {
                        // A string of no words (`"€"`) says too little to be judged.
                        let judged = matches!(value, Value::Number(_))
                            || value.as_str().is_some_and(|s| !words(s).is_empty());
                        judged
                            && !self.holds(value)
                            && !parts(schema, property)
                                .iter()
                                .any(|part| listed(part, value) || is_default(part, value))
                    }
                    // A key the tool does not take, of any type, with nothing in it that the
                    // conversation gives (`"explicit": true`, `"other_arguments": {}`).
                    None => properties.is_some() && declares_all(schema) && !self.gives(value),
                },
            )
            .map(|(name, _)| name.clone())
            .collect()
    }
}

/// The keywords by which an object's schema takes keys it does not list in `properties`,
/// or lists them elsewhere.
const OTHER_KEYS: &[&str] = &[
    "patternProperties",
    "unevaluatedProperties",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "dependencies",
];

/// Whether an arguments' schema that lists `properties` declares every argument its tool
/// takes: it describes no other keys (no `patternProperties`, no `additionalProperties`
/// schema, no `unevaluatedProperties`, no conditional or dependent schemas that may list
/// more). An open object with no `additionalProperties` at all, as tool servers write
/// them, still declares its arguments: a key it does not list (`"limit": 10` for a tool
/// of `league` and `season`) is the model's, taken from another tool or made up.
pub(super) fn declares_all(schema: &Value) -> bool {
    OTHER_KEYS.iter().all(|k| schema.get(k).is_none())
        && !schema
            .get("additionalProperties")
            .is_some_and(Value::is_object)
}

/// How deep [`parts`] follows `$ref`s and alternatives, and how many parts it gathers at
/// most: a schema from a tool server may refer to itself many times over.
const MAX_PARTS_DEPTH: usize = 8;
const MAX_PARTS: usize = 64;

/// A property's schema and the schemas it stands for: the target of its `$ref` within
/// the arguments' schema `root` (a derived type's `{"$ref": "#/$defs/Units"}`), and its
/// alternatives (`anyOf`, `oneOf`, `allOf`: an `Option<Units>`), each once, followed at
/// most [`MAX_PARTS_DEPTH`] deep, [`MAX_PARTS`] in all.
pub(super) fn parts<'a>(root: &'a Value, property: &'a Value) -> Vec<&'a Value> {
    let mut out: Vec<&Value> = Vec::new();
    let mut stack = vec![(property, 0)];
    while let Some((part, depth)) = stack.pop() {
        if out.len() == MAX_PARTS {
            break;
        }
        if out.iter().any(|seen| std::ptr::eq(*seen, part)) {
            continue;
        }
        out.push(part);
        if depth == MAX_PARTS_DEPTH {
            continue;
        }
        let target = part
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix('#'))
            .and_then(|pointer| root.pointer(pointer));
        stack.extend(target.map(|t| (t, depth + 1)));
        for key in ["anyOf", "oneOf", "allOf"] {
            let alternatives = part.get(key).and_then(Value::as_array);
            stack.extend(alternatives.into_iter().flatten().map(|a| (a, depth + 1)));
        }
    }
    out
}

/// Whether `value` is one the property lists (`enum`, `const`) or one of its bounds
/// (`minimum`, `maximum`): a choice among the tool's own values is the model's reading of
/// the request (`"imperial"` for "in Fahrenheit", `255` for "full brightness"), not a
/// fact it made up.
fn listed(property: &Value, value: &Value) -> bool {
    let bound = |key: &str| {
        let (Some(bound), Some(n)) = (property.get(key).and_then(Value::as_f64), value.as_f64())
        else {
            return false;
        };
        (bound - n).abs() <= f64::EPSILON * n.abs().max(1.0)
    };
    property.get("const") == Some(value)
        || property
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|values| values.contains(value))
        || bound("minimum")
        || bound("maximum")
}

/// Whether `value` is the default a property's schema states (`"default": …`) or its
/// description names (`Default is 'units'.`, `defaults to 10 minutes`, `(default: en)`).
fn is_default(property: &Value, value: &Value) -> bool {
    if property.get("default") == Some(value) {
        return true;
    }
    let Some(description) = property.get("description").and_then(Value::as_str) else {
        return false;
    };
    let lower = description.to_lowercase();
    lower.match_indices("default").any(|(at, word)| {
        let after: String = lower[at + word.len()..]
            .chars()
            .take(DEFAULT_WINDOW)
            .collect();
        names_value(sentence(&after), value)
    })
}

/// Whether the text of a description's default names `value`: every word of a string, or
/// the number.
fn names_value(stated: &str, value: &Value) -> bool {
    match value {
        Value::String(s) => {
            let wanted = words(s);
            let there = words(stated);
            !wanted.is_empty() && wanted.iter().all(|w| there.contains(w))
        }
        Value::Number(n) => n.as_f64().is_some_and(|n| {
            numbers(stated)
                .iter()
                .any(|m| (m - n).abs() <= f64::EPSILON * n.abs().max(1.0))
        }),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::Conversation;

    fn triangle() -> Value {
        json!({
            "type": "object",
            "properties": {
                "base": {"type": "number"},
                "height": {"type": "number"},
                "unit": {"type": "string", "description": "The unit of length, e.g. 'cm'. Default is 'units'."},
                "precision": {"type": "integer", "description": "Decimal places (default: 2)."},
                "label": {"type": "string", "default": "area"},
                "exact": {"type": "boolean"},
                "system": {"type": "string", "enum": ["metric", "imperial"]},
                "brightness": {"type": "integer", "minimum": 0, "maximum": 255}
            },
            "required": ["base", "height"]
        })
    }

    fn unasked(request: &str, arguments: Value) -> Vec<String> {
        let conversation = Conversation::new(None, &[], request, request);
        let call = json!({"name": "math.triangle_area", "arguments": arguments});
        conversation.unasked(&call, &triangle())
    }

    #[test]
    fn an_argument_the_tool_does_not_list_with_a_value_never_given_is_found() {
        let request = "Area of a triangle, base 12 and height 7.5, with 3 decimals";
        let found = unasked(
            request,
            json!({"base": 12, "height": 7.5, "limit": 10, "level": "high"}),
        );
        assert_eq!(found, ["limit", "level"]);
        // One with something the user gave stands, at any depth, and so does a string
        // too short to judge.
        let arguments = json!({"base": 12, "height": 7.5, "decimals": 3,
            "tags": ["x", "decimals"], "style": {"places": 3}, "sign": "€"});
        assert_eq!(unasked(request, arguments), Vec::<String>::new());
        // Nothing the user gave: a boolean, a null, empty and made-up containers.
        let arguments = json!({"base": 12, "height": 7.5, "round": true, "note": null,
            "other_arguments": {}, "tags": [], "color": {"r": 0, "h": 0.5}});
        assert_eq!(
            unasked(request, arguments),
            ["round", "note", "other_arguments", "tags", "color"]
        );
    }

    #[test]
    fn a_schema_that_takes_other_keys_or_lists_none_keeps_them() {
        let conversation = Conversation::new(None, &[], "tag it", "tag it");
        let call = json!({"name": "t", "arguments": {"color": "red"}});
        for schema in [
            json!({"type": "object", "properties": {"x": {}}, "additionalProperties": {"type": "string"}}),
            json!({"type": "object", "properties": {"x": {}}, "patternProperties": {"^c": {}}}),
            json!({"type": "object"}),
            json!({"$ref": "#/$defs/T", "$defs": {"T": {"type": "object", "properties": {"x": {}}}}}),
        ] {
            assert_eq!(
                conversation.unasked(&call, &schema),
                Vec::<String>::new(),
                "{schema}"
            );
        }
        let open = json!({"type": "object", "properties": {"x": {}}, "additionalProperties": true});
        assert_eq!(conversation.unasked(&call, &open), ["color"]);
    }

    #[test]
    fn an_optional_value_the_user_never_gave_is_found() {
        let found = unasked(
            "Area of a triangle, base 12 and height 7.5?",
            json!({"base": 12, "height": 7.5, "unit": "cm"}),
        );
        assert_eq!(found, ["unit"]);
    }

    #[test]
    fn values_the_user_gave_defaults_and_required_arguments_stand() {
        let request = "Area of a triangle with base 12 cm and height 7.5, in cm please";
        for arguments in [
            json!({"base": 12, "height": 7.5}),
            json!({"base": 12, "height": 7.5, "unit": "cm"}),
            json!({"base": 12, "height": 7.5, "unit": "units"}),
            json!({"base": 12, "height": 7.5, "precision": 2}),
            json!({"base": 12, "height": 7.5, "label": "area"}),
            json!({"base": 12, "height": 7.5, "exact": true, "unit": ""}),
            // A choice among the tool's own values.
            json!({"base": 12, "height": 7.5, "system": "imperial"}),
            // One of its bounds.
            json!({"base": 12, "height": 7.5, "brightness": 255}),
            // Required arguments are the whole-call check's business.
            json!({"base": 99, "height": 1}),
            // An argument the tool does not list, with a value the user gave.
            json!({"base": 12, "height": 7.5, "measure": "cm"}),
        ] {
            assert_eq!(
                unasked(request, arguments.clone()),
                Vec::<String>::new(),
                "{arguments}"
            );
        }
    }

    #[test]
    fn a_default_is_read_from_the_description_only_after_the_word() {
        // `cm` is the description's example, not its default.
        let found = unasked(
            "base 3, height 4",
            json!({"base": 3, "height": 4, "unit": "cm", "precision": 5}),
        );
        assert_eq!(found, ["unit", "precision"]);
    }

    #[test]
    fn a_value_listed_behind_a_reference_or_an_alternative_stands() {
        let schema = json!({
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "units": {"$ref": "#/$defs/Units", "description": "Default is 'metric'."},
                "scale": {"anyOf": [{"$ref": "#/$defs/Scale"}, {"type": "null"}]}
            },
            "required": ["city"],
            "$defs": {
                "Units": {"type": "string", "enum": ["metric", "imperial"]},
                "Scale": {"type": "string", "enum": ["celsius", "kelvin"], "default": "celsius"}
            }
        });
        let conversation =
            Conversation::new(None, &[], "Denver, in Fahrenheit", "Denver, in Fahrenheit");
        for arguments in [
            json!({"city": "Denver", "units": "imperial"}),
            json!({"city": "Denver", "scale": "kelvin"}),
        ] {
            let call = json!({"name": "forecast", "arguments": arguments});
            assert_eq!(
                conversation.unasked(&call, &schema),
                Vec::<String>::new(),
                "{call}"
            );
        }
        let call = json!({"name": "forecast", "arguments": {"city": "Denver", "units": "si"}});
        assert_eq!(conversation.unasked(&call, &schema), ["units"]);
    }

    #[test]
    fn a_schema_that_refers_to_itself_many_times_is_read_in_bounded_parts() {
        let many: Vec<Value> = (0..16).map(|_| json!({"$ref": "#/$defs/A"})).collect();
        let schema = json!({
            "type": "object",
            "properties": {"x": {"$ref": "#/$defs/A"}},
            "$defs": {"A": {"anyOf": many}}
        });
        let parts = super::parts(&schema, &schema["properties"]["x"]);
        assert!(parts.len() <= super::MAX_PARTS, "{}", parts.len());
        let conversation = Conversation::new(None, &[], "nothing", "nothing");
        let call = json!({"name": "t", "arguments": {"x": "zzz"}});
        assert_eq!(conversation.unasked(&call, &schema), ["x"]);
    }

    #[test]
    fn a_string_of_no_words_is_not_judged() {
        let found = unasked(
            "base 3, height 4 in €",
            json!({"base": 3, "height": 4, "unit": "€"}),
        );
        assert_eq!(found, Vec::<String>::new());
    }

    #[test]
    fn a_count_that_words_of_time_or_quantity_stand_for_stands() {
        for (request, precision) in [
            ("base 3, height 4, to the hour", 60),
            ("base 3, height 4, this week", 7),
            ("base 3, height 4, a dozen places", 12),
            ("base 3, height 4, a couple of places", 2),
            ("base 3, height 4, to twenty-five places", 25),
            ("base 3, height 4, to a hundred and twenty places", 120),
        ] {
            let arguments = json!({"base": 3, "height": 4, "precision": precision});
            assert_eq!(
                unasked(request, arguments),
                Vec::<String>::new(),
                "{request}"
            );
        }
        let arguments = json!({"base": 3, "height": 4, "precision": 61});
        assert_eq!(
            unasked("base 3, height 4, to the hour", arguments),
            ["precision"]
        );
    }

    proptest::proptest! {
        /// A value the request holds, a string of words or a number as the user wrote
        /// it, is never left out, wherever it stands in the request.
        #[test]
        fn a_value_the_request_holds_is_never_unasked(
            words in proptest::collection::vec("[A-Za-z][a-z]{1,9}", 1..4),
            number in -100_000i64..100_000,
            cents in 0u8..100,
            before in "[A-Za-z ,.?]{0,30}",
            after in "[A-Za-z ,.?]{0,30}",
        ) {
            let text = words.join(" ");
            let decimal = format!("{number}.{cents:02}");
            let request = format!("{before} {text}, about {decimal} {after}");
            let decimal: f64 = decimal.parse().expect("a number");
            let arguments = json!({"base": 1, "height": 2, "unit": text, "precision": decimal});
            let conversation = Conversation::new(None, &[], &request, &request);
            let call = json!({"name": "math.triangle_area", "arguments": arguments});
            proptest::prop_assert_eq!(conversation.unasked(&call, &triangle()), Vec::<String>::new());
        }
    }
}
