//! Properties of the lenient parse over generated text: valid JSON is read as it is, a
//! reply cut off anywhere is closed and gains nothing, a lone string whose inner quotes
//! were not escaped is read whole while several values are never read as one, JSON in
//! Python's quotes is found in prose, and damaged JSON or any text is repaired or refused
//! with a reason, never a panic.

use proptest::prelude::*;
use serde_json::Value;
use toolschema::repair::{Fix, FixKind, Location, repair};
use toolschema::{ToolSchema, ViolationKind};

use super::parsed;

/// Strings full of the characters repair heuristics look at.
const TEXT: &str = "[a-z \"\\\\,:\\[\\]{}()/*'#+.\\-\\n\\té😀<>`]{0,12}";

/// An array or an object of `items`.
fn container_of(items: BoxedStrategy<Value>) -> impl Strategy<Value = Value> {
    prop_oneof![
        prop::collection::vec(items.clone(), 0..6).prop_map(Value::Array),
        prop::collection::vec((TEXT, items), 0..6)
            .prop_map(|members| Value::Object(members.into_iter().collect())),
    ]
}

/// Strings that hold what the repair classes look for (docs/recovery.md): unescaped-looking
/// quotes, backslashes, triple quotes, fences, literals and numbers in other spellings.
const TRICKY: [&str; 8] = [
    r"C:\Users\ann\new",
    "she said \"wait\", then \"go\": ok",
    "\"\"\"x\"\"\" '''y'''",
    "```json\n{\"a\": 1}\n```",
    "TRUE Null 1_000 2.",
    "a\\",
    "note \"b\": 2",
    "<think>x</think>",
];

/// JSON values, nested a few levels.
fn json_value() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1e9f64..1e9).prop_map(Value::from),
        TEXT.prop_map(Value::String),
        prop::sample::select(TRICKY.to_vec()).prop_map(|s| Value::String(s.to_owned())),
    ];
    leaf.prop_recursive(3, 48, 6, container_of).boxed()
}

/// A JSON number, as JSON writes it.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i64>().prop_map(|n| n.to_string()),
        (-1e9f64..1e9).prop_map(|x| Value::from(x).to_string()),
    ]
}

/// The words repair reads as literals, in every spelling.
const LITERALS: [&str; 10] = [
    "true", "false", "null", "True", "False", "None", "TRUE", "FALSE", "NULL", "Null",
];

/// A JSON array or object.
fn container() -> impl Strategy<Value = Value> {
    container_of(json_value())
}

/// JSON equality with numbers compared by value: `2 == 2.0`.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// Whether `cut` is what a reply cut off inside `whole` may give: everything before the
/// cut as it was, the last value possibly shortened (a string to a prefix, a number to
/// fewer digits), and nothing that `whole` does not have.
pub(super) fn cut_from(cut: &Value, whole: &Value) -> bool {
    match (cut, whole) {
        (Value::String(c), Value::String(w)) => w.starts_with(c.as_str()),
        (Value::Number(_), Value::Number(_)) => true,
        (Value::Array(c), Value::Array(w)) => match c.split_last() {
            None => true,
            Some((last, before)) => {
                c.len() <= w.len()
                    && before.iter().zip(w).all(|(a, b)| same(a, b))
                    && cut_from(last, &w[before.len()])
            }
        },
        (Value::Object(c), Value::Object(w)) => {
            c.len() <= w.len()
                && c.iter()
                    .zip(w)
                    .enumerate()
                    .all(|(i, ((ck, cv), (wk, wv)))| {
                        ck == wk
                            && if i + 1 == c.len() {
                                cut_from(cv, wv)
                            } else {
                                same(cv, wv)
                            }
                    })
        }
        _ => cut == whole,
    }
}

/// The content of the string the text ends in, if it ends inside one (`text` is a prefix
/// of valid JSON).
pub(super) fn open_string(text: &str) -> Option<&str> {
    let (mut start, mut inside, mut escaped) = (None, false, false);
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if inside => escaped = true,
            '"' => {
                inside = !inside;
                start = Some(i + 1);
            }
            _ => {}
        }
    }
    inside.then(|| &text[start.unwrap_or(0)..])
}

/// Every fix offset is a place in the text.
fn offsets_in(text: &str, fixes: &[Fix]) -> bool {
    fixes.iter().all(|f| match f.location() {
        Location::Offset(o) => *o <= text.len() && text.is_char_boundary(*o),
        _ => false,
    })
}

