//! The model server a live example talks to, or a clear message and exit code 2 when
//! none is named.

use toolschema::provider::OpenAi;

/// The OpenAI-compatible server named by `OPENAI_BASE_URL` and `OPENAI_MODEL` (and
/// `OPENAI_API_KEY`). Exits with status 2 and says how to name one when it is not named;
/// `example` is the name `cargo run --example` takes.
pub fn named_or_exit(example: &str) -> OpenAi {
    if std::env::var_os("OPENAI_BASE_URL").is_none() {
        eprintln!(
            "No model server is named. Start the local model and name it:\n\n    \
             eval \"$(scripts/local-model start)\"\n    cargo run --example {example}\n\n\
             or set OPENAI_BASE_URL and OPENAI_MODEL (and OPENAI_API_KEY) for another \
             OpenAI-compatible server."
        );
        std::process::exit(2);
    }
    match OpenAi::from_env() {
        Ok(provider) => provider,
        Err(e) => {
            eprintln!("{e}\nSet OPENAI_MODEL (scripts/local-model env prints it).");
            std::process::exit(2);
        }
    }
}
