//! RFC 6901 JSON pointers: one key as a token of a pointer.

/// A key or index as one token of a JSON pointer (RFC 6901): `~` written `~0`, `/`
/// written `~1`.
pub(crate) fn token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::token;

    #[test]
    fn tilde_and_slash_are_escaped_in_that_order() {
        assert_eq!(token("a/b~c"), "a~1b~0c");
        assert_eq!(token("~1"), "~01");
        assert_eq!(token("plain"), "plain");
    }
}
