//! Whether the request's format, not the model, made a reply JSON where it begins.
//!
//! Under `json_object` or a schema's grammar, a reply must open a JSON value. A small
//! model that would have begun in prose (its answer, in a union of tools with an answer)
//! is made to open an object all the same, and once it has, a call is what the prompt is
//! about: asked "Who composed The Four Seasons?" beside `music.play` in `json_object`,
//! the 0.5B model's likeliest first tokens were `The` and `I` (0.66 and 0.10 of the
//! likelihood; opening JSON, 0.011), and its reply called `music_play`. Where the names
//! of the functions are free (`json_object`), no check of the name's place can see
//! this; the reply's first token can.
//!
//! Measured on the tool-choice evaluation's three sets (0.5B model, llama.cpp, 100 first
//! replies in each format, likelihoods as the server reports them before the grammar):
//! in `json_object`, opening JSON had less than a tenth of the likelihood in 9 of the 23
//! calls made where no function fits (0.0–0.069; the others 0.30 and above), and in 1 of
//! the 54 calls where one fits (0.096, a language named in a quoted phrase, which the
//! model would have named itself; the next 0.30). Under the schema's grammar: 6 of 18
//! (0.0–0.074; the others 0.51 and above) and 1 of 57 (the same request, 0.081).

use super::{Read, share_at};
use crate::extract;
use crate::provider::TokenChoice;

/// The share of the model's likelihood that opening a JSON value had where the reply
/// `text` (which the `tokens` spell, or spell inside a Markdown fence, as llama.cpp
/// reports a reply whose fence its server took off) begins: the alternatives there that
/// open an object, an array, a string, a fence or a tag (`<tool_call>`) against those
/// that begin prose (a word, a number). An alternative of spaces alone decides nothing.
/// `None` where the tokens do not spell the text, the first token came with no
/// alternatives, or most of the likelihood there decides nothing.
pub(in crate::agent) fn share_of_json(text: &str, tokens: &[TokenChoice]) -> Option<f64> {
    let spelled: String = tokens.iter().map(|t| t.token.as_str()).collect();
    if !spells(&spelled, text) {
        return None;
    }
    let first = tokens.iter().find(|t| !t.token.trim().is_empty())?;
    share_at(first, |candidate| {
        match candidate.trim_start().chars().next() {
            None => Read::Undecided,
            Some('{' | '[' | '"' | '`' | '<') => Read::Sought,
            Some(_) => Read::Other,
        }
    })
}

/// Whether the text the tokens spell is `text`, itself or as the body of a Markdown
/// fence that is all they spell.
fn spells(spelled: &str, text: &str) -> bool {
    spelled == text || extract::sole_fence_body(spelled).is_some_and(|b| b.trim() == text.trim())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::forced::LEAST_SHARE;
    use crate::agent::forced::tests::token;

    const CALL: &str = r#"{"name": "music_play", "arguments": {"query": "The Four Seasons"}}"#;

    /// `CALL` in two tokens, the first with the alternatives `first`.
    fn reply(first: &[(&str, f64)], logprob: f64) -> Vec<TokenChoice> {
        vec![token("{\"", logprob, first), token(&CALL[2..], -0.1, &[])]
    }

    #[test]
    fn a_reply_the_model_would_have_begun_in_prose_has_a_small_share() {
        let tokens = reply(&[("The", -0.4), ("I", -1.9), ("According", -3.2)], -7.0);
        let share = share_of_json(CALL, &tokens).expect("a share");
        assert!(share < 0.01, "{share}");
    }

    #[test]
    fn a_reply_the_model_opened_itself_has_the_share_of_its_openings() {
        let top = [("{\"", -0.3), ("```", -1.5), ("To", -2.5)];
        let share = share_of_json(CALL, &reply(&top, -0.3)).expect("a share");
        let expected = (-0.3f64).exp() + (-1.5f64).exp();
        assert!(
            (share - expected).abs() < 1e-9,
            "{share} against {expected}"
        );
    }

    #[test]
    fn a_fence_the_server_took_off_the_reply_is_read_through() {
        let tokens = vec![
            token("```", -6.0, &[("The", -0.4), ("I", -1.9), ("```", -6.0)]),
            token("json\n", -0.01, &[]),
            token(CALL, -0.1, &[]),
            token("\n```", -0.1, &[]),
        ];
        let share = share_of_json(CALL, &tokens).expect("a share");
        assert!(share < 0.01, "{share}");
    }

    #[test]
    fn leading_spaces_and_alternatives_of_spaces_decide_nothing() {
        let tokens = vec![
            token("\n", -0.1, &[("\n", -0.1)]),
            token("{\"", -0.9, &[("{\"", -0.9), (" ", -1.2), ("The", -2.0)]),
            token(&CALL[2..], -0.1, &[]),
        ];
        let text: String = tokens.iter().map(|t| t.token.as_str()).collect();
        let share = share_of_json(&text, &tokens).expect("a share");
        let expected = (-0.9f64).exp() / (1.0 - (-1.2f64).exp());
        assert!(
            (share - expected).abs() < 1e-9,
            "{share} against {expected}"
        );
    }

    #[test]
    fn nothing_is_read_where_the_tokens_do_not_spell_the_reply_or_say_nothing() {
        let tokens = reply(&[("The", -0.4)], -7.0);
        assert_eq!(
            share_of_json(&CALL.replace("music", "radio"), &tokens),
            None
        );
        assert_eq!(share_of_json(CALL, &tokens[..1]), None);
        assert_eq!(share_of_json(CALL, &reply(&[], -7.0)), None);
        assert_eq!(share_of_json(CALL, &reply(&[(" ", -0.1)], -3.0)), None);
        assert_eq!(share_of_json("", &[]), None);
    }

    proptest::proptest! {
        /// However a reply is cut into tokens and fenced, and whatever prose the server
        /// lists beside it, a JSON opening the model gave a tenth of its likelihood or
        /// more is never doubted.
        #[test]
        fn an_opening_the_model_gave_a_tenth_is_never_doubted(
            opening in "[{\\[\"`<][a-z\"]{0,3}",
            logprob in -2.3f64..0.0,
            others in proptest::collection::vec(("[A-Za-z0-9 ]{1,6}", -12.0f64..0.0), 0..6),
            fenced in proptest::bool::ANY,
            cut in 1usize..20,
        ) {
            let mut tokens = Vec::new();
            if fenced {
                let mut top: Vec<(String, f64)> = others.clone();
                top.push(("```".to_owned(), logprob));
                tokens.push(TokenChoice { token: "```".to_owned(), logprob, top });
                tokens.push(token("json\n", -0.01, &[]));
            }
            let cut = cut.min(CALL.len());
            let mut top: Vec<(String, f64)> = others.clone();
            top.push((opening.clone(), logprob));
            tokens.push(TokenChoice { token: CALL[..cut].to_owned(), logprob, top });
            tokens.push(token(&CALL[cut..], -0.1, &[]));
            if fenced {
                tokens.push(token("\n```", -0.1, &[]));
            }
            let share = share_of_json(CALL, &tokens);
            proptest::prop_assert!(
                share.is_none_or(|share| share >= LEAST_SHARE),
                "{share:?}"
            );
        }
    }
}
