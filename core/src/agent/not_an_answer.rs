//! Answers to a union of tools that say nothing of the model's own: the name of one of
//! the union's tools (the call meant, not made), or the library's own text sent back (a
//! placeholder of the forms, a piece of the instructions, a type of the shape).
//!
//! Small models write both. Told to call a tool it had skipped, a 0.5B model replied
//! `{"answer": "sports_get_match_results"}`; asked in a repair for "a call of one of the
//! tools, the arguments taken from the request; or … the text {"answer": …}", a 1.5B one
//! answered with that description of a call, word for word. Read
//! as answers, they end the ask with text no user wants. They are sent back instead, each
//! time (neither is ever an answer), except a type word alone (`"string"`): a request may
//! really be answered by one, so it is sent back once, and a model that writes it again
//! is taken at its word.
//!
//! The check reads an answer whose value is text; an answer of a shape of its own is
//! left alone. The statement that no function fits ("None of the functions does what the
//! request asks") is a piece of the instructions, but it says something of the request,
//! and is left alone too.

use serde_json::Value;

use super::forms::{PLACEHOLDERS, when_to_answer};
use super::request::Target;
use crate::parse::TYPE_WORDS;
use crate::{Violation, ViolationKind};

/// The fewest words of the instructions an answer must be to count as them sent back:
/// two words ("the request") may be anyone's.
const MIN_COPIED_WORDS: usize = 3;

/// The violation of `value`, a reply to a union of tools with an answer, when it is an
/// answer that says nothing of its own (see the module); `None` for a call, an answer of
/// the model's, or a type word when `type_word_questioned` (it was sent back once).
pub(super) fn not_an_answer(
    target: &Target,
    value: &Value,
    type_word_questioned: bool,
) -> Option<Violation> {
    let text = value.get("answer")?.as_str()?;
    let kind = if let Some(tool) = named_tool(target, text) {
        ViolationKind::NamedNotCalled { tool }
    } else if copies_the_forms(target, text) || (!type_word_questioned && is_type_word(text)) {
        ViolationKind::CopiedForm {
            text: text.to_owned(),
        }
    } else {
        return None;
    };
    Some(Violation::new("/answer", kind))
}

/// Whether a violation is of a type word sent back, which is questioned once.
pub(super) fn is_type_word_violation(kind: &ViolationKind) -> bool {
    matches!(kind, ViolationKind::CopiedForm { text } if is_type_word(text))
}

/// The tool, as the model is shown it, whose name an answer is alone: either spelling
/// (`finance.stock_quote`, `finance_stock_quote`), any case, in backticks or quotes, with
/// `()` after it, or the last part of a name of several parts (`stock_quote`). A name of
/// one word (`weather`, `quote`) is a word anyone might answer with, and is left alone.
fn named_tool(target: &Target, text: &str) -> Option<String> {
    let written = identifier(text)?;
    if !written.contains(['_', '.']) {
        return None;
    }
    target
        .tool_names()
        .find(|(shown, server)| {
            [*shown, *server].iter().any(|name| {
                let name = name_key(name);
                let last = name.rsplit('.').next().unwrap_or_default();
                written == name || written == last
            })
        })
        .map(|(shown, _)| shown.to_owned())
}

/// An answer written as a function's name alone, as a key of [`name_key`]; `None` for
/// text with spaces or anything else a name does not hold.
fn identifier(text: &str) -> Option<String> {
    let trimmed = text
        .trim()
        .trim_matches(|c: char| matches!(c, '`' | '"' | '\'' | '.'))
        .trim_end_matches("()")
        .trim();
    let is_name = !trimmed.is_empty()
        && trimmed
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '-'));
    is_name.then(|| name_key(trimmed))
}

/// A name with its case and separators made one: `Finance.Stock-Quote` is
/// `finance.stock_quote`, and `getMatchResults` is `get_match_results`.
fn name_key(name: &str) -> String {
    let mut key = String::with_capacity(name.len() + 4);
    let mut previous_lower = false;
    for c in name.chars() {
        if c.is_uppercase() && previous_lower {
            key.push('_');
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
        key.extend(c.to_lowercase());
    }
    key.replace('-', "_")
}

/// Whether an answer is a type of the shapes' notation alone, as a copied shape answers
/// (`{"answer": "string"}`).
fn is_type_word(text: &str) -> bool {
    TYPE_WORDS.contains(&text.trim().to_lowercase().as_str())
}

/// Whether an answer holds a placeholder of the forms, or is wholly a run of at least
/// [`MIN_COPIED_WORDS`] words of the library's own text about the reply's form, other
/// than the statement that no function fits.
fn copies_the_forms(target: &Target, text: &str) -> bool {
    if PLACEHOLDERS.iter().any(|p| text.contains(p)) {
        return true;
    }
    let answer = words(text);
    if answer.len() < MIN_COPIED_WORDS {
        return false;
    }
    let none_fits: Vec<String> = [false, true]
        .iter()
        .flat_map(|after| words(when_to_answer(*after)))
        .collect();
    if contains_run(&none_fits, &answer) {
        return false;
    }
    target
        .own_reply_texts()
        .iter()
        .any(|own| contains_run(&words(own), &answer))
}

/// The words of a text, in lowercase, without punctuation.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Whether `run` is a contiguous run of `words`.
fn contains_run(words: &[String], run: &[String]) -> bool {
    !run.is_empty() && words.windows(run.len()).any(|w| w == run)
}

#[cfg(test)]
mod tests;
