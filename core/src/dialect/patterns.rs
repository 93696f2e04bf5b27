//! Patterns that grammar engines compile.
//!
//! JSON Schema's `pattern` is an ECMA-262 regular expression, but the engines that turn a
//! schema into a grammar for constrained decoding (llama.cpp's converter, and the like
//! behind `json_schema` response formats) read a small subset: `\d` is "unsupported"
//! there and the field silently stops being constrained, a pattern that is not anchored
//! at both ends is refused, and escapes inside classes are copied into the grammar
//! as they are. This module rewrites a pattern into that subset without changing what it
//! matches:
//!
//! - `\d`, `\w`, `\s` and their negations become explicit sets (`[0-9]`,
//!   `[0-9A-Za-z_]`, ECMA-262's white space listed);
//! - every other escape becomes a code point (`\.` → `[\x2E]`, `\t` → `\x09`), which
//!   every engine reads the same way;
//!
//! and reports what it cannot rewrite: look-around, backreferences, word boundaries,
//! Unicode property classes, lazy quantifiers, group modifiers, anchors anywhere but at
//! the ends. A dialect moves such a pattern into the description; the local validator
//! enforces it either way.

use serde_json::Value;

use super::Report;
use super::transforms::{append_description, each};
use crate::schema::starts_quantifier;

/// ECMA-262's white space and line terminators, as code points.
const SPACE: &str =
    r"\x09\x0A\x0B\x0C\x0D\x20\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF";
const DIGIT: &str = "0-9";
const WORD: &str = "0-9A-Za-z_";

/// The transform: every `pattern` rewritten into the portable subset, or moved into the
/// description when it cannot be.
pub(super) fn portable_patterns(schema: &mut Value, report: &mut Report) {
    each(schema, "", &mut |map, pointer| {
        let Some(Value::String(pattern)) = map.get("pattern") else {
            return;
        };
        match portable(pattern) {
            Ok(rewritten) if rewritten == *pattern => {}
            Ok(rewritten) => {
                report.change(
                    pointer,
                    format!("rewrote the pattern {pattern} as {rewritten}"),
                );
                map.insert("pattern".into(), Value::String(rewritten));
            }
            Err(reason) => {
                let pattern = pattern.clone();
                map.shift_remove("pattern");
                let text = format!("matches the regular expression {pattern}");
                append_description(map, &text);
                report.change(
                    pointer,
                    format!("moved the pattern into the description: it {reason}"),
                );
            }
        }
    });
}

/// `pattern` rewritten into the subset grammar engines compile, with the same meaning;
/// `Err` says what in it they cannot compile.
pub(crate) fn portable(pattern: &str) -> Result<String, String> {
    let chars: Vec<char> = pattern.chars().collect();
    let (Some('^'), true) = (chars.first(), ends_with_anchor(&chars)) else {
        return Err("is not anchored at both ends (^…$)".into());
    };
    let body = &chars[1..chars.len() - 1];
    let mut out = String::with_capacity(pattern.len() + 16);
    out.push('^');
    let mut in_class = false;
    let mut i = 0;
    while i < body.len() {
        let c = body[i];
        i += 1;
        match c {
            '\\' => {
                let Some(&escaped) = body.get(i) else {
                    return Err("ends with a lone backslash".into());
                };
                i += 1;
                i += escape(&body[i..], escaped, in_class, &mut out)?;
            }
            '[' if !in_class => {
                in_class = true;
                out.push('[');
                if body.get(i) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                if body.get(i) == Some(&']') {
                    return Err("has an empty class".into());
                }
            }
            '[' => out.push_str(r"\x5B"),
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            '^' | '$' if !in_class => {
                return Err(format!(
                    "has the anchor {c} inside it, not only at its ends"
                ));
            }
            '(' if !in_class && body.get(i) == Some(&'?') => {
                return Err("has a group modifier or look-around ((?…)".into());
            }
            '*' | '+' | '?' if !in_class && body.get(i) == Some(&'?') => {
                return Err("has a lazy quantifier".into());
            }
            '{' if !in_class && starts_quantifier(&body[i..]) => {
                let len = body[i..].iter().position(|&c| c == '}').unwrap_or(0) + 1;
                out.push('{');
                out.extend(&body[i..i + len]);
                i += len;
                if body.get(i) == Some(&'?') {
                    return Err("has a lazy quantifier".into());
                }
            }
            // Braces that make no quantifier are literals in ECMA-262.
            '{' | '}' if !in_class => push_code_point(c, false, &mut out),
            // ECMA-262's `.`: anything but a line terminator, spelled out.
            '.' if !in_class => out.push_str(r"[^\x0A\x0D\u2028\u2029]"),
            // Engines read `"` and non-printing characters best as code points.
            c if c.is_control() || c == '"' => push_code_point(c, in_class, &mut out),
            c => out.push(c),
        }
    }
    if in_class {
        return Err("has a class that is not closed".into());
    }
    out.push('$');
    Ok(out)
}

