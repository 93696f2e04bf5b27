//! The violation model: every problem found in a model's JSON, each at its JSON pointer.

use std::fmt::{self, Display};

use crate::fix::Fix;

mod deferred;
mod kind;
mod quoting;
pub(crate) use deferred::{Deferred, Recipe, worded};
pub use kind::{Bound, Unit, ViolationKind};
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
