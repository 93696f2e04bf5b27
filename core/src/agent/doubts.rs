//! What the replies to a union of tools with an answer say about its choice of a call or
//! the answer, and what the loop does about it: which replies are questioned (a call made
//! of nothing the conversation holds, an answer that skips the tool the request names),
//! where the first attempt is made (in prose), whether a fix goes on under the grammar,
//! and when the model is asked for its answer alone. Each decision is a function of the
//! replies so far, with no provider.

use serde_json::Value;

use super::request::Target;
use super::run::Question;
use super::{conversation, grounding, read};
use crate::fix::{Fix, FixKind, Location};
use crate::pointer;
use crate::provider::Mode;
use crate::value::short_json;
use crate::{Error, Violation, ViolationKind};

/// The modes of a union of tools with an answer: its first attempt in plain prompt mode
/// where the provider also has a grammar (`json_schema`), the grammar next.
///
/// Under the union's grammar, a small model calls a tool whatever it is asked: its first
/// tokens must open a call or the answer, and a call is what the prompt is about. Measured
/// on the tool-choice evaluation (0.5B model), it answered 1 of 16 requests no tool fits
/// under the grammar, 11 of 16 in prompt mode. The choice is made in prose; a reply that
/// then needs fixing goes on under the grammar (see `decide`).
pub(super) fn choose_in_prose(target: &Target, modes: Vec<Mode>) -> Vec<Mode> {
    let union_with_answer = target.union.is_some() && target.has_answer();
    if !union_with_answer
        || modes.first() != Some(&Mode::JsonSchema)
        || !modes.contains(&Mode::Prompt)
    {
        return modes;
    }
    let mut chosen = vec![Mode::Prompt];
    chosen.extend(modes.into_iter().filter(|m| *m != Mode::Prompt));
    chosen
}

/// What a rejected reply to a union of tools says of its functions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Doubts {
    /// It called a function that is none of the union's and resembles none
    /// ([`grounding::invented`]).
    pub invented: bool,
    /// Each of its calls named, as functions are named, a function that is none of the
    /// union's and resembles none ([`grounding::names_a_missing_function`]), with
    /// arguments that are not those of one of the union's tools ([`arguments_of_a_tool`]).
    pub missing: bool,
    /// It called a function with none of the values the user wrote
    /// ([`ViolationKind::Ungrounded`], [`ViolationKind::CopiedExample`]).
    pub ungrounded: bool,
    /// It answered a request that asks for what a function does
    /// ([`ViolationKind::SkippedTool`]).
    pub skipped: bool,
}

impl Doubts {
    /// The doubts of a reply: its text as read (`raw`), and the error it was rejected with.
    pub fn of(target: &Target, raw: &str, error: &Error) -> Self {
        if target.union.is_none() || !target.has_answer() {
            return Doubts::default();
        }
        let tools: Vec<(&str, &str)> = target.tool_names().collect();
        let calls = match read::closest(raw) {
            Some(Value::Array(items)) => items,
            Some(one) => vec![one],
            None => Vec::new(),
        };
        Doubts {
            invented: calls
                .iter()
                .any(|call| grounding::invented(call, tools.iter().copied()).is_some()),
            missing: !calls.is_empty()
                && calls.iter().all(|call| {
                    grounding::names_a_missing_function(call, tools.iter().copied())
                        && !arguments_of_a_tool(target, call)
                }),
            ungrounded: error.violations().iter().any(|v| {
                matches!(
                    v.kind(),
                    ViolationKind::Ungrounded { .. } | ViolationKind::CopiedExample { .. }
                )
            }),
            skipped: error
                .violations()
                .iter()
                .any(|v| matches!(v.kind(), ViolationKind::SkippedTool { .. })),
        }
    }

    pub fn and(self, other: Doubts) -> Doubts {
        Doubts {
            invented: self.invented || other.invented,
            missing: self.missing || other.missing,
            ungrounded: self.ungrounded || other.ungrounded,
            skipped: self.skipped || other.skipped,
        }
    }
}

/// Whether a call's arguments are those of one of the target's tools: each of its keys
/// an argument of the tool, and every argument the tool requires there. Such a call is
/// that tool under another name (`get_capital({"country": "France"})` for
/// `geography.get_country_info`), not a call of a function the union lacks. A call with no
/// arguments is no tool's.
fn arguments_of_a_tool(target: &Target, call: &Value) -> bool {
    let Some(arguments) = call.get("arguments").and_then(Value::as_object) else {
        return false;
    };
    if arguments.is_empty() {
        return false;
    }
    target.tools().into_iter().flatten().any(|tool| {
        let schema = &tool.arguments;
        let known = |key: &str| schema["properties"].get(key).is_some();
        let required = schema["required"].as_array().into_iter().flatten();
        arguments.keys().all(|key| known(key))
            && required
                .filter_map(Value::as_str)
                .all(|key| arguments.contains_key(key))
    })
}

