//! Calls written as Python: `[get_weather(city="Paris", days=3), switch_lamp(name='desk',
//! on=True)]`, without the brackets, with dotted names, and `get_weather({"city": …})`.
//!
//! Arguments are keyword arguments. One argument by position is read only where it has one
//! place: an object, as the arguments themselves (`name({…})`), or any value for a tool with
//! exactly one parameter. Anything else by position is refused: which parameter it is for
//! would be a guess.

use serde_json::{Map, Value};

use super::literal::{PyCall, Reader, identifier_len};
use super::{Found, MAX_CALLS, TextCalls, Tools, call, excerpt, refused};

const KEYWORDS: &str = "name(key=value)";
const OBJECT: &str = "name({…})";

/// A reply that is nothing but Python calls, in brackets or not, separated by `,`, `;` or
/// lines; each name a tool of the union or a near miss of one (so that a misspelled tool is
/// reported as one).
pub(super) fn whole(text: &str, tools: &Tools<'_, '_>) -> Option<TextCalls> {
    match calls(text, tools, true)? {
        Ok((found, format)) => found.into_calls(format),
        Err(why) => refused(KEYWORDS, why),
    }
}

/// [`whole`] for text a marker says holds calls: any name.
pub(super) fn all_calls(text: &str, tools: &Tools<'_, '_>) -> Option<Result<Vec<Value>, String>> {
    calls(text, tools, false).map(|read| read.map(|(found, _)| found.calls))
}

type Calls = (Found, &'static str);

fn calls(text: &str, tools: &Tools<'_, '_>, known: bool) -> Option<Result<Calls, String>> {
    let mut reader = Reader::new(text, 0);
    reader.skip_blank();
    let bracketed = text[reader.at..].starts_with('[');
    if bracketed {
        reader.at += 1;
        reader.skip_blank();
    }
    // The reply starts with a call (`name(`), or it is not one of calls.
    let first = reader.at;
    let name = reader.name()?;
    if !text[reader.at..].starts_with('(') || (known && !tools.nearly_knows(name)) {
        return None;
    }
    reader.at = first;
    let mut found = Found::default();
    let mut all_objects = true;
    loop {
        let start = reader.at;
        if known {
            let name = reader.name()?;
            if !tools.nearly_knows(name) {
                return None;
            }
            reader.at = start;
        }
        let read = reader
            .call()
            .map_err(|e| format!("{} at {:?}", e.message, excerpt(&text[e.at..])));
        let pushed = read.and_then(|c| {
            all_objects &= is_object_form(&c);
            found.spans.push(start..c.end);
            found.push(arguments(c, tools)?)
        });
        if let Err(why) = pushed {
            return Some(Err(why));
        }
        let before = reader.at;
        reader.skip_blank();
        let rest = &text[reader.at..];
        let newline = text[before..reader.at].contains('\n');
        if let Some(after) = rest.strip_prefix([',', ';']) {
            reader.at += 1;
            reader.skip_blank();
            // A comma before the closing bracket.
            if bracketed && after.trim_start().starts_with(']') {
                reader.at += 1;
                break;
            }
        } else if bracketed && rest.starts_with(']') {
            reader.at += 1;
            break;
        } else if rest.is_empty() && !bracketed {
            break;
        } else if !(newline && identifier_len(rest) > 0) {
            // Something else follows: not a reply of calls alone.
            return None;
        }
    }
    reader.skip_blank();
    if reader.at != text.len() {
        return None;
    }
    let format = if all_objects { OBJECT } else { KEYWORDS };
    Some(Ok((found, format)))
}

/// Calls of the union's tools inside prose: `Sure, get_weather(city="Paris") it is.` A name
/// counts where no letter, digit, `_` or `.` comes before it and `(` right after it; a call
/// that does not read is not one (the text is prose), one whose arguments cannot be placed
/// is refused.
pub(super) fn in_prose(text: &str, tools: &Tools<'_, '_>) -> Option<TextCalls> {
    let mut found = Found::default();
    let mut all_objects = true;
    let mut attempts = 0;
    let mut at = 0;
    let bytes = text.as_bytes();
    while at < text.len() {
        let boundary = at == 0
            || !(bytes[at - 1].is_ascii_alphanumeric() || matches!(bytes[at - 1], b'_' | b'.'));
        let mut reader = Reader::new(text, at);
        let name = if boundary { reader.name() } else { None };
        let Some(name) = name else {
            at += text[at..].chars().next().map_or(1, char::len_utf8);
            continue;
        };
        let name_end = reader.at;
        if !(text[name_end..].starts_with('(') && tools.knows(name)) || attempts >= MAX_CALLS {
            at = name_end;
            continue;
        }
        attempts += 1;
        reader.at = at;
        match reader.call() {
            Ok(c) => {
                all_objects &= is_object_form(&c);
                found.spans.push(at..c.end);
                at = c.end;
                let format = if all_objects { OBJECT } else { KEYWORDS };
                if let Err(why) = arguments(c, tools).and_then(|v| found.push(v)) {
                    return refused(format, why);
                }
            }
            Err(_) => at = name_end,
        }
    }
    found.into_calls(if all_objects { OBJECT } else { KEYWORDS })
}

/// `name({…})`: one object by position, nothing else.
fn is_object_form(c: &PyCall) -> bool {
    c.keyword.is_empty() && matches!(c.positional.as_slice(), [Value::Object(_)])
}

/// The call as `{"name", "arguments"}`.
pub(super) fn arguments(c: PyCall, tools: &Tools<'_, '_>) -> Result<Value, String> {
    if c.positional.is_empty() {
        return Ok(call(
            &c.name,
            Value::Object(c.keyword.into_iter().collect()),
        ));
    }
    if is_object_form(&c) {
        let arguments = c.positional.into_iter().next().unwrap_or_default();
        return Ok(call(&c.name, arguments));
    }
    if let ([value], []) = (c.positional.as_slice(), c.keyword.as_slice())
        && let Some(parameter) = tools.only_parameter(&c.name)
    {
        let mut arguments = Map::new();
        arguments.insert(parameter, value.clone());
        return Ok(call(&c.name, Value::Object(arguments)));
    }
    Err(format!(
        "{}(…) passes {} argument(s) by position; write each argument by its name: {}(key=value)",
        c.name,
        c.positional.len(),
        c.name
    ))
}
