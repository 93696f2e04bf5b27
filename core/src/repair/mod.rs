//! Local syntax repair: reads JSON as models write it and reports every fix.
//!
//! The repairer is a tolerant recursive-descent parser that builds a
//! [`serde_json::Value`] directly. It accepts what strict JSON rejects when the intent is
//! clear (trailing commas, single or typographic quotes, unquoted keys, `//`, `/* */` and
//! `#` comments, Python literals and triple-quoted strings, `TRUE` and `Null`, raw
//! newlines in strings, unescaped quotes inside strings, JSON quoted inside strings,
//! backslashes that start no escape, missing commas and colons, members without a value,
//! stray words between members, `1_000`, `...` ellipses, strings joined with `+`, an
//! object's braces doubled as templates escape them, `{{"a": 1}}`) and
//! records a [`Fix`] for each. Valid JSON is read
//! as it is, with no fix. The policy, class by class, is in `docs/recovery.md`.
//!
//! # Truncated replies
//!
//! A reply cut off by the token limit is closed, not completed by guesswork:
//!
//! - an open string is closed where the text ends (`["Hello, wor` gives `["Hello, wor"]`),
//!   and open arrays and objects are closed; but when the text ends with a `]` or `}` that
//!   the string did not open, the reply is whole and the string lost its end quote: it ends
//!   at its first delimiter (`["abc, def]` gives `["abc", "def"]`, as jsonrepair reads it);
//! - a member or item whose value was cut off before it could be read whole is **dropped**,
//!   never invented: `{"a": 1, "b": tr` gives `{"a": 1}`, as do `{"a": 1, "b":` and
//!   `{"a": 1, "b"`; a number with a dangling `.`, `e` or sign at the very end, or a
//!   prefix of `true`/`false`/`null`, counts as cut off;
//! - a complete-looking number or bare word at the end is kept;
//! - a reply that is a single number or word has nothing to drop it from: `2.` and `2e`
//!   are completed to `2` (a reply may end a sentence so), a word is text (`t` stays the
//!   string `"t"`), and a lone `-` is an error.
//!
//! Every such decision is reported ([`FixKind::ClosedString`], [`FixKind::ClosedBrackets`],
//! [`FixKind::DroppedMember`], [`FixKind::DroppedItem`]) so the caller can tell the model
//! its reply was cut off.
//!
//! Work is linear in the input and nesting is limited to [`MAX_NESTING`] levels, so no
//! input can exhaust the stack. A string is re-read at most once; once a string has run to
//! the end of the text without its end quote, later strings in the same kind of quotes end
//! at their first quote or delimiter, as that string's second reading did. Likewise once a
//! string that looked past a quote for its end failed to find one, strings that start
//! before the point where it failed do not look (`member.rs`).

mod container;
mod document;
mod member;
mod scalar;
mod string;

pub use crate::fix::{Fix, FixKind, Location};

use serde_json::Value;

use crate::Error;
use crate::error::{Violation, ViolationKind};
use string::{Stop, is_quote};

/// How deep arrays and objects may nest in a repaired reply.
pub const MAX_NESTING: usize = 128;

/// Repairs `text` into a JSON value, with the fixes applied.
pub fn repair(text: &str) -> Result<(Value, Vec<Fix>), Error> {
    let mut repairer = Repairer {
        text,
        pos: 0,
        depth: 0,
        fixes: Vec::new(),
        unterminated: [false; 4],
        no_triple_end: [usize::MAX; 2],
        string_role: Role::Other,
        no_look_before: 0,
        excess_closers: None,
        doubled_around: 0,
    };
    match repairer.document() {
        Ok(value) => Ok((value, repairer.fixes)),
        Err(failure) => Err(failure.into_error(text)),
    }
}

/// Why a text could not be repaired, and where.
#[derive(Debug)]
pub(crate) struct Failure {
    offset: usize,
    message: String,
}

