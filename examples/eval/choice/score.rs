//! The scoring of `--set choice`, after BFCL's AST checker.
//!
//! A row ends with JSON: `{"answer": …}`, one call `{"name", "arguments"}` under the name
//! the server spells, or a list of calls. A call case is right when the reply is exactly
//! one call of the expected function, every required argument is there, none the function
//! lacks, and each argument's value is one of the accepted values (an optional argument may
//! be left out when `""` is accepted). Values are compared after normalising: strings
//! lowercased and stripped of spaces and `, . / - _ * ^`, numbers by value (an integer
//! where a float is expected), lists element by element, objects key by key (a key whose
//! accepted value is `""` may be left out, or be `""`). An
//! irrelevant case is right when the reply is a direct answer, other than the prompt's
//! type, placeholders or description of a reply written as the answer (`{"answer":
//! "string"}`, `"<your answer>"`, `"a call of one of the tools, …"`),
//! or the name of one of the case's functions (`{"answer": "health_bmi_calculator"}`):
//! stricter than BFCL's checker, which counts any reply without a call.

use serde_json::{Map, Value};

use super::{Case, Expected};

/// Whether `got` (the row's final JSON, if any) is right for `case`; why not otherwise.
pub fn judge(case: &Case, got: Option<&Value>) -> Result<(), String> {
    let got = got.ok_or("no reply was read")?;
    let (name, accepted) = match &case.expected {
        Expected::Answer => {
            return match got.get("answer") {
                Some(answer) if is_placeholder(answer) => Err(format!(
                    "answered {answer}, the prompt's placeholder, not an answer"
                )),
                Some(answer) if names_a_tool(&case.tools, answer) => Err(format!(
                    "answered {answer}, the name of a function, not an answer"
                )),
                Some(_) => Ok(()),
                None => Err(format!(
                    "called {} where a direct answer is right",
                    called(got)
                )),
            };
        }
        Expected::Call { name, arguments } => (*name, arguments),
    };
    let call = match got {
        Value::Array(calls) if calls.len() == 1 => &calls[0],
        Value::Array(calls) => return Err(format!("{} calls where one is right", calls.len())),
        call => call,
    };
    if call.get("answer").is_some() {
        return Err(format!(
            "answered directly where a call of `{name}` is right"
        ));
    }
    let got_name = call.get("name").and_then(Value::as_str).unwrap_or_default();
    if got_name != name {
        return Err(format!("called `{got_name}` where `{name}` is right"));
    }
    let empty = Map::new();
    let arguments = call
        .get("arguments")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let parameters = parameters_of(&case.tools, name).ok_or("the case has no such tool")?;
    check_arguments(parameters, accepted, arguments)
}

/// Whether an answer is only a type of the prompt's notation, or holds its placeholders
/// or the repair's description of a reply (`"a call of one of the tools, the arguments
/// taken from the request"`): the prompt sent back, not an answer.
fn is_placeholder(answer: &Value) -> bool {
    let Some(text) = answer.as_str() else {
        return false;
    };
    let text = text.trim().to_lowercase();
    let copied = ["<your answer>", "<function name>", "a call of one of the"]
        .iter()
        .any(|phrase| text.contains(phrase));
    let types = [
        "string", "number", "int", "integer", "boolean", "any", "object", "…", "...",
    ];
    copied || types.contains(&text.as_str())
}

/// Whether an answer is only the name of one of `tools`, as the server spells it or with
/// `_` for its `.` and `/` (as the model is shown it), in any case.
fn names_a_tool(tools: &Value, answer: &Value) -> bool {
    let Some(text) = answer.as_str() else {
        return false;
    };
    let plain = |name: &str| {
        name.trim()
            .to_lowercase()
            .replace(['.', '/', '-', ' '], "_")
    };
    let text = plain(text);
    tools.as_array().into_iter().flatten().any(|tool| {
        tool["function"]["name"]
            .as_str()
            .is_some_and(|name| plain(name) == text)
    })
}

/// The arguments against the function's parameters and the accepted values.
fn check_arguments(
    parameters: &Value,
    accepted: &Value,
    arguments: &Map<String, Value>,
) -> Result<(), String> {
    let properties = parameters.get("properties").and_then(Value::as_object);
    for required in parameters["required"].as_array().into_iter().flatten() {
        let required = required.as_str().unwrap_or_default();
        if !arguments.contains_key(required) {
            return Err(format!("the required argument `{required}` is missing"));
        }
    }
    for (key, value) in arguments {
        if !properties.is_some_and(|p| p.contains_key(key)) {
            return Err(format!("the function has no argument `{key}`"));
        }
        let options = accepted[key].as_array().map(Vec::as_slice).unwrap_or(&[]);
        if !options
            .iter()
            .any(|option| !is_absent(option) && same(option, value))
        {
            return Err(format!(
                "`{key}` is {value}; accepted: {}",
                Value::Array(options.to_vec())
            ));
        }
    }
    for (key, options) in accepted.as_object().into_iter().flatten() {
        let may_be_absent = options.as_array().is_some_and(|o| o.iter().any(is_absent));
        if !arguments.contains_key(key) && !may_be_absent {
            return Err(format!("`{key}` is missing; accepted: {options}"));
        }
    }
    Ok(())
}

