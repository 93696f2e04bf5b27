//! The violation model: every problem found in a model's JSON, each at its JSON pointer.

use std::fmt::{self, Display};

use crate::fix::Fix;

mod deferred;
mod quoting;
pub(crate) use deferred::{Deferred, Recipe, worded};
use quoting::one_line;
pub(crate) use quoting::{
    bounded, needs_escape, one_line_json, quote, quote_bounded, shown_pointer,
};

/// Why a value was rejected: one or more [`Violation`]s, all found in one pass.
///
/// `Display` writes one line per violation, addressed to a model, so the text can be
/// sent back as-is in a repair prompt:
///
/// ```
/// use toolschema::ToolSchema;
///
/// #[derive(ToolSchema, Debug)]
/// struct Order {
///     color: String,
///     quantity: u8,
/// }
///
/// let err = toolschema::from_str::<Order>(r#"{"colour": "red", "quantity": "3"}"#).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "/colour: unknown field; did you mean \"color\"? \
///      The allowed keys are \"color\", \"quantity\"; remove the others.\n\
///      /quantity: expected an integer, found the string \"3\"\n\
///      /color: missing required field"
/// );
/// assert_eq!(err.violations()[0].pointer(), "/colour");
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub struct Error {
    violations: Vec<Violation>,
    fixes: Vec<Fix>,
}

impl Error {
    /// An error made of the given violations.
    ///
    /// An empty list is replaced by a single [`ViolationKind::Invalid`] at the root, so an
    /// `Error` always explains itself.
    pub fn new(mut violations: Vec<Violation>) -> Self {
        if violations.is_empty() {
            violations.push(Violation::new(
                "",
                ViolationKind::Invalid {
                    message:
                        "the value was rejected without a reason (this is a bug in toolschema)"
                            .into(),
                },
            ));
        }
        Error {
            violations,
            fixes: Vec::new(),
        }
    }

    /// An error with one violation.
    pub fn single(violation: Violation) -> Self {
        Error {
            violations: vec![violation],
            fixes: Vec::new(),
        }
    }

    /// Every violation found, in document order.
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// The local fixes the lenient parse applied before it found these violations (code
    /// fences, trailing commas, a truncated reply …): what a repair prompt can point out.
    pub fn fixes(&self) -> &[Fix] {
        &self.fixes
    }

    pub(crate) fn with_fixes(mut self, fixes: Vec<Fix>) -> Self {
        self.fixes = fixes;
        self
    }

    /// The same error for a reply the provider cut at its token limit: a
    /// [`ViolationKind::CutOff`] first, so that what follows reads as the effect of the
    /// cut rather than as bad content.
    pub(crate) fn cut_off(mut self, max_tokens: Option<u32>) -> Self {
        let cut = Violation::new("", ViolationKind::CutOff { max_tokens });
        self.violations.insert(0, cut);
        self
    }

    /// Whether the reply was the schema, or the shape of the reply, sent back rather than
    /// data ([`ViolationKind::SchemaEchoed`]): its types stand where values go.
    pub(crate) fn echoed(&self) -> bool {
        self.violations
            .iter()
            .any(|v| *v.kind() == ViolationKind::SchemaEchoed)
    }

    /// Whether the value at `pointer` (RFC 6901) was right as far as the schema can tell: no
    /// violation is at it, under it, or over it. A violation over it — at the root (not
    /// JSON, not an object, cut off, a check over the whole value) or at a parent — says
    /// nothing of which part was right, so no part under it counts as right.
    pub(crate) fn right_at(&self, pointer: &str) -> bool {
        let nested = |inner: &str, outer: &str| {
            inner
                .strip_prefix(outer)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        };
        self.violations.iter().all(|v| {
            let at = v.pointer();
            !nested(at, pointer) && !nested(pointer, at)
        })
    }

    /// Takes the violations out of the error.
    pub fn into_violations(self) -> Vec<Violation> {
        self.violations
    }

    /// The same violations, each one level deeper: under the key or index `segment`.
    #[doc(hidden)]
    pub fn under(mut self, segment: &str) -> Self {
        let escaped = crate::pointer::token(segment);
        for v in &mut self.violations {
            v.inner.pointer = format!("/{escaped}{}", v.inner.pointer);
        }
        self
    }

