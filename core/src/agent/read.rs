//! Reading a reply: the value (or one per tool call) it holds, with every fix needed.

use serde_json::Value;

use super::native;
use super::request::{Shaped, Target};
use crate::Error;
use crate::envelope::renamed_calls;
use crate::extract::candidates;
use crate::looped::Loop;
use crate::parse::{Parsed, Parser, several_calls};
use crate::provider::{FinishReason, Mode, Reply};
use crate::repair::{Fix, FixKind, Location, repair};

/// The loop of words a text reply cut at the token limit ended in, if it did: the reply
/// is read up to the end of its first round ([`Loop::said`]).
pub(super) fn looped_words(reply: &Reply, raw: &str) -> Option<Loop> {
    let cut = reply.finish == FinishReason::Length && reply.tool_calls.is_empty();
    cut.then(|| Loop::at_end_of(raw))
        .flatten()
        .filter(|l| l.of_words(raw))
}

/// Reads a reply: one value, or one per tool call when the model made several. Native
/// calls are read as data ([`native`]); text is read with the tools its calls name as
/// their servers spell them (`weather:alerts now`) read as the names the model is shown.
pub(super) fn read(
    parser: &Parser,
    target: &Target,
    reply: &Reply,
    raw: &str,
    shaped: &Shaped,
    mode: Mode,
) -> Result<(Vec<Value>, Vec<Fix>), Error> {
    if !reply.tool_calls.is_empty() {
        return native::read_calls(parser, target, &reply.tool_calls, shaped);
    }
    if mode == Mode::Tools
        && let Some((answer, fix)) = answer_call_as_text(target, raw)
        && let Ok((values, mut fixes)) = read_text(parser, target, reply, &answer, shaped, mode)
        && values.iter().all(|v| v.get("answer").is_some())
    {
        fixes.insert(0, fix);
        return Ok((values, fixes));
    }
    let rename = |name: &str| {
        let shown = target.names().model(name);
        (shown != name).then(|| shown.to_owned())
    };
    let renamed = target
        .names()
        .server_names()
        .next()
        .and_then(|_| renamed_calls(raw, &rename));
    match renamed {
        Some((text, renamed)) => {
            let (values, mut fixes) = read_text(parser, target, reply, &text, shaped, mode)?;
            fixes.splice(0..0, renamed);
            Ok((values, fixes))
        }
        None => read_text(parser, target, reply, raw, shaped, mode),
    }
}

/// A call of the answer's tool written as text (see [`FixKind::AnswerCall`]): the text of
/// the answer its arguments give, and the fix; `None` for any other reply, and where the
/// reply holds more than that one JSON value, lest a call beside it go unread.
fn answer_call_as_text(target: &Target, raw: &str) -> Option<(String, Fix)> {
    let union = target.union.as_ref()?;
    let call = closest(raw)?;
    let call = call.as_object()?;
    let name = call.get("name")?.as_str()?;
    let arguments = call.get("arguments")?;
    // The cheap tests first: most text replies in tools mode call some other tool.
    (union.is_answer_tool(name) && call.len() == 2).then_some(())?;
    let one_value = candidates(raw)
        .iter()
        .filter(|c| repair(&c.text).is_ok_and(|(v, _)| v.is_object() || v.is_array()))
        .count()
        == 1;
    // The answer's text itself where its one field goes: `"arguments": "Because …"`.
    let answer = match arguments {
        Value::String(text) => serde_json::json!({ "answer": text }),
        Value::Object(map) if map.contains_key("answer") && !map.contains_key("name") => {
            arguments.clone()
        }
        _ => return None,
    };
    one_value.then(|| {
        let kind = FixKind::AnswerCall {
            name: name.to_owned(),
        };
        (answer.to_string(), Fix::new(kind, Location::Reply))
    })
}

