//! Words read out of a request that names the called tool in full are not questioned as
//! unstated ([`crate::ViolationKind::Unstated`]); a request that uses part of the name, or
//! values with digits, still are.

use serde_json::{Value, json};

use super::questioned;
use super::tests::{NONE, question, union_of};
use crate::ViolationKind;
use crate::agent::request::Target;

/// An exchange-rate tool, a time-zone tool and a triangle's area, with an answer.
fn named_in_full() -> Target {
    let tool = |name: &str, properties: Value, required: Value| {
        json!({"type": "function", "function": {
            "name": name,
            "parameters": {"type": "object", "properties": properties, "required": required}
        }})
    };
    union_of(json!([
        tool(
            "finance.get_exchange_rate",
            json!({"base": {"type": "string"}, "target": {"type": "string"}}),
            json!(["base", "target"])
        ),
        tool(
            "geo.time_zone",
            json!({"zone": {"type": "string"}}),
            json!(["zone"])
        ),
        tool(
            "math.triangle_area",
            json!({"base": {"type": "number"}, "height": {"type": "number"}}),
            json!(["base", "height"])
        ),
    ]))
}

#[test]
fn codes_read_out_of_a_request_that_names_the_tool_in_full_stand() {
    let target = named_in_full();
    for (request, call) in [
        (
            "What's the exchange rate from Swiss francs to Swedish kronor?",
            json!({"name": "finance.get_exchange_rate",
                "arguments": {"base": "CHF", "target": "SEK"}}),
        ),
        (
            "exchange rates of the Japanese yen against the euro pls",
            json!({"name": "finance.get_exchange_rate",
                "arguments": {"base": "JPY", "target": "EUR"}}),
        ),
        (
            "Which time zone is the capital of Peru in?",
            json!({"name": "geo.time_zone", "arguments": {"zone": "America/Lima"}}),
        ),
    ] {
        let ask = question(&target, request);
        assert!(
            questioned(&ask, NONE, &[call], None, false).is_none(),
            "{request}"
        );
    }
}

#[test]
fn a_request_that_names_part_of_the_tool_or_numbers_the_call_made_up_is_still_questioned() {
    let target = named_in_full();
    let rate = json!({"name": "finance.get_exchange_rate",
        "arguments": {"base": "CHF", "target": "SEK"}});
    let area = json!({"name": "math.triangle_area", "arguments": {"base": 10, "height": 5}});
    for (request, call) in [
        // One word of a name of two: the request may mean it in another sense.
        (
            "Which exchange programmes do Swiss universities offer students?",
            rate.clone(),
        ),
        (
            "What is the interest rate of Swedish savings accounts?",
            rate,
        ),
        // The name in full, but numbers of the model's own, or strings with digits: a
        // request means the numbers it writes.
        (
            "Which time zone does the user in the latest ticket live in?",
            json!({"name": "geo.time_zone", "arguments": {"zone": "UTC+2"}}),
        ),
        (
            "Find the area of a triangle whose three sides are equal",
            area,
        ),
    ] {
        let ask = question(&target, request);
        let error = questioned(&ask, NONE, &[call], None, false).expect(request);
        assert!(
            matches!(error.violations()[0].kind(), ViolationKind::Unstated { .. }),
            "{request}: {error}"
        );
    }
}

proptest::proptest! {
    /// Codes the request does not write are questioned unless every word of the called
    /// tool's name (two of them here, of any letters) is a word of the request.
    #[test]
    fn codes_stand_only_where_the_whole_name_is_written(
        first in "[a-p]{5,8}",
        second in "[a-p]{5,8}",
        with_first in proptest::bool::ANY,
        with_second in proptest::bool::ANY,
        codes in proptest::collection::vec("Z[R-Y]{2}", 1..3),
    ) {
            proptest::prop_assume!(!first.starts_with(&second) && !second.starts_with(&first));
        let generic = ["check", "delete", "fetch", "lookup", "search", "create", "update"];
        proptest::prop_assume!(!generic.contains(&first.as_str()));
        proptest::prop_assume!(!generic.contains(&second.as_str()));
        let name = format!("svc.{first}_{second}");
        let properties: serde_json::Map<String, Value> = (0..codes.len())
            .map(|i| (format!("k{i}"), json!({"type": "string"})))
            .collect();
        let required: Vec<String> = properties.keys().cloned().collect();
        let target = union_of(json!([{"type": "function", "function": {
            "name": name,
            "parameters": {"type": "object", "properties": properties, "required": required}
        }}]));
        let mut request = String::from("tell me about Swiss francs and Swedish kronor");
        for (with, word) in [(with_first, &first), (with_second, &second)] {
            if with {
                request.push(' ');
                request.push_str(word);
            }
        }
        let arguments: serde_json::Map<String, Value> = codes
            .iter()
            .enumerate()
            .map(|(i, code)| (format!("k{i}"), json!(code)))
            .collect();
        let call = json!({"name": name, "arguments": arguments});
        let ask = question(&target, &request);
        let error = questioned(&ask, NONE, &[call], None, false);
        proptest::prop_assert_eq!(error.is_some(), !(with_first && with_second), "{}", request);
        // With one word of the name the tool is named, and the question is the one of
        // unstated values (with neither, the call is of a tool the request never names).
        if with_first != with_second {
            let kind = error.expect("questioned").violations()[0].kind().clone();
            proptest::prop_assert!(
                matches!(kind, ViolationKind::Unstated { .. }),
                "{}: {:?}",
                request,
                kind
            );
        }
    }
}
