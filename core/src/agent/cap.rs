//! The reply cap: how many tokens a reply may take, and what a reply cut at the cap means
//! for the next attempt.
//!
//! A server that is not told a limit lets a reply run to the end of its context. Under a
//! grammar (llama.cpp's `json_schema`), a small model can loop inside a string or between
//! items until then: minutes per reply. So an agent sends a cap by default, sized from the
//! shape it asks for: [`ReplyCap::Sized`].

use super::request::Target;

/// The least the default cap allows: room for a direct answer of a few paragraphs.
const BASE: u32 = 1_024;
/// The most the default cap allows: what most servers take for a reply.
const CEILING: u32 = 4_096;

/// How many tokens a reply may take (`max_tokens` of a request).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReplyCap {
    /// Sized from the shape asked for: 1 024 tokens, plus one token for every two
    /// characters of the shape's compact prompt form (about twice the tokens the shape
    /// itself takes, for the values written into it), at most 4 096. It replaces a
    /// provider's own default (`Anthropic::default_max_tokens`), which applies under
    /// [`ReplyCap::Unlimited`].
    #[default]
    Sized,
    /// This many tokens.
    Fixed(u32),
    /// No `max_tokens` in the request: the server's own limit applies. (Anthropic's API
    /// requires one; its provider then sends its `default_max_tokens`.)
    Unlimited,
}

impl ReplyCap {
    /// The `max_tokens` of a request for `target`.
    pub(crate) fn tokens(self, target: &Target) -> Option<u32> {
        match self {
            ReplyCap::Sized => Some(sized(target.compact.chars().count())),
            ReplyCap::Fixed(tokens) => Some(tokens),
            ReplyCap::Unlimited => None,
        }
    }
}

/// The default cap for a shape whose compact form has `chars` characters.
fn sized(chars: usize) -> u32 {
    let extra = u32::try_from(chars / 2).unwrap_or(u32::MAX);
    BASE.saturating_add(extra).min(CEILING)
}

#[cfg(test)]
mod tests {
    use super::{BASE, CEILING, sized};

    #[test]
    fn the_default_cap_grows_with_the_shape_within_bounds() {
        assert_eq!(sized(0), BASE);
        assert_eq!(sized(400), BASE + 200);
        assert!(sized(2_000) > sized(1_000));
        assert_eq!(sized(1_000_000), CEILING);
        assert_eq!(sized(usize::MAX), CEILING);
    }
}