/// The error of a reply whose calls are made of nothing the conversation holds, or
/// whose answer skips the tool the request names, where the union has an answer (see
/// [`grounding`]). An answer that skips a tool is questioned once: a model that answers
/// again after it was told is taken at its word (a request may name a tool that cannot
/// do what it asks). A call made of nothing the user wrote is questioned each time, and
/// a second one has the model asked for its answer alone (see `decide`), where the
/// answer alone is still the model's.
///
/// The conversation is what `ask` holds ([`conversation_of`]); `doubts` are those of the
/// replies so far.
pub(super) fn questioned(ask: &Question<'_>, doubts: Doubts, values: &[Value]) -> Option<Error> {
    let (target, history) = (ask.target, ask.history);
    if target.union.is_none() || !target.has_answer() {
        return None;
    }
    let conversation = conversation_of(ask);
    // Once results are in, answering is what the model should do; an answer beside
    // calls waits for their results.
    let answers_only = !doubts.skipped
        && !conversation::results_in(history)
        && values.iter().all(|v| v.get("answer").is_some());
    // What each tool is about, for the check of an answer only.
    let tools = if answers_only {
        target.tools_about()
    } else {
        Vec::new()
    };
    let tools = || {
        tools
            .iter()
            .map(|(shown, server, about)| (*shown, *server, about.as_str()))
    };
    let violations: Vec<Violation> = values
        .iter()
        .enumerate()
        .filter_map(|(i, value)| {
            let violation = conversation
                .ungrounded(value, &target.about(value), &examples_of(target, value))
                .or_else(|| {
                    answers_only
                        .then(|| conversation.skips(value, tools()))
                        .flatten()
                })?;
            Some(match values.len() {
                1 => violation,
                _ => Error::single(violation)
                    .under(&i.to_string())
                    .into_violations()
                    .remove(0),
            })
        })
        .collect();
    (!violations.is_empty()).then(|| Error::new(violations))
}

/// The example phrases the documentation of the tool a call names gives of its values
/// ([`grounding::examples::of`]); none for no known tool.
fn examples_of(target: &Target, call: &Value) -> Vec<Vec<String>> {
    target
        .tool_of(call)
        .map(|tool| {
            let description = tool.description.as_deref().unwrap_or_default();
            grounding::examples::of(description, &tool.arguments)
        })
        .unwrap_or_default()
}

/// Whether the replies to a union with an answer have said that none of its functions
/// fits: one called, by a function's name, only functions the union lacks; or two did, each
/// by a call of a function that is none of the union's and resembles none, or by a call
/// made of nothing the user wrote, in any order. The model is then asked for its answer
/// alone.
///
/// Asked something no function does, a small model names the function it would need
/// (`translateGoodMorning`, `shop_cancel_subscription`), and told that there is none, names
/// it again, or fills a real one with placeholders or with the request's words
/// (`recipes_search` for a wine pairing); a larger one calls a function of the same
/// subject with values of its own (`{"city": "London"}` for "Why is the sky blue?"), and
/// calls it again once told. A function's name that resembles none of the union's, with
/// arguments that are none of its tools', is the model saying what is missing, and is
/// taken at its word at once. Any other sign may be a slip (a value of the request written
/// as the name: `Road Trip`; a tool's arguments under another name), so it is sent back as
/// any other; two say what the model means. The answer alone is still the model's: it is
/// asked for, never made up.
pub(super) fn no_function_fits(before: Doubts, now: Doubts) -> bool {
    let doubted = |d: Doubts| d.invented || d.ungrounded;
    now.missing || (doubted(before) && doubted(now))
}

