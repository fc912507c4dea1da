//! Japan's national holidays (国民の祝日), computed by the rules of the National Holidays
//! Act (国民の祝日に関する法律) as in force since 2020.
//!
//! - fixed days: 元日 Jan 1, 建国記念の日 Feb 11, 天皇誕生日 Feb 23, 昭和の日 Apr 29,
//!   憲法記念日 May 3, みどりの日 May 4, こどもの日 May 5, 山の日 Aug 11, 文化の日 Nov 3,
//!   勤労感謝の日 Nov 23;
//! - Happy Monday days: 成人の日 (2nd Monday of January), 海の日 (3rd Monday of July),
//!   敬老の日 (3rd Monday of September), スポーツの日 (2nd Monday of October);
//! - 春分の日 and 秋分の日 by the standard equinox formula (valid 1980–2099; the dates the
//!   National Astronomical Observatory announces each February have matched it so far);
//! - 振替休日: a holiday on a Sunday moves the day off to the next day that is not a
//!   holiday;
//! - 国民の休日: a day that is not a holiday but lies between two holidays is a day off;
//! - the Olympic moves of 2020 (海の日 Jul 23, スポーツの日 Jul 24, 山の日 Aug 10) and 2021
//!   (海の日 Jul 22, スポーツの日 Jul 23, 山の日 Aug 8).
//!
//! Supported years: [`JP_FIRST_YEAR`] to [`JP_LAST_YEAR`]. Earlier years followed other
//! rules (天皇誕生日 on Dec 23, the 2019 enthronement days) and later ones are past the
//! equinox formula; [`japan`] gives nothing for them.

use jiff::civil::{Date, Weekday, date};

/// The first year [`japan`] knows.
pub const JP_FIRST_YEAR: i16 = 2020;
/// The last year [`japan`] knows.
pub const JP_LAST_YEAR: i16 = 2099;

/// Japan's national holidays and days off of `year` (祝日, 振替休日 and 国民の休日), in
/// date order with their Japanese names; empty outside the supported years.
pub fn japan(year: i16) -> Vec<(Date, &'static str)> {
    if !(JP_FIRST_YEAR..=JP_LAST_YEAR).contains(&year) {
        return Vec::new();
    }
    let (marine, sports, mountain) = match year {
        2020 => (date(2020, 7, 23), date(2020, 7, 24), date(2020, 8, 10)),
        2021 => (date(2021, 7, 22), date(2021, 7, 23), date(2021, 8, 8)),
        _ => (nth_monday(year, 7, 3), nth_monday(year, 10, 2), date(year, 8, 11)),
    };
    let mut days = vec![
        (date(year, 1, 1), "元日"),
        (nth_monday(year, 1, 2), "成人の日"),
        (date(year, 2, 11), "建国記念の日"),
        (date(year, 2, 23), "天皇誕生日"),
        (date(year, 3, vernal_equinox_day(year)), "春分の日"),
        (date(year, 4, 29), "昭和の日"),
        (date(year, 5, 3), "憲法記念日"),
        (date(year, 5, 4), "みどりの日"),
        (date(year, 5, 5), "こどもの日"),
        (marine, "海の日"),
        (mountain, "山の日"),
        (nth_monday(year, 9, 3), "敬老の日"),
        (date(year, 9, autumnal_equinox_day(year)), "秋分の日"),
        (sports, "スポーツの日"),
        (date(year, 11, 3), "文化の日"),
        (date(year, 11, 23), "勤労感謝の日"),
    ];
    days.sort_by_key(|(day, _)| *day);
    let national: Vec<Date> = days.iter().map(|(day, _)| *day).collect();
    let is_national = |day: Date| national.contains(&day);

    let mut extra = Vec::new();
    // 振替休日: the nearest following day that is not a national holiday.
    for &day in &national {
        if day.weekday() == Weekday::Sunday {
            let mut next = day;
            loop {
                let Ok(following) = next.tomorrow() else { break };
                next = following;
                if !is_national(next) {
                    extra.push((next, "振替休日"));
                    break;
                }
            }
        }
    }
    // 国民の休日: a non-holiday between two national holidays.
    for pair in national.windows(2) {
        let [before, after] = [pair[0], pair[1]];
        let Ok(between) = before.tomorrow() else { continue };
        if after.yesterday().ok() == Some(between)
            && !is_national(between)
            && !extra.iter().any(|(day, _)| *day == between)
        {
            extra.push((between, "国民の休日"));
        }
    }
    days.extend(extra);
    days.sort_by_key(|(day, _)| *day);
    days
}

/// The `n`th Monday of a month.
fn nth_monday(year: i16, month: i8, n: i8) -> Date {
    let first = date(year, month, 1);
    let offset = first.weekday().to_monday_zero_offset();
    let until_monday = (7 - offset) % 7;
    date(year, month, 1 + until_monday + 7 * (n - 1))
}

