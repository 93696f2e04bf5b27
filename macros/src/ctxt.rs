//! Collects every error found while reading the input, to report them all at once.

use std::cell::RefCell;
use std::fmt::Display;

use quote::ToTokens;

#[derive(Default)]
pub struct Ctxt {
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    /// Records an error spanning the given tokens.
    pub fn error_spanned_by<T: ToTokens, M: Display>(&self, tokens: T, message: M) {
        self.errors
            .borrow_mut()
            .push(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// Records a parse error.
    pub fn syn_error(&self, error: syn::Error) {
        self.errors.borrow_mut().push(error);
    }

    /// All errors combined into one, or `Ok` if there were none.
    pub fn check(self) -> Result<(), syn::Error> {
        let mut errors = self.errors.into_inner().into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for error in errors {
            combined.combine(error);
        }
        Err(combined)
    }
}
