//! The check of an answer to a request that holds what a tool needs, on requests and
//! tools of its own.

use serde_json::{Value, json};

use super::super::Conversation;
use super::numbers_in_digits;

fn asked(request: &str) -> Conversation {
    Conversation::new(None, &[], request, request)
}

/// A tool's arguments' schema: these properties, these required.
fn arguments(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required})
}

fn quadratic() -> (&'static str, &'static str, Value) {
    (
        "solve_quadratic",
        "solve_quadratic Find the real roots of a quadratic equation ax^2 + bx + c = 0. a b c",
        arguments(
            json!({"a": {"type": "number"}, "b": {"type": "number"}, "c": {"type": "number"}}),
            &["a", "b", "c"],
        ),
    )
}

fn gcd() -> (&'static str, &'static str, Value) {
    (
        "math_gcd",
        "math.gcd Finds the greatest common divisor of two or more whole numbers. numbers",
        arguments(
            json!({"numbers": {"type": "array", "items": {"type": "integer"}, "minItems": 2}}),
            &["numbers"],
        ),
    )
}

fn units() -> (&'static str, &'static str, Value) {
    (
        "kitchen_convert_units",
        "kitchen.convert_units Converts an amount between kitchen measures. quantity from_unit to_unit",
        arguments(
            json!({
                "quantity": {"type": "number"},
                "from_unit": {"type": "string", "enum": ["cup", "gram", "tablespoon"]},
                "to_unit": {"type": "string", "enum": ["cup", "gram", "tablespoon"]}
            }),
            &["quantity", "from_unit", "to_unit"],
        ),
    )
}

fn flights() -> (&'static str, &'static str, Value) {
    (
        "travel_search_flights",
        "travel.search_flights Searches flights between two airports on a date. origin destination date",
        arguments(
            json!({"origin": {"type": "string"}, "destination": {"type": "string"}, "date": {"type": "string"}}),
            &["origin", "destination", "date"],
        ),
    )
}

fn triangle() -> (&'static str, &'static str, Value) {
    (
        "math_triangle_area",
        "math.triangle_area Computes the area of a triangle from its base and height. base height",
        arguments(
            json!({"base": {"type": "number"}, "height": {"type": "number"}}),
            &["base", "height"],
        ),
    )
}

/// The tool an answer to `request` is told it skips, among `tools`.
fn skipped(request: &str, tools: &[(&'static str, &'static str, Value)]) -> Option<String> {
    let answer = json!({"answer": "42"});
    let tools = tools
        .iter()
        .map(|(shown, about, args)| (*shown, *about, args));
    let violation = asked(request).skips_by_values(&answer, tools)?;
    assert_eq!(violation.pointer(), "/answer");
    Some(violation.to_string())
}

#[test]
fn an_answer_to_a_request_holding_a_tools_values_and_its_words_skips_it() {
    let all = [quadratic(), gcd(), units(), flights()];
    for (request, tool) in [
        ("Find the roots of x^2 + 4x + 4 = 0.", "solve_quadratic"),
        (
            "What is the greatest common divisor of 84, 126 and 210?",
            "math_gcd",
        ),
        (
            "How many grams are 2 cups of flour?",
            "kitchen_convert_units",
        ),
    ] {
        let told = skipped(request, &all).unwrap_or_else(|| panic!("{request}"));
        assert!(told.contains(&format!("\"{tool}\"")), "{request}: {told}");
    }
}

#[test]
fn what_the_request_does_not_hold_names_no_tool() {
    let all = [quadratic(), gcd(), units(), flights(), triangle()];
    for request in [
        // No number at all.
        "Who proved Fermat's Last Theorem?",
        "Which stock exchange is the oldest in the world?",
        // Fewer numbers than the tool needs: a circle's radius is no triangle.
        "What is the area of a circle with a radius of 4 cm?",
        // The greatest common divisor of one number.
        "What is the greatest common divisor of 84?",
        // Numbers, and no telling word of any tool beyond generic verbs.
        "Find 3 and 7 for me.",
        "Rent me a car at Lisbon airport from 3 to 7 June 2025.",
        // A listed unit the request does not write.
        "How many ounces are 2 pints of milk?",
    ] {
        assert_eq!(skipped(request, &all), None, "{request}");
    }
    // A tool that requires free text is never named so, whatever the request holds.
    assert_eq!(
        skipped(
            "Search flights from 3 airports on 2025-06-07, 4 passengers.",
            &[flights()]
        ),
        None
    );
    // A call is no answer.
    let call = json!({"name": "math_gcd", "arguments": {"numbers": [84, 126]}});
    let tools = [gcd()];
    let tools = tools.iter().map(|(s, a, v)| (*s, *a, v));
    assert!(
        asked("greatest common divisor of 84 and 126")
            .skips_by_values(&call, tools)
            .is_none()
    );
}