/// The checks every input must pass, whatever it is: the repairer's fixes point into the
/// text, its errors at a line of it, and the parse answers with a value or a reason.
fn handles(text: &str) -> Result<(), TestCaseError> {
    match repair(text) {
        Ok((_, fixes)) => prop_assert!(offsets_in(text, &fixes), "{fixes:?}"),
        Err(e) => {
            let lines = text.split('\n').count();
            prop_assert!(
                matches!(e.violations(), [v] if matches!(v.kind(),
                    ViolationKind::Syntax { line, column, .. } if *line <= lines && *column >= 1)),
                "{e:?}"
            );
        }
    }
    if let Err(e) = toolschema::parse::<Value>(text) {
        prop_assert!(!e.to_string().is_empty());
    }
    #[derive(ToolSchema, Debug)]
    struct Typed {
        name: String,
        n: Option<u8>,
        tags: Vec<String>,
    }
    if let Err(e) = toolschema::parse::<Typed>(text) {
        prop_assert!(!e.violations().is_empty());
    }
    Ok(())
}

/// Small edits of JSON text: the kinds of damage model replies have.
fn mutated() -> impl Strategy<Value = String> {
    let tokens = prop::sample::select(vec![
        "\"", "'", ",", ":", "[", "]", "{", "}", "\\", "//", "/*", "*/", "\n", "...", "+", "True",
        "“", "```", "<think>", "<json>", "#", " ", "-", ".", "e", "\u{0}", "(", ")", "tr",
    ]);
    let edit = (0..3u8, any::<prop::sample::Index>(), tokens);
    (json_value(), prop::collection::vec(edit, 1..5)).prop_map(|(value, edits)| {
        let mut text = value.to_string();
        for (op, at, token) in edits {
            let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
            let i = if bounds.is_empty() {
                0
            } else {
                bounds[at.index(bounds.len())]
            };
            match op {
                0 => text.insert_str(i, token),
                1 if i < text.len() => {
                    let c = text[i..].chars().next().map_or(0, char::len_utf8);
                    text.replace_range(i..i + c, "");
                }
                _ => text.truncate(i),
            }
        }
        text
    })
}

/// Prose a model may put in a string: quotes, escapes, brackets, delimiters, control
/// characters. No `+`, `/` or `#`: a quote followed by them starts a concatenation or a
/// comment, read as such before any string.
const PROSE: &str = "[a-z ,:0-9\\[\\]{}()'“”\\\\\\n\\té😀]{0,10}";

/// What may follow a quote inside a string without making the reply several values: not
/// blank, a comma or a colon, which separate values, nor `+`, `/`, `#`.
const FOLLOWER: &str = "[a-z0-9\\[\\]{}()'“”é]";

/// A string `s` and a reply that writes it as one string literal whose inner quotes are
/// left unescaped (some of them; the others escaped), with the offsets of those quotes.
fn lone_string() -> impl Strategy<Value = (String, String, Vec<usize>)> {
    let quote = prop_oneof![
        Just(None),
        Just(Some(None)),
        FOLLOWER.prop_map(|f| Some(Some(f))),
    ];
    let chunks = prop::collection::vec((PROSE, quote), 0..5);
    (chunks, any::<bool>()).prop_map(|(chunks, quote_at_end)| {
        let (mut s, mut text, mut raw) = (String::new(), String::from("\""), Vec::new());
        let encode = |part: &str| {
            let json = serde_json::to_string(part).expect("a string");
            json[1..json.len() - 1].to_owned()
        };
        for (prose, quote) in chunks {
            s.push_str(&prose);
            text.push_str(&encode(&prose));
            match quote {
                None => {}
                // An escaped quote.
                Some(None) => {
                    s.push('"');
                    text.push_str("\\\"");
                }
                // An unescaped quote, and what follows it.
                Some(Some(follower)) => {
                    s.push('"');
                    raw.push(text.len());
                    text.push('"');
                    s.push_str(&follower);
                    text.push_str(&encode(&follower));
                }
            }
        }
        if quote_at_end {
            s.push('"');
            raw.push(text.len());
            text.push('"');
        }
        text.push('"');
        (s, text, raw)
    })
}

/// Two or more JSON values, the first a string, separated as a model may separate
/// them, and as text.
fn several_values() -> impl Strategy<Value = String> {
    let separator = prop::sample::select(vec![",", ", ", " ,", ":", ": ", "\n", ",\n", " "]);
    let rest = prop::collection::vec((separator, json_value()), 1..4);
    (TEXT, rest).prop_map(|(first, rest)| {
        let mut text = Value::String(first).to_string();
        for (separator, value) in rest {
            // `"a" true` may be one string whose inner quotes were not escaped, cut off:
            // blank alone separates a string only from what starts with a quote, a
            // bracket or a digit.
            let value = value.to_string();
            let clear = value.starts_with(['"', '[', '{']) || value.starts_with(char::is_numeric);
            text.push_str(if separator == " " && !clear {
                ", "
            } else {
                separator
            });
            text.push_str(&value);
        }
        text
    })
}

