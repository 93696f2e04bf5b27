//! The string `format`s that are asserted, by the validator and the strict deserializer:
//! those whose meaning is exact and whose values a model writes often (`uuid`, `date`,
//! `time`, `date-time`, RFC 3339 and RFC 4122), and the form of their values that messages
//! and prompt examples show. Other formats stay annotations, as draft 2020-12 makes them by
//! default.

/// Whether `s` is a value of `format`; `true` for formats that are not asserted.
pub(crate) fn conforms(format: &str, s: &str) -> bool {
    match format {
        "uuid" => is_uuid(s),
        "date" => is_date(s),
        "time" => is_time(s),
        "date-time" => is_date_time(s),
        _ => true,
    }
}

/// The form of an asserted format's values, for messages and prompt examples: `YYYY-MM-DD`,
/// not a date. A date shown as an example is what a small model copies into an answer whose
/// request gives another (or none); a form cannot pass for a fact of the request, and a
/// form copied as it stands is not a value of the format, so the copy is caught.
pub(crate) fn form(format: &str) -> Option<&'static str> {
    Some(match format {
        "uuid" => "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx",
        "date" => "YYYY-MM-DD",
        "time" => "hh:mm:ssZ",
        "date-time" => "YYYY-MM-DDThh:mm:ssZ",
        _ => return None,
    })
}

/// `123e4567-e89b-12d3-a456-426614174000`: hex groups of 8-4-4-4-12.
fn is_uuid(s: &str) -> bool {
    let bytes = s.as_bytes();
    bytes.len() == 36
        && bytes.iter().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => *b == b'-',
            _ => b.is_ascii_hexdigit(),
        })
}

/// RFC 3339 `full-date`: `2025-01-31`, with the days each month has.
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) =
        (digits(&b[0..4]), digits(&b[5..7]), digits(&b[8..10]))
    else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// RFC 3339 `full-time`: `12:00:00`, fractions, and an offset (`Z`, `+02:00`); a leap
/// second only where it falls at 23:59:60 UTC.
fn is_time(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) =
        (digits(&b[0..2]), digits(&b[3..5]), digits(&b[6..8]))
    else {
        return false;
    };
    let mut rest = &b[8..];
    if let [b'.', tail @ ..] = rest {
        let fraction = tail.iter().take_while(|c| c.is_ascii_digit()).count();
        if fraction == 0 {
            return false;
        }
        rest = &tail[fraction..];
    }
    let offset_minutes: i64 = match rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let (Some(h), Some(m)) = (digits(&[*h1, *h2]), digits(&[*m1, *m2])) else {
                return false;
            };
            if h > 23 || m > 59 {
                return false;
            }
            let minutes = i64::from(h * 60 + m);
            if *sign == b'+' { minutes } else { -minutes }
        }
        _ => return false,
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    if second == 60 {
        // 23:59:60 in UTC, wherever the offset puts it locally.
        let utc = (i64::from(hour * 60 + minute) - offset_minutes).rem_euclid(24 * 60);
        return utc == 23 * 60 + 59;
    }
    true
}

/// RFC 3339 `date-time`: a `date`, `T` (or `t`), a `time`.
fn is_date_time(s: &str) -> bool {
    match s.as_bytes().get(10) {
        Some(b'T' | b't') => is_date(&s[..10]) && is_time(&s[11..]),
        _ => false,
    }
}

/// The number a run of ASCII digits writes.
fn digits(b: &[u8]) -> Option<u32> {
    b.iter().try_fold(0u32, |n, c| {
        c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
    })
}

#[cfg(test)]
mod tests {
    use super::conforms;

    #[test]
    fn uuids() {
        assert!(conforms("uuid", "123e4567-e89b-12d3-a456-426614174000"));
        assert!(conforms("uuid", "123E4567-E89B-12D3-A456-426614174000"));
        for bad in [
            "not-a-uuid",
            "123e4567e89b12d3a456426614174000",
            "{123e4567-e89b-12d3-a456-426614174000}",
            "urn:uuid:123e4567-e89b-12d3-a456-426614174000",
            "123e4567-e89b-12d3-a456-42661417400g",
            "123e4567-e89b-12d3-a456_426614174000",
        ] {
            assert!(!conforms("uuid", bad), "{bad}");
        }
    }

    #[test]
    fn dates() {
        for good in ["2025-01-31", "2024-02-29", "2000-02-29", "0001-12-31"] {
            assert!(conforms("date", good), "{good}");
        }
        for bad in [
            "2025-02-29",
            "1900-02-29",
            "2025-04-31",
            "2025-13-01",
            "2025-00-10",
            "2025-01-00",
            "2025-1-31",
            "2025/01/31",
            "2025-01-31T00:00:00Z",
            "２０２５-01-31",
            "",
        ] {
            assert!(!conforms("date", bad), "{bad}");
        }
    }

    #[test]
    fn times_and_date_times() {
        for good in [
            "12:00:00Z",
            "23:59:60Z",
            "15:59:60-08:00",
            "08:30:00.125+02:00",
            "00:00:00z",
        ] {
            assert!(conforms("time", good), "{good}");
        }
        for bad in [
            "12:00:00",
            "24:00:00Z",
            "12:60:00Z",
            "12:00:60Z",
            "12:00:00.Z",
            "12:00:00+2:00",
            "12:00:00+24:00",
            "1:00:00Z",
        ] {
            assert!(!conforms("time", bad), "{bad}");
        }
        assert!(conforms("date-time", "2024-05-01T09:00:00Z"));
        assert!(conforms("date-time", "2024-05-01t09:00:00.5+01:30"));
        assert!(!conforms("date-time", "2024-05-01 09:00:00Z"));
        assert!(!conforms("date-time", "2024-05-01"));
        assert!(!conforms("date-time", "2024-02-30T09:00:00Z"));
        assert!(!conforms("date-time", "2024-05-01T09:00:00é"));
    }

    #[test]
    fn other_formats_are_annotations() {
        assert!(conforms("email", "not an email"));
        assert!(conforms("hostname", "!!"));
    }
}
