//! The formats chat templates mark with their own tokens: Hermes/Qwen `<tool_call>`,
//! Mistral `[TOOL_CALLS]`, Llama 3.1 `<function=…>` and `<|python_tag|>`.

use serde_json::Value;

use super::literal::Reader;
use super::pythonic::arguments;
use super::{Found, TextCalls, Tools, call, excerpt, refused};

/// Tags that wrap one call each, Hermes's first.
const CALL_TAGS: &[&str] = &["tool_call", "function_call", "invoke"];

const HERMES: &str = "<tool_call>{…}</tool_call>";
const MISTRAL_LIST: &str = "[TOOL_CALLS][{…}]";
const MISTRAL_ARGS: &str = "[TOOL_CALLS]name[ARGS]{…}";
const LLAMA_FUNCTION: &str = "<function=name>{…}</function>";
const PYTHON_TAG: &str = "<|python_tag|>{…}";

/// Where Llama's tool turn ends.
const END_TOKENS: &[&str] = &["<|eom_id|>", "<|eot_id|>"];

/// `<tool_call>…</tool_call>` blocks (or `<function_call>`, `<invoke>`), each holding a
/// JSON call, a list of them, or a Python call. An unclosed last block runs to the end.
pub(super) fn hermes(text: &str, tools: &Tools<'_, '_>) -> Option<TextCalls> {
    let (open, close) = CALL_TAGS.iter().find_map(|tag| {
        let open = format!("<{tag}>");
        text.contains(&open).then(|| (open, format!("</{tag}>")))
    })?;
    let mut found = Found::default();
    let mut from = 0;
    while let Some(i) = text[from..].find(&open) {
        let start = from + i + open.len();
        let end = text[start..].find(&close).map_or(text.len(), |e| start + e);
        from = (end + close.len()).min(text.len());
        let body = text[start..end].trim();
        if body.is_empty() {
            continue;
        }
        let at = start + text[start..end].find(body).unwrap_or(0);
        let read = if body.starts_with(['{', '[']) {
            found.json(&text[..end], at).map(|(value, _)| match value {
                Value::Array(items) => items,
                one => vec![one],
            })
        } else {
            found.spans.push(at..at + body.len());
            python_calls(body, tools)
        };
        match read.and_then(|calls| calls.into_iter().try_for_each(|c| found.push(c))) {
            Ok(()) => {}
            Err(why) => return refused(HERMES, format!("in a {open} block: {why}")),
        }
    }
    found.into_calls(HERMES)
}

/// `[TOOL_CALLS]` followed by a JSON list of calls (or one call), or by
/// `name[ARGS]{…}` (`[CALL_ID]…` before `[ARGS]` allowed), a marker per call or calls one
/// after another.
pub(super) fn mistral(text: &str) -> Option<TextCalls> {
    const MARKER: &str = "[TOOL_CALLS]";
    let first = text.find(MARKER)?;
    let mut found = Found::default();
    let mut format = MISTRAL_LIST;
    let mut at = first;
    while let Some(i) = text[at..].find(MARKER) {
        at = skip_blank(text, at + i + MARKER.len());
        if text[at..].starts_with(['[', '{']) {
            let read = found.json(text, at).and_then(|(value, end)| {
                at = end;
                let items = match value {
                    Value::Array(items) => items,
                    one => vec![one],
                };
                items.into_iter().try_for_each(|c| found.push(c))
            });
            if let Err(why) = read {
                return refused(MISTRAL_LIST, why);
            }
            continue;
        }
        format = MISTRAL_ARGS;
        // Calls one after another: `a[ARGS]{…}b[ARGS]{…}`.
        loop {
            match named_arguments(text, at, &mut found) {
                Ok(Some(end)) => at = skip_blank(text, end),
                Ok(None) if found.calls.is_empty() => {
                    let why = format!(
                        "{MARKER} is followed by no call: {:?}",
                        excerpt(&text[at..])
                    );
                    return refused(MISTRAL_ARGS, why);
                }
                Ok(None) => break,
                Err(why) => return refused(MISTRAL_ARGS, why),
            }
        }
    }
    found.into_calls(format)
}

