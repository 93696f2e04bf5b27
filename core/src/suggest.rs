//! Did-you-mean: the closest allowed name to a near miss, for the validator's messages,
//! the coercions, the envelope reader, the toolset's checks and the agent.

/// The candidate closest to `word`, if it is close enough to be a likely typo: the same
/// letters ignoring case and `-`/`_`/spaces, within an edit distance of about one in
/// three characters, or an abbreviation (`qty` for `quantity`).
///
/// `word` comes from a model and may be huge: a candidate whose length alone puts it
/// out of reach costs no table, and a table covers only the cells within the limit.
pub(crate) fn closest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    // Fresh buffers where the kept ones are in use or gone (a thread's last moments).
    let mut candidates = Some(candidates);
    let kept = SCRATCH.try_with(|scratch| {
        let mut scratch = scratch.try_borrow_mut().ok()?;
        let best = search(word, candidates.take()?, &mut scratch);
        // A huge word from a model does not keep its buffers after the search.
        if scratch.chars.capacity() > KEPT_CHARS {
            *scratch = Scratch::default();
        }
        Some(best)
    });
    match (kept, candidates) {
        (Ok(Some(best)), _) => best,
        (_, Some(candidates)) => search(word, candidates, &mut Scratch::default()),
        (_, None) => None,
    }
}

/// Buffers longer than this many characters are let go after a search.
const KEPT_CHARS: usize = 1024;

