//! Did-you-mean: the closest allowed name to a near miss.

/// The candidate closest to `word`, if it is close enough to be a likely typo: the same
/// letters ignoring case and `-`/`_`/spaces, within an edit distance of about one in
/// three characters, or an abbreviation (`qty` for `quantity`).
pub(crate) fn closest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let folded = fold(word);
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        if candidate == word {
            continue;
        }
        let distance = if fold(candidate) == folded {
            0
        } else {
            edit_distance(word, candidate)
        };
        let limit = (word.chars().count().max(candidate.chars().count()) / 3).max(1);
        // An abbreviation ranks after every typo within the limit.
        let distance = if distance > limit && abbreviates(&folded, &fold(candidate)) {
            limit
        } else {
            distance
        };
        if distance <= limit && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// `qty` abbreviates `quantity`: the same first letter, then the rest in order.
fn abbreviates(short: &str, long: &str) -> bool {
    let mut long_chars = long.chars();
    short.chars().count() >= 2
        && short.chars().next() == long.chars().next()
        && short.chars().all(|c| long_chars.any(|l| l == c))
}

fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Edit distance in characters: insertions, deletions, substitutions and swaps of two
/// neighbours (`Unti` is one edit from `Unit`).
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows: the one before the previous is needed for swaps.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (previous[j - 1] + cost)
                .min(previous[j] + 1)
                .min(current[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(before[j - 2] + 1);
            }
            current[j] = best;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_near_misses_only() {
        assert_eq!(closest("colour", ["color", "size"]), Some("color"));
        assert_eq!(
            closest("Celsius", ["celsius", "fahrenheit"]),
            Some("celsius")
        );
        assert_eq!(
            closest("first-name", ["first_name", "last_name"]),
            Some("first_name")
        );
        assert_eq!(closest("event_title", ["title", "date"]), None);
        assert_eq!(closest("x", ["y"]), Some("y"));
        assert_eq!(closest("kelvin", ["celsius", "fahrenheit"]), None);
        assert_eq!(closest("qty", ["quantity", "sku"]), Some("quantity"));
        assert_eq!(closest("Nwe", ["New", "Tup"]), Some("New"));
        assert_eq!(
            closest("desc", ["description", "date"]),
            Some("description")
        );
    }

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("same", "same"), 0);
        assert_eq!(edit_distance("Unti", "Unit"), 1);
        assert_eq!(edit_distance("ab", "ba"), 1);
    }
}
