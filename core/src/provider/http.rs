//! The HTTP call shared by the providers: post JSON, read JSON, map every failure.

use std::time::Duration;

use serde_json::Value;

use super::ProviderError;

/// A secret that never shows in `Debug`, errors or logs.
#[derive(Clone, Default)]
pub(crate) struct Secret(String);

impl Secret {
    pub(crate) fn new(value: impl Into<String>) -> Self {
        Secret(value.into())
    }

    pub(crate) fn expose(&self) -> &str {
        &self.0
    }

    /// `text` with every occurrence of the secret replaced by `[redacted]`: for what a
    /// server sent back, which may echo the key (a proxy's error page, a gateway that
    /// echoes the request's headers). The key as JSON escapes it counts too, and so does
    /// the start of the key where the text ends (a body cut short inside it). Keys
    /// shorter than 8 characters ("none", "x") are placeholders of local servers, and
    /// replacing them would mangle ordinary words.
    pub(crate) fn redact(&self, text: String) -> String {
        const SHORTEST: usize = 8;
        const MARK: &str = "[redacted]";
        let key = self.0.as_str();
        if key.len() < SHORTEST {
            return text;
        }
        let mut text = text.replace(key, MARK);
        let escaped = serde_json::to_string(key).unwrap_or_default();
        let escaped = escaped.trim_matches('"');
        if escaped != key {
            text = text.replace(escaped, MARK);
        }
        // The longest start of the key (of 8 characters or more) that ends the text.
        let cut = (SHORTEST..key.len())
            .rev()
            .filter(|&n| key.is_char_boundary(n))
            .find(|&n| text.ends_with(&key[..n]));
        if let Some(n) = cut {
            text.truncate(text.len() - n);
            text.push_str(MARK);
        }
        text
    }

    /// The error with the secret redacted from every text it holds (see
    /// [`Secret::redact`]): what goes into errors, events and logs.
    pub(crate) fn redact_error(&self, error: ProviderError) -> ProviderError {
        match error {
            ProviderError::Http {
                status,
                body,
                retry_after,
            } => ProviderError::Http {
                status,
                body: self.redact(body),
                retry_after,
            },
            ProviderError::InvalidResponse { message, body } => ProviderError::InvalidResponse {
                message: self.redact(message),
                body: self.redact(body),
            },
            ProviderError::Connection(message) => ProviderError::Connection(self.redact(message)),
            ProviderError::Config(message) => ProviderError::Config(self.redact(message)),
            other @ (ProviderError::Timeout | ProviderError::ScriptExhausted { .. }) => other,
        }
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_empty() { "\"\"" } else { "\"***\"" })
    }
}

pub(crate) fn client(timeout: Duration) -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout.min(Duration::from_secs(10)))
        .build()
        .unwrap_or_default()
}

/// Posts `body` and returns what `read` makes of the JSON answer, or the failure in the
/// provider's terms, with `secret` redacted from whatever the server sent back: a body
/// that `read` finds no reply in is redacted too.
pub(crate) async fn exchange<T>(
    request: reqwest::RequestBuilder,
    body: &Value,
    secret: &Secret,
    read: impl FnOnce(&Value) -> Result<T, ProviderError>,
) -> Result<T, ProviderError> {
    let answer = post(request, body)
        .await
        .map_err(|e| secret.redact_error(e))?;
    read(&answer).map_err(|e| secret.redact_error(e))
}

async fn post(request: reqwest::RequestBuilder, body: &Value) -> Result<Value, ProviderError> {
    let response = request.json(body).send().await.map_err(transport)?;
    let status = response.status();
    let retry_after = response
        .headers()
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(|s| Duration::from_secs_f64(s.min(3600.0)));
    let text = response.text().await.map_err(|e| {
        if e.is_timeout() {
            ProviderError::Timeout
        } else {
            ProviderError::InvalidResponse {
                message: format!("the body could not be read: {e}"),
                body: String::new(),
            }
        }
    })?;
    if !status.is_success() {
        return Err(ProviderError::Http {
            status: status.as_u16(),
            body: text,
            retry_after,
        });
    }
    serde_json::from_str(&text).map_err(|e| ProviderError::InvalidResponse {
        message: format!("not JSON: {e}"),
        body: text,
    })
}

fn transport(e: reqwest::Error) -> ProviderError {
    if e.is_timeout() {
        ProviderError::Timeout
    } else {
        // The URL is fine to show; reqwest never includes headers in its errors.
        ProviderError::Connection(e.to_string())
    }
}

/// A temperature as JSON, as written: `0.2`, not the `0.20000000298023224` a plain
/// `f32` to `f64` conversion gives. None for NaN and infinities.
pub(crate) fn temperature(t: f32) -> Option<Value> {
    let exact: f64 = t.to_string().parse().ok()?;
    serde_json::Number::from_f64(exact).map(Value::Number)
}

/// An error for a response whose shape is not what the API documents.
pub(crate) fn unexpected(message: &str, body: &Value) -> ProviderError {
    ProviderError::InvalidResponse {
        message: message.to_owned(),
        body: body.to_string(),
    }
}
