//! Whether the schema's grammar, not the model, chose a call of a union of tools with an
//! answer: here, by the function's name the grammar made the model write; in [`opening`],
//! by the JSON a format that allows nothing else made a reply begin with.
//!
//! Under the union's grammar a reply must open a call or the answer, and once it opens a
//! call, its `"name"` must be one of the functions. A small model that would have written
//! something else there (the start of an answer, the request's own words) is made to write
//! a function's name all the same: asked "Who composed The Four Seasons?" beside
//! `music.play`, a 0.5B model's likeliest next token where the name goes was `The`, and
//! the grammar made it `music_play`, a call of the right subject that does not do what
//! was asked.
//!
//! Servers that report each token's likeliest alternatives as the model gave them, before
//! the grammar (llama.cpp, vLLM), show this: the names of the union's functions together
//! hold a small share of the model's likelihood at that place. Measured on the
//! tool-choice evaluation's three sets (0.5B model, the grammar's first replies), that
//! share was 0.0–0.051 for 12 of the 18 calls made where no function fits, and 0.35 and
//! above for the 6 others; it was 0.1 and above for 57 of the 58 calls where one fits,
//! the one below (0.015) a song's title written as the name (`Fe…` for "Find the song
//! 'Feeling Good'"). A server that reports them after the grammar gives the names all of
//! the share that decides, and nothing is doubted there.
//!
//! Only a first reply is read so, as measured: a repair under the grammar may be the
//! model writing the call it chose in prose under the name the grammar holds
//! (`play_music` made `music_play`), and after tools' results the replies were never
//! measured.

use crate::provider::TokenChoice;

mod opening;

pub(super) use opening::share_of_json;

/// The share of the model's likelihood below which the function names, where a reply
/// names its function, say that the grammar chose the call.
pub(super) const LEAST_SHARE: f64 = 0.1;

/// How many of the likeliest tokens the check asks for at each place of a reply (the most
/// OpenAI's API allows): with fewer, names in the tail are missed and the share of the
/// names reads low.
pub(super) const TOKEN_CHOICES: u8 = 20;

/// The share of the model's likelihood that the function `names` (as the reply writes
/// them) had together where `text`, the reply the `tokens` spell, first writes one as the
/// value of a `"name"` key, among the alternatives there that decide ([`Read`]): one
/// that stops before the name, or that only spaces it otherwise (` "` or `"mus` for the
/// token ` "mus`), says nothing either way. `None` where the tokens do not spell the
/// text, no such name is written, the token there came with no alternatives, or most of
/// the likelihood there decides nothing.
pub(super) fn share_of_names(text: &str, tokens: &[TokenChoice], names: &[&str]) -> Option<f64> {
    if tokens.iter().map(|t| t.token.as_str()).collect::<String>() != text {
        return None;
    }
    let at = name_at(text, names)?;
    let (start, token) = token_at(tokens, at)?;
    let before = &text[start..at];
    share_at(token, |candidate| read(candidate, before, names))
}

/// The share of the model's likelihood at `token`'s place that the alternatives `read`
/// finds sought ([`Read::Sought`]) had, among those that decide (the chosen token counted
/// where the server left it out of them). `None` where the token came with no
/// alternatives, or most of the likelihood there decides nothing.
fn share_at(token: &TokenChoice, read: impl Fn(&str) -> Read) -> Option<f64> {
    if token.top.is_empty() {
        return None;
    }
    let mut alternatives: Vec<(&str, f64)> = token
        .top
        .iter()
        .map(|(candidate, logprob)| (candidate.as_str(), *logprob))
        .collect();
    if !alternatives.iter().any(|(c, _)| *c == token.token) {
        alternatives.push((&token.token, token.logprob));
    }
    let (mut sought, mut undecided) = (0.0, 0.0);
    for (candidate, logprob) in alternatives {
        match read(candidate) {
            Read::Sought => sought += logprob.exp(),
            Read::Undecided => undecided += logprob.exp(),
            Read::Other => {}
        }
    }
    let decided = 1.0 - f64::min(undecided, 1.0);
    (decided > 0.5).then(|| (sought / decided).min(1.0))
}

/// What an alternative to the token where the name starts writes there (or, read by
/// [`opening`], where the reply starts).
#[derive(Debug, PartialEq)]
enum Read {
    /// What is sought there: the start of one of the functions' names, or a whole one
    /// (where the reply starts, the start of a JSON value).
    Sought,
    /// Nothing yet: it stops at or before the name's place.
    Undecided,
    /// Something else: the start of an answer, of the request's words.
    Other,
}