impl Failure {
    pub(crate) fn into_error(self, text: &str) -> Error {
        let before = &text[..self.offset.min(text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Error::single(Violation::new(
            "",
            ViolationKind::Syntax {
                line,
                column,
                message: self.message,
            },
        ))
    }
}

/// What a value is to the text around it.
#[derive(Clone, Copy, PartialEq)]
enum Role {
    /// A member's value.
    Member,
    /// An array's item.
    Item,
    /// The document, or a key.
    Other,
}

/// What blank is skipped, and where a `#` starts a comment.
#[derive(Clone, Copy, PartialEq)]
enum Blank {
    /// Between members and items: whitespace, newlines, any comment.
    Lines,
    /// Where a member's value starts: as `Lines`, but `#` before a letter or digit is the
    /// value's (`"color": #fff`).
    Value,
    /// Where an item may start: as `Value`, where the word the `#` starts ends the item
    /// on its line (`[#fff, #000]`, not `[1, #first\n 2]`).
    Item,
    /// After a value, on its line: no newline, and `#` as [`line_comment`] decides.
    Line,
}

/// Where a container's loop stands after a separator.
enum Slot {
    /// The container is closed.
    Closed,
    /// Nothing to read here; look again.
    Skip,
    /// A member or item starts here.
    Next,
}

/// What reading one value gave.
enum Read {
    /// A whole value (possibly closed at the end of the text).
    Value(Value),
    /// The text ended inside the value: it cannot be read without guessing.
    CutOff,
    /// No value starts here.
    Nothing,
}

struct Repairer<'a> {
    text: &'a str,
    pos: usize,
    depth: usize,
    fixes: Vec<Fix>,
    /// For each kind of quote (`string::quote_kind`): whether a string in those quotes ran to
    /// the end of the text without finding its end quote.
    unterminated: [bool; 4],
    /// For `"""` and `'''`: the offset from which the text holds no three such quotes.
    no_triple_end: [usize; 2],
    /// What the string being read is: a member's value or an item, whose end quote must
    /// be followed by what may follow one (`member.rs`), or another string.
    string_role: Role,
    /// Strings that start before this offset end at the first quote followed by a
    /// delimiter: a string that looked further for its end quote failed here.
    no_look_before: usize,
    /// How many more `}` and `]` than `{` and `[` the text holds outside strings, less
    /// those dropped as extra (`container.rs`); counted when first needed.
    excess_closers: Option<[isize; 2]>,
    /// How many of the objects being read were opened with `{{` (`container.rs`).
    doubled_around: usize,
}

/// Characters that may follow a value.
fn is_delimiter(c: char) -> bool {
    matches!(
        c,
        ',' | ':' | '[' | ']' | '{' | '}' | '(' | ')' | '\n' | '+' | '/'
    )
}

/// The most bytes of a line looked at to decide whether a `#` after a value starts a
/// comment.
const COMMENT_LIMIT: usize = 256;

/// Whether the `#` at the start of `text`, after a value on its line, starts a comment:
/// the rest of its line holds no quote that could end a string, that is an even number
/// of double quotes (`# it's "fine"`). In `"say "x" # ok", "b": 1` the `#` is inside
/// the string, whose end quote is on that line.
fn line_comment(text: &str) -> bool {
    let line = text.split('\n').next().unwrap_or_default();
    let end = line.floor_char_boundary(COMMENT_LIMIT);
    line[..end].matches('"').count().is_multiple_of(2)
}

/// Whether the `#` at the start of `text`, where an item may start, starts the item: it
/// is right before a word, and the word is followed on its line by `,`, `]` or `}`.
fn hash_item(text: &str) -> bool {
    if !text[1..].starts_with(char::is_alphanumeric) {
        return false;
    }
    let word = text.trim_start_matches(|c: char| {
        !(c.is_whitespace() || matches!(c, ',' | ']' | '}' | '[' | '{'))
    });
    word.trim_start_matches([' ', '\t', '\r'])
        .starts_with([',', ']', '}'])
}

/// Whitespace a model may emit that JSON does not allow.
fn is_special_whitespace(c: char) -> bool {
    matches!(
        c,
        '\u{a0}' | '\u{1680}' | '\u{180e}' | '\u{2000}'
            ..='\u{200b}' | '\u{202f}' | '\u{205f}' | '\u{3000}' | '\u{feff}'
    )
}

impl<'a> Repairer<'a> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.text.get(self.pos + offset..)?.chars().next()
    }

    fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn fix(&mut self, kind: FixKind, offset: usize) {
        // Brackets closed together at the end of the text are one fix.
        if let FixKind::ClosedBrackets { count } = kind
            && let Some(last) = self.fixes.last_mut()
            && *last.location() == Location::Offset(offset)
            && let FixKind::ClosedBrackets { count: closed } = last.kind_mut()
        {
            *closed += count;
            return;
        }
        self.fixes.push(Fix::at(kind, offset));
    }

    fn fail<T>(&self, message: impl Into<String>) -> Result<T, Failure> {
        Err(Failure {
            offset: self.pos,
            message: message.into(),
        })
    }

    /// Skips whitespace and comments, reporting each comment.
    fn skip_blank(&mut self) {
        self.skip(Blank::Lines);
    }

    /// Skips whitespace and comments before a value, where a `#` right before a word
    /// (`#fff`, `#1`) starts the value.
    fn skip_blank_before_value(&mut self) {
        self.skip(Blank::Value);
    }

    /// Skips spaces, tabs and comments, but not a newline, which may end a value; a `#`
    /// starts a comment only where its line holds no end quote ([`line_comment`]).
    fn skip_blank_on_line(&mut self) {
        self.skip(Blank::Line);
    }

    fn skip(&mut self, blank: Blank) {
        loop {
            let rest = &self.text[self.pos..];
            let trimmed = rest.trim_start_matches(|c: char| {
                (c.is_whitespace() && (blank != Blank::Line || c != '\n'))
                    || is_special_whitespace(c)
            });
            self.pos += rest.len() - trimmed.len();
            let start = self.pos;
            let hash = trimmed.starts_with('#')
                && match blank {
                    Blank::Lines => true,
                    Blank::Value => !trimmed[1..].starts_with(char::is_alphanumeric),
                    Blank::Item => !hash_item(trimmed),
                    Blank::Line => line_comment(trimmed),
                };
            if let Some(body) = trimmed.strip_prefix("/*") {
                self.pos += body.find("*/").map_or(trimmed.len(), |i| i + 4);
            } else if trimmed.starts_with("//") || hash {
                self.pos += trimmed.find('\n').unwrap_or(trimmed.len());
            } else {
                return;
            }
            self.fix(FixKind::Comment, start);
        }
    }

    fn value(&mut self) -> Result<Read, Failure> {
        self.value_as(Role::Other)
    }

    /// A value that is `role`.
    fn value_as(&mut self, role: Role) -> Result<Read, Failure> {
        self.skip_blank_before_value();
        let Some(c) = self.peek() else {
            return Ok(Read::Nothing);
        };
        match c {
            '{' => self.object(),
            '[' => self.array(),
            c if is_quote(c) || (c == '\\' && self.peek_at(1).is_some_and(is_quote)) => {
                if let Some(value) = self.triple_quoted()? {
                    return Ok(Read::Value(value));
                }
                self.string_role = role;
                let read = self.string(Stop::Quote);
                self.string_role = Role::Other;
                Ok(read?.map_or(Read::CutOff, Read::Value))
            }
            '-' | '0'..='9' | '.' => match self.number()? {
                Some(read) => Ok(read),
                None => Ok(self.bare_word()),
            },
            '}' | ']' | ',' | ':' => Ok(Read::Nothing),
            _ => Ok(self.bare_word()),
        }
    }

    fn enter(&mut self) -> Result<(), Failure> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return self.fail(format!("nested more than {MAX_NESTING} levels deep"));
        }
        Ok(())
    }
}
