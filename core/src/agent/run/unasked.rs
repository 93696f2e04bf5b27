//! The optional arguments the user never gave, left out of a reply's calls: of calls
//! that fit the union as written, and of calls that fit it only without them.

use serde_json::Value;

use super::state::Run;
use super::{Agent, Question};
use crate::agent::doubts;
use crate::provider::Provider;
use crate::repair::Fix;
use crate::{Error, ViolationKind};

impl<P: Provider> Agent<P> {
    /// The fixes that leave out of the calls among `values` the optional arguments the
    /// user never gave and the keys the tool does not take
    /// ([`doubts::leave_out_unasked`]), unless the grounding checks are
    /// off. A value written in answer to a violation at its own place is the model's fix
    /// of it, not an invention: `255` for "full brightness" after `300` was too much.
    pub(super) fn unasked_left_out(
        &self,
        ask: &Question<'_>,
        run: &Run,
        values: &mut [Value],
    ) -> Vec<Fix> {
        if !self.grounded_calls {
            return Vec::new();
        }
        doubts::leave_out_unasked(ask, values, &fixed_before(run))
    }

    /// The calls of a reply the union's schema rejected (with `error`; `calls` reads them,
    /// as [`crate::agent::read::rejected_calls`] does, only where they are looked at)
    /// where they fit it once the optional arguments the user never gave, and the keys
    /// the tool does not take, are left out
    /// ([`doubts::leave_out_unasked_to_fit`]), with the fixes of the reading and one for
    /// each argument left out; `error` where they do not, or where the grounding checks
    /// are off or the answer alone is asked for.
    ///
    /// Such a value is the model's own, made up, and what is wrong with it says nothing
    /// of the request: `"age": 20` where the tool takes ages up to 19, for "the BMI of an
    /// adult who weighs 72 kg and is 178 cm tall". Sent back, a small model writes it
    /// again each time; left out, the call is the one the user asked for. A call that
    /// still breaks the schema without them is sent back as before, and so is one
    /// whose wrong value is a fix of an earlier attempt's violation at its place, one of
    /// an argument the user names (`"brightness": 300` for "Full brightness": the
    /// model's reading of "full", for the repair to mend), and one outside the values a
    /// schema lists (`"deu"` for "German" where it lists `"de"`: the model meant one).
    /// Nor is the union's shape written back ([`ViolationKind::SchemaEchoed`]) read as
    /// calls: its optional keys (`shuffle?: boolean`) left out, what remains would pass
    /// for a call of the shape's types (`{"query": "string"}`); `calls` gives none for it.
    pub(super) fn without_unasked(
        &self,
        ask: &Question<'_>,
        run: &Run,
        calls: impl FnOnce(&Error) -> Option<Vec<Value>>,
        error: Error,
    ) -> Result<(Vec<Value>, Vec<Fix>), Error> {
        // A value outside a list is one the model meant.
        let meant = |v: &crate::Violation| matches!(v.kind(), ViolationKind::NotAllowed { .. });
        if !self.grounded_calls || run.answer_only.is_some() || error.violations().iter().any(meant)
        {
            return Err(error);
        }
        let Some(mut values) = calls(&error) else {
            return Err(error);
        };
        let kept = fixed_before(run);
        let Some(left_out) = doubts::leave_out_unasked_to_fit(ask, &mut values, &kept) else {
            return Err(error);
        };
        let mut fixes = error.fixes().to_vec();
        fixes.extend(left_out);
        Ok((values, fixes))
    }
}

/// The pointers of the violations of the attempts so far: where a value written next is
/// the model's fix of a violation, kept.
fn fixed_before(run: &Run) -> Vec<&str> {
    run.attempts
        .iter()
        .filter_map(|attempt| attempt.error())
        .flat_map(|e| e.violations().iter().map(|v| v.pointer()))
        .collect()
}