/// [`read`] of a reply written as text.
fn read_text(
    parser: &Parser,
    target: &Target,
    reply: &Reply,
    raw: &str,
    shaped: &Shaped,
    mode: Mode,
) -> Result<(Vec<Value>, Vec<Fix>), Error> {
    // Several calls written as text (a list, a `<tool_call>` block each, Python calls, …)
    // are every call, as several native calls are; the answer is one value. Where one is
    // wrong, every wrong call's violations are under its index, as `Toolset::read` says.
    let several = |read_as_one: bool| {
        (target.union.is_some() && reply.tool_calls.is_empty())
            .then(|| several_calls(parser, &target.schema, raw, read_as_one))
            .flatten()
            .filter(|read| read.as_ref().is_err() || read.as_ref().is_ok_and(|(v, _)| v.len() > 1))
    };
    let mut wrong_call: Option<Error> = None;
    let parsed = parse(parser, target, raw, shaped).or_else(|e| {
        match several(false) {
            Some(Ok((values, fixes))) => {
                return Ok(Parsed {
                    value: Value::Array(values),
                    fixes,
                });
            }
            Some(Err(several)) => wrong_call = Some(several),
            None => {}
        }
        // Several calls written as a JSON array.
        if let Some(Value::Array(items)) = closest(raw)
            && items.len() > 1
        {
            let items = shaped.restore(Value::Array(items));
            if let Value::Array(items) = &items
                && items.iter().all(|v| target.schema.is_valid(v))
            {
                return Ok(Parsed {
                    value: items.clone().into(),
                    fixes: Vec::new(),
                });
            }
        }
        // A call of the type's one tool written as text: `{"name": "contact", "arguments": {…}}`.
        if target.union.is_none()
            && mode == Mode::Tools
            && reply.tool_calls.is_empty()
            && let Some(Value::Object(call)) = closest(raw)
            && call.get("name").and_then(Value::as_str) == Some(target.name.as_str())
            && let Some(arguments) = call.get("arguments")
        {
            // The call is plain: what is wrong is inside its arguments.
            return parse(parser, target, &arguments.to_string(), shaped);
        }
        // Plain text instead of a call is the answer itself, in any mode; text holding
        // JSON is an attempt at a call (or at the answer), and text that names a tool is
        // about calling it: both get a repair like any reply.
        if target.has_answer()
            && reply.tool_calls.is_empty()
            && !raw.trim().is_empty()
            && !holds_json(raw)
            && !names_a_tool(target, raw)
        {
            let answer = serde_json::json!({ "answer": raw.trim() });
            return parser
                .parse_value(&target.schema, &answer.to_string())
                .map(|mut parsed| {
                    parsed
                        .fixes
                        .push(Fix::new(FixKind::PlainText, Location::Reply));
                    parsed
                })
                .map_err(|_| e);
        }
        Err(wrong_call.take().unwrap_or(e))
    })?;
    if parsed.value.get("answer").is_none()
        && let Some(many) = several(true)
    {
        return many;
    }
    let values = match parsed.value {
        Value::Array(items) if !target.schema.is_valid(&Value::Array(items.clone())) => items,
        value => vec![value],
    };
    Ok((values, parsed.fixes))
}

/// The lenient parse of text written against the dialect's schemas.
pub(super) fn parse(
    parser: &Parser,
    target: &Target,
    text: &str,
    shaped: &Shaped,
) -> Result<Parsed<Value>, Error> {
    let (text, fixes) = restore(text, shaped);
    after(fixes, parser.parse_value(&target.schema, &text))
}

/// A parse's value or error with `fixes` before its own: what was done to the text
/// before it was parsed.
pub(super) fn after(
    mut fixes: Vec<Fix>,
    read: Result<Parsed<Value>, Error>,
) -> Result<Parsed<Value>, Error> {
    match read {
        Ok(parsed) => {
            fixes.extend(parsed.fixes);
            Ok(Parsed {
                value: parsed.value,
                fixes,
            })
        }
        Err(e) => {
            fixes.extend(e.fixes().iter().cloned());
            Err(e.with_fixes(fixes))
        }
    }
}

/// The text restored to the strict schema's terms (see [`Shaped::restore`]), with the
/// fixes its extraction needed; the text unchanged when there was nothing to restore.
fn restore(text: &str, shaped: &Shaped) -> (String, Vec<Fix>) {
    for candidate in candidates(text) {
        // Bare words and other scalars are prose, not the reply's JSON.
        let Ok((value, repair_fixes)) = repair(&candidate.text) else {
            continue;
        };
        if !value.is_object() && !value.is_array() {
            continue;
        }
        let restored = shaped.restore(value.clone());
        if restored == value {
            break;
        }
        let mut fixes = candidate.fixes;
        fixes.extend(repair_fixes);
        return (restored.to_string(), fixes);
    }
    (text.to_owned(), Vec::new())
}

/// The whole reply as received: the text the model wrote beside its native calls (`The
/// user asks about Oslo, so I call get_weather`), then the calls as `calls_text` writes
/// them; the text alone where it made no call.
pub(super) fn as_received(reply: &Reply, calls_text: &str) -> String {
    if reply.tool_calls.is_empty() || reply.text.trim().is_empty() {
        return calls_text.to_owned();
    }
    format!("{}\n{calls_text}", reply.text)
}

/// The closest value of a rejected reply: its native calls as data, or the repaired
/// value of its text (see [`closest`]), read up to its loop where it looped in words
/// until the cut ([`looped_words`]), as the attempt read it.
pub(super) fn closest_of(target: &Target, reply: &Reply, raw: &str) -> Option<Value> {
    if reply.tool_calls.is_empty() {
        closest(looped_words(reply, raw).map_or(raw, |l| l.said(raw)))
    } else {
        native::closest(target, &reply.tool_calls)
    }
}