/// The parameters' schema of the function named `name` in an OpenAI tools array.
pub fn parameters_of<'a>(tools: &'a Value, name: &str) -> Option<&'a Value> {
    tools.as_array()?.iter().find_map(|tool| {
        let function = tool.get("function")?;
        (function.get("name")?.as_str()? == name).then(|| &function["parameters"])
    })
}

/// `""` among the accepted values: the argument may be left out.
fn is_absent(option: &Value) -> bool {
    option.as_str() == Some("")
}

/// What a reply that is not an answer called, for messages.
fn called(got: &Value) -> String {
    let name = |call: &Value| {
        let name = call.get("name").and_then(Value::as_str).unwrap_or("?");
        format!("`{name}`")
    };
    match got {
        Value::Array(calls) => calls.iter().map(name).collect::<Vec<_>>().join(", "),
        call => name(call),
    }
}

/// Whether `got` equals the accepted value after normalising.
fn same(accepted: &Value, got: &Value) -> bool {
    match (accepted, got) {
        (Value::String(a), Value::String(b)) => normalised(a) == normalised(b),
        (Value::Number(a), Value::Number(b)) => match (a.as_f64(), b.as_f64()) {
            (Some(a), Some(b)) => (a - b).abs() <= 1e-9 * a.abs().max(1.0),
            _ => a == b,
        },
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b))
        }
        (Value::Object(a), Value::Object(b)) => {
            b.keys().all(|key| a.contains_key(key))
                && a.iter().all(|(key, value)| match b.get(key) {
                    Some(got) => same(value, got),
                    None => is_absent(value),
                })
        }
        _ => accepted == got,
    }
}

