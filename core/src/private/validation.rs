//! Semantic checks (`#[schema(validate = path)]`): functions the user writes, run on a
//! value once its schema passed and it was built, their rejections reported as ordinary
//! violations at the checked value's pointer, a panic caught and reported as
//! [`ViolationKind::CheckPanicked`].

use crate::Error;
use crate::error::{Violation, ViolationKind};
use crate::toolset::Rejection;

/// What a check may return as its error: anything that converts into a [`Rejection`].
#[diagnostic::on_unimplemented(
    message = "a check must return `Result<(), E>` where `E` is `String`, `&str`, `Violation`, `Vec<Violation>`, `toolschema::Error` or `Rejection`, not `{Self}`",
    label = "this check's error type is `{Self}`"
)]
pub trait IntoRejection {
    fn into_rejection(self) -> Rejection;
}

macro_rules! into_rejection {
    ($($t:ty),*) => {$(
        impl IntoRejection for $t {
            fn into_rejection(self) -> Rejection {
                Rejection::from(self)
            }
        }
    )*};
}

into_rejection!(String, &str, Violation, Vec<Violation>, Error);

impl IntoRejection for Rejection {
    fn into_rejection(self) -> Rejection {
        self
    }
}

/// What a value lends to its check: itself, or what it borrows as (`&str` for a
/// `String`, `&[T]` for a `Vec<T>`), so a check can take the natural reference.
#[diagnostic::on_unimplemented(
    message = "this check takes `&{U}`, which a value of type `{Self}` cannot lend",
    label = "expected a function taking `&{Self}`",
    note = "a check is `fn(&{Self}) -> Result<(), String>`, or takes what the type borrows as (`&str` for a `String`, `&[T]` for a `Vec<T>`)"
)]
pub trait Lend<U: ?Sized> {
    fn lend(&self) -> &U;
}

impl<T: std::borrow::Borrow<U>, U: ?Sized> Lend<U> for T {
    fn lend(&self) -> &U {
        self.borrow()
    }
}

/// The problems found while a value is built from JSON its schema accepted: what its
/// nested values' checks rejected and what its own checks reject, every one at its
/// pointer, so one repair prompt can list them all.
#[derive(Default)]
pub struct Validation {
    violations: Vec<Violation>,
}

impl Validation {
    pub fn new() -> Self {
        Validation::default()
    }

    /// A nested value built: kept, or its violations recorded.
    pub fn keep<T>(&mut self, built: Result<T, Error>) -> Option<T> {
        match built {
            Ok(value) => Some(value),
            Err(e) => {
                self.violations.extend(e.into_violations());
                None
            }
        }
    }

    /// Runs a field's check on its value, if the value was built. `segment` is the
    /// field's key or index; `None` for a value that is the whole JSON value (a newtype,
    /// a transparent or flattened field).
    pub fn field<T, U, E>(
        &mut self,
        segment: Option<&str>,
        check_name: &'static str,
        value: Option<&T>,
        check: fn(&U) -> Result<(), E>,
    ) where
        T: Lend<U>,
        U: ?Sized,
        E: IntoRejection,
    {
        let Some(value) = value else { return };
        let found = run_check(check_name, value.lend(), check);
        if found.is_empty() {
            return;
        }
        let error = Error::new(found);
        let error = match segment {
            Some(segment) => error.under(segment),
            None => error,
        };
        self.violations.extend(error.into_violations());
    }

    /// Runs the container's check on the built value.
    pub fn container<T, E: IntoRejection>(
        &mut self,
        check_name: &'static str,
        value: &T,
        check: fn(&T) -> Result<(), E>,
    ) {
        self.violations.extend(run_check(check_name, value, check));
    }

    /// `Ok` when nothing was found.
    pub fn finish(self) -> Result<(), Error> {
        if self.violations.is_empty() {
            Ok(())
        } else {
            Err(Error::new(self.violations))
        }
    }

    /// A field that was neither built nor reported: cannot happen after [`finish`] passed.
    ///
    /// [`finish`]: Validation::finish
    pub fn lost() -> Error {
        Error::internal("a field was neither built nor rejected")
    }
}

/// Runs one check, catching a panic: the violations it reports, relative to the value.
fn run_check<U: ?Sized, E: IntoRejection>(
    check_name: &str,
    value: &U,
    check: fn(&U) -> Result<(), E>,
) -> Vec<Violation> {
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(value)));
    match outcome {
        Ok(Ok(())) => Vec::new(),
        Ok(Err(rejection)) => match rejection.into_rejection() {
            Rejection::Message(message) => {
                vec![Violation::new("", ViolationKind::Invalid { message })]
            }
            Rejection::Violations(violations) if violations.is_empty() => {
                let message = format!("rejected by the check `{check_name}`, which gave no reason");
                vec![Violation::new("", ViolationKind::Invalid { message })]
            }
            Rejection::Violations(violations) => violations,
        },
        Err(payload) => {
            let message = crate::panic::message(payload.as_ref());
            let kind = ViolationKind::CheckPanicked {
                check: check_name.to_owned(),
                message,
            };
            vec![Violation::new("", kind)]
        }
    }
}