/// The calls of a reply to a union that the union's schema rejected with `error`, as the
/// strict schema reads them (out of the dialect's wrapper, under the names the model is
/// shown): its native calls, or the one call or list of calls its text holds. `None`
/// where there is none, where the text writes several calls apart (`<tool_call>`
/// blocks, Python calls), which only [`read`] reads whole: none is dropped unsaid; and
/// where the reply is the union's shape written back ([`crate::ViolationKind::SchemaEchoed`]):
/// the shape's types stand where values go, and read as JSON they pass for a call of
/// them (`query?: string` as a call for the query `"string"`), which no rule that weighs
/// a call may take for one.
pub(super) fn rejected_calls(
    parser: &Parser,
    target: &Target,
    reply: &Reply,
    raw: &str,
    shaped: &Shaped,
    error: &Error,
) -> Option<Vec<Value>> {
    target.union.as_ref()?;
    if error.echoed() {
        return None;
    }
    let several = || match several_calls(parser, &target.schema, raw, false) {
        Some(Ok((calls, _))) => calls.len() > 1,
        Some(Err(_)) => true,
        None => false,
    };
    if reply.tool_calls.is_empty() && several() {
        return None;
    }
    let mut calls = match shaped.restore(closest_of(target, reply, raw)?) {
        Value::Array(items) => items,
        one => vec![one],
    };
    for call in &mut calls {
        if let Some(Value::String(name)) = call.get_mut("name") {
            *name = target.names().model(name).to_owned();
        }
    }
    Some(calls)
}

/// The repaired value of a rejected reply, for the error's best partial value.
pub(super) fn closest(text: &str) -> Option<Value> {
    crate::extract::closest_value(text)
}

/// Whether text names one of the union's tools, as the model is shown it or as its
/// server spells it (`weather_get_forecast`, `weather.get_forecast`), as a word of its own.
/// A name that is one plain word (`search`, `translate`) counts only where it is called
/// (`search(`): prose uses such words of its own.
fn names_a_tool(target: &Target, text: &str) -> bool {
    let lower = text.to_lowercase();
    let shown = target
        .tools()
        .into_iter()
        .flatten()
        .map(|t| t.name.as_str());
    let spelled = target.names().server_names();
    shown.chain(spelled).any(|name| {
        let plain = name.chars().all(char::is_alphanumeric)
            && !name.chars().skip(1).any(char::is_uppercase);
        let name = name.to_lowercase();
        lower.match_indices(&name).any(|(i, _)| {
            let before = lower[..i].chars().last();
            let rest = &lower[i + name.len()..];
            let joins = |c: char| c.is_alphanumeric() || c == '_';
            let called = rest.trim_start().starts_with('(');
            !before.is_some_and(joins)
                && !rest.chars().next().is_some_and(joins)
                && (!plain || called)
        })
    })
}

/// Whether text holds a JSON object or array, not just prose.
pub(super) fn holds_json(text: &str) -> bool {
    closest(text).is_some_and(|v| v.is_object() || v.is_array())
}

/// Whether a reply with no native tool call wrote a call as text: JSON that is not the
/// `{"answer": …}` of a union.
pub(super) fn call_as_text(reply: &Reply, raw: &str) -> bool {
    reply.tool_calls.is_empty()
        && closest(raw)
            .is_some_and(|v| v.is_array() || (v.is_object() && v.get("answer").is_none()))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::{Target, answer_call_as_text};

    fn target() -> Target {
        Target::forecast_or_answer()
    }

    proptest! {
        /// An answer as asked, as JSON or as text, and a call of a tool are never read
        /// as a call of the answer's tool, whatever they say.
        #[test]
        fn the_answers_call_as_text_never_fires_on_an_answer_or_a_call(
            said in "\\PC{0,80}",
            name in "(answer|weather_get_forecast|answers|Answer|reply)",
        ) {
            let target = target();
            let answer = json!({"answer": said}).to_string();
            let call = json!({"name": "weather_get_forecast", "arguments": {"city": said}});
            let named = json!({"name": said, "arguments": {"answer": said}}).to_string();
            let other = json!({"name": name, "arguments": {"city": said}}).to_string();
            let text_of_a_tool = json!({"name": "weather_get_forecast", "arguments": said});
            let text_of_a_tool = text_of_a_tool.to_string();
            for reply in [&answer, &said, &call.to_string(), &named, &other, &text_of_a_tool] {
                let read = answer_call_as_text(&target, reply);
                prop_assert!(read.is_none() || said == "answer", "{reply}");
            }
        }

        /// The answer's call, bare or wrapped, gives back its arguments whole, or its
        /// text under `answer`.
        #[test]
        fn the_answers_call_as_text_gives_its_arguments(said in "\\PC{0,80}") {
            let arguments = json!({"answer": said});
            for written in [arguments.clone(), json!(said)] {
                let call = json!({"name": "answer", "arguments": written}).to_string();
                for reply in [call.clone(), format!("<tool_call>\n{call}\n</tool_call>")] {
                    let (text, _) = answer_call_as_text(&target(), &reply).expect("read");
                    let read: serde_json::Value = serde_json::from_str(&text).expect("JSON");
                    prop_assert_eq!(&read, &arguments);
                }
            }
        }
    }
}