/// Leaves out of the calls among `values` (a reply to a union with an answer) the
/// optional arguments the user never gave and the keys the tool does not take, at any
/// depth (see `grounding::unasked` and `grounding::undeclared`), each reported as a fix
/// at its pointer, except at the pointers in `kept`: there the model wrote the value
/// to fix a violation of an earlier attempt (`255` after `300` was above the maximum),
/// whichever call of that attempt or of this one it was ([`in_call`]).
/// An argument stays, too, where the call would no longer fit the union's schema without
/// it: where the tool's schema needs it in some other way than `required` (one of several
/// keys, `minProperties`, `dependentRequired`), the model's next call would be left
/// without it again. The conversation is as [`questioned`] reads it.
pub(super) fn leave_out_unasked(
    ask: &Question<'_>,
    values: &mut [Value],
    kept: &[&str],
) -> Vec<Fix> {
    let target = ask.target;
    let Some(union) = target.union.as_ref().filter(|_| target.has_answer()) else {
        return Vec::new();
    };
    let conversation = conversation_of(ask);
    let several = values.len() > 1;
    let mut fixes = Vec::new();
    for (i, value) in values.iter_mut().enumerate() {
        let Some(tool) = value
            .get("name")
            .and_then(Value::as_str)
            .and_then(|name| union.tool(name))
        else {
            continue;
        };
        let at = if several {
            format!("/{i}")
        } else {
            String::new()
        };
        let unasked = conversation
            .unasked(value, &tool.arguments)
            .into_iter()
            .map(|key| (vec![key], false));
        let inside = conversation
            .undeclared_inside(value, &tool.arguments)
            .into_iter()
            .map(|u| (u.path, u.repeats));
        for (path, repeats) in unasked.chain(inside) {
            let tokens: String = path
                .iter()
                .map(|t| format!("/{}", pointer::token(t)))
                .collect();
            let pointer = format!("{at}/arguments{tokens}");
            if kept.iter().any(|k| in_call(k) == in_call(&pointer)) {
                continue;
            }
            let Some((without, written)) = without_member(value, &path) else {
                continue;
            };
            if !target.schema.is_valid(&without) {
                continue;
            }
            *value = without;
            let key = path.last().cloned().unwrap_or_default();
            let shown = short_json(&written);
            let kind = if repeats {
                FixKind::RepeatedArgument { key, value: shown }
            } else {
                FixKind::UnaskedArgument { key, value: shown }
            };
            fixes.push(Fix::new(kind, Location::Pointer(pointer)));
        }
    }
    fixes
}

/// A pointer into a reply's calls without the index of its call, if it has one
/// (`/0/arguments/x` is `/arguments/x`): an attempt of one call and one of several point
/// at the same argument apart, and the calls may come in another order. Taking an
/// argument of one call for the same of another keeps a value, which is the safe side.
fn in_call(pointer: &str) -> &str {
    let Some(rest) = pointer.strip_prefix('/') else {
        return pointer;
    };
    let (first, after) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    if !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()) {
        after
    } else {
        pointer
    }
}

/// A call `{"name": …, "arguments": …}` without the member at `path` under its
/// arguments (an argument, or a key of an object inside one), the others in their order,
/// and the value it had; `None` when it has no such member.
fn without_member(call: &Value, path: &[String]) -> Option<(Value, Value)> {
    let (key, parents) = path.split_last()?;
    let mut without = call.clone();
    let mut object = without.get_mut("arguments")?;
    for token in parents {
        object = match object {
            Value::Array(items) => items.get_mut(token.parse::<usize>().ok()?)?,
            other => other.get_mut(token.as_str())?,
        };
    }
    let written = object.as_object_mut()?.shift_remove(key)?;
    Some((without, written))
}

