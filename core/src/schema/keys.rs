//! Finding the property an object key names: what the validator does for every key of
//! every object, so it is compiled when the schema is finished.
//!
//! Each name (and alias) is kept as its length and first eight bytes: a key is matched
//! by comparing two integers per property, with the rest of the bytes compared only for
//! the one candidate that agrees. Objects with many properties use a hash table instead.

use rustc_hash::FxHashMap;

/// Above this many names, a hash lookup beats the scan.
const SCANNED: usize = 24;

/// The names of an object's properties, compiled for lookup. Boxed: a node holds two,
/// most of them empty, and nodes are built on the stack while a schema loads.
#[derive(Debug, Clone, Default)]
pub(crate) struct KeyIndex(Option<Box<Index>>);

#[derive(Debug, Clone, Default)]
struct Index {
    /// The first eight bytes of each name, zero-padded, in the order of the properties
    /// (empty when `hashed` is used): scanned first, packed.
    starts: Vec<u64>,
    /// The rest of each name, beside `starts`.
    entries: Vec<Entry>,
    /// Name → property, for objects with many names.
    hashed: FxHashMap<String, usize>,
    /// The required properties as bits, for objects of at most 64 properties.
    required: Option<u64>,
}

#[derive(Debug, Clone)]
struct Entry {
    len: usize,
    /// The bytes past the first eight.
    rest: Box<[u8]>,
    property: usize,
}

/// Derived from the node's properties, so it never tells two nodes apart: a node
/// compares equal before and after it is indexed.
impl PartialEq for KeyIndex {
    fn eq(&self, _: &KeyIndex) -> bool {
        true
    }
}

impl KeyIndex {
    /// An index over `names`: each name with its property; the first property a name
    /// belongs to wins.
    pub(crate) fn new<'a>(names: impl Iterator<Item = (&'a str, usize)>) -> KeyIndex {
        let names: Vec<(&str, usize)> = names.collect();
        if names.is_empty() {
            return KeyIndex(None);
        }
        let mut index = Index::default();
        if names.len() > SCANNED {
            for (name, property) in names {
                index.hashed.entry(name.to_owned()).or_insert(property);
            }
        } else {
            index.starts = names
                .iter()
                .map(|(name, _)| prefix(name.as_bytes()))
                .collect();
            index.entries = names
                .into_iter()
                .map(|(name, property)| Entry {
                    len: name.len(),
                    rest: name.as_bytes().get(8..).unwrap_or_default().into(),
                    property,
                })
                .collect();
        }
        KeyIndex(Some(Box::new(index)))
    }

    /// With the required properties given as bits (for at most 64 properties).
    pub(crate) fn with_required(mut self, required: Option<u64>) -> KeyIndex {
        if let Some(index) = &mut self.0 {
            index.required = required;
        } else if required.is_some() {
            self.0 = Some(Box::new(Index {
                required,
                ..Index::default()
            }));
        }
        self
    }

    /// The required properties as bits, when the object has at most 64 properties.
    pub(crate) fn required(&self) -> Option<u64> {
        self.0.as_ref().and_then(|index| index.required)
    }

    /// Whether the index holds no name (not built yet, or an object without properties).
    pub(crate) fn is_empty(&self) -> bool {
        self.0
            .as_ref()
            .is_none_or(|index| index.starts.is_empty() && index.hashed.is_empty())
    }

    /// The property `key` names.
    pub(crate) fn get(&self, key: &str) -> Option<usize> {
        self.0.as_ref()?.get(key)
    }
}

impl Index {
    fn get(&self, key: &str) -> Option<usize> {
        if !self.hashed.is_empty() {
            return self.hashed.get(key).copied();
        }
        let bytes = key.as_bytes();
        let start = prefix(bytes);
        let mut i = 0;
        while let Some(found) = self.starts[i..].iter().position(|&s| s == start) {
            let entry = &self.entries[i + found];
            if entry.len == bytes.len() && (entry.len <= 8 || *entry.rest == bytes[8..]) {
                return Some(entry.property);
            }
            i += found + 1;
        }
        None
    }
}

/// The first eight bytes, zero-padded.
fn prefix(bytes: &[u8]) -> u64 {
    match bytes.first_chunk::<8>() {
        Some(head) => u64::from_le_bytes(*head),
        None => bytes
            .iter()
            .rev()
            .fold(0, |word, &byte| word << 8 | u64::from(byte)),
    }
}

#[cfg(test)]
mod tests {
    use super::KeyIndex;

    fn index(names: &[&str]) -> KeyIndex {
        KeyIndex::new(names.iter().enumerate().map(|(i, n)| (*n, i)))
    }

    #[test]
    fn finds_each_name_and_nothing_else() {
        for count in [1, 3, super::SCANNED, super::SCANNED + 1, 100] {
            // Names sharing their first eight bytes, lengths around eight, empty, non-ASCII.
            let names: Vec<String> = (0..count)
                .map(|i| match i % 5 {
                    0 => format!("property_{i}"),
                    1 => format!("p{i}"),
                    2 => "x".repeat(i % 9),
                    3 => format!("ключ{i}"),
                    _ => format!("{i:08}"),
                })
                .collect();
            let refs: Vec<&str> = names.iter().map(String::as_str).collect();
            let index = index(&refs);
            for name in &names {
                let first = names.iter().position(|n| n == name);
                assert_eq!(index.get(name), first, "{name} among {count}");
            }
            for absent in [
                "property_",
                "property_00",
                "pp",
                "xxxxxxxxxx",
                "ключ",
                "0000000",
            ] {
                let expected = names.iter().position(|n| n == absent);
                assert_eq!(index.get(absent), expected, "{absent} among {count}");
            }
        }
    }

    #[test]
    fn an_empty_index_finds_nothing() {
        let index = index(&[]);
        assert!(index.is_empty());
        assert_eq!(index.get(""), None);
        assert_eq!(index.get("a"), None);
    }
}
