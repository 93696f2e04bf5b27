//! Transport retry, separate from schema repair: exponential backoff with jitter, and
//! cancellation.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::sync::Notify;
use tracing::warn;

use super::{Agent, Event};
use crate::provider::{Provider, ProviderError, Reply, Request};

/// Delays between transport retries: `base · factor^k`, capped at `max`, each with full
/// jitter in its upper half. At most `retries` retries.
///
/// ```
/// use std::time::Duration;
/// use toolschema::agent::Backoff;
///
/// let delays: Vec<Duration> = Backoff::new()
///     .with_base(Duration::from_millis(100))
///     .with_jitter(false)
///     .with_retries(4)
///     .into_iter()
///     .collect();
/// assert_eq!(delays, [100, 200, 400, 800].map(Duration::from_millis));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Backoff {
    base: Duration,
    factor: f64,
    max: Duration,
    retries: u32,
    jitter: bool,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff::new()
    }
}

impl Backoff {
    /// 500 ms doubling to at most 30 s, 4 retries, with jitter.
    pub const fn new() -> Self {
        Backoff {
            base: Duration::from_millis(500),
            factor: 2.0,
            max: Duration::from_secs(30),
            retries: 4,
            jitter: true,
        }
    }

    pub const fn with_base(mut self, base: Duration) -> Self {
        self.base = base;
        self
    }

    pub const fn with_factor(mut self, factor: f64) -> Self {
        self.factor = factor;
        self
    }

    pub const fn with_max(mut self, max: Duration) -> Self {
        self.max = max;
        self
    }

    pub const fn with_retries(mut self, retries: u32) -> Self {
        self.retries = retries;
        self
    }

    pub const fn with_jitter(mut self, jitter: bool) -> Self {
        self.jitter = jitter;
        self
    }

    /// No retries at all.
    pub const fn none() -> Self {
        Backoff::new().with_retries(0)
    }

    /// The longest wait honoured when a server asks for one with `Retry-After`.
    pub fn max_delay(&self) -> Duration {
        self.max
    }
}

impl IntoIterator for Backoff {
    type Item = Duration;
    type IntoIter = Delays;

    fn into_iter(self) -> Delays {
        Delays {
            backoff: self,
            step: 0,
        }
    }
}

/// The delays of a [`Backoff`].
#[derive(Debug, Clone)]
pub struct Delays {
    backoff: Backoff,
    step: u32,
}

impl Iterator for Delays {
    type Item = Duration;

    fn next(&mut self) -> Option<Duration> {
        if self.step >= self.backoff.retries {
            return None;
        }
        let exponent = i32::try_from(self.step).unwrap_or(i32::MAX);
        self.step += 1;
        let raw = self.backoff.base.as_secs_f64() * self.backoff.factor.powi(exponent);
        let capped = raw.min(self.backoff.max.as_secs_f64()).max(0.0);
        let delay = if self.backoff.jitter {
            capped * (0.5 + fastrand::f64() * 0.5)
        } else {
            capped
        };
        Some(Duration::from_secs_f64(delay))
    }
}

/// Cancels an `ask` in flight: the current call is dropped and the ask ends with
/// [`AskError::Cancelled`](crate::AskError::Cancelled), keeping its attempts.
#[derive(Debug, Clone, Default)]
pub struct CancelToken {
    inner: Arc<(AtomicBool, Notify)>,
}

impl CancelToken {
    pub fn new() -> Self {
        CancelToken::default()
    }

    pub fn cancel(&self) {
        self.inner.0.store(true, Ordering::SeqCst);
        self.inner.1.notify_waiters();
    }

    pub fn is_cancelled(&self) -> bool {
        self.inner.0.load(Ordering::SeqCst)
    }

    /// Completes when the token is cancelled.
    pub async fn cancelled(&self) {
        loop {
            let notified = self.inner.1.notified();
            if self.is_cancelled() {
                return;
            }
            notified.await;
        }
    }
}

/// Why a model call gave no reply.
pub(super) enum CallError {
    Provider(ProviderError),
    Cancelled,
}

impl<P: Provider> Agent<P> {
    /// One model call, retrying transport failures.
    pub(super) async fn call(
        &self,
        request: &Request,
        attempt: usize,
        cancel: Option<&CancelToken>,
    ) -> Result<Reply, CallError> {
        let mut delays = self.backoff.into_iter();
        loop {
            if cancel.is_some_and(CancelToken::is_cancelled) {
                return Err(CallError::Cancelled);
            }
            let result = match cancel {
                Some(token) => tokio::select! {
                    r = self.provider.complete(request) => r,
                    () = token.cancelled() => return Err(CallError::Cancelled),
                },
                None => self.provider.complete(request).await,
            };
            let error = match result {
                Ok(reply) => return Ok(reply),
                Err(e) => e,
            };
            if !error.is_retryable() {
                return Err(CallError::Provider(error));
            }
            let Some(backoff) = delays.next() else {
                return Err(CallError::Provider(error));
            };
            let delay = error
                .retry_after()
                .map_or(backoff, |d| d.min(self.backoff.max_delay()));
            warn!(attempt, %error, ?delay, "transport retry");
            self.emit(Event::TransportRetry {
                attempt,
                error,
                delay,
            });
            match cancel {
                Some(token) => tokio::select! {
                    () = tokio::time::sleep(delay) => {}
                    () = token.cancelled() => return Err(CallError::Cancelled),
                },
                None => tokio::time::sleep(delay).await,
            }
        }
    }
}