/// A JSON value written as Python writes it (`repr`): strings in single quotes unless
/// they hold a single quote and no double quote.
fn python_repr(value: &Value) -> String {
    match value {
        Value::Null => "None".to_owned(),
        Value::Bool(true) => "True".to_owned(),
        Value::Bool(false) => "False".to_owned(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => {
            let quote = if s.contains('\'') && !s.contains('"') {
                '"'
            } else {
                '\''
            };
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
            let items: Vec<String> = items.iter().map(python_repr).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(members) => {
            let members: Vec<String> = members
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{}: {}",
                        python_repr(&Value::String(k.clone())),
                        python_repr(v)
                    )
                })
                .collect();
            format!("{{{}}}", members.join(", "))
        }
    }
}

/// Prose around JSON: apostrophes, no brackets (and no double quotes, which would make
/// some replies one JSON string).
const AROUND: &str = "[A-Za-z ,.:']{0,16}";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn valid_json_is_read_as_it_is(value in json_value()) {
        for text in [value.to_string(), serde_json::to_string_pretty(&value).expect("JSON")] {
            let (repaired, fixes) = repair(&text).expect("valid JSON");
            prop_assert!(same(&repaired, &value), "{text} gave {repaired}");
            prop_assert!(fixes.is_empty(), "{text}: {fixes:?}");
            let (parsed, fixes) = parsed(&text);
            prop_assert!(same(&parsed, &value) && fixes.is_empty(), "{text} gave {parsed}");
        }
    }

    #[test]
    fn a_string_is_read_as_it_is(s in prop_oneof![any::<String>(), TEXT.boxed(), PROSE.boxed()]) {
        let text = Value::String(s.clone()).to_string();
        let (repaired, fixes) = repair(&text).expect("valid JSON");
        prop_assert_eq!(&repaired, &Value::String(s.clone()), "{}", text);
        prop_assert!(fixes.is_empty(), "{text}: {fixes:?}");
        prop_assert_eq!(parsed(&text), (Value::String(s), vec![]));
    }

    #[test]
    fn a_lone_string_with_unescaped_quotes_is_read_whole((s, text, raw) in lone_string()) {
        // Exactly what the model wrote between its first and last quote, every escape
        // read, every unescaped quote reported.
        let (repaired, fixes) = repair(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(&repaired, &Value::String(s.clone()), "{}", text);
        let unescaped: Vec<_> = raw
            .iter()
            .map(|&o| (FixKind::UnescapedQuote, Location::Offset(o)))
            .collect();
        let found: Vec<_> = fixes.iter().map(|f| (f.kind().clone(), f.location().clone())).collect();
        prop_assert_eq!(found, unescaped, "{}", text);
        let value = toolschema::parse::<String>(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(value, s, "{}", text);
    }

    #[test]
    fn several_values_are_never_read_as_one(text in several_values()) {
        prop_assert!(repair(&text).is_err(), "{text} gave {:?}", repair(&text));
    }

    /// A literal in any spelling repair reads (`null`, `None`, `TRUE`) followed by a colon
    /// is a value the colon follows, never the start of a bare word `null:` that would
    /// let the values around it be read as one string. Inside a string or a longer word
    /// (`nullable: x`) the colon stays what it was.
    #[test]
    fn a_literal_before_a_colon_is_a_value_of_its_own(
        first in TEXT,
        literal in prop::sample::select(LITERALS.to_vec()),
        colon in prop::sample::select(vec![":", ": ", " :", ":\n"]),
        last in json_value(),
    ) {
        let first = Value::String(first).to_string();
        let text = format!("{first},{literal}{colon}{last}");
        prop_assert!(repair(&text).is_err(), "{text} gave {:?}", repair(&text));
        // Valid JSON that holds the same characters in strings reads as written.
        let valid = serde_json::json!({"k": format!("{literal}{colon}"), "v": last});
        prop_assert_eq!(&repair(&valid.to_string()).map(|(v, _)| v).ok(), &Some(valid));
        // A longer bare word on one line keeps its colon.
        if !colon.contains('\n') {
            let word = format!("{literal}able{colon}x");
            let read = repair(&format!("{{\"k\": {word}}}")).map(|(v, _)| v).ok();
            prop_assert_eq!(read.as_ref().and_then(|v| v["k"].as_str()), Some(word.as_str()));
        }
    }

    /// At the top level, a word that ends in a colon right before a string (`1:2:`, read
    /// as a time is, `10:30`; `null 1:`, a literal and a number on one line, read as one
    /// word; `ab:`) is followed by that string as a value of its own: the quote after the
    /// colon is never skipped as the end quote of a word missing its opening one, which
    /// would let the values around it be read as one string. In an array that quote may
    /// be the word's end quote, and is read so, as before.
    #[test]
    fn a_word_before_a_colon_and_a_string_is_a_value_of_its_own(
        first in TEXT,
        separator in prop::sample::select(vec![",", ", ", ":", "\n"]),
        word in prop_oneof![
            (number(), prop::collection::vec("[0-9]{1,4}(\\.[0-9]{1,3})?", 1..3))
                .prop_map(|(number, parts)| format!("{number}:{}", parts.join(":"))),
            (prop::sample::select(LITERALS.to_vec()), number())
                .prop_map(|(literal, number)| format!("{literal} {number}")),
            // Too short to be a literal.
            "[a-z]{1,3}",
        ],
        last in TEXT,
    ) {
        let (first, last) = (Value::String(first).to_string(), Value::String(last).to_string());
        let text = format!("{first}{separator}{word}:{last}");
        prop_assert!(repair(&text).is_err(), "{text} gave {:?}", repair(&text));
        let item = repair(&format!("[{word}:\"]")).map(|(v, _)| v).ok();
        prop_assert_eq!(item, Some(serde_json::json!([format!("{word}:")])));
    }

    /// Several strings where a list of strings is expected are read as its items, exactly
    /// as written, or refused; never one string made of them. Syntax repair alone refuses
    /// them.
    #[test]
    fn several_strings_are_the_list_they_write(
        strings in prop::collection::vec("[a-z \"',:]{0,8}", 2..5),
        separator in prop::sample::select(vec![",", ", ", "\n", " "]),
    ) {
        let texts: Vec<String> = strings.iter().map(|s| Value::String(s.clone()).to_string()).collect();
        let text = texts.join(separator);
        // Where quotes inside leave a doubt the reply may be refused; never another list.
        if let Ok(list) = toolschema::parse::<Vec<String>>(&text) {
            prop_assert_eq!(&list, &strings, "{}", text);
        }
        let err = match toolschema::Parser::new()
            .coercion(toolschema::Coercion::None)
            .parse::<Vec<String>>(&text)
        {
            Ok(list) => return Err(TestCaseError::fail(format!("{text} gave {list:?}"))),
            Err(e) => e,
        };
        prop_assert!(
            matches!(err.violations(), [v] if v.pointer().is_empty()
                && matches!(v.kind(), ViolationKind::Syntax { .. })),
            "{text}: {err}"
        );
    }

    #[test]
    fn json_in_python_quotes_is_found_in_prose(
        value in container(),
        before in AROUND,
        after in AROUND,
    ) {
        let reply = format!("{before} {} {after}", python_repr(&value));
        // A fence is taken for one wherever it stands, strings or not, outside JSON that is
        // strict as a whole.
        prop_assume!(!reply.contains("```"));
        let (found, _) = parsed(&reply);
        prop_assert!(same(&found, &value), "{reply} gave {found}");
    }

    #[test]
    fn a_cut_off_reply_is_closed_and_gains_nothing(
        value in container(),
        cut in any::<prop::sample::Index>(),
    ) {
        let text = value.to_string();
        let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).skip(1).collect();
        let end = bounds[cut.index(bounds.len())];
        let prefix = &text[..end];
        // Cut right after a `]` or `}` inside a string reads as a string missing its end
        // quote (`["hello, world]`): the one place where the reply's own text is read as
        // structure, so it may be refused or split. Everywhere else the reply is closed
        // and nothing is invented.
        if open_string(prefix).is_some_and(|s| s.trim_end().ends_with([']', '}'])) {
            return handles(prefix);
        }
        let (repaired, fixes) = repair(prefix).expect("a cut-off container is closed");
        prop_assert!(
            fixes.iter().any(|f| matches!(f.kind(), FixKind::ClosedBrackets { .. })),
            "{prefix}: {fixes:?}"
        );
        prop_assert!(cut_from(&repaired, &value), "{prefix} gave {repaired}, from {value}");
    }

    #[test]
    fn damaged_json_is_repaired_or_refused_with_a_reason(text in mutated()) {
        handles(&text)?;
    }

    #[test]
    fn any_text_is_repaired_or_refused_with_a_reason(text in any::<String>()) {
        handles(&text)?;
    }

    #[test]
    fn json_like_text_is_repaired_or_refused_with_a_reason(
        text in "[\\[\\]{}\"'“”,:0-9a-zA-Z \\n\\\\/*#+.\\-`<>~_]{0,48}",
    ) {
        handles(&text)?;
    }
}
