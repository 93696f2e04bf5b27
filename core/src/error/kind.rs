//! The kinds of violation, and the words each is sent back to a model in.

use std::fmt::{self, Display};

use super::{bounded, one_line, quote, quote_bounded};

/// What kind of problem a [`Violation`](super::Violation) is.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ViolationKind {
    /// The text is not JSON. `line` and `column` are 1-based.
    Syntax {
        line: usize,
        column: usize,
        message: String,
    },
    /// A required field is absent; the pointer names where it should be.
    MissingField,
    /// A key the object does not allow.
    UnknownField,
    /// The value has the wrong JSON type.
    WrongType { expected: String, found: String },
    /// The value is not one of the allowed values (an enum, a constant, a tool name).
    NotAllowed { found: String, allowed: Vec<String> },
    /// A number outside its range.
    OutOfRange { found: String, bound: Bound },
    /// A number that is not a multiple of the given step.
    NotMultipleOf { found: String, step: String },
    /// A string, array or object with too few characters, items or members.
    TooShort { len: usize, min: usize, unit: Unit },
    /// A string, array or object with too many characters, items or members.
    TooLong { len: usize, max: usize, unit: Unit },
    /// A string that does not match the required regular expression.
    PatternMismatch { found: String, pattern: String },
    /// A string that is not a value of its `format` (`uuid`, `date`, `time`, `date-time`);
    /// `form` is how its values are written (`YYYY-MM-DD`), never a value itself.
    FormatMismatch {
        found: String,
        format: String,
        form: String,
    },
    /// An array whose items must be unique repeats one (`first` and `second` are indices).
    NotUnique { first: usize, second: usize },
    /// The value matches none of the alternatives it may take.
    NoMatch { expected: Vec<String> },
    /// The value matches more than one alternative where exactly one is allowed.
    Ambiguous { matched: Vec<usize> },
    /// Two keys that name the same field (a field and its alias) are both present.
    Conflict { keys: Vec<String> },
    /// The reply is the schema sent back, not data that matches it: a JSON Schema, or the
    /// shape in the prompt's notation, with types where the values go
    /// (`{ answer: string }`).
    SchemaEchoed,
    /// The value is nested deeper than the configured limit.
    TooDeep { limit: usize },
    /// A call of a union with an answer none of whose values appears in the conversation,
    /// of a tool the request names nowhere: a call made of nothing the user wrote
    /// (`values`: the first few, as written).
    Ungrounded { values: Vec<String> },
    /// A call of a union with an answer none of whose values appears in the conversation,
    /// some of them the examples its tool's description gives (`"e.g. 'Serie A'"`): the
    /// documentation's values, not the user's (`values`: the first few examples, as
    /// written).
    CopiedExample { values: Vec<String> },
    /// A call of a union with an answer, of a tool the request names, none of whose values
    /// appears in the conversation, its required arguments holding some (`values`: the
    /// first few of those, as written): inferred from the request (`"1914-07-28"` for
    /// "the day the First World War began"), or made up (`{"level": 100}` beside
    /// `music.set_volume` for "What volume of water fills a swimming pool?"). Such a call
    /// is questioned once; a model that calls again is taken at its word, unless the
    /// request asks to know something ("What…?", "Which…?"): with every call of the reply
    /// made up again, it is reported once more and the model asked for its answer alone,
    /// which gives up a value rightly inferred for such a question, and the model made up
    /// every repeat measured. Words read out of a request that names the tool by the whole
    /// of its name (`"CHF"` for "Swiss francs" beside `get_exchange_rate`, asked for "the
    /// exchange rate") are not questioned. Also reported, beside the schema's violations,
    /// of a call the schema rejects after an answer was sent back for skipping its tool,
    /// where the call holds values and none the user wrote (`values`: the first few of
    /// them); the answer is then kept (`FixKind::AnswerKept`).
    Unstated { values: Vec<String> },
    /// A call of a union with an answer, the first reply under the schema's grammar, whose
    /// function's name the model would not have written: where the reply names the
    /// function, the union's function names had `percent` % (less than 10 %) of the
    /// likelihood the server reported for the alternatives that decide, and the grammar
    /// allowed nothing else there. Servers that report the model's likelihoods before
    /// the grammar (llama.cpp, vLLM) show this; one that reports them after shows the
    /// names with all of it. Asked "Who composed The Four Seasons?" beside `music.play`,
    /// a 0.5B model's likeliest token there was `The`, and the grammar made it `music`.
    /// The model is then asked for its answer alone.
    ForcedCall { tool: String, percent: u8 },
    /// A call of a union with an answer, the first reply in a format that allows JSON
    /// alone (`json_object`, a schema's grammar), which the model would have begun in
    /// prose: where the reply begins, opening a JSON value had `percent` % (less than
    /// 10 %) of the likelihood the server reported for the alternatives that decide.
    /// In such a union, prose is the answer. Asked "Who composed The Four Seasons?"
    /// beside `music.play` in `json_object`, a 0.5B model's likeliest first tokens were
    /// `The` and `I`, and the format made its reply a call of `music_play`. The model is
    /// then asked for its answer alone. `tool` is the name as the reply writes it, which
    /// may be no function's (a call the union's schema rejected): shown quoted and
    /// bounded.
    ForcedJson { tool: String, percent: u8 },
    /// An answer to a request that asks for what a tool of the union does (its name says
    /// so): the model worked the result out, or made it up, instead of calling `tool`.
    SkippedTool { tool: String },
    /// An answer of a union of tools that is only the name of one of its tools (`tool`, as
    /// the model is shown it): the call the model meant, not made
    /// (`{"answer": "finance_stock_quote"}`).
    NamedNotCalled { tool: String },
    /// An answer of a union of tools that is the library's own text sent back, not an
    /// answer of the model's: a placeholder of the forms (`<your answer>`), a piece of
    /// the instructions ("a call of one of the functions above, the arguments taken from
    /// the request"), or a type of the shape (`"string"`). `text` is the answer, as written.
    CopiedForm { text: String },
    /// The provider cut the reply at the token limit (`max_tokens`, when the request set
    /// one) before it was complete; the violations after this one are what the cut left.
    CutOff { max_tokens: Option<u32> },
    /// Any other rejection, with its reason.
    Invalid { message: String },
    /// A semantic check (`#[schema(validate = path)]`) panicked on this value. The bug is
    /// in the check, not in the reply, so no repair can fix it: see
    /// [`Error::panicked_check`](super::Error::panicked_check).
    CheckPanicked {
        /// The check's path as written in the attribute: `check_sku`, `rules::order`.
        check: String,
        /// The panic's message, when it had one.
        message: String,
    },
}