#[test]
fn two_tools_the_request_fits_as_well_name_neither() {
    // Both need two numbers and the request uses one word of each.
    let a = (
        "rect_area",
        "rect_area Area of a rectangle. width length",
        arguments(
            json!({"width": {"type": "number"}, "length": {"type": "number"}}),
            &["width", "length"],
        ),
    );
    let b = (
        "rect_perimeter",
        "rect_perimeter Perimeter of a rectangle. width length",
        arguments(
            json!({"width": {"type": "number"}, "length": {"type": "number"}}),
            &["width", "length"],
        ),
    );
    assert_eq!(
        skipped("A rectangle of 3 by 4?", &[a.clone(), b.clone()]),
        None
    );
    let told = skipped("The perimeter of a rectangle of 3 by 4?", &[a, b]).expect("perimeter");
    assert!(told.contains("\"rect_perimeter\""), "{told}");
}

#[test]
fn numbers_are_counted_as_written_in_digits() {
    assert_eq!(numbers_in_digits("x^2 + 4x + 4 = 0"), 4);
    assert_eq!(numbers_in_digits("a 0.001 M solution"), 1);
    assert_eq!(numbers_in_digits("84, 126 and 210"), 3);
    assert_eq!(numbers_in_digits("1,000,000 people at 18:00"), 3);
    assert_eq!(numbers_in_digits("twelve apples"), 0);
}

proptest::proptest! {
    /// A request with no digit in it never names a tool by its values, whatever its words.
    #[test]
    fn a_request_without_digits_names_no_tool(
        words in proptest::collection::vec("[a-zA-Z]{1,12}", 0..16)
    ) {
        let request = words.join(" ");
        let all = [quadratic(), gcd(), units(), flights(), triangle()];
        let numeric = [quadratic(), gcd(), triangle()];
        proptest::prop_assert_eq!(skipped(&request, &all), None);
        proptest::prop_assert_eq!(skipped(&request, &numeric), None);
    }

    /// A tool that requires free text is never named by its values, whatever the request.
    #[test]
    fn a_tool_of_free_text_is_never_named(
        words in proptest::collection::vec("[a-zA-Z0-9]{1,12}", 0..16)
    ) {
        let mut request = words.join(" ");
        request.push_str(" flights airports date 3 4 5");
        proptest::prop_assert_eq!(skipped(&request, &[flights()]), None);
    }
}

#[test]
fn a_listed_value_is_a_word_of_the_request_or_its_plural() {
    let mode = (
        "set_mode",
        "set_mode Sets the heating mode for a number of hours. mode hours",
        arguments(
            json!({"mode": {"type": "string", "enum": ["eco", "comfort"]}, "hours": {"type": "integer"}}),
            &["mode", "hours"],
        ),
    );
    assert!(
        skipped(
            "Eco for 3 hours, what does that save?",
            std::slice::from_ref(&mode)
        )
        .is_some()
    );
    assert_eq!(
        skipped(
            "How did the economy do in 3 hours?",
            std::slice::from_ref(&mode)
        ),
        None
    );
    // A tool of listed values alone needs no number, so it is never named this way.
    let only_listed = (
        "set_mode",
        "set_mode Sets the heating mode. mode",
        arguments(
            json!({"mode": {"type": "string", "enum": ["eco", "comfort"]}}),
            &["mode"],
        ),
    );
    assert_eq!(
        skipped("What is the eco heating mode for 3 days?", &[only_listed]),
        None
    );
}
