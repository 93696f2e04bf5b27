use proptest::prelude::*;
use serde_json::{Value, json};

use super::{contains_run, not_an_answer, words};
use crate::ViolationKind;
use crate::agent::forms::when_to_answer;
use crate::agent::request::Target;

/// A stock quote and a match's results, as a server names them, with an answer.
fn target() -> Target {
    let tools = json!([
        {"type": "function", "function": {
            "name": "finance.stock_quote",
            "description": "The latest price of a stock, e.g. 'AAPL'.",
            "parameters": {"type": "object", "properties": {"symbol": {"type": "string"}},
                "required": ["symbol"]}
        }},
        {"type": "function", "function": {
            "name": "sports.get_match_results",
            "parameters": {"type": "object", "properties": {"team": {"type": "string"}}}
        }},
        {"type": "function", "function": {
            "name": "weather",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}
        }}
    ]);
    Target::tools_with_answer(&tools)
}

fn kind(target: &Target, answer: &str, type_word_questioned: bool) -> Option<ViolationKind> {
    not_an_answer(target, &json!({ "answer": answer }), type_word_questioned)
        .map(|v| v.kind().clone())
}

#[test]
fn a_tool_s_name_alone_is_a_call_not_made() {
    let target = target();
    for written in [
        "finance.stock_quote",
        "finance_stock_quote",
        "Finance.Stock_Quote",
        "`finance.stock_quote`",
        "finance_stock_quote()",
        " \"finance-stock-quote\" ",
        "stock_quote",
        "sports_get_match_results",
        "get_match_results",
        "getMatchResults",
        "sports.getMatchResults",
    ] {
        let Some(ViolationKind::NamedNotCalled { tool }) = kind(&target, written, false) else {
            panic!("{written:?} is a tool's name");
        };
        assert!(
            ["finance_stock_quote", "sports_get_match_results"].contains(&tool.as_str()),
            "{written:?}: {tool}"
        );
    }
}

#[test]
fn an_answer_that_holds_a_name_or_a_word_of_one_is_an_answer() {
    let target = target();
    for answer in [
        // A name of one word, or a word of a name: a word anyone answers with.
        "weather",
        "Weather.",
        "quote",
        "results",
        // A sentence with the name in it.
        "Call finance.stock_quote to get it.",
        "The weather is mild today.",
        "stock quote",
        "AAPL",
        "",
    ] {
        assert_eq!(kind(&target, answer, false), None, "{answer:?}");
    }
}

#[test]
fn the_forms_sent_back_are_no_answer() {
    let target = target();
    for copied in [
        "<your answer>",
        "The answer is <your answer>",
        "<function name>",
        "a call of one of the functions above, the arguments taken from the request;",
        "the arguments taken from the request",
        "a call of one of the functions above",
        "Do not compute or make up its result yourself.",
        "Reply with the JSON only.",
        "the arguments taken from the conversation",
    ] {
        assert!(
            matches!(
                kind(&target, copied, false),
                Some(ViolationKind::CopiedForm { .. })
            ),
            "{copied:?}"
        );
    }
}

#[test]
fn saying_that_no_function_fits_is_left_alone() {
    let target = target();
    for said in [
        "None of the functions does what the request asks.",
        "none of the functions does what the request asks",
        "the results above give what the request asks for",
    ] {
        assert_eq!(kind(&target, said, false), None, "{said:?}");
    }
}

#[test]
fn a_type_word_alone_is_sent_back_once() {
    let target = target();
    for word in ["string", "String", " number ", "boolean"] {
        assert!(
            matches!(
                kind(&target, word, false),
                Some(ViolationKind::CopiedForm { .. })
            ),
            "{word:?}"
        );
        assert_eq!(kind(&target, word, true), None, "{word:?} the second time");
    }
    assert_eq!(kind(&target, "a string of pearls", false), None);
}

#[test]
fn calls_and_answers_of_a_shape_of_their_own_are_left_alone() {
    let target = target();
    let call = json!({"name": "weather", "arguments": {"city": "string"}});
    assert!(not_an_answer(&target, &call, false).is_none());
    let shaped = json!({"answer": {"text": "weather"}});
    assert!(not_an_answer(&target, &shaped, false).is_none());
}

/// Words none of the library's texts or the tools' names hold.
fn answer_word() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "Paris",
        "the",
        "capital",
        "of",
        "France",
        "is",
        "1889",
        "built",
        "Eiffel",
        "tower",
        "moons",
        "Saturn",
        "has",
        "many",
        "Amsterdam",
        "in",
        "1602",
        "a",
        "and",
        "42",
        "metres",
        "tall",
        "blue",
        "sky",
        "scatters",
        "light",
    ])
    .prop_map(str::to_owned)
}

proptest! {
    /// An answer made of ordinary words, as a sentence or a single word, is read as
    /// written, whatever was asked before.
    #[test]
    fn ordinary_answers_are_never_questioned(
        sentence in prop::collection::vec(answer_word(), 1..12),
        end in prop::sample::select(vec!["", ".", "!", "?"]),
        questioned_before in any::<bool>(),
    ) {
        let target = target();
        let answer = format!("{}{end}", sentence.join(" "));
        prop_assert_eq!(kind(&target, &answer, questioned_before), None, "{}", answer);
    }

    /// Any run of three words or more of the library's own reply texts, in any case and
    /// with any punctuation around it, is the forms sent back, unless it is the statement
    /// that no function fits.
    #[test]
    fn any_piece_of_the_forms_is_sent_back(
        text in 0usize..8,
        start in 0usize..200,
        len in 3usize..12,
        upper in any::<bool>(),
    ) {
        let target = target();
        let texts = target.own_reply_texts();
        let all = words(&texts[text % texts.len()]);
        let start = start % all.len().saturating_sub(3).max(1);
        let end = (start + len).min(all.len());
        prop_assume!(end - start >= 3);
        let piece = all[start..end].join(" ");
        let piece = if upper { piece.to_uppercase() } else { piece };
        let piece_words = words(&piece);
        prop_assume!(![false, true]
            .iter()
            .any(|after| contains_run(&words(when_to_answer(*after)), &piece_words)));
        let answer = format!("{piece}.");
        prop_assert!(
            matches!(kind(&target, &answer, false), Some(ViolationKind::CopiedForm { .. })),
            "{}", answer
        );
    }
}

#[test]
fn the_own_texts_hold_no_tool_s_documentation() {
    let target = target();
    for text in target.own_reply_texts() {
        assert!(!text.contains("AAPL"), "{text}");
        assert!(!text.contains("stock_quote"), "{text}");
    }
    let value: Value = json!({"answer": "The latest price of a stock"});
    assert!(not_an_answer(&target, &value, false).is_none());
}