/// The bound a number broke.
#[derive(Debug, Clone, PartialEq)]
pub enum Bound {
    /// `value >= min` was required.
    Minimum(String),
    /// `value <= max` was required.
    Maximum(String),
    /// `value > min` was required.
    ExclusiveMinimum(String),
    /// `value < max` was required.
    ExclusiveMaximum(String),
}

/// What a length counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Characters,
    Items,
    Members,
}

impl Unit {
    fn name(self, n: usize) -> &'static str {
        match (self, n) {
            (Unit::Characters, 1) => "character",
            (Unit::Characters, _) => "characters",
            (Unit::Items, 1) => "item",
            (Unit::Items, _) => "items",
            (Unit::Members, 1) => "member",
            (Unit::Members, _) => "members",
        }
    }
}

impl Display for ViolationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ViolationKind::Syntax {
                line,
                column,
                message,
            } => write!(
                f,
                "invalid JSON at line {line}, column {column}: {}",
                one_line(message)
            ),
            ViolationKind::MissingField => f.write_str("missing required field"),
            ViolationKind::UnknownField => f.write_str("unknown field"),
            ViolationKind::WrongType { expected, found } => {
                write!(f, "expected {expected}, found {found}")
            }
            ViolationKind::NotAllowed { found, allowed } => match allowed.as_slice() {
                [only] => write!(
                    f,
                    "{found} is not allowed here; the only allowed value is {only}"
                ),
                _ => write!(f, "{found} is not one of {}", allowed.join(", ")),
            },
            ViolationKind::OutOfRange { found, bound } => match bound {
                Bound::Minimum(min) => write!(f, "{found} is below the minimum of {min}"),
                Bound::Maximum(max) => write!(f, "{found} is above the maximum of {max}"),
                Bound::ExclusiveMinimum(min) => {
                    write!(f, "{found} is too small; it must be greater than {min}")
                }
                Bound::ExclusiveMaximum(max) => {
                    write!(f, "{found} is too large; it must be less than {max}")
                }
            },
            ViolationKind::NotMultipleOf { found, step } => {
                write!(f, "{found} is not a multiple of {step}")
            }
            ViolationKind::TooShort { len, min, unit } => write!(
                f,
                "too short: {len} {}, at least {min} {} required",
                unit.name(*len),
                unit.name(*min)
            ),
            ViolationKind::TooLong { len, max, unit } => write!(
                f,
                "too long: {len} {}, at most {max} {} allowed",
                unit.name(*len),
                unit.name(*max)
            ),
            ViolationKind::PatternMismatch { found, pattern } => {
                write!(f, "{found} does not match the pattern {pattern}")
            }
            ViolationKind::FormatMismatch {
                found,
                format,
                form,
            } => write!(
                f,
                "{found} is not a valid {format}; write it in the form {}",
                quote(form)
            ),
            ViolationKind::NotUnique { first, second } => write!(
                f,
                "items must be unique, but items {first} and {second} are equal"
            ),
            ViolationKind::NoMatch { expected } => {
                write!(
                    f,
                    "matches none of the allowed shapes: {}",
                    expected.join("; ")
                )
            }
            ViolationKind::Ambiguous { matched } => {
                let list: Vec<String> = matched.iter().map(|i| format!("#{}", i + 1)).collect();
                write!(
                    f,
                    "matches more than one alternative ({}) where exactly one is allowed",
                    list.join(", ")
                )
            }
            ViolationKind::Conflict { keys } => {
                let keys: Vec<String> = keys.iter().map(|k| quote_bounded(k, 60)).collect();
                write!(
                    f,
                    "{} name the same field; give only one",
                    keys.join(" and ")
                )
            }
            ViolationKind::SchemaEchoed => f.write_str(
                "this is the schema sent back, not data; reply with a value that matches the schema",
            ),
            ViolationKind::TooDeep { limit } => {
                write!(f, "nested more than {limit} levels deep")
            }
            ViolationKind::Ungrounded { values } => write!(
                f,
                "none of the call's values ({}) appears in the request: a call takes its \
                 arguments from what the user wrote. If none of the functions does what the \
                 request asks, reply {{\"answer\": …}} instead",
                values.join(", ")
            ),
            ViolationKind::CopiedExample { values } => write!(
                f,
                "the call's values ({}) are the examples given in the function's \
                 description, not values from the request: a call takes its arguments from \
                 what the user wrote. If none of the functions does what the request asks, \
                 reply {{\"answer\": …}} instead",
                values.join(", ")
            ),
            ViolationKind::Unstated { values } => write!(
                f,
                "none of the call's values ({}) is in the request. Call the function again \
                 only if the request asks for what it does and means these values; if none \
                 of the functions does what the request asks, reply {{\"answer\": …}} instead",
                values.join(", ")
            ),
            ViolationKind::ForcedCall { tool, percent } => write!(
                f,
                "the call of {} was the only kind of reply the grammar allowed here besides \
                 the answer; the model gave the functions' names {percent} % of its \
                 likelihood. If none of the functions does what the request asks, reply \
                 {{\"answer\": …}} instead",
                quote(tool)
            ),
            ViolationKind::ForcedJson { tool, percent } => write!(
                f,
                "the call of {} was written as JSON because the reply's format allowed \
                 nothing else; where the reply begins, the model gave JSON {percent} % of \
                 its likelihood and would have begun in prose. If none of the functions \
                 does what the request asks, reply {{\"answer\": …}} instead",
                quote_bounded(tool, 80)
            ),
            ViolationKind::SkippedTool { tool } => write!(
                f,
                "the request asks for what the function {} does: call it, with the arguments \
                 taken from the request, rather than working out or making up the result \
                 yourself. Answer only if it cannot do what the request asks",
                quote(tool)
            ),
            ViolationKind::NamedNotCalled { tool } => write!(
                f,
                "this answer is only the name of the function {}, not a call of it: to call \
                 it, reply with the call, its arguments taken from the request; if none of \
                 the functions does what the request asks, write your own answer to the \
                 request",
                quote(tool)
            ),
            ViolationKind::CopiedForm { text } => write!(
                f,
                "this answer ({}) is the reply's form sent back, not an answer: write your \
                 own answer to the request, or call one of the functions",
                quote_bounded(text, 80)
            ),
            ViolationKind::CutOff { max_tokens } => {
                f.write_str("the reply was cut off at the token limit")?;
                if let Some(n) = max_tokens {
                    write!(f, " of {n} tokens")?;
                }
                f.write_str(" before it was complete")
            }
            ViolationKind::Invalid { message } => f.write_str(&one_line(message)),
            ViolationKind::CheckPanicked { check, message } => {
                write!(f, "the check `{check}` panicked: {}", bounded(message, 500))
            }
        }
    }
}