    /// The violation of a semantic check that panicked, if one did.
    ///
    /// A check that panics (`#[schema(validate = path)]`) does not unwind into the caller:
    /// the panic becomes a [`ViolationKind::CheckPanicked`] at the value it was checking.
    /// It is a bug in the program, not a problem of the reply, so a loop that repairs
    /// replies ends with it instead of asking the model again.
    ///
    /// ```
    /// use toolschema::{ToolSchema, ViolationKind};
    ///
    /// fn first_is_upper(code: &str) -> Result<(), String> {
    ///     let first = code.chars().next().expect("a code is never empty");
    ///     if first.is_uppercase() { Ok(()) } else { Err("start with a capital".into()) }
    /// }
    ///
    /// #[derive(ToolSchema, Debug)]
    /// struct Room {
    ///     #[schema(validate = first_is_upper)]
    ///     code: String,
    /// }
    ///
    /// let err = toolschema::from_str::<Room>(r#"{"code": ""}"#).unwrap_err();
    /// let panicked = err.panicked_check().expect("the check panicked");
    /// assert_eq!(panicked.pointer(), "/code");
    /// assert!(matches!(panicked.kind(), ViolationKind::CheckPanicked { check, .. } if check == "first_is_upper"));
    /// ```
    pub fn panicked_check(&self) -> Option<&Violation> {
        self.violations
            .iter()
            .find(|v| matches!(v.kind(), ViolationKind::CheckPanicked { .. }))
    }

    pub(crate) fn internal(message: impl Into<String>) -> Self {
        Error::single(Violation::new(
            "",
            ViolationKind::Invalid {
                message: message.into(),
            },
        ))
    }
}

impl Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, violation) in self.violations.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            Display::fmt(violation, f)?;
        }
        Ok(())
    }
}

/// One problem in a JSON value, at one place.
///
/// The validator leaves the costliest texts to be worked out the first time
/// [`suggestion`](Violation::suggestion), [`advice`](Violation::advice) or `Display` reads
/// them, and keeps them after: the did-you-mean of a value an `enum` or `const` does not
/// allow (an edit distance over every allowed value) and the advice for a pattern (the
/// part of the string the pattern accepts). A caller that only counts violations, or
/// stops at the first, does not pay for those. A violation owns all it needs for that, so
/// it outlives the schema and the value it was found in.
///
/// A violation is one pointer wide: an error lists many, and moving them costs less.
#[derive(Clone)]
pub struct Violation {
    inner: Box<Details>,
}

#[derive(Clone)]
struct Details {
    pointer: String,
    kind: ViolationKind,
    suggestion: Deferred,
    hint: Option<String>,
    advice: Deferred,
}

impl Violation {
    /// A violation of the given kind at an RFC 6901 pointer (`""` is the root).
    pub fn new(pointer: impl Into<String>, kind: ViolationKind) -> Self {
        Violation {
            inner: Box::new(Details {
                pointer: pointer.into(),
                kind,
                suggestion: Deferred::default(),
                hint: None,
                advice: Deferred::default(),
            }),
        }
    }

    /// Adds a did-you-mean suggestion.
    pub fn with_suggestion(mut self, suggestion: impl Into<String>) -> Self {
        self.inner.suggestion = Deferred::ready(Some(suggestion.into()));
        self
    }

    /// Sets the did-you-mean, worked out when it is first read (the validator's, which a
    /// caller that only counts violations never pays for).
    pub(crate) fn suggest_later(&mut self, recipe: std::sync::Arc<dyn Recipe>) {
        self.inner.suggestion = Deferred::later(recipe);
    }

    /// Sets the did-you-mean.
    pub(crate) fn suggest(&mut self, suggestion: String) {
        self.inner.suggestion = Deferred::ready(Some(suggestion));
    }

    /// Adds what to write instead, in words a model can act on: `write it in the form
    /// "INV-0000"` for a pattern, the allowed keys for an unknown one.
    pub fn with_advice(mut self, advice: impl Into<String>) -> Self {
        self.inner.advice = Deferred::ready(Some(advice.into()));
        self
    }

    /// Sets advice that is worked out when it is first read.
    pub(crate) fn advise_later(&mut self, recipe: std::sync::Arc<dyn Recipe>) {
        self.inner.advice = Deferred::later(recipe);
    }