/// The conversation an ask holds, as the grounding checks read it: the developer's
/// system text, the caller's history (its system messages too), the prompt and the
/// request. The shape instructions the library adds to the system text are no part of
/// it: their descriptions, examples and defaults are no evidence of what was asked.
fn conversation_of(ask: &Question<'_>) -> grounding::Conversation {
    grounding::Conversation::new(ask.system, ask.history, ask.prompt, ask.request)
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{Doubts, leave_out_unasked, no_function_fits};
    use crate::Toolset;
    use crate::agent::request::Target;
    use crate::agent::run::Question;

    const NONE: Doubts = Doubts {
        invented: false,
        missing: false,
        ungrounded: false,
        skipped: false,
    };
    const INVENTED: Doubts = Doubts {
        invented: true,
        ..NONE
    };
    const MISSING: Doubts = Doubts {
        invented: true,
        missing: true,
        ..NONE
    };
    const UNGROUNDED: Doubts = Doubts {
        ungrounded: true,
        ..NONE
    };

    #[test]
    fn two_signs_say_nothing_fits() {
        assert!(no_function_fits(INVENTED, INVENTED));
        assert!(no_function_fits(UNGROUNDED, UNGROUNDED));
        assert!(no_function_fits(INVENTED, UNGROUNDED));
        assert!(no_function_fits(UNGROUNDED, INVENTED));
        assert!(no_function_fits(INVENTED.and(UNGROUNDED), INVENTED));
    }

    #[test]
    fn a_missing_function_named_says_nothing_fits_at_once() {
        for before in [NONE, INVENTED, UNGROUNDED, MISSING] {
            assert!(no_function_fits(before, MISSING), "{before:?}");
        }
        // Named before, and not now: the reply now is what counts.
        assert!(!no_function_fits(MISSING, NONE));
    }

    #[test]
    fn the_doubts_of_a_reply_tell_a_function_s_name_from_a_value_in_its_place() {
        let target = finance();
        let error = crate::Error::new(Vec::new());
        let doubts = |raw: &str| Doubts::of(&target, raw, &error);
        for named in [
            r#"{"name": "cancel_subscription", "arguments": {}}"#,
            r#"{"name": "getDayOfWeek", "arguments": {"date": "2000-01-01"}}"#,
            r#"{"name": "wine", "arguments": {"dish": "risotto"}}"#,
            r#"[{"name": "wine", "arguments": {}}, {"name": "weather.forecast", "arguments": {}}]"#,
        ] {
            let d = doubts(named);
            assert!(d.invented && d.missing, "{named}: {d:?}");
        }
        // A valid call beside one of a function the union lacks: sent back, so that the
        // model can keep the valid one.
        let beside = r#"[{"name": "loan", "arguments": {"principal": 1}}, {"name": "weather.forecast", "arguments": {}}]"#;
        let d = doubts(beside);
        assert!(d.invented && !d.missing, "{d:?}");
        // A tool's arguments under another name: that tool, misnamed.
        for misnamed in [
            r#"{"name": "get_monthly_payment", "arguments": {"principal": 250000}}"#,
            r#"{"name": "ticker_price", "arguments": {"ticker": "MSFT"}}"#,
            r#"{"name": "mortgage_payment", "arguments": {"principal": 1, "currency": "EUR"}}"#,
        ] {
            let d = doubts(misnamed);
            assert!(d.invented && !d.missing, "{misnamed}: {d:?}");
        }
        // Arguments that are some of a tool's but miss one it requires, or add one it
        // lacks: no tool's.
        for other in [
            r#"{"name": "currency_rates", "arguments": {"currency": "EUR"}}"#,
            r#"{"name": "ticker_news", "arguments": {"ticker": "MSFT", "days": 3}}"#,
        ] {
            let d = doubts(other);
            assert!(d.missing, "{other}: {d:?}");
        }
        // A value or an answer where the name goes: invented, but no function named.
        for value in [
            r#"{"name": "Road Trip", "arguments": {}}"#,
            r#"{"name": "Chardonnay", "arguments": {}}"#,
            r#"{"name": "good morning", "arguments": {}}"#,
        ] {
            let d = doubts(value);
            assert!(d.invented && !d.missing, "{value}: {d:?}");
        }
        // The union's own functions, misspelt or shortened, and answers.
        for known in [
            r#"{"name": "loan", "arguments": {"principal": 1}}"#,
            r#"{"name": "get_loan_payment", "arguments": {"principal": 1}}"#,
            r#"{"name": "stock_quote", "arguments": {}}"#,
            r#"{"answer": "cancel_subscription"}"#,
        ] {
            let d = doubts(known);
            assert!(!d.invented && !d.missing, "{known}: {d:?}");
        }
    }

    #[test]
    fn one_sign_says_nothing() {
        assert!(!no_function_fits(NONE, INVENTED));
        assert!(!no_function_fits(NONE, UNGROUNDED));
        assert!(!no_function_fits(INVENTED, NONE));
        assert!(!no_function_fits(UNGROUNDED, NONE));
        assert!(!no_function_fits(NONE, NONE));
    }

    /// The union of an OpenAI tools array, with an answer.
    fn union_of(tools: Value) -> Target {
        let tools = Toolset::from_openai_tools(&tools)
            .expect("the tools load")
            .with_answer();
        Target::with_union(
            tools.schema().clone(),
            "choice",
            tools.description().cloned(),
        )
    }

    /// A request alone, with no system text or history.
    fn question<'a>(target: &'a Target, request: &'a str) -> Question<'a> {
        Question {
            target,
            system: None,
            history: &[],
            prompt: request,
            request,
            cancel: None,
        }
    }

    /// A loan calculator and a stock quote, with an answer.
    fn finance() -> Target {
        union_of(json!([
            {"type": "function", "function": {
                "name": "loan",
                "parameters": {"type": "object", "properties": {
                    "principal": {"type": "number"},
                    "currency": {"type": "string"}
                }, "required": ["principal"]}
            }},
            {"type": "function", "function": {
                "name": "quote",
                "parameters": {"type": "object", "properties": {"ticker": {"type": "string"}}}
            }}
        ]))
    }

    /// The calls of `values` once the unasked arguments not at `kept` are left out.
    fn left(values: &[Value], kept: &[&str]) -> Vec<Value> {
        let target = finance();
        let ask = question(&target, "A loan of 250000, and the price of MSFT?");
        let mut values = values.to_vec();
        leave_out_unasked(&ask, &mut values, kept);
        values
    }

    #[test]
    fn a_value_written_to_fix_a_violation_is_kept_whatever_the_number_of_calls() {
        let loan = json!({"name": "loan", "arguments": {"principal": 250000, "currency": "EUR"}});
        let quote = json!({"name": "quote", "arguments": {"ticker": "MSFT"}});
        let two = [loan.clone(), quote.clone()];
        // The violation was of an attempt of one call, of two, or of the other call.
        for kept in [
            "/arguments/currency",
            "/0/arguments/currency",
            "/1/arguments/currency",
        ] {
            assert_eq!(left(&two, &[kept]), two, "{kept}");
            let one = std::slice::from_ref(&loan);
            assert_eq!(left(one, &[kept]), one, "{kept}");
        }
        // A violation elsewhere keeps nothing here.
        for kept in [
            "/arguments/principal",
            "/0/arguments",
            "/arguments/currency/code",
        ] {
            let without = json!({"name": "loan", "arguments": {"principal": 250000}});
            assert_eq!(left(&two, &[kept]), [without, quote.clone()], "{kept}");
        }
    }

    #[test]
    fn an_answer_that_skips_a_tool_is_told_the_tool_its_request_describes() {
        use super::questioned;
        let tool = |name: &str, description: &str| {
            json!({"type": "function", "function": {
                "name": name,
                "description": description,
                "parameters": {"type": "object", "properties": {"region": {"type": "string"}}}
            }})
        };
        let target = union_of(json!([
            tool(
                "weather.get_forecast",
                "Returns the daily weather forecast for a city."
            ),
            tool(
                "weather.get_alerts",
                "Lists the severe weather warnings in force."
            ),
        ]));
        let request = "Are there any extreme weather warnings in force for Queensland?";
        let ask = question(&target, request);
        let answer = json!({"answer": "Heat waves."});
        let error = questioned(&ask, NONE, &[answer]).expect("the answer skips a tool");
        assert!(
            error.to_string().contains("\"weather_get_alerts\""),
            "{error}"
        );
    }

    #[test]
    fn a_pointer_in_a_call_is_read_without_the_call_s_index() {
        use super::in_call;
        assert_eq!(in_call("/arguments/x"), "/arguments/x");
        assert_eq!(in_call("/0/arguments/x"), "/arguments/x");
        assert_eq!(in_call("/12/arguments/x"), "/arguments/x");
        assert_eq!(in_call("/1"), "");
        // Only the first token, and only an index.
        assert_eq!(in_call("/arguments/0"), "/arguments/0");
        assert_eq!(in_call("/x1/arguments"), "/x1/arguments");
        assert_eq!(in_call("//arguments"), "//arguments");
        assert_eq!(in_call(""), "");
        assert_eq!(in_call("/é/0"), "/é/0");
    }

    #[test]
    fn a_member_is_taken_out_at_its_path_and_nowhere_else() {
        let call =
            json!({"name": "t", "arguments": {"a": 1, "list": [{"k": 1, "x": 2}, {"x": 3}]}});
        let path = |tokens: &[&str]| tokens.iter().map(|t| t.to_string()).collect::<Vec<_>>();
        let (without, written) = super::without_member(&call, &path(&["list", "1", "x"])).unwrap();
        assert_eq!(written, json!(3));
        assert_eq!(
            without["arguments"],
            json!({"a": 1, "list": [{"k": 1, "x": 2}, {}]})
        );
        let (without, _) = super::without_member(&call, &path(&["a"])).unwrap();
        assert_eq!(
            without["arguments"],
            json!({"list": [{"k": 1, "x": 2}, {"x": 3}]})
        );
        for missing in [
            path(&["list", "2", "x"]),
            path(&["list", "one", "x"]),
            path(&["a", "x"]),
            path(&["list", "0", "y"]),
            path(&["list"]).into_iter().chain(path(&["0"])).collect(),
            Vec::new(),
        ] {
            assert_eq!(super::without_member(&call, &missing), None, "{missing:?}");
        }
    }
}