/// The buffers a search fills for the word and for each candidate in turn, kept per
/// thread: a did-you-mean is worked out for every message written.
#[derive(Default)]
struct Scratch {
    chars: Vec<char>,
    folded: String,
    candidate_chars: Vec<char>,
    folded_candidate: String,
    rows: Rows,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

fn search<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    scratch: &mut Scratch,
) -> Option<&'a str> {
    let Scratch {
        chars,
        folded,
        candidate_chars,
        folded_candidate,
        rows,
    } = scratch;
    chars.clear();
    chars.extend(word.chars());
    fold_into(word, folded);
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        if candidate == word {
            continue;
        }
        candidate_chars.clear();
        candidate_chars.extend(candidate.chars());
        let limit = (chars.len().max(candidate_chars.len()) / 3).max(1);
        fold_into(candidate, folded_candidate);
        // Only a candidate closer than the best so far can replace it: the table need
        // not look past that.
        let closer = best.map_or(limit, |(d, _)| limit.min(d.saturating_sub(1)));
        let distance = if folded_candidate == folded {
            Some(0)
        } else if best.is_some_and(|(d, _)| d == 0) {
            None
        } else {
            distance_in(chars, candidate_chars, closer, &mut 0, rows)
        };
        // An abbreviation ranks after every typo within the limit.
        let distance = distance.or_else(|| abbreviates(folded, folded_candidate).then_some(limit));
        if let Some(distance) = distance
            && best.is_none_or(|(d, _)| distance < d)
        {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// `qty` abbreviates `quantity`: the same first letter, then the rest in order.
pub(crate) fn abbreviates(short: &str, long: &str) -> bool {
    // The letters of `short` are some of those of `long`, so it has no more bytes.
    if short.len() > long.len() {
        return false;
    }
    let mut long_chars = long.chars();
    short.chars().nth(1).is_some()
        && short.chars().next() == long.chars().next()
        && short.chars().all(|c| long_chars.any(|l| l == c))
}

/// `s` in lower case without `-`, `_` and spaces, into `out`.
fn fold_into(s: &str, out: &mut String) {
    out.clear();
    if s.is_ascii() {
        let kept = s.bytes().filter(|b| !matches!(b, b'-' | b'_' | b' '));
        out.extend(kept.map(|b| char::from(b.to_ascii_lowercase())));
        return;
    }
    out.extend(
        s.chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .flat_map(char::to_lowercase),
    );
}

/// The three rows of the distance table, kept between candidates.
#[derive(Default)]
struct Rows {
    before: Vec<usize>,
    previous: Vec<usize>,
    current: Vec<usize>,
}

/// Edit distance in characters: insertions, deletions, substitutions and swaps of two
/// neighbours (`Unti` is one edit from `Unit`), or `None` when it is more than `limit`.
/// Counts the table cells it computes in `cells`.
///
/// A distance within `limit` aligns no character more than `limit` places from its
/// own, so only the band of cells within `limit` of the diagonal is computed:
/// O(min(n, m) · limit) work, none when the lengths differ by more than `limit`.
#[cfg(test)]
fn distance_within(a: &[char], b: &[char], limit: usize, cells: &mut usize) -> Option<usize> {
    distance_in(a, b, limit, cells, &mut Rows::default())
}

/// [`distance_within`], in the rows given.
fn distance_in(
    a: &[char],
    b: &[char],
    limit: usize,
    cells: &mut usize,
    rows: &mut Rows,
) -> Option<usize> {
    // The distance is symmetric: rows run along the shorter string.
    let (a, b) = if a.len() < b.len() { (b, a) } else { (a, b) };
    if a.len() - b.len() > limit {
        return None;
    }
    if b.is_empty() {
        return Some(a.len());
    }
    // Any value past the limit; cells outside the band read as this.
    let far = limit + 1;
    // Three rows: the one before the previous is needed for swaps.
    let Rows {
        before,
        previous,
        current,
    } = rows;
    before.clear();
    before.resize(b.len() + 1, far);
    previous.clear();
    previous.extend((0..=b.len()).map(|j| j.min(far)));
    current.clear();
    current.resize(b.len() + 1, far);
    for i in 1..=a.len() {
        let first = i.saturating_sub(limit).max(1);
        let last = (i + limit).min(b.len());
        // The cell left of the band: column 0 holds `i`, any other lies outside it.
        current[first - 1] = if first == 1 { i.min(far) } else { far };
        let mut row_min = current[first - 1];
        for j in first..=last {
            *cells += 1;
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (previous[j - 1] + cost)
                .min(previous[j] + 1)
                .min(current[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(before[j - 2] + 1);
            }
            current[j] = best.min(far);
            row_min = row_min.min(current[j]);
        }
        // The next row reads one cell right of this band.
        if last < b.len() {
            current[last + 1] = far;
        }
        // Each row holds a cell no larger than the distance (a swap that skips a row
        // passes over a substitution as cheap): past the limit here, past it at the end.
        if row_min > limit {
            return None;
        }
        std::mem::swap(before, previous);
        std::mem::swap(previous, current);
    }
    Some(previous[b.len()]).filter(|&d| d <= limit)
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

    fn edit_distance(a: &str, b: &str, limit: usize) -> Option<usize> {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        distance_within(&a, &b, limit, &mut 0)
    }

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("kitten", "sitting", 3), Some(3));
        assert_eq!(edit_distance("kitten", "sitting", 2), None);
        assert_eq!(edit_distance("", "abc", 3), Some(3));
        assert_eq!(edit_distance("abc", "", 2), None);
        assert_eq!(edit_distance("same", "same", 0), Some(0));
        assert_eq!(edit_distance("Unti", "Unit", 1), Some(1));
        assert_eq!(edit_distance("ab", "ba", 1), Some(1));
        assert_eq!(edit_distance("ab", "ba", 0), None);
        assert_eq!(edit_distance("größe", "grösse", 2), Some(2));
    }

    /// The table without a band or cut-off: every cell of `a` against `b`.
    fn full_distance(a: &[char], b: &[char]) -> usize {
        let mut d = vec![vec![0; b.len() + 1]; a.len() + 1];
        for (i, row) in d.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, cell) in d[0].iter_mut().enumerate() {
            *cell = j;
        }
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut best = (d[i - 1][j - 1] + cost)
                    .min(d[i - 1][j] + 1)
                    .min(d[i][j - 1] + 1);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    best = best.min(d[i - 2][j - 2] + 1);
                }
                d[i][j] = best;
            }
        }
        d[a.len()][b.len()]
    }

    /// Every word of up to four letters from `abc`.
    fn small_words() -> Vec<Vec<char>> {
        let mut words = vec![Vec::new()];
        let mut last = vec![Vec::new()];
        for _ in 0..4 {
            last = last
                .iter()
                .flat_map(|w: &Vec<char>| {
                    "abc".chars().map(move |c| {
                        let mut w = w.clone();
                        w.push(c);
                        w
                    })
                })
                .collect();
            words.extend(last.iter().cloned());
        }
        words
    }

    #[test]
    fn the_band_agrees_with_the_full_table() {
        let words = small_words();
        for a in &words {
            for b in &words {
                let full = full_distance(a, b);
                for limit in 0..=4 {
                    assert_eq!(
                        distance_within(a, b, limit, &mut 0),
                        (full <= limit).then_some(full),
                        "{a:?} {b:?} within {limit}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_band_agrees_with_the_full_table_on_longer_words() {
        let mut rng = fastrand::Rng::with_seed(7);
        let word = |rng: &mut fastrand::Rng| -> Vec<char> {
            let len = rng.usize(0..16);
            (0..len)
                .map(|_| rng.choice(['a', 'b', 'c']).unwrap_or('a'))
                .collect()
        };
        for _ in 0..5_000 {
            let (a, b) = (word(&mut rng), word(&mut rng));
            let full = full_distance(&a, &b);
            for limit in 0..=8 {
                assert_eq!(
                    distance_within(&a, &b, limit, &mut 0),
                    (full <= limit).then_some(full),
                    "{a:?} {b:?} within {limit}"
                );
            }
        }
    }

    /// The search as first written: every candidate's whole table, no bound from the
    /// best so far.
    fn closest_plainly<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
        let fold = |s: &str| -> String {
            let mut out = String::new();
            fold_into(s, &mut out);
            out
        };
        let chars: Vec<char> = word.chars().collect();
        let mut best: Option<(usize, &str)> = None;
        for &candidate in candidates {
            if candidate == word {
                continue;
            }
            let other: Vec<char> = candidate.chars().collect();
            let limit = (chars.len().max(other.len()) / 3).max(1);
            let distance = if fold(candidate) == fold(word) {
                Some(0)
            } else {
                Some(full_distance(&chars, &other)).filter(|&d| d <= limit)
            };
            let distance =
                distance.or_else(|| abbreviates(&fold(word), &fold(candidate)).then_some(limit));
            if let Some(distance) = distance
                && best.is_none_or(|(d, _)| distance < d)
            {
                best = Some((distance, candidate));
            }
        }
        best.map(|(_, c)| c)
    }

    /// Bounding each table by the best so far changes no suggestion.
    #[test]
    fn the_bounded_search_suggests_what_the_plain_one_does() {
        let mut rng = fastrand::Rng::with_seed(3);
        let alphabet: Vec<char> = "abcA-".chars().collect();
        let word = |rng: &mut fastrand::Rng| -> String {
            let len = rng.usize(0..9);
            (0..len)
                .map(|_| alphabet[rng.usize(..alphabet.len())])
                .collect()
        };
        for _ in 0..3_000 {
            let w = word(&mut rng);
            let pool: Vec<String> = (0..rng.usize(1..7)).map(|_| word(&mut rng)).collect();
            let candidates: Vec<&str> = pool.iter().map(String::as_str).collect();
            assert_eq!(
                closest(&w, candidates.iter().copied()),
                closest_plainly(&w, &candidates),
                "{w:?} among {candidates:?}"
            );
        }
    }

    /// The ASCII path folds as the general one does.
    #[test]
    fn folding_ascii_agrees_with_folding_any_text() {
        let mut rng = fastrand::Rng::with_seed(11);
        let alphabet: Vec<char> = "aZ-_ 09xÄß".chars().collect();
        for _ in 0..2_000 {
            let len = rng.usize(0..12);
            let word: String = (0..len)
                .map(|_| alphabet[rng.usize(..alphabet.len())])
                .collect();
            let general: String = word
                .chars()
                .filter(|c| !matches!(c, '-' | '_' | ' '))
                .flat_map(char::to_lowercase)
                .collect();
            let mut folded = String::new();
            fold_into(&word, &mut folded);
            assert_eq!(folded, general, "{word:?}");
        }
        assert_eq!(closest("GRÖSSE", ["größe", "grösse"]), Some("grösse"));
    }

    /// The buffers kept between searches stay small after a huge word.
    #[test]
    fn a_huge_word_does_not_keep_its_buffers() {
        let huge = "k".repeat(KEPT_CHARS * 8);
        assert_eq!(closest(&huge, ["name"]), None);
        SCRATCH.with(|s| assert!(s.borrow().chars.capacity() <= KEPT_CHARS));
        assert_eq!(closest("nmae", ["name"]), Some("name"));
    }

    const MEGABYTE: usize = 1 << 20;

    /// A megabyte key from a model against field names: no table at all, the lengths
    /// alone rule them out.
    #[test]
    fn a_huge_key_is_ruled_out_by_length() {
        let key: Vec<char> = "k".repeat(MEGABYTE).chars().collect();
        let mut cells = 0;
        for name in ["name", "quantity", "first_name", "a"] {
            let name: Vec<char> = name.chars().collect();
            let limit = key.len() / 3;
            assert_eq!(distance_within(&key, &name, limit, &mut cells), None);
            assert_eq!(distance_within(&name, &key, limit, &mut cells), None);
        }
        assert_eq!(cells, 0);
        let huge = "k".repeat(MEGABYTE);
        assert_eq!(closest(&huge, ["name", "quantity", "k"]), None);
    }

    /// Two long strings of the same length: only the cells within `limit` of the diagonal
    /// are computed, and a row past the limit ends the table.
    #[test]
    fn the_table_is_a_band_around_the_diagonal() {
        let n = 100_000;
        let a: Vec<char> = "ab".repeat(n / 2).chars().collect();
        let mut b = a.clone();
        b[n / 2] = 'x';
        b.swap(10, 11);
        let mut cells = 0;
        assert_eq!(distance_within(&a, &b, 3, &mut cells), Some(2));
        assert!(cells <= n * 7, "{cells} cells for {n} characters within 3");

        let c: Vec<char> = "z".repeat(n).chars().collect();
        let mut cells = 0;
        assert_eq!(distance_within(&a, &c, 1, &mut cells), None);
        assert!(cells <= 2 * 3, "{cells} cells before the cut-off");
    }
}
