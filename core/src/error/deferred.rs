//! A violation's text that is worked out when it is first read: the did-you-mean and the
//! advice. Finding them costs far more than finding the violation (edit distances over
//! every allowed value, the readings of a string a pattern accepts), and a caller that
//! only counts violations, or stops at the first, never reads them.

use std::fmt;
use std::sync::{Arc, OnceLock};

/// How to work the text out; it owns what it reads, so the violation outlives the value
/// and the schema it was found in.
pub(crate) type Compute = Arc<dyn Fn() -> Option<String> + Send + Sync>;

/// An optional text, given or computed once on first read.
#[derive(Clone, Default)]
pub(crate) struct Deferred {
    text: OnceLock<Option<String>>,
    compute: Option<Compute>,
}

impl Deferred {
    /// A text known now.
    pub(crate) fn ready(text: Option<String>) -> Self {
        Deferred {
            text: OnceLock::from(text),
            compute: None,
        }
    }

    /// A text `compute` works out on first read.
    pub(crate) fn later(compute: Compute) -> Self {
        Deferred {
            text: OnceLock::new(),
            compute: Some(compute),
        }
    }

    pub(crate) fn get(&self) -> Option<&str> {
        self.text
            .get_or_init(|| self.compute.as_ref().and_then(|compute| compute()))
            .as_deref()
    }
}

/// Equal when the texts are, however each was obtained.
impl PartialEq for Deferred {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

/// Shows the text, as an `Option<String>` field would be shown.
impl fmt::Debug for Deferred {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.get(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn computes_once_on_first_read_and_never_before() {
        let runs = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&runs);
        let deferred = Deferred::later(Arc::new(move || {
            counter.fetch_add(1, Ordering::SeqCst);
            Some("did you mean this".to_owned())
        }));
        assert_eq!(runs.load(Ordering::SeqCst), 0);
        assert_eq!(deferred.get(), Some("did you mean this"));
        assert_eq!(deferred.get(), Some("did you mean this"));
        assert_eq!(runs.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_clone_made_before_the_first_read_computes_the_same_text() {
        let deferred = Deferred::later(Arc::new(|| Some("x".to_owned())));
        let copy = deferred.clone();
        assert_eq!(copy.get(), Some("x"));
        assert_eq!(deferred, copy);
        assert_eq!(format!("{deferred:?}"), r#"Some("x")"#);
    }

    #[test]
    fn compares_texts_not_how_they_were_made() {
        assert_eq!(Deferred::later(Arc::new(|| None)), Deferred::ready(None));
        assert_eq!(Deferred::default(), Deferred::ready(None));
        assert_ne!(
            Deferred::later(Arc::new(|| Some("a".into()))),
            Deferred::ready(Some("b".into()))
        );
    }
}
