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
    /// The bytes past the first eight, eight at a time as in `starts`.
    rest: Box<[u64]>,
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
        // A name kept once, with its first property: a cursor may then start past it.
        let mut names: Vec<(&str, usize)> = names.collect();
        let mut seen = rustc_hash::FxHashSet::default();
        names.retain(|(name, _)| seen.insert(*name));
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
                    rest: words(name.as_bytes().get(8..).unwrap_or_default()).collect(),
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
        self.find(key, &mut Cursor::default())
    }

    /// The property `key` names, trying first the name after the one `cursor` last found:
    /// the keys of an object mostly come in the order of its properties (a serializer's
    /// output, a model following the schema), so most lookups compare one name.
    pub(crate) fn find(&self, key: &str, cursor: &mut Cursor) -> Option<usize> {
        let index = self.0.as_ref()?;
        if let Some(entry) = index.entries.get(cursor.0)
            && entry.is(key.as_bytes(), index.starts[cursor.0])
        {
            cursor.0 += 1;
            return Some(entry.property);
        }
        // Keys in the reverse of the properties' order: the name before the last found.
        if let Some(before) = cursor.0.checked_sub(2)
            && let Some(entry) = index.entries.get(before)
            && entry.is(key.as_bytes(), index.starts[before])
        {
            cursor.0 = before + 1;
            return Some(entry.property);
        }
        let (property, position) = index.get(key)?;
        cursor.0 = position + 1;
        Some(property)
    }
}

/// Where the next key of an object is looked for first: past the name the last key matched.
#[derive(Default)]
pub(crate) struct Cursor(usize);

impl Entry {
    /// Whether this is the name `bytes`, whose first eight bytes are `start`.
    #[inline]
    fn is(&self, bytes: &[u8], start: u64) -> bool {
        self.len == bytes.len() && prefix(bytes) == start && self.rest_is(bytes)
    }

    /// Whether the bytes past the first eight of `bytes`, a name of this entry's length,
    /// are this entry's.
    #[inline]
    fn rest_is(&self, bytes: &[u8]) -> bool {
        self.len <= 8 || self.rest.iter().copied().eq(words(&bytes[8..]))
    }
}

/// `bytes` eight at a time, each zero-padded as [`prefix`] reads it.
fn words(bytes: &[u8]) -> impl Iterator<Item = u64> + '_ {
    bytes.chunks(8).map(prefix)
}

impl Index {
    /// The property `key` names, and the position of the name that matched (0 when hashed).
    fn get(&self, key: &str) -> Option<(usize, usize)> {
        if !self.hashed.is_empty() {
            return self.hashed.get(key).map(|&property| (property, 0));
        }
        let bytes = key.as_bytes();
        let start = prefix(bytes);
        let mut i = 0;
        while let Some(found) = self.starts[i..].iter().position(|&s| s == start) {
            let entry = &self.entries[i + found];
            if entry.len == bytes.len() && entry.rest_is(bytes) {
                return Some((entry.property, i + found));
            }
            i += found + 1;
        }
        None
    }
}

/// The first eight bytes, zero-padded, little-endian. Short names are read in two
/// overlapping loads (or three bytes), without a loop.
#[inline]
fn prefix(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    if let Some(head) = bytes.first_chunk::<8>() {
        u64::from_le_bytes(*head)
    } else if n >= 4 {
        let low = u64::from(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]));
        let high = u64::from(u32::from_le_bytes([
            bytes[n - 4],
            bytes[n - 3],
            bytes[n - 2],
            bytes[n - 1],
        ]));
        low | high << ((n - 4) * 8)
    } else if n > 0 {
        let byte = |i: usize| u64::from(bytes[i]) << (8 * i);
        byte(0) | byte(n / 2) | byte(n - 1)
    } else {
        0
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
    fn keys_in_any_order_find_what_a_plain_lookup_finds() {
        use super::Cursor;
        // Aliases after their names, names sharing eight bytes, lengths around eight.
        let names = [
            ("a", 3),
            ("quantity", 0),
            ("qty", 0),
            ("description", 1),
            ("descriptor", 2),
            ("a", 3),
            ("", 4),
            ("descriptions", 5),
            ("quantity", 6),
        ];
        let index = KeyIndex::new(names.iter().copied());
        let keys = [
            "quantity",
            "qty",
            "description",
            "a",
            "descriptor",
            "",
            "nope",
            "descriptions",
            "qty",
            "descriptio",
            "quantity",
            "a",
        ];
        // The list forwards, backwards, in every rotation and shuffled.
        let mut orders: Vec<Vec<&str>> = vec![keys.to_vec(), keys.iter().rev().copied().collect()];
        for shift in 1..keys.len() {
            let mut order = keys.to_vec();
            order.rotate_left(shift);
            orders.push(order);
        }
        let mut rng = fastrand::Rng::with_seed(9);
        for _ in 0..200 {
            let mut order = keys.to_vec();
            rng.shuffle(&mut order);
            orders.push(order);
        }
        for order in orders {
            let mut cursor = Cursor::default();
            for key in &order {
                assert_eq!(
                    index.find(key, &mut cursor),
                    index.get(key),
                    "{key} in {order:?}"
                );
            }
        }
    }

    #[test]
    fn a_hashed_index_ignores_the_cursor() {
        use super::Cursor;
        let names: Vec<String> = (0..super::SCANNED + 5)
            .map(|i| format!("key_{i}"))
            .collect();
        let index = KeyIndex::new(names.iter().enumerate().map(|(i, n)| (n.as_str(), i)));
        let mut cursor = Cursor::default();
        for (i, name) in names.iter().enumerate().rev() {
            assert_eq!(index.find(name, &mut cursor), Some(i));
        }
        assert_eq!(index.find("key_x", &mut cursor), None);
    }

    #[test]
    fn a_prefix_is_the_first_eight_bytes_zero_padded() {
        for text in [
            "",
            "a",
            "ab",
            "abc",
            "abcd",
            "abcde",
            "abcdef",
            "abcdefg",
            "abcdefgh",
            "abcdefghij",
            "ключ",
        ] {
            let bytes = text.as_bytes();
            let mut padded = [0u8; 8];
            let n = bytes.len().min(8);
            padded[..n].copy_from_slice(&bytes[..n]);
            assert_eq!(super::prefix(bytes), u64::from_le_bytes(padded), "{text}");
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
