//! Types in the words of a violation message, and the rejected words its deferred texts
//! read (the did-you-mean of a value an `enum` does not list). Values are described in
//! [`crate::value`].

use std::sync::Arc;

use crate::error::{Recipe, worded};
use crate::schema::{EnumStrings, Types};
use crate::suggest::closest;
use crate::value::MAX_QUOTE;

/// `an integer`, `a string or null`, `a boolean, a string or null`.
pub(crate) fn describe_types(types: Types) -> String {
    // At most seven words, in an array: no list is allocated.
    let mut words = [""; 7];
    let mut count = 0;
    let named = types
        .names()
        .filter(|&name| !(name == "integer" && types.contains(Types::NUMBER)))
        .map(|name| match name {
            "null" => "null",
            "boolean" => "a boolean",
            "integer" => "an integer",
            "number" => "a number",
            "string" => "a string",
            "array" => "an array",
            _ => "an object",
        });
    for word in named {
        words[count] = word;
        count += 1;
    }
    let mut out = String::with_capacity(24 * count);
    for (i, word) in words[..count].iter().enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == count { " or " } else { ", " });
        }
        out.push_str(word);
    }
    if out.is_empty() {
        out.push_str("nothing");
    }
    out
}

/// Rejected words longer than this are not kept for a deferred text: a pattern's advice
/// reads no longer string, and a did-you-mean this long would be no typo of a value
/// anyone lists. The violation keeps its quote, cut at [`MAX_QUOTE`] characters.
pub(crate) const MAX_KEPT: usize = 200;

/// `recipe`, for a violation that quotes `word` with [`short_str`](crate::value::short_str): as it is when the
/// quote holds the whole word (or when the word is too long to be kept, and the recipe
/// then reads none), else made to keep the word itself.
pub(crate) fn whole(word: &str, recipe: Arc<dyn Recipe>) -> Arc<dyn Recipe> {
    let chars = word.chars().take(MAX_KEPT + 1).count();
    if chars <= MAX_QUOTE || chars > MAX_KEPT {
        recipe
    } else {
        worded(word, recipe)
    }
}

/// The did-you-mean of a value an `enum` does not list, worked out when it is read.
impl Recipe for EnumStrings {
    fn text(&self, word: Option<&str>) -> Option<String> {
        closest(word?, self.0.iter().map(String::as_str)).map(str::to_owned)
    }
}
