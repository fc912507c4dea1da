//! The reference time the home is built around, its calendar days, and fast timestamp
//! formatting. Instants are epoch milliseconds (`i64`) throughout the generator.

use jiff::civil::{Date, date};
use jiff::tz::TimeZone;
use jiff::{Timestamp, ToSpan};

use crate::Error;

/// The reference time: the moment the reports are made, as `STANDUP_NOW` takes it.
pub const NOW: &str = "2026-11-27T18:00:00+09:00";

/// The time zone of the reference time and of the user's day.
pub const TIME_ZONE: &str = "Asia/Tokyo";

/// The reference day (a Friday): the day of `standup daily` at [`NOW`].
pub const DATE: Date = date(2026, 11, 27);

/// The working day before [`DATE`]: the standup's first bucket.
pub const PREVIOUS_WORKDAY: Date = date(2026, 11, 26);

/// Milliseconds in a second and a minute.
pub(crate) const SECOND: i64 = 1000;
pub(crate) const MINUTE: i64 = 60 * SECOND;

/// How many days before the reference date the calendar covers.
const DAYS_BACK: i64 = 400;
/// Days after [`DATE`] that have a start (the busy preset commits on four of them).
const DAYS_AHEAD: i64 = 6;

/// The calendar: local day starts around the reference date.
pub(crate) struct Clock {
    zone: TimeZone,
    /// Local midnight of `DATE - DAYS_BACK + index`, for `index` in `0..=DAYS_BACK + DAYS_AHEAD`.
    day_starts: Vec<i64>,
    now: i64,
}

impl Clock {
    pub(crate) fn new() -> Result<Clock, Error> {
        let zone = TimeZone::get(TIME_ZONE).map_err(Error::Time)?;
        let mut day_starts = Vec::new();
        for offset in -DAYS_BACK..=DAYS_AHEAD {
            let day = DATE.checked_add(offset.days()).map_err(Error::Time)?;
            let start = day.to_zoned(zone.clone()).map_err(Error::Time)?;
            day_starts.push(start.timestamp().as_millisecond());
        }
        let now: Timestamp = NOW.parse().map_err(Error::Time)?;
        Ok(Clock { zone, day_starts, now: now.as_millisecond() })
    }

    /// The reference time.
    pub(crate) fn now(&self) -> i64 {
        self.now
    }

    /// Local midnight `days` days from the reference date (`-1` is the day before);
    /// clamped to the calendar's range.
    pub(crate) fn day_start(&self, days: i64) -> i64 {
        let index = (days + DAYS_BACK).clamp(0, DAYS_BACK + DAYS_AHEAD);
        self.day_starts[usize::try_from(index).unwrap_or(0)]
    }

    /// The instant `seconds` after local midnight of day `days`.
    pub(crate) fn at(&self, days: i64, seconds: i64) -> i64 {
        self.day_start(days) + seconds * SECOND
    }

    /// The window `[start, end)` of day `days`.
    pub(crate) fn window(&self, days: i64) -> (i64, i64) {
        (self.day_start(days), self.day_start(days + 1))
    }

    /// Local time as Codex writes it in file names: `2026-11-27T08-30-00`.
    pub(crate) fn local_file_time(&self, millis: i64) -> String {
        Timestamp::from_millisecond(millis)
            .map(|time| time.to_zoned(self.zone.clone()).strftime("%Y-%m-%dT%H-%M-%S").to_string())
            .unwrap_or_default()
    }

    /// Local date parts `(year, month, day)` of an instant, for Codex's folders.
    pub(crate) fn local_date(&self, millis: i64) -> (i16, i8, i8) {
        Timestamp::from_millisecond(millis).map_or((1970, 1, 1), |time| {
            let date = time.to_zoned(self.zone.clone()).date();
            (date.year(), date.month(), date.day())
        })
    }
}

/// Appends `2026-11-27T01:02:03.456Z` (UTC, milliseconds) for an epoch-millisecond
/// instant. Hand-written because transcripts hold hundreds of thousands of timestamps.
pub(crate) fn push_iso(out: &mut Vec<u8>, millis: i64) {
    let days = millis.div_euclid(86_400_000);
    let in_day = millis.rem_euclid(86_400_000);
    let (year, month, day) = civil_from_days(days);
    let (hour, minute) = (in_day / 3_600_000, in_day / 60_000 % 60);
    let (second, milli) = (in_day / 1000 % 60, in_day % 1000);
    let mut text = [0u8; 24];
    let mut put = |at: usize, value: i64, width: usize| {
        let mut value = value.unsigned_abs();
        for index in (0..width).rev() {
            // `value % 10` is a single digit.
            text[at + index] = b'0' + (value % 10) as u8;
            value /= 10;
        }
    };
    put(0, year, 4);
    put(5, month, 2);
    put(8, day, 2);
    put(11, hour, 2);
    put(14, minute, 2);
    put(17, second, 2);
    put(20, milli, 3);
    text[4] = b'-';
    text[7] = b'-';
    text[10] = b'T';
    text[13] = b':';
    text[16] = b':';
    text[19] = b'.';
    text[23] = b'Z';
    out.extend_from_slice(&text);
}

/// The timestamp as a `String` (see [`push_iso`]).
pub(crate) fn iso(millis: i64) -> String {
    let mut out = Vec::with_capacity(24);
    push_iso(&mut out, millis);
    String::from_utf8(out).unwrap_or_default()
}

/// Year, month and day of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_matches_jiff() {
        for millis in [0, 1_795_000_123_456, 1_700_000_000_001, 951_782_400_000, 4_102_444_799_999]
        {
            let expected = format!("{:.3}", Timestamp::from_millisecond(millis).unwrap());
            assert_eq!(iso(millis), expected);
        }
    }

    #[test]
    fn the_reference_day_is_a_tokyo_day() {
        let clock = Clock::new().unwrap();
        assert_eq!(iso(clock.day_start(0)), "2026-11-26T15:00:00.000Z");
        assert_eq!(iso(clock.window(-1).0), "2026-11-25T15:00:00.000Z");
        assert_eq!(clock.now() - clock.day_start(0), 18 * 60 * MINUTE);
        assert_eq!(clock.local_file_time(clock.at(0, 8 * 3600 + 5)), "2026-11-27T08-00-05");
    }
}
