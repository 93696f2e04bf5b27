//! Tool names as models may write them.
//!
//! Servers name tools as they like: `time.get_current_time`, `files/read`, `turn on`,
//! names of a hundred characters. Providers do not: OpenAI takes `^[a-zA-Z0-9_-]{1,64}$`,
//! Anthropic and Gemini restrict names much the same way. Every tool therefore has a
//! model-facing name, the one the union's schema, the prompts and the provider requests
//! use, and a call is mapped back to the name the server spells when it is read.
//!
//! The mapping depends only on the set of names, never on their order:
//!
//! - a name that is already allowed is its own model-facing name;
//! - any other name has each run of other characters replaced by one `_`;
//! - a name so made that is longer than 64 characters, or that another tool's name also
//!   becomes (or already is), is cut to 55 characters and gets `_` and 8 hex digits of a
//!   hash of the original name;
//! - in the unlikely event that this collides too, `_2`, `_3`, … follow, in the order of
//!   the original names.

use std::collections::{HashMap, HashSet};

/// The longest name providers accept.
pub const MAX_LEN: usize = 64;

/// Whether a name is allowed as it is: `^[a-zA-Z0-9_-]{1,64}$`.
pub fn is_model_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_LEN
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The model-facing name of each original name, in the same order. The originals must
/// be distinct.
pub(crate) fn model_names(originals: &[&str]) -> Vec<String> {
    let taken: HashSet<&str> = originals
        .iter()
        .copied()
        .filter(|n| is_model_name(n))
        .collect();
    let bases: Vec<Option<String>> = originals
        .iter()
        .map(|n| (!is_model_name(n)).then(|| sanitize(n)))
        .collect();
    let mut claims: HashMap<&str, usize> = HashMap::new();
    for base in bases.iter().flatten() {
        *claims.entry(base.as_str()).or_insert(0) += 1;
    }
    let mut out: Vec<String> = originals
        .iter()
        .zip(&bases)
        .map(|(original, base)| match base {
            None => (*original).to_owned(),
            Some(base)
                if base.len() <= MAX_LEN
                    && claims[base.as_str()] == 1
                    && !taken.contains(base.as_str()) =>
            {
                base.clone()
            }
            Some(base) => hashed(base, original),
        })
        .collect();
    // Two hashed names alike: number them in the order of their originals.
    let mut seen: HashSet<String> = out
        .iter()
        .zip(&bases)
        .filter(|(_, base)| base.is_none())
        .map(|(name, _)| name.clone())
        .collect();
    let mut order: Vec<usize> = (0..originals.len())
        .filter(|&i| bases[i].is_some())
        .collect();
    order.sort_by_key(|&i| originals[i]);
    for i in order {
        let mut name = out[i].clone();
        let mut n = 1;
        while seen.contains(&name) {
            n += 1;
            let suffix = format!("_{n}");
            let keep = out[i].len().min(MAX_LEN - suffix.len());
            name = format!("{}{suffix}", &out[i][..keep]);
        }
        seen.insert(name.clone());
        out[i] = name;
    }
    out
}

/// Each run of characters a model name cannot hold becomes one `_`.
fn sanitize(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut replaced = false;
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
            out.push(c);
            replaced = false;
        } else if !replaced {
            out.push('_');
            replaced = true;
        }
    }
    if out.trim_matches('_').is_empty() {
        "tool".to_owned()
    } else {
        out
    }
}

/// `base` cut to fit, with 8 hex digits of a hash of the original name.
fn hashed(base: &str, original: &str) -> String {
    let keep = base.len().min(MAX_LEN - 9);
    format!("{}_{:08x}", &base[..keep], fnv1a(original) as u32)
}

/// FNV-1a: stable across runs, platforms and versions of Rust, unlike `DefaultHasher`.
fn fnv1a(text: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// Tool names as a server spells them and as the model is shown them, where they
/// differ (a provider restricts tool names).
#[derive(Debug, Clone, Default)]
pub(crate) struct ToolNames {
    to_model: HashMap<String, String>,
}

impl ToolNames {
    /// The map of `(server, model)` name pairs.
    pub fn new(pairs: impl IntoIterator<Item = (String, String)>) -> Self {
        let mut names = ToolNames::default();
        for (server, model) in pairs {
            if server != model {
                names.to_model.insert(server, model);
            }
        }
        names
    }

    /// The names as servers spell them, where the model is shown another.
    pub fn server_names(&self) -> impl Iterator<Item = &str> {
        self.to_model.keys().map(String::as_str)
    }

    /// The name as the server spells it of the tool the model is shown as `shown`, where
    /// the two differ.
    pub fn server_name(&self, shown: &str) -> Option<&str> {
        self.to_model
            .iter()
            .find(|(_, model)| *model == shown)
            .map(|(server, _)| server.as_str())
    }

    /// The name the model is shown for the server's `name`.
    pub fn model<'a>(&'a self, name: &'a str) -> &'a str {
        self.to_model.get(name).map_or(name, String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allowed_names_are_kept() {
        assert_eq!(
            model_names(&["get_weather", "HassTurnOn", "a-b"]),
            ["get_weather", "HassTurnOn", "a-b"]
        );
    }

    #[test]
    fn other_characters_become_underscores() {
        assert_eq!(
            model_names(&["time.get_current_time", "files/read file", "café", "..."]),
            ["time_get_current_time", "files_read_file", "caf_", "tool"]
        );
    }

    #[test]
    fn collisions_are_resolved_by_the_original_name_not_the_order() {
        let one = model_names(&["a.b", "a_b", "a/b"]);
        let other = model_names(&["a/b", "a.b", "a_b"]);
        assert_eq!(one[1], "a_b");
        assert_eq!(one[0], other[1]);
        assert_eq!(one[2], other[0]);
        assert_ne!(one[0], one[2]);
        assert!(one.iter().all(|n| is_model_name(n)), "{one:?}");
    }

    #[test]
    fn long_names_are_cut_and_told_apart() {
        let long_a = format!("{}.a", "x".repeat(100));
        let long_b = format!("{}.b", "x".repeat(100));
        let names = model_names(&[&long_a, &long_b]);
        assert_ne!(names[0], names[1]);
        assert!(names.iter().all(|n| is_model_name(n)), "{names:?}");
        assert_eq!(
            names,
            model_names(&[&long_b, &long_a])
                .into_iter()
                .rev()
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn many_names_stay_distinct() {
        let originals: Vec<String> = (0..2000).map(|i| format!("srv.tool {i}")).collect();
        let refs: Vec<&str> = originals.iter().map(String::as_str).collect();
        let names = model_names(&refs);
        let distinct: HashSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), names.len());
    }
}