/// `name[ARGS]{…}` (or `name[CALL_ID]id[ARGS]{…}`) at `at`: the call pushed and where it
/// ends; `None` when no name and `[ARGS]` stand there.
fn named_arguments(text: &str, at: usize, found: &mut Found) -> Result<Option<usize>, String> {
    let name_len = text[at..]
        .find(|c: char| !(c.is_alphanumeric() || "_-./:".contains(c)))
        .unwrap_or(text.len() - at);
    let name = &text[at..at + name_len];
    let mut rest = at + name_len;
    if let Some(id) = text[rest..].strip_prefix("[CALL_ID]") {
        let id_len = id.find(|c: char| !c.is_alphanumeric()).unwrap_or(id.len());
        rest += "[CALL_ID]".len() + id_len;
    }
    let Some(after) = text[rest..].strip_prefix("[ARGS]") else {
        return Ok(None);
    };
    if name.is_empty() {
        return Err("[ARGS] without a tool name before it".into());
    }
    let args_at = skip_blank(text, text.len() - after.len());
    let (arguments, end) = found.json(text, args_at)?;
    found.push(call(name, arguments))?;
    Ok(Some(end))
}

/// `<function=name>{…}</function>`, the closing tag optional, as many as written.
pub(super) fn llama_function(text: &str) -> Option<TextCalls> {
    const OPEN: &str = "<function=";
    const CLOSE: &str = "</function>";
    text.find(OPEN)?;
    let mut found = Found::default();
    let mut from = 0;
    while let Some(i) = text[from..].find(OPEN) {
        let name_at = from + i + OPEN.len();
        let Some(gt) = text[name_at..].find('>') else {
            return refused(
                LLAMA_FUNCTION,
                "a <function= tag that is never closed".into(),
            );
        };
        let name = text[name_at..name_at + gt].trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            let why = format!("{:?} is no tool name", excerpt(name));
            return refused(LLAMA_FUNCTION, why);
        }
        let args_at = skip_blank(text, name_at + gt + 1);
        let read = found
            .json(text, args_at)
            .and_then(|(arguments, end)| found.push(call(name, arguments)).map(|()| end));
        match read {
            Ok(end) => {
                let after = skip_blank(text, end);
                from = if text[after..].starts_with(CLOSE) {
                    after + CLOSE.len()
                } else {
                    end
                };
            }
            Err(why) => return refused(LLAMA_FUNCTION, format!("in <function={name}>: {why}")),
        }
    }
    found.into_calls(LLAMA_FUNCTION)
}

/// `<|python_tag|>` followed by calls separated by `;`, up to `<|eom_id|>`, `<|eot_id|>` or
/// the end: JSON objects (`{"name", "parameters"}`) or Python calls
/// (`brave_search.call(query="…")`).
pub(super) fn python_tag(text: &str, tools: &Tools<'_, '_>) -> Option<TextCalls> {
    const TAG: &str = "<|python_tag|>";
    let start = text.find(TAG)? + TAG.len();
    let end = END_TOKENS
        .iter()
        .filter_map(|t| text[start..].find(t))
        .min()
        .map_or(text.len(), |e| start + e);
    let segment = &text[..end];
    let mut found = Found::default();
    let mut at = skip_blank(segment, start);
    while at < segment.len() {
        let read = if segment[at..].starts_with('{') {
            found
                .json(segment, at)
                .and_then(|(value, end)| found.push(value).map(|()| end))
        } else {
            let mut reader = Reader::new(segment, at);
            let start = at;
            reader
                .call()
                .map_err(|e| format!("{} at {:?}", e.message, excerpt(&segment[e.at..])))
                .and_then(|c| {
                    let end = c.end;
                    found.spans.push(start..end);
                    found.push(arguments(c, tools)?).map(|()| end)
                })
        };
        match read {
            Ok(end) => at = skip_blank(segment, end),
            Err(why) => return refused(PYTHON_TAG, why),
        }
        match segment[at..].strip_prefix(';') {
            Some(_) => at = skip_blank(segment, at + 1),
            None if at < segment.len() => {
                let why = format!(
                    "expected `;` between calls, found {:?}",
                    excerpt(&segment[at..])
                );
                return refused(PYTHON_TAG, why);
            }
            None => {}
        }
    }
    found.into_calls(PYTHON_TAG)
}

/// Python calls making up all of a block: `get_weather(city="Paris")`, several separated
/// by `,`, `;` or lines.
fn python_calls(body: &str, tools: &Tools<'_, '_>) -> Result<Vec<Value>, String> {
    match super::pythonic::all_calls(body, tools) {
        Some(Ok(calls)) => Ok(calls),
        Some(Err(why)) => Err(why),
        None => Err(format!("{:?} is neither JSON nor a call", excerpt(body))),
    }
}

fn skip_blank(text: &str, at: usize) -> usize {
    let rest = &text[at..];
    at + rest.len() - rest.trim_start().len()
}