/// How `candidate`, an alternative to the token whose text up to the name's place is
/// `before`, reads there; spaces before the name's place do not count.
fn read(candidate: &str, before: &str, names: &[&str]) -> Read {
    let (candidate, before) = (candidate.trim_start(), before.trim_start());
    if before.starts_with(candidate) {
        return Read::Undecided;
    }
    match candidate.strip_prefix(before) {
        Some(rest)
            if names
                .iter()
                .any(|n| n.starts_with(rest) || rest.starts_with(n)) =>
        {
            Read::Sought
        }
        _ => Read::Other,
    }
}

/// The token in which the byte offset `at` of the text the `tokens` spell falls, with the
/// offset where that token starts.
fn token_at(tokens: &[TokenChoice], at: usize) -> Option<(usize, &TokenChoice)> {
    let mut start = 0;
    for token in tokens {
        let end = start + token.token.len();
        if at < end {
            return Some((start, token));
        }
        start = end;
    }
    None
}

/// Where `text` first writes one of `names` as the string value of a `"name"` key: the
/// byte offset of the name's first character.
fn name_at(text: &str, names: &[&str]) -> Option<usize> {
    let mut from = 0;
    while let Some(found) = text[from..].find("\"name\"") {
        let key_end = from + found + "\"name\"".len();
        from = key_end;
        let after_key = text[key_end..].trim_start();
        let Some(after_colon) = after_key.strip_prefix(':') else {
            continue;
        };
        let after_colon = after_colon.trim_start();
        let Some(value) = after_colon.strip_prefix('"') else {
            continue;
        };
        let at = text.len() - value.len();
        if names
            .iter()
            .any(|name| value.strip_prefix(name).is_some_and(|r| r.starts_with('"')))
        {
            return Some(at);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A token with its log probability and its likeliest alternatives.
    pub(super) fn token(token: &str, logprob: f64, top: &[(&str, f64)]) -> TokenChoice {
        TokenChoice {
            token: token.to_owned(),
            logprob,
            top: top.iter().map(|(t, l)| ((*t).to_owned(), *l)).collect(),
        }
    }

    const NAMES: [&str; 2] = ["music_play", "music_set_volume"];

    /// The reply `{"value": {"name": "music_play", …}}`, with `at_name` the alternatives
    /// where the name starts (its token `music`).
    fn reply(at_name: &[(&str, f64)], logprob: f64) -> (String, Vec<TokenChoice>) {
        let tokens = vec![
            token("{\"value\": {", -0.1, &[("{\"value\": {", -0.1)]),
            token(
                "\"name\": \"",
                -0.2,
                &[("\"name\": \"", -0.2), ("\"answer", -1.7)],
            ),
            token("music", logprob, at_name),
            token("_play\", \"arguments\": {\"query\": \"x\"}}}", -0.1, &[]),
        ];
        let text = tokens.iter().map(|t| t.token.as_str()).collect();
        (text, tokens)
    }

    #[test]
    fn a_name_the_model_would_not_have_written_has_a_small_share() {
        let (text, tokens) = reply(&[("The", -0.13), ("Four", -4.8), ("A", -5.7)], -8.1);
        let share = share_of_names(&text, &tokens, &NAMES).expect("a share");
        assert!(share < 0.001, "{share}");
    }

    #[test]
    fn a_name_the_model_chose_has_the_share_of_its_alternatives_that_are_names() {
        let top = [("music", -0.05), ("The", -3.5), ("mus", -4.0)];
        let (text, tokens) = reply(&top, -0.05);
        let share = share_of_names(&text, &tokens, &NAMES).expect("a share");
        let expected = (-0.05f64).exp() + (-4.0f64).exp();
        assert!(
            (share - expected).abs() < 1e-9,
            "{share} against {expected}"
        );
    }

    #[test]
    fn a_token_that_holds_the_quote_before_the_name_is_read_past_it() {
        let tokens = vec![
            token("{\"name\":", -0.1, &[]),
            token(
                " \"mus",
                -0.3,
                &[(" \"mus", -0.3), (" \"The", -1.4), (" {", -2.0)],
            ),
            token("ic_play\", \"arguments\": {}}", -0.1, &[]),
        ];
        let text: String = tokens.iter().map(|t| t.token.as_str()).collect();
        let share = share_of_names(&text, &tokens, &NAMES).expect("a share");
        assert!((share - (-0.3f64).exp()).abs() < 1e-9, "{share}");
    }

    #[test]
    fn alternatives_that_stop_before_the_name_or_space_it_otherwise_decide_nothing() {
        let tokens = vec![
            token("{\"name\":", -0.1, &[]),
            token(
                " \"mus",
                -0.7,
                &[
                    (" \"mus", -0.7),
                    (" \"", -1.6),
                    ("\"mus", -2.0),
                    (" \"The", -2.5),
                ],
            ),
            token("ic_play\", \"arguments\": {}}", -0.1, &[]),
        ];
        let text: String = tokens.iter().map(|t| t.token.as_str()).collect();
        let share = share_of_names(&text, &tokens, &NAMES).expect("a share");
        let expected = ((-0.7f64).exp() + (-2.0f64).exp()) / (1.0 - (-1.6f64).exp());
        assert!(
            (share - expected).abs() < 1e-9,
            "{share} against {expected}"
        );
    }

    #[test]
    fn nothing_is_read_where_most_of_the_likelihood_decides_nothing() {
        let tokens = vec![
            token("{\"name\":", -0.1, &[]),
            token(" \"mus", -2.5, &[(" \"", -0.2), (" \"The", -2.0)]),
            token("ic_play\", \"arguments\": {}}", -0.1, &[]),
        ];
        let text: String = tokens.iter().map(|t| t.token.as_str()).collect();
        assert_eq!(share_of_names(&text, &tokens, &NAMES), None);
    }

    #[test]
    fn the_chosen_token_counts_where_the_server_left_it_out_of_the_alternatives() {
        let (text, tokens) = reply(&[("The", -0.01)], -6.0);
        let share = share_of_names(&text, &tokens, &NAMES).expect("a share");
        assert!((share - (-6.0f64).exp()).abs() < 1e-9, "{share}");
    }

    #[test]
    fn nothing_is_read_where_the_tokens_do_not_spell_the_reply() {
        let (text, tokens) = reply(&[("The", -0.13)], -8.1);
        let other = text.replace("music_play", "music_set_volume");
        assert_eq!(share_of_names(&other, &tokens, &NAMES), None);
        assert_eq!(share_of_names(&format!("{text} "), &tokens, &NAMES), None);
        assert_eq!(share_of_names(&text, &tokens[..2], &NAMES), None);
    }

    #[test]
    fn nothing_is_read_without_a_name_or_alternatives() {
        let answer = vec![token("{\"value\": {\"answer\": \"Vivaldi\"}}", -0.1, &[])];
        assert_eq!(share_of_names(&answer[0].token, &answer, &NAMES), None);
        let (text, tokens) = reply(&[], -8.1);
        assert_eq!(share_of_names(&text, &tokens, &NAMES), None);
        let unknown = text.replace("music_play", "music_stop");
        let tokens = vec![token(&unknown, -0.1, &[("x", -0.1)])];
        assert_eq!(share_of_names(&unknown, &tokens, &NAMES), None);
    }

    #[test]
    fn a_name_key_inside_an_argument_is_passed_over_for_the_call_s_name() {
        let text = r#"{"arguments": {"name": "Ann"}, "name": "music_play"}"#;
        let at = name_at(text, &NAMES).expect("the call's name");
        assert_eq!(&text[at..at + 10], "music_play");
    }

    #[test]
    fn tokens_that_cut_a_character_do_not_spell_the_text() {
        let tokens = vec![token("{\"a\": \"é", -0.1, &[]), token("\"}", -0.1, &[])];
        let text = "{\"a\": \"éé\"}";
        assert_eq!(share_of_names(text, &tokens, &NAMES), None);
    }

    proptest::proptest! {
        /// However the server cuts a reply into tokens, and whatever else it lists, a
        /// function's name the model gave a tenth of its likelihood or more is never
        /// doubted: the check fires only where the model would have written something
        /// else.
        #[test]
        fn a_name_the_model_gave_a_tenth_is_never_doubted(
            names in proptest::collection::vec("[a-z][a-z_]{0,15}", 1..5),
            pick in 0usize..5,
            cuts in proptest::collection::vec(1usize..8, 1..40),
            logprob in -2.3f64..0.0,
            others in proptest::collection::vec(("[A-Za-z \"{]{1,6}", -12.0f64..0.0), 0..6),
            pretty in proptest::bool::ANY,
        ) {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let name = names[pick % names.len()];
            let call = serde_json::json!({"value": {"name": name, "arguments": {"name": "x"}}});
            let text = if pretty {
                serde_json::to_string_pretty(&call).unwrap_or_default()
            } else {
                call.to_string()
            };
            // Cut the text into tokens of the given lengths, the last holding the rest.
            let mut tokens = Vec::new();
            let mut rest = text.as_str();
            for cut in cuts.iter().cycle() {
                if rest.is_empty() {
                    break;
                }
                let len = (*cut).min(rest.len());
                let (piece, after) = rest.split_at(len);
                let mut top: Vec<(String, f64)> = others.clone();
                top.push((piece.to_owned(), logprob));
                tokens.push(TokenChoice { token: piece.to_owned(), logprob, top });
                rest = after;
            }
            // No share where most of the likelihood decides nothing: not doubted either.
            let share = share_of_names(&text, &tokens, &names);
            proptest::prop_assert!(
                share.is_none_or(|share| share >= LEAST_SHARE),
                "{share:?} for {text}"
            );
        }
    }
}
