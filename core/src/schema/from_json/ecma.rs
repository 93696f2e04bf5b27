//! JSON Schema's `pattern` is an ECMA-262 regular expression; the `regex` crate reads a
//! close relative. This rewrites the constructs whose meaning differs and leaves the rest
//! for the crate, which rejects what it cannot do (look-around, backreferences).

/// ECMA-262 `\s`: white space and line terminators. Unlike Unicode's White_Space it
/// includes U+FEFF and leaves out U+0085.
const SPACE: &str =
    r"\t\n\x0B\x0C\r \xA0\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";

/// Rewrites an ECMA-262 pattern in the `regex` crate's syntax: `\d`, `\w` and `\b` are
/// ASCII, `\s` is ECMA's white space, `.` stops at every line terminator, `\cX` and `\0`
/// are control characters, a `[` inside a class and a `{` that starts no quantifier are
/// literal, `[]` matches nothing and `[^]` anything.
pub(super) fn translate(pattern: &str) -> String {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut in_class = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        match c {
            '\\' if i < chars.len() => {
                let escaped = chars[i];
                i += 1;
                i += escape(&chars[i..], escaped, in_class, &mut out);
            }
            '[' if in_class => out.push_str(r"\["),
            '[' => {
                let negated = chars.get(i) == Some(&'^');
                let start = i + usize::from(negated);
                if chars.get(start) == Some(&']') {
                    // `[]` and `[^]`: the crate would read the `]` as a literal.
                    out.push_str(if negated {
                        r"[\x00-\x{10FFFF}]"
                    } else {
                        r"[^\x00-\x{10FFFF}]"
                    });
                    i = start + 1;
                } else {
                    in_class = true;
                    out.push_str(if negated { "[^" } else { "[" });
                    i = start;
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            // Set operators in the crate's classes, plain characters in ECMA's.
            '&' | '~' if in_class => {
                out.push('\\');
                out.push(c);
            }
            '.' if !in_class => out.push_str(r"[^\n\r\x{2028}\x{2029}]"),
            '{' if !in_class && !starts_quantifier(&chars[i..]) => out.push_str(r"\{"),
            c => out.push(c),
        }
    }
    out
}

/// Writes the translation of `\` + `escaped`, `rest` being what follows it; returns how
/// many characters of `rest` it used.
fn escape(rest: &[char], escaped: char, in_class: bool, out: &mut String) -> usize {
    match escaped {
        'd' => out.push_str("[0-9]"),
        'D' => out.push_str("[^0-9]"),
        'w' => out.push_str("[0-9A-Za-z_]"),
        'W' => out.push_str("[^0-9A-Za-z_]"),
        's' => {
            out.push('[');
            out.push_str(SPACE);
            out.push(']');
        }
        'S' => {
            out.push_str("[^");
            out.push_str(SPACE);
            out.push(']');
        }
        'b' if in_class => out.push_str(r"\x08"),
        'b' | 'B' => {
            out.push_str(r"(?-u:\");
            out.push(escaped);
            out.push(')');
        }
        'c' if rest.first().is_some_and(char::is_ascii_alphabetic) => {
            let control = rest[0] as u32 % 32;
            out.push_str(&format!(r"\x{control:02X}"));
            return 1;
        }
        '0' if !rest.first().is_some_and(char::is_ascii_digit) => out.push_str(r"\x00"),
        // `\p{Letter}`, `\u{1F432}`: the braces belong to the escape.
        'p' | 'P' | 'u' | 'x' if rest.first() == Some(&'{') => {
            let len = rest
                .iter()
                .position(|&c| c == '}')
                .map_or(rest.len(), |i| i + 1);
            out.push('\\');
            out.push(escaped);
            out.extend(&rest[..len]);
            return len;
        }
        'u' => return unicode_escape(rest, out),
        '/' => out.push('/'),
        other => {
            out.push('\\');
            out.push(other);
        }
    }
    0
}

/// `\uXXXX`, a surrogate pair of them, or `\u{…}`.
fn unicode_escape(rest: &[char], out: &mut String) -> usize {
    let hex4 = |at: usize| -> Option<u32> {
        let digits: String = rest.get(at..at + 4)?.iter().collect();
        u32::from_str_radix(&digits, 16).ok()
    };
    if let Some(high) = hex4(0) {
        if (0xD800..0xDC00).contains(&high)
            && rest.get(4..6) == Some(&['\\', 'u'])
            && let Some(low) = hex4(6)
            && (0xDC00..0xE000).contains(&low)
        {
            let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
            out.push_str(&format!(r"\x{{{code:X}}}"));
            return 10;
        }
        out.push_str(&format!(r"\x{{{high:X}}}"));
        return 4;
    }
    // Anything malformed is left to the crate.
    out.push_str(r"\u");
    0
}

/// Whether `rest` (after a `{`) reads `n}`, `n,}` or `n,m}`: a quantifier, where any other
/// `{` is a literal in ECMA-262.
pub(crate) fn starts_quantifier(rest: &[char]) -> bool {
    let digits = |from: usize| {
        rest[from..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count()
    };
    let first = digits(0);
    if first == 0 {
        return false;
    }
    match rest.get(first) {
        Some('}') => true,
        Some(',') => {
            let second = digits(first + 1);
            rest.get(first + 1 + second) == Some(&'}')
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::translate;

    fn matches(pattern: &str, text: &str) -> bool {
        regex::Regex::new(&translate(pattern))
            .unwrap_or_else(|e| panic!("{pattern}: {e}"))
            .is_match(text)
    }

    #[test]
    fn classes_take_their_ecma_meaning() {
        assert!(matches(r"^\d$", "7"));
        assert!(!matches(r"^\d$", "\u{07C0}"));
        assert!(matches(r"^\D$", "\u{07C0}"));
        assert!(!matches(r"^\w$", "é"));
        assert!(matches(r"^\s$", "\u{FEFF}"));
        assert!(!matches(r"^\s$", "\u{0085}"));
        assert!(matches(r"^[\d\s]+$", "1 2"));
        assert!(matches(r"^[^\d]$", "x"));
        assert!(!matches(r"^.$", "\u{2028}"));
        assert!(matches(r"^\p{Letter}$", "é"));
        assert!(matches(r"^\p{digit}+$", "৪২"));
        assert!(matches(r"^[\p{L}\d]+$", "é1"));
        assert!(matches(r"^\u{1F432}\x{41}$", "🐲A"));
    }

    #[test]
    fn escapes_and_literals() {
        assert!(matches(r"^\cC$", "\u{3}"));
        assert!(matches(r"^\cc$", "\u{3}"));
        assert!(matches(r"^\0$", "\0"));
        assert!(matches(r"^\u0041\/$", "A/"));
        assert!(matches(r"^\ud83d\udc32$", "🐲"));
        assert!(matches(r"^a{$", "a{"));
        assert!(matches(r"^a{2}$", "aa"));
        assert!(matches(r"^[[]$", "["));
        assert!(matches(r"^[a&&b]$", "&"));
        assert!(!matches(r"[]", "a"));
        assert!(matches(r"^[^]$", "\n"));
        assert!(matches(r"\bfoo\b", "a foo."));
        // Word boundaries are ASCII, like `\w`.
        assert!(matches(r"\bfoo\b", "éfooé"));
        assert!(!matches(r"\Bfoo", "éfoo"));
        assert!(matches(r"o\Bo", "foo"));
        assert!(matches(r"^[\b]$", "\u{8}"));
    }
}