/// The day of March of the vernal equinox: ⌊20.8431 + 0.242194·(y − 1980) − ⌊(y − 1980)/4⌋⌋.
fn vernal_equinox_day(year: i16) -> i8 {
    equinox(year, 20.8431)
}

/// The day of September of the autumnal equinox: ⌊23.2488 + 0.242194·(y − 1980) −
/// ⌊(y − 1980)/4⌋⌋.
fn autumnal_equinox_day(year: i16) -> i8 {
    equinox(year, 23.2488)
}

#[expect(
    clippy::cast_possible_truncation,
    reason = "the result is a day of the month (19..=24) for the supported years"
)]
fn equinox(year: i16, base: f64) -> i8 {
    let years = f64::from(year - 1980);
    let leap_days = f64::from((year - 1980) / 4);
    (base + 0.242_194 * years - leap_days).floor() as i8
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dates(year: i16) -> Vec<String> {
        japan(year).iter().map(|(day, _)| day.strftime("%m-%d").to_string()).collect()
    }

    #[test]
    fn year_2026_as_the_issue_lists_it() {
        assert_eq!(
            dates(2026),
            [
                "01-01", "01-12", "02-11", "02-23", "03-20", "04-29", "05-03", "05-04", "05-05",
                "05-06", "07-20", "08-11", "09-21", "09-22", "09-23", "10-12", "11-03", "11-23"
            ]
        );
        let names: Vec<&str> = japan(2026).iter().map(|(_, name)| *name).collect();
        assert!(names.contains(&"振替休日") && names.contains(&"国民の休日"), "{names:?}");
    }

    /// Every year from 2020 to 2030. The lists are the output of the `holidays` Python
    /// package (0.109, `holidays.Japan`), an independent implementation kept up to date with
    /// the Cabinet Office's announcements; 2026 is also the list of the issue.
    #[test]
    fn years_2020_to_2030() {
        let expected: [(i16, &str); 11] = [
            (
                2020,
                "01-01 01-13 02-11 02-23 02-24 03-20 04-29 05-03 05-04 05-05 05-06 07-23 07-24 08-10 09-21 09-22 11-03 11-23",
            ),
            (
                2021,
                "01-01 01-11 02-11 02-23 03-20 04-29 05-03 05-04 05-05 07-22 07-23 08-08 08-09 09-20 09-23 11-03 11-23",
            ),
            (
                2022,
                "01-01 01-10 02-11 02-23 03-21 04-29 05-03 05-04 05-05 07-18 08-11 09-19 09-23 10-10 11-03 11-23",
            ),
            (
                2023,
                "01-01 01-02 01-09 02-11 02-23 03-21 04-29 05-03 05-04 05-05 07-17 08-11 09-18 09-23 10-09 11-03 11-23",
            ),
            (
                2024,
                "01-01 01-08 02-11 02-12 02-23 03-20 04-29 05-03 05-04 05-05 05-06 07-15 08-11 08-12 09-16 09-22 09-23 10-14 11-03 11-04 11-23",
            ),
            (
                2025,
                "01-01 01-13 02-11 02-23 02-24 03-20 04-29 05-03 05-04 05-05 05-06 07-21 08-11 09-15 09-23 10-13 11-03 11-23 11-24",
            ),
            (
                2026,
                "01-01 01-12 02-11 02-23 03-20 04-29 05-03 05-04 05-05 05-06 07-20 08-11 09-21 09-22 09-23 10-12 11-03 11-23",
            ),
            (
                2027,
                "01-01 01-11 02-11 02-23 03-21 03-22 04-29 05-03 05-04 05-05 07-19 08-11 09-20 09-23 10-11 11-03 11-23",
            ),
            (
                2028,
                "01-01 01-10 02-11 02-23 03-20 04-29 05-03 05-04 05-05 07-17 08-11 09-18 09-22 10-09 11-03 11-23",
            ),
            (
                2029,
                "01-01 01-08 02-11 02-12 02-23 03-20 04-29 04-30 05-03 05-04 05-05 07-16 08-11 09-17 09-23 09-24 10-08 11-03 11-23",
            ),
            (
                2030,
                "01-01 01-14 02-11 02-23 03-20 04-29 05-03 05-04 05-05 05-06 07-15 08-11 08-12 09-16 09-23 10-14 11-03 11-04 11-23",
            ),
        ];
        for (year, list) in expected {
            assert_eq!(dates(year).join(" "), list, "{year}");
        }
    }

    #[test]
    fn outside_the_supported_years_nothing() {
        assert!(japan(2019).is_empty());
        assert!(japan(2100).is_empty());
        assert_eq!(japan(2099).first().map(|(day, _)| *day), Some(date(2099, 1, 1)));
    }

    #[test]
    fn happy_mondays() {
        assert_eq!(nth_monday(2026, 1, 2), date(2026, 1, 12));
        assert_eq!(nth_monday(2024, 1, 2), date(2024, 1, 8));
        // A month starting on a Monday.
        assert_eq!(nth_monday(2024, 7, 3), date(2024, 7, 15));
    }
}
