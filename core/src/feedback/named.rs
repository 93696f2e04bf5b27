//! The allowed values the user's request names in its own words.
//!
//! A value outside a closed list (an enum, a semantic check's list of devices) is often
//! named in the request, but not as the list spells it: the request says "the bedroom
//! light", the list has `"Bedroom Lamp"`. The violation lists every allowed value; small
//! models send their wrong value again all the same. The repair prompt then points to the
//! few values whose words the request uses, and quotes those words.
//!
//! Words match when they are equal ignoring case, or when one starts with the other and
//! the shorter has at least four letters (`light` and `lights`, `kitchen` and
//! `kitchens`). The values with the most matching words are named, at most three; none
//! when no value shares a word with the request.

use std::collections::HashSet;

use crate::error::shown_pointer;

/// At most this many values are named: beyond, the list itself says as much.
const MOST: usize = 3;

/// The request's words, each once, lower case, in the request's order: read once per
/// repair prompt, whatever the number of violations.
pub(super) struct RequestWords(Vec<String>);

impl RequestWords {
    pub fn of(request: &str) -> Self {
        RequestWords(words(request))
    }
}

/// The values of `allowed` (as JSON, `"Bedroom Lamp"`) the request names most, with the
/// request's words that name them.
pub(super) fn named_in_request(said: &RequestWords, allowed: &[String]) -> Option<Named> {
    let said = &said.0;
    let mut best: Vec<String> = Vec::new();
    let mut best_score = 0;
    let mut quoted: Vec<String> = Vec::new();
    for value in allowed {
        let Ok(serde_json::Value::String(text)) = serde_json::from_str(value) else {
            continue;
        };
        let its_words = words(&text);
        let matched: Vec<&String> = said
            .iter()
            .filter(|w| its_words.iter().any(|v| same_word(v, w)))
            .collect();
        let score = matched.len();
        if score == 0 || score < best_score {
            continue;
        }
        if score > best_score {
            best.clear();
            quoted.clear();
            best_score = score;
        }
        best.push(value.clone());
        for w in matched {
            if !quoted.contains(w) {
                quoted.push(w.clone());
            }
        }
    }
    if best.is_empty() || best.len() > MOST || best.len() == allowed.len() {
        return None;
    }
    Some(Named {
        values: best,
        words: quoted,
    })
}

/// What [`named_in_request`] found.
#[derive(Debug, PartialEq)]
pub(super) struct Named {
    /// The values, as JSON.
    pub values: Vec<String>,
    /// The request's words that name them, lower case, in the request's order.
    pub words: Vec<String>,
}

impl Named {
    /// The hint: `The request says "garage": write "Garage Door" at /arguments/name.`
    pub fn hint(&self, pointer: &str) -> String {
        let said: Vec<String> = self.words.iter().map(|w| format!("{w:?}")).collect();
        let values = match self.values.as_slice() {
            [one] => one.clone(),
            several => format!("one of {}", several.join(", ")),
        };
        let at = if pointer.is_empty() {
            String::new()
        } else {
            format!(" at {}", shown_pointer(pointer))
        };
        format!("The request says {}: write {values}{at}.", said.join(", "))
    }
}

/// The words of `text`, each once, lower case, in order: in time linear in the text.
fn words(text: &str) -> Vec<String> {
    let mut seen: HashSet<String> = HashSet::new();
    let mut words: Vec<String> = Vec::new();
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        let word = word.to_lowercase();
        if word.chars().count() >= 2 && seen.insert(word.clone()) {
            words.push(word);
        }
    }
    words
}

fn same_word(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    short == long || (short.chars().count() >= 4 && long.starts_with(short))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(values: &[&str]) -> Vec<String> {
        values
            .iter()
            .map(|v| serde_json::Value::from(*v).to_string())
            .collect()
    }

    const DEVICES: &[&str] = &[
        "Bedroom Lamp",
        "Kitchen Ceiling",
        "Porch Light",
        "Living Room TV",
        "Garage Door",
    ];

    #[test]
    fn the_value_the_request_names_in_its_own_words() {
        let named = named_in_request(
            &RequestWords::of("Open the garage, please."),
            &json(DEVICES),
        );
        assert_eq!(
            named,
            Some(Named {
                values: json(&["Garage Door"]),
                words: vec!["garage".into()],
            })
        );
        let named = named_in_request(
            &RequestWords::of("Turn the TV in the living room off"),
            &json(DEVICES),
        );
        assert_eq!(named.map(|n| n.values), Some(json(&["Living Room TV"])));
        // A plural names the singular.
        let named = named_in_request(
            &RequestWords::of("Switch off the lights on the porch."),
            &json(DEVICES),
        );
        assert_eq!(
            named.map(|n| (n.values, n.words)),
            Some((
                json(&["Porch Light"]),
                vec!["lights".into(), "porch".into()]
            ))
        );
    }

    #[test]
    fn a_tie_names_each_value() {
        let named = named_in_request(
            &RequestWords::of("Turn on the bedroom light."),
            &json(DEVICES),
        );
        assert_eq!(
            named,
            Some(Named {
                values: json(&["Bedroom Lamp", "Porch Light"]),
                words: vec!["bedroom".into(), "light".into()],
            })
        );
    }

    #[test]
    fn nothing_is_named_without_a_shared_word_or_when_every_value_ties() {
        assert_eq!(
            named_in_request(&RequestWords::of("Make it cosy"), &json(DEVICES)),
            None
        );
        // Short words match only whole: `bed` is not `bedroom`.
        assert_eq!(
            named_in_request(
                &RequestWords::of("the lamp by my bed"),
                &json(&["Bedroom", "Door"])
            ),
            None
        );
        // Every value named is no help.
        assert_eq!(
            named_in_request(
                &RequestWords::of("light or dark"),
                &json(&["light", "dark"])
            ),
            None
        );
        // More than three values tie: the list already says as much.
        let many = json(&["red one", "blue one", "green one", "pink one", "black cat"]);
        assert_eq!(
            named_in_request(&RequestWords::of("the one"), &many[..]),
            None
        );
        // Values that are not strings are left alone.
        assert_eq!(
            named_in_request(&RequestWords::of("3 or 4"), &["3".into(), "4".into()]),
            None
        );
    }

    proptest::proptest! {
        /// Whatever the request and the list: the values named are values of the list,
        /// fewer than all and at most three, and every word quoted is a word of the
        /// request.
        #[test]
        fn only_values_of_the_list_and_words_of_the_request(
            request in "[a-zA-Z ,.]{0,40}",
            allowed in proptest::collection::vec("[a-zA-Z ]{1,12}", 1..8),
        ) {
            let allowed = json(&allowed.iter().map(String::as_str).collect::<Vec<_>>());
            if let Some(named) = named_in_request(&RequestWords::of(&request), &allowed) {
                proptest::prop_assert!(named.values.iter().all(|v| allowed.contains(v)));
                proptest::prop_assert!(!named.values.is_empty() && named.values.len() <= MOST);
                proptest::prop_assert!(named.values.len() < allowed.len());
                let lower = request.to_lowercase();
                proptest::prop_assert!(named.words.iter().all(|w| lower.contains(w.as_str())));
            }
        }
    }
}
