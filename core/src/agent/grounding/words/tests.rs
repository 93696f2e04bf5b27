//! The words, numbers and sentences read out of a text.

use proptest::prelude::*;

use super::{numbers, sentence};

#[test]
fn a_sentence_ends_at_its_stop_but_not_at_a_point_inside_a_word_or_number() {
    assert_eq!(sentence(" is 0.5. use 2 for more"), " is 0.5");
    assert_eq!(sentence(" 'units'; or cm"), " 'units'");
    assert_eq!(sentence(": en) and more"), ": en");
    assert_eq!(sentence(" is 3."), " is 3");
    assert_eq!(sentence(" none"), " none");
    assert_eq!(sentence(" 'Serie A'\n  season: the year"), " 'Serie A'");
    assert_eq!(
        sentence(" example.com or U.S.A. Then"),
        " example.com or U.S.A"
    );
}

// The writer's own spelling of the numbers, apart from the reader's tables: a word
// misspelled there would otherwise be written and read back alike, and pass.
const UNITS: [&str; 20] = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
];
const TENS: [&str; 8] = [
    "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];

/// How a number is written: `twenty-five` or `twenty five`, `two hundred and five`
/// or `two hundred five`, `a hundred` or `one hundred`.
#[derive(Debug, Clone, Copy)]
struct Style {
    hyphen: bool,
    and: bool,
    a: bool,
}

/// `n` below 10 000 in words, as people write it.
fn written(n: usize, style: Style) -> String {
    if n == 0 {
        return UNITS[0].to_owned();
    }
    let mut parts: Vec<String> = Vec::new();
    let scale = |count: usize, word: &str, parts: &mut Vec<String>| {
        if count > 0 {
            let count = if count == 1 && style.a {
                "a"
            } else {
                UNITS[count]
            };
            parts.push(format!("{count} {word}"));
        }
    };
    scale(n / 1000, "thousand", &mut parts);
    scale(n / 100 % 10, "hundred", &mut parts);
    let rest = n % 100;
    if rest > 0 {
        if style.and && n >= 100 {
            parts.push("and".to_owned());
        }
        parts.push(match (rest / 10, rest % 10) {
            (0 | 1, _) => UNITS[rest].to_owned(),
            (tens, 0) => TENS[tens - 2].to_owned(),
            (tens, unit) => {
                let between = if style.hyphen { "-" } else { " " };
                format!("{}{between}{}", TENS[tens - 2], UNITS[unit])
            }
        });
    }
    parts.join(" ")
}

#[test]
fn numbers_past_twenty_are_read_in_words() {
    for (text, expected) in [
        ("thirty", vec![30.0]),
        ("ninety-nine", vec![99.0]),
        ("twenty five", vec![25.0]),
        ("twenty-five", vec![25.0]),
        ("two hundred", vec![200.0]),
        ("a hundred and five", vec![105.0]),
        ("a thousand", vec![1000.0]),
        ("three thousand and one", vec![3001.0]),
        ("one thousand two hundred thirty-four", vec![1234.0]),
        ("nineteen hundred eighty-four", vec![1984.0]),
        ("two hundred thousand", vec![200_000.0]),
        (
            "nine hundred ninety-nine thousand nine hundred ninety-nine",
            vec![999_999.0],
        ),
    ] {
        assert_eq!(numbers(text), expected, "{text}");
    }
}

#[test]
fn number_words_in_a_sentence_are_read_apart() {
    assert_eq!(
        numbers("Book twenty-five seats for two, at forty euros"),
        vec![25.0, 2.0, 40.0]
    );
    // Two numbers in a row that make no number together.
    assert_eq!(numbers("rooms two three"), vec![2.0, 3.0]);
    assert_eq!(numbers("twenty thirty"), vec![20.0, 30.0]);
    // Past a thousand, only what is below a thousand belongs to it.
    assert_eq!(
        numbers("nine hundred ninety-nine thousand ninety-nine hundred"),
        vec![999_000.0, 9_900.0]
    );
    // `a` and `and` are no numbers of their own.
    assert_eq!(numbers("a cat and a dog, a hundred"), vec![100.0]);
    assert_eq!(numbers("two hundred and counting"), vec![200.0]);
    assert_eq!(numbers("hundred thousand and"), Vec::<f64>::new());
}

proptest! {
    #[test]
    fn a_number_written_in_words_is_read_as_it(
        n in 0usize..10_000,
        hyphen: bool,
        and: bool,
        a: bool,
    ) {
        let text = written(n, Style { hyphen, and, a });
        prop_assert_eq!(numbers(&text), vec![n as f64], "{}", text);
    }

    /// Any run of number words reads as numbers within the bound, with no panic.
    #[test]
    fn any_run_of_number_words_is_read_within_bounds(
        run in proptest::collection::vec(
            prop_oneof![
                proptest::sample::select(UNITS.to_vec()),
                proptest::sample::select(TENS.to_vec()),
                proptest::sample::select(vec!["a", "and", "hundred", "thousand", "-"]),
            ],
            0..24,
        ),
    ) {
        let text = run.join(" ");
        for n in numbers(&text) {
            prop_assert!((0.0..1_000_000.0).contains(&n), "{} in {}", n, text);
        }
    }
}

#[test]
fn a_function_s_name_is_told_from_a_phrase_or_a_value() {
    use super::names_a_function;
    for name in [
        "cancel_subscription",
        "getDayOfWeek",
        "chemistry.boiling_point",
        "weather-now",
        "home.setLights",
        "wine",
        "translate2",
        "HassTurnOn",
        "example.com",
    ] {
        assert!(names_a_function(name), "{name}");
    }
    for name in [
        "Road Trip",
        "good morning",
        "Chardonnay",
        "ETF",
        "Fermat's Last Theorem",
        "",
        "_private",
        "2fa_reset",
        "café au lait",
        "wine?",
        "YouTube",
        "COVID-19",
        "A-100",
        "Coca-Cola",
        "Lisbon.",
        "Yes.",
        "上海",
        "weather.",
        "-x",
    ] {
        assert!(!names_a_function(name), "{name}");
    }
}

proptest! {
    /// Words apart, or a phrase's punctuation, are never a function's name.
    #[test]
    fn text_with_a_space_or_punctuation_names_no_function(
        a in "[a-zA-Z_]{1,12}",
        sep in prop::sample::select(vec![" ", "'", ",", "?", "!", "(", "/", ":", "é", "上"]),
        b in "[a-zA-Z_]{0,12}",
    ) {
        let name = format!("{a}{sep}{b}");
        prop_assert!(!super::names_a_function(&name), "{}", name);
    }

    /// A capitalised word, or capitals and digits joined by `-` or `.` (a product
    /// code, a model, a brand) is never a function's name.
    #[test]
    fn a_capitalised_value_names_no_function(
        head in "[A-Z][a-zA-Z]{0,8}",
        joint in prop::sample::select(vec!["-", ".", ""]),
        tail in "[A-Z0-9][A-Za-z0-9]{0,6}",
    ) {
        let name = format!("{head}{joint}{tail}");
        let humps = name.as_bytes().windows(2)
            .filter(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
            .count();
        // Two capitals inside a word is PascalCase, a function's name (`HassTurnOn`).
        prop_assume!(humps < 2);
        prop_assert!(!super::names_a_function(&name), "{}", name);
    }
}
