//! What the lenient parse changed to get a value out of a model's reply.

use std::fmt::{self, Display};

/// One local fix applied to a model's reply, with where it was applied.
#[derive(Debug, Clone, PartialEq)]
pub struct Fix {
    kind: FixKind,
    location: Location,
}

/// Where a fix was applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A byte offset in the JSON text that was repaired.
    Offset(usize),
    /// An RFC 6901 pointer into the value (coercions).
    Pointer(String),
    /// The reply as a whole (extraction).
    Reply,
}

/// The kinds of local fixes.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum FixKind {
    /// The JSON was inside a Markdown code fence.
    CodeFence,
    /// The JSON was inside an XML-style tag such as `<tool_call>`.
    Wrapper { tag: String },
    /// Text before or after the JSON was left out.
    Prose,
    /// A `<think>…</think>` reasoning block was skipped.
    Thinking,
    /// The reply held several JSON candidates; this one was taken.
    Candidate {
        chosen: usize,
        of: usize,
        reason: &'static str,
    },
    /// The whole reply, not JSON, was read as a string.
    PlainText,
    /// A comma before a closing bracket was removed.
    TrailingComma,
    /// A string in single quotes was requoted.
    SingleQuotes,
    /// A string in typographic quotes (“…”, ‘…’) was requoted.
    SmartQuotes,
    /// An object key without quotes was quoted.
    UnquotedKey,
    /// A bare word value was read as a string.
    UnquotedString,
    /// A `//`, `/* */` or `#` comment was removed.
    Comment,
    /// `True`, `False` or `None` was read as JSON.
    PythonLiteral { literal: &'static str },
    /// A raw newline or control character in a string was kept as an escape.
    ControlCharacter,
    /// A double quote inside a string was escaped.
    UnescapedQuote,
    /// An invalid escape sequence was read as the character itself.
    InvalidEscape,
    /// A missing comma between members or items was added.
    MissingComma,
    /// A missing colon between a key and its value was added.
    MissingColon,
    /// An ellipsis (`...`) standing for elided items was removed.
    Ellipsis,
    /// A number with a dangling `.`, `e` or sign was completed.
    IncompleteNumber,
    /// Strings joined with `+` were concatenated.
    ConcatenatedStrings,
    /// A closing bracket with no opening one was removed.
    ExtraClosingBracket,
    /// A key given twice; the last value was kept.
    DuplicateKey { key: String },
    /// The reply was JSON inside a JSON string; it was decoded.
    DoubleEncoded,
    /// The reply was cut off inside a string, which was closed.
    ClosedString,
    /// The reply was cut off; open arrays and objects were closed.
    ClosedBrackets { count: usize },
    /// The reply was cut off inside this member's value, which was dropped, not guessed.
    DroppedMember { key: String },
    /// The reply was cut off inside the last item, which was dropped, not guessed.
    DroppedItem,
    /// A string holding a number was read as the number (`"42"` → `42`).
    StringToNumber,
    /// A string holding a boolean was read as the boolean (`"true"` → `true`).
    StringToBoolean,
    /// A single value where a list was expected became a one-item list.
    WrappedInList,
    /// An enum value written in another case or with other separators was matched.
    EnumCase { from: String, to: String },
}

impl Fix {
    pub(crate) fn new(kind: FixKind, location: Location) -> Self {
        Fix { kind, location }
    }

    pub(crate) fn at(kind: FixKind, offset: usize) -> Self {
        Fix::new(kind, Location::Offset(offset))
    }

    pub(crate) fn kind_mut(&mut self) -> &mut FixKind {
        &mut self.kind
    }

    /// What was fixed.
    pub fn kind(&self) -> &FixKind {
        &self.kind
    }

    /// Where it was fixed.
    pub fn location(&self) -> &Location {
        &self.location
    }
}

impl Display for FixKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FixKind::CodeFence => f.write_str("took the JSON out of a code fence"),
            FixKind::Wrapper { tag } => write!(f, "took the JSON out of a <{tag}> tag"),
            FixKind::Prose => f.write_str("left out the text around the JSON"),
            FixKind::Thinking => f.write_str("skipped a <think> block"),
            FixKind::Candidate { chosen, of, reason } => {
                write!(f, "took JSON value {} of {of} ({reason})", chosen + 1)
            }
            FixKind::PlainText => f.write_str("read the whole reply as a string"),
            FixKind::TrailingComma => f.write_str("removed a trailing comma"),
            FixKind::SingleQuotes => f.write_str("replaced single quotes with double quotes"),
            FixKind::SmartQuotes => f.write_str("replaced typographic quotes with double quotes"),
            FixKind::UnquotedKey => f.write_str("quoted an unquoted key"),
            FixKind::UnquotedString => f.write_str("quoted a bare word"),
            FixKind::Comment => f.write_str("removed a comment"),
            FixKind::PythonLiteral { literal } => {
                write!(f, "read the Python literal {literal} as JSON")
            }
            FixKind::ControlCharacter => f.write_str("escaped a raw control character in a string"),
            FixKind::UnescapedQuote => f.write_str("escaped a double quote inside a string"),
            FixKind::InvalidEscape => f.write_str("dropped an invalid backslash escape"),
            FixKind::MissingComma => f.write_str("added a missing comma"),
            FixKind::MissingColon => f.write_str("added a missing colon"),
            FixKind::Ellipsis => f.write_str("removed an ellipsis"),
            FixKind::IncompleteNumber => f.write_str("completed a number with a dangling symbol"),
            FixKind::ConcatenatedStrings => f.write_str("joined strings concatenated with +"),
            FixKind::ExtraClosingBracket => {
                f.write_str("removed a closing bracket with no opening one")
            }
            FixKind::DuplicateKey { key } => write!(f, "kept the last of two values for {key:?}"),
            FixKind::DoubleEncoded => f.write_str("decoded JSON that was inside a JSON string"),
            FixKind::ClosedString => f.write_str("closed a string cut off at the end of the reply"),
            FixKind::ClosedBrackets { count } => {
                write!(
                    f,
                    "closed {count} bracket(s) left open at the end of the reply"
                )
            }
            FixKind::DroppedMember { key } => {
                write!(f, "dropped {key:?}, cut off at the end of the reply")
            }
            FixKind::DroppedItem => {
                f.write_str("dropped the last item, cut off at the end of the reply")
            }
            FixKind::StringToNumber => f.write_str("read a string holding a number as the number"),
            FixKind::StringToBoolean => {
                f.write_str("read a string holding a boolean as the boolean")
            }
            FixKind::WrappedInList => f.write_str("wrapped a single value in a list"),
            FixKind::EnumCase { from, to } => {
                write!(f, "matched {from:?} to the allowed value {to:?}")
            }
        }
    }
}

impl Display for Fix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Location::Offset(o) => write!(f, "{} (at byte {o})", self.kind),
            Location::Pointer(p) if p.is_empty() => write!(f, "(root): {}", self.kind),
            Location::Pointer(p) => write!(f, "{p}: {}", self.kind),
            Location::Reply => Display::fmt(&self.kind, f),
        }
    }
}