    /// Sets the advice.
    pub(crate) fn advise(&mut self, advice: String) {
        self.inner.advice = Deferred::ready(Some(advice));
    }

    /// Sets the hint.
    pub(crate) fn set_hint(&mut self, hint: &str) {
        self.inner.hint = Some(hint.to_owned());
    }

    /// What to write instead, where the violation alone does not say (worked out on the
    /// first read).
    pub fn advice(&self) -> Option<&str> {
        self.inner.advice.get(|| self.word())
    }

    /// The rejected string, when the violation quotes the whole of it: what a deferred
    /// did-you-mean or advice is worked out from.
    fn word(&self) -> Option<String> {
        let (ViolationKind::NotAllowed { found, .. }
        | ViolationKind::PatternMismatch { found, .. }) = &self.inner.kind
        else {
            return None;
        };
        // A quote cut short ends after its closing quote (`"abc"…`), and is not JSON.
        serde_json::from_str(found).ok()
    }

    /// Adds the hint written for the field with `#[schema(hint = "...")]`.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.inner.hint = Some(hint.into());
        self
    }

    /// The RFC 6901 JSON pointer of the offending value: `""` for the root,
    /// `/items/2/qty` for a member of an array element.
    pub fn pointer(&self) -> &str {
        &self.inner.pointer
    }

    /// What is wrong.
    pub fn kind(&self) -> &ViolationKind {
        &self.inner.kind
    }

    /// The closest allowed key, value or tool name, when the offending one is a near miss
    /// (worked out on the first read).
    pub fn suggestion(&self) -> Option<&str> {
        self.inner.suggestion.get(|| self.word())
    }

    /// The hint the type's author wrote for this field.
    pub fn hint(&self) -> Option<&str> {
        self.inner.hint.as_deref()
    }

    /// The pointer in the dotted form people read: `items[2].qty`, `(root)` for the root.
    pub fn path(&self) -> String {
        if self.inner.pointer.is_empty() {
            return "(root)".to_owned();
        }
        let mut out = String::new();
        for segment in self.inner.pointer.split('/').skip(1) {
            let segment = segment.replace("~1", "/").replace("~0", "~");
            if !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit()) {
                out.push('[');
                out.push_str(&segment);
                out.push(']');
            } else {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(&segment);
            }
        }
        out
    }
}

/// Equal when they say the same: the same place, kind, did-you-mean, advice and hint,
/// however each text was obtained.
impl PartialEq for Violation {
    fn eq(&self, other: &Self) -> bool {
        self.inner.pointer == other.inner.pointer
            && self.inner.kind == other.inner.kind
            && self.inner.hint == other.inner.hint
            && self.suggestion() == other.suggestion()
            && self.advice() == other.advice()
    }
}

/// Shows every field, the did-you-mean and advice worked out if they were not yet.
impl fmt::Debug for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Violation")
            .field("pointer", &self.inner.pointer)
            .field("kind", &self.inner.kind)
            .field("suggestion", &self.suggestion())
            .field("hint", &self.inner.hint)
            .field("advice", &self.advice())
            .finish()
    }
}

impl Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.inner.pointer.is_empty() {
            f.write_str("(root)")?;
        } else {
            f.write_str(&shown_pointer(&self.inner.pointer))?;
        }
        write!(f, ": {}", self.inner.kind)?;
        if let Some(suggestion) = self.suggestion() {
            write!(f, "; did you mean {}?", quote(suggestion))?;
        }
        match (self.advice(), self.suggestion()) {
            // After the question, the advice is a sentence of its own.
            (Some(advice), Some(_)) => {
                let mut chars = advice.chars();
                let first = chars.next().map(|c| c.to_uppercase().to_string());
                write!(f, " {}{}.", first.unwrap_or_default(), chars.as_str())?;
            }
            (Some(advice), None) => write!(f, "; {advice}")?,
            (None, _) => {}
        }
        if let Some(hint) = &self.inner.hint {
            write!(f, " (hint: {hint})")?;
        }
        Ok(())
    }
}

/// What kind of problem a [`Violation`] is.
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
    /// [`Error::panicked_check`].
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