/// Whether the last character is a `$` that is not escaped.
fn ends_with_anchor(chars: &[char]) -> bool {
    if chars.len() < 2 || chars[chars.len() - 1] != '$' {
        return false;
    }
    let backslashes = chars[..chars.len() - 1]
        .iter()
        .rev()
        .take_while(|&&c| c == '\\')
        .count();
    backslashes % 2 == 0
}

/// Writes `\` + `escaped`; returns how many characters of `rest` it used.
fn escape(rest: &[char], escaped: char, in_class: bool, out: &mut String) -> Result<usize, String> {
    let set = |members: &str, negated: bool, out: &mut String| -> Result<(), String> {
        match (in_class, negated) {
            (true, false) => out.push_str(members),
            (true, true) => return Err("has a negated class escape inside a class".into()),
            (false, negated) => {
                out.push_str(if negated { "[^" } else { "[" });
                out.push_str(members);
                out.push(']');
            }
        }
        Ok(())
    };
    match escaped {
        'd' | 'D' => set(DIGIT, escaped == 'D', out)?,
        'w' | 'W' => set(WORD, escaped == 'W', out)?,
        's' | 'S' => set(SPACE, escaped == 'S', out)?,
        't' => push_code_point('\t', in_class, out),
        'n' => push_code_point('\n', in_class, out),
        'r' => push_code_point('\r', in_class, out),
        'v' => push_code_point('\u{B}', in_class, out),
        'f' => push_code_point('\u{C}', in_class, out),
        'b' if in_class => push_code_point('\u{8}', in_class, out),
        '0' if !rest.first().is_some_and(char::is_ascii_digit) => {
            push_code_point('\0', in_class, out)
        }
        'c' if rest.first().is_some_and(char::is_ascii_alphabetic) => {
            let control = char::from(rest[0] as u8 % 32);
            push_code_point(control, in_class, out);
            return Ok(1);
        }
        'x' if hex(rest, 2).is_some() => {
            let code = hex(rest, 2).unwrap_or_default();
            push_code_point(char::from_u32(code).unwrap_or_default(), in_class, out);
            return Ok(2);
        }
        'u' if hex(rest, 4).is_some() => {
            let code = hex(rest, 4).unwrap_or_default();
            if (0xD800..0xE000).contains(&code) {
                return Err("has a surrogate code point".into());
            }
            push_code_point(char::from_u32(code).unwrap_or_default(), in_class, out);
            return Ok(4);
        }
        'b' | 'B' => return Err(format!("has the word boundary \\{escaped}")),
        'p' | 'P' => return Err(format!("has the Unicode property class \\{escaped}")),
        'k' => return Err("has a named backreference".into()),
        '1'..='9' => return Err("has a backreference".into()),
        // Syntax characters and `/`, `-` escaped to stand for themselves.
        c if "^$\\.*+?()[]{}|/-".contains(c) => push_code_point(c, in_class, out),
        other => return Err(format!("has the escape \\{other}")),
    }
    Ok(0)
}

/// A character written as its code point: `\x2E` (ASCII) or `\u00E9`, in a one-character class
/// outside classes so that a quantifier after it applies to it alone.
fn push_code_point(c: char, in_class: bool, out: &mut String) {
    let code = c as u32;
    let escaped = if code <= 0x7F {
        format!(r"\x{code:02X}")
    } else {
        format!(r"\u{code:04X}")
    };
    if in_class {
        out.push_str(&escaped);
    } else {
        out.push('[');
        out.push_str(&escaped);
        out.push(']');
    }
}

/// The number written by `len` hex digits at the start of `rest`.
fn hex(rest: &[char], len: usize) -> Option<u32> {
    let digits: String = rest.get(..len)?.iter().collect();
    digits
        .chars()
        .all(|c| c.is_ascii_hexdigit())
        .then(|| u32::from_str_radix(&digits, 16).ok())
        .flatten()
}

#[cfg(test)]
#[path = "patterns_tests.rs"]
mod tests;