/// Lowercase, without spaces and the punctuation `, . / - _ * ^`.
fn normalised(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && !",./-_*^".contains(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::{Kind, call, function};
    use super::*;
    use serde_json::json;

    fn forecast_case() -> Case {
        let tools = json!([
            function(
                "weather.get_forecast",
                "The forecast.",
                json!({"type": "object", "properties": {
                    "city": {"type": "string"},
                    "days": {"type": "integer"},
                    "units": {"type": "string", "enum": ["metric", "imperial"]},
                    "stops": {"type": "array", "items": {"type": "object", "properties": {"lat": {"type": "number"}}}}
                }, "required": ["city"]})
            ),
            function(
                "weather.get_alerts",
                "Alerts.",
                json!({"type": "object", "properties": {"region": {"type": "string"}}, "required": ["region"]})
            )
        ]);
        Case {
            kind: Kind::Multiple,
            tools,
            request: "Three-day forecast for New York",
            expected: call(
                "weather.get_forecast",
                json!({
                    "city": ["New York", "New York, NY", "NYC"],
                    "days": [3],
                    "units": ["metric", ""],
                    "stops": [""]
                }),
            ),
        }
    }

    fn reply(arguments: Value) -> Value {
        json!({"name": "weather.get_forecast", "arguments": arguments})
    }

    #[test]
    fn strings_are_normalised_and_numbers_compared_by_value() {
        let case = forecast_case();
        let right = reply(json!({"city": "new york, ny", "days": 3.0}));
        assert_eq!(judge(&case, Some(&right)), Ok(()));
        let right = reply(json!({"city": "New-York", "days": 3, "units": "METRIC"}));
        assert_eq!(judge(&case, Some(&right)), Ok(()));
        let wrong = reply(json!({"city": "Newark", "days": 3}));
        assert!(judge(&case, Some(&wrong)).is_err_and(|e| e.contains("`city`")));
        let wrong = reply(json!({"city": "NYC", "days": "3"}));
        assert!(judge(&case, Some(&wrong)).is_err_and(|e| e.contains("`days`")));
        assert_eq!(normalised("A_b-c.d/e,f*g^h i"), "abcdefghi");
    }

    #[test]
    fn lists_and_objects_compare_element_and_key_wise() {
        let mut case = forecast_case();
        let stops = json!([[{"lat": 1.5}, {"lat": 2}], ""]);
        case.expected = call(
            "weather.get_forecast",
            json!({"city": ["Oslo"], "days": [1], "units": [""], "stops": stops}),
        );
        let right =
            reply(json!({"city": "Oslo", "days": 1, "stops": [{"lat": 1.5}, {"lat": 2.0}]}));
        assert_eq!(judge(&case, Some(&right)), Ok(()));
        let reordered =
            reply(json!({"city": "Oslo", "days": 1, "stops": [{"lat": 2}, {"lat": 1.5}]}));
        assert!(judge(&case, Some(&reordered)).is_err());
        let extra_key = reply(
            json!({"city": "Oslo", "days": 1, "stops": [{"lat": 1.5, "lon": 0}, {"lat": 2}]}),
        );
        assert!(judge(&case, Some(&extra_key)).is_err());
        let stops = json!([[{"lat": 1.5, "name": ""}], ""]);
        case.expected = call(
            "weather.get_forecast",
            json!({"city": ["Oslo"], "days": [1], "units": [""], "stops": stops}),
        );
        for stop in [json!({"lat": 1.5}), json!({"lat": 1.5, "name": ""})] {
            let right = reply(json!({"city": "Oslo", "days": 1, "stops": [stop]}));
            assert_eq!(judge(&case, Some(&right)), Ok(()));
        }
        let named =
            reply(json!({"city": "Oslo", "days": 1, "stops": [{"lat": 1.5, "name": "Pier"}]}));
        assert!(judge(&case, Some(&named)).is_err());
    }

    #[test]
    fn optional_arguments_may_be_absent_only_when_accepted_so() {
        let case = forecast_case();
        let without_days = reply(json!({"city": "NYC"}));
        assert!(judge(&case, Some(&without_days)).is_err_and(|e| e.contains("`days` is missing")));
        let other_units = reply(json!({"city": "NYC", "days": 3, "units": "imperial"}));
        assert!(judge(&case, Some(&other_units)).is_err_and(|e| e.contains("`units`")));
        let no_city = reply(json!({"days": 3}));
        assert!(
            judge(&case, Some(&no_city)).is_err_and(|e| e.contains("required argument `city`"))
        );
    }

    #[test]
    fn an_argument_the_function_lacks_is_wrong() {
        let case = forecast_case();
        let unknown = reply(json!({"city": "NYC", "days": 3, "country": "US"}));
        assert!(
            judge(&case, Some(&unknown))
                .is_err_and(|e| e.contains("the function has no argument `country`"))
        );
    }

    #[test]
    fn the_wrong_function_several_calls_and_an_answer_are_wrong_on_a_call_case() {
        let case = forecast_case();
        let other = json!({"name": "weather.get_alerts", "arguments": {"region": "NY"}});
        assert!(
            judge(&case, Some(&other)).is_err_and(|e| e.contains("called `weather.get_alerts`"))
        );
        let right = reply(json!({"city": "NYC", "days": 3}));
        let twice = json!([right.clone(), right.clone()]);
        assert!(judge(&case, Some(&twice)).is_err_and(|e| e.contains("2 calls")));
        assert_eq!(judge(&case, Some(&json!([right]))), Ok(()));
        let answer = json!({"answer": "It will be sunny."});
        assert!(judge(&case, Some(&answer)).is_err_and(|e| e.contains("answered directly")));
        assert!(judge(&case, None).is_err());
    }

    #[test]
    fn an_irrelevant_case_wants_a_direct_answer() {
        let mut case = forecast_case();
        case.expected = Expected::Answer;
        assert_eq!(judge(&case, Some(&json!({"answer": "Paris."}))), Ok(()));
        let called = reply(json!({"city": "Paris", "days": 1}));
        assert!(judge(&case, Some(&called)).is_err_and(|e| e.contains("`weather.get_forecast`")));
        assert!(judge(&case, Some(&json!([called.clone(), called]))).is_err());
        for placeholder in [
            "string",
            " String ",
            "<your answer>",
            "A call of one of the tools, the arguments taken from the request;",
        ] {
            let answer = json!({"answer": placeholder});
            assert!(
                judge(&case, Some(&answer)).is_err_and(|e| e.contains("placeholder")),
                "{placeholder}"
            );
        }
        assert_eq!(judge(&case, Some(&json!({"answer": "A string."}))), Ok(()));
        for name in [
            "weather_get_forecast",
            "weather.get_forecast",
            "Weather_Get_Forecast",
        ] {
            let answer = json!({"answer": name});
            assert!(
                judge(&case, Some(&answer)).is_err_and(|e| e.contains("name of a function")),
                "{name}"
            );
        }
        let about = json!({"answer": "weather.get_forecast gives forecasts, not history."});
        assert_eq!(judge(&case, Some(&about)), Ok(()));
        assert_eq!(judge(&case, Some(&json!({"answer": 42}))), Ok(()));
    }
}
