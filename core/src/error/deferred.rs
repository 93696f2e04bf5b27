//! A violation's text that is worked out when it is first read: the did-you-mean and the
//! advice. Finding them costs far more than finding the violation (edit distances over
//! every allowed value, the readings of a string a pattern accepts), and a caller that
//! only counts violations, or stops at the first, never reads them.

use std::sync::{Arc, OnceLock};

/// How to work a text out from the rejected word. A recipe owns what else it reads (the
/// allowed values, the pattern), so a violation outlives the schema it was found with;
/// schemas build their recipes once and share them with every violation.
pub(crate) trait Recipe: Send + Sync + std::panic::RefUnwindSafe {
    /// The text for `word`, the rejected string as the violation quotes it (`None` when
    /// the violation quotes no string, or only part of one).
    fn text(&self, word: Option<&str>) -> Option<String>;
}

/// A recipe for a word the violation quotes only in part: it keeps the whole word.
struct Worded {
    word: String,
    recipe: Arc<dyn Recipe>,
}

impl Recipe for Worded {
    fn text(&self, _: Option<&str>) -> Option<String> {
        self.recipe.text(Some(&self.word))
    }
}

/// `recipe`, made to read `word` itself.
pub(crate) fn worded(word: &str, recipe: Arc<dyn Recipe>) -> Arc<dyn Recipe> {
    Arc::new(Worded {
        word: word.to_owned(),
        recipe,
    })
}

/// An optional text, given or worked out once on first read.
#[derive(Clone, Default)]
pub(crate) struct Deferred {
    text: OnceLock<Option<String>>,
    recipe: Option<Arc<dyn Recipe>>,
}

impl Deferred {
    /// A text known now.
    pub(crate) fn ready(text: Option<String>) -> Self {
        Deferred {
            text: OnceLock::from(text),
            recipe: None,
        }
    }

    /// A text `recipe` works out on first read.
    pub(crate) fn later(recipe: Arc<dyn Recipe>) -> Self {
        Deferred {
            text: OnceLock::new(),
            recipe: Some(recipe),
        }
    }

    /// The text; `word` gives the rejected word if the recipe has to run.
    pub(crate) fn get(&self, word: impl FnOnce() -> Option<String>) -> Option<&str> {
        self.text
            .get_or_init(|| {
                let recipe = self.recipe.as_ref()?;
                recipe.text(word().as_deref())
            })
            .as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[derive(Default)]
    struct Counted(AtomicUsize);

    impl Recipe for Counted {
        fn text(&self, word: Option<&str>) -> Option<String> {
            self.0.fetch_add(1, Ordering::SeqCst);
            word.map(|w| format!("not {w}"))
        }
    }

    #[test]
    fn works_out_once_on_first_read_and_never_before() {
        let recipe = Arc::new(Counted::default());
        let deferred = Deferred::later(recipe.clone());
        assert_eq!(recipe.0.load(Ordering::SeqCst), 0);
        assert_eq!(deferred.get(|| Some("x".into())), Some("not x"));
        assert_eq!(deferred.get(|| Some("y".into())), Some("not x"));
        assert_eq!(recipe.0.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_worded_recipe_reads_its_own_word() {
        let deferred = Deferred::later(worded("long", Arc::new(Counted::default())));
        assert_eq!(deferred.get(|| None), Some("not long"));
    }

    #[test]
    fn a_ready_text_needs_no_word() {
        let deferred = Deferred::ready(Some("a".into()));
        assert_eq!(deferred.get(|| unreachable!()), Some("a"));
        assert_eq!(Deferred::default().get(|| unreachable!()), None);
    }
}
