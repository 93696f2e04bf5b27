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
    /// An invalid escape sequence was read as the character itself: `\'` as `'`, a lone
    /// UTF-16 surrogate as U+FFFD.
    InvalidEscape,
    /// A backslash before a character that starts no JSON escape (`C:\Users`, `\d+`) was
    /// kept as a backslash.
    LiteralBackslash,
    /// A Python triple-quoted string (`"""…"""` or `'''…'''`) was read as one string.
    TripleQuotes,
    /// `TRUE`, `FALSE`, `NULL` or `Null` was read as the JSON literal.
    LiteralCase { literal: &'static str },
    /// A number written with digit separators (`1_000`, `1_234.5_6`) was read as the
    /// number.
    DigitSeparators,
    /// A member written without a value (`"a": ,`) was dropped, not filled in.
    MissingValue { key: String },
    /// Words standing between members, outside any string, were left out.
    StrayWords { words: String },
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
    /// An object's braces were doubled, as templates escape them (`{{"a": 1}}`), and read
    /// as single ones.
    DoubledBraces,
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
    /// An integer where text was expected was read as its digits (`144` → `"144"`).
    NumberToString,
    /// A single value where a list was expected became a one-item list.
    WrappedInList,
    /// An enum value written in another case or with other separators was matched.
    EnumCase { from: String, to: String },
    /// An enum value followed by prose or in Markdown (`"positive - warm tone"`,
    /// `**HIGH**`) was read as the one allowed value it names.
    EnumInProse { from: String, to: String },
    /// An enum value written as its abbreviation without a vowel (`"ml"`, `"tbsp"`) was
    /// read as the one allowed value it abbreviates.
    EnumAbbreviation { from: String, to: String },
    /// A value under a pattern written with separators between its own characters
    /// (`"+47 912 34 567"`, `"U2 8315"`) was read without them, the one way it fits the
    /// pattern (`"+4791234567"`).
    PatternSeparators { from: String, to: String },
    /// A value where an object with one required field was expected was put under that
    /// field (`"Paris"` → `{"city": "Paris"}`, `[…]` → `{"items": […]}`).
    WrappedInField { key: String },
    /// The object was inside one key the schema does not have (`{"invoice": {…}}`).
    Unwrapped { key: String },
    /// A key differing from a field's name only in case or separators was renamed.
    RenamedKey { from: String, to: String },
    /// A key the object does not allow, and no near miss of one it does, was dropped.
    DroppedUnknownKey { key: String },
    /// Several JSON values were read as the items of the list expected.
    SeveralValues { count: usize },
    /// Several JSON lists (and objects) one after another (`[1, 2]\n[3]`) were read as one
    /// list of their items, where a list is expected and the list of them does not fit.
    JoinedLists { count: usize },
    /// A tool call written in another envelope was read as `{"name", "arguments"}`.
    CallEnvelope { shape: String },
    /// Tool calls written in a chat template's text format (`<tool_call>{…}</tool_call>`,
    /// `[TOOL_CALLS]name[ARGS]{…}`, `<function=name>{…}</function>`, `<|python_tag|>{…}`,
    /// `[get_weather(city="Paris")]`, `get_weather({…})`) were read as the union's calls.
    /// `format` is the format as shown here; `count` the calls read.
    TextToolCall { format: &'static str, count: usize },
    /// An optional argument of a tool call whose value the user never gave (found nowhere
    /// in the conversation, none the tool lists, not the default it states) was left
    /// out, so that the tool's default applies (`"age": 16` for "I'm 165cm and 80kg"); so
    /// is a key the tool's schema does not list, in the arguments or in an object inside
    /// them, with nothing in its value that the conversation gives (`"limit": 10` for a
    /// tool of `league` and `season`, `"explicit": true`, `"level": 50` in each track of a
    /// playlist), where the object's schema lists its properties and describes no other
    /// keys. `key` is the key; the fix's pointer says where it was.
    /// `value` is the value as the model wrote it, as JSON, quoted and bounded. Only in
    /// replies to a union of tools with an answer (a `Toolset` with `with_answer()`, a
    /// derived enum with an `#[answer]` variant); never where the call would not fit the
    /// tool's schema without the argument. Off with `Agent::grounded_calls(false)`, which
    /// turns off the other checks that a reply follows the conversation too.
    UnaskedArgument { key: String, value: String },
    /// A key inside an object of a tool call's arguments that repeats, with the same
    /// value, an argument the call gives at its own place (`"original_servings": 4` in
    /// each ingredient of a recipe the call scales from 4 servings), where the object's
    /// schema does not list it, was left out. `value` is as in
    /// [`FixKind::UnaskedArgument`]; the fix's pointer says where the key was. Only where
    /// that kind applies.
    RepeatedArgument { key: String, value: String },
    /// The answer of an earlier attempt was taken, which had been sent back only as
    /// skipping the function its request names
    /// ([`ViolationKind::SkippedTool`](crate::ViolationKind::SkippedTool)): asked to call
    /// that function, the model called it, every call it wrote made of values the user
    /// never wrote (the description's examples, placeholders, values of its own). A call
    /// the request holds nothing for says the function did not fit after all. Also taken
    /// when the last attempt's reply is rejected with no call taken since the answer: the
    /// question was the library's, and the answer, unquestioned, would have stood.
    /// `attempt` is the answer's attempt; `instead` why this attempt's reply was rejected,
    /// as its violations read, bounded. Only in replies to a union of tools with an answer,
    /// and off with `Agent::grounded_calls(false)` with the check it follows.
    AnswerKept { attempt: usize, instead: String },
    /// The reply ran in a loop of words until the token limit cut it, `round` written
    /// again and again, and was read up to the end of the loop's first round (or of the
    /// sentence that round ends in): what the cut took was more of the same. Only where
    /// the round stays within text (no quote in it, a space and a letter); a loop of a
    /// digit, a member or an item is sent back, as one round changes the value.
    LoopCut { round: String },
    /// A call of the tool a union's answer is sent as in
    /// [`Mode::Tools`](crate::provider::Mode::Tools), written as text (`{"name": "answer",
    /// "arguments": {"answer": …}}`, bare or in a `<tool_call>` block), was read as the
    /// answer its arguments give (`"arguments": "Because …"`, the answer's text itself,
    /// is put under `answer`). `name` is the tool's name. Only where the reply writes
    /// that one call, and its arguments hold the answer and no `name`, or are a string.
    AnswerCall { name: String },
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

    /// Whether the fix completes a reply that ended too soon (a string or brackets
    /// closed, a half-written member or item dropped): what was read may lack what the
    /// cut took.
    pub fn completes_a_cut(&self) -> bool {
        matches!(
            self.kind,
            FixKind::ClosedString
                | FixKind::ClosedBrackets { .. }
                | FixKind::DroppedMember { .. }
                | FixKind::DroppedItem
        )
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
            FixKind::LiteralBackslash => {
                f.write_str("kept a backslash that starts no JSON escape as a backslash")
            }
            FixKind::TripleQuotes => f.write_str("read a triple-quoted string as one string"),
            FixKind::LiteralCase { literal } => {
                write!(f, "read {literal} as {}", literal.to_lowercase())
            }
            FixKind::DigitSeparators => f.write_str("read a number written with digit separators"),
            FixKind::MissingValue { key } => {
                write!(f, "dropped {key:?}, written without a value")
            }
            FixKind::StrayWords { words } => {
                write!(f, "left out {words:?}, stray words between members")
            }
            FixKind::MissingComma => f.write_str("added a missing comma"),
            FixKind::MissingColon => f.write_str("added a missing colon"),
            FixKind::Ellipsis => f.write_str("removed an ellipsis"),
            FixKind::IncompleteNumber => f.write_str("completed a number with a dangling symbol"),
            FixKind::ConcatenatedStrings => f.write_str("joined strings concatenated with +"),
            FixKind::ExtraClosingBracket => {
                f.write_str("removed a closing bracket with no opening one")
            }
            FixKind::DoubledBraces => {
                f.write_str("read an object's doubled braces {{ … }} as single ones")
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
            FixKind::NumberToString => f.write_str("read an integer as the text of its digits"),
            FixKind::WrappedInList => f.write_str("wrapped a single value in a list"),
            FixKind::EnumCase { from, to } => {
                write!(f, "matched {from:?} to the allowed value {to:?}")
            }
            FixKind::EnumInProse { from, to } => {
                write!(f, "took the allowed value {to:?} out of {from:?}")
            }
            FixKind::EnumAbbreviation { from, to } => {
                write!(
                    f,
                    "read {from:?} as the allowed value it abbreviates, {to:?}"
                )
            }
            FixKind::PatternSeparators { from, to } => {
                write!(
                    f,
                    "read {from:?} as {to:?}, without the separators the pattern does not allow"
                )
            }
            FixKind::WrappedInField { key } => {
                write!(f, "put the value under its one required key {key:?}")
            }
            FixKind::Unwrapped { key } => {
                write!(
                    f,
                    "took the object out of the key {key:?}, which the schema does not have"
                )
            }
            FixKind::RenamedKey { from, to } => write!(f, "renamed the key {from:?} to {to:?}"),
            FixKind::DroppedUnknownKey { key } => write!(f, "dropped the unknown key {key:?}"),
            FixKind::SeveralValues { count } => {
                write!(f, "read {count} JSON values as the items of a list")
            }
            FixKind::JoinedLists { count } => {
                write!(f, "joined {count} JSON lists into one list of their items")
            }
            FixKind::CallEnvelope { shape } => write!(
                f,
                "read a tool call written as {shape} as {{\"name\": …, \"arguments\": …}}"
            ),
            FixKind::TextToolCall { format, count: 1 } => {
                write!(f, "read a tool call written as text, {format}")
            }
            FixKind::TextToolCall { format, count } => {
                write!(f, "read {count} tool calls written as text, {format}")
            }
            FixKind::UnaskedArgument { key, value } => {
                write!(f, "left out {key:?}, {value}, which the user never gave")
            }
            FixKind::RepeatedArgument { key, value } => write!(
                f,
                "left out {key:?}, {value}, which repeats an argument of the call where the tool does not take it"
            ),
            FixKind::AnswerCall { name } => {
                write!(f, "read a call of {name:?} written as text as the answer")
            }
            FixKind::LoopCut { round } => write!(
                f,
                "read the reply up to where it began to repeat \"{round}\" until the token limit cut it"
            ),
            FixKind::AnswerKept { attempt, instead } => write!(
                f,
                "kept the answer of attempt {attempt}, sent back only as skipping a function, \
                 over this reply: {instead}"
            ),
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
