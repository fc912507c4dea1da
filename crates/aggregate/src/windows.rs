//! Local calendar days as half-open windows, and the standup's previous working day.

use std::collections::BTreeSet;

use jiff::civil::{Date, Time, Weekday};
use jiff::tz::TimeZone;
use jiff::{Timestamp, ToSpan};
use report_model::{BucketKind, Report, ReportKind, Window};

use crate::Error;

/// How days are cut: the time zone, the hour a day starts at, working days and holidays.
#[derive(Debug, Clone)]
pub struct Calendar {
    /// The zone day boundaries are local to.
    pub time_zone: TimeZone,
    /// When a day starts (a night owl's day may start at 04:00).
    pub day_start: Time,
    /// Working days of the week.
    pub workdays: Vec<Weekday>,
    /// Dates that are not working days.
    pub holidays: BTreeSet<Date>,
}

impl Calendar {
    /// Midnight days, Monday to Friday, no holidays.
    pub fn new(time_zone: TimeZone) -> Calendar {
        let workdays = [
            Weekday::Monday,
            Weekday::Tuesday,
            Weekday::Wednesday,
            Weekday::Thursday,
            Weekday::Friday,
        ];
        Calendar {
            time_zone,
            day_start: Time::midnight(),
            workdays: workdays.to_vec(),
            holidays: BTreeSet::new(),
        }
    }

    /// The window of one local day: `[date at day_start, next date at day_start)`. On a
    /// DST transition day it is 23 or 25 hours long; a `day_start` that falls in a gap
    /// moves to the first instant after it.
    pub fn window(&self, date: Date) -> Result<Window, Error> {
        let start = self.instant(date)?;
        let next =
            date.checked_add(1.day()).map_err(|source| Error::OutOfRange { date, source })?;
        let end = self.instant(next)?;
        Ok(Window { date, start, end })
    }

    pub(crate) fn instant(&self, date: Date) -> Result<Timestamp, Error> {
        date.to_datetime(self.day_start)
            .to_zoned(self.time_zone.clone())
            .map(|zoned| zoned.timestamp())
            .map_err(|source| Error::OutOfRange { date, source })
    }

    /// Whether `date` is a working day.
    pub fn is_workday(&self, date: Date) -> bool {
        self.workdays.contains(&date.weekday()) && !self.holidays.contains(&date)
    }

    /// The last working day before `date`: Monday gives Friday, the day after a
    /// holiday gives the working day before the holiday.
    pub fn previous_workday(&self, date: Date) -> Result<Date, Error> {
        if self.workdays.is_empty() {
            return Err(Error::NoWorkdays);
        }
        let mut day = date;
        for _ in 0..366 {
            day = day.checked_sub(1.day()).map_err(|source| Error::OutOfRange { date, source })?;
            if self.is_workday(day) {
                return Ok(day);
            }
        }
        Err(Error::NoPreviousWorkday { date })
    }
}

/// The local date `now` falls on, counting a time before `day_start` as the day before.
pub fn today(now: Timestamp, calendar: &Calendar) -> Date {
    let local = now.to_zoned(calendar.time_zone.clone());
    let date = local.date();
    if local.time() < calendar.day_start { date.yesterday().unwrap_or(date) } else { date }
}

/// The windows of a report for `date`: the day itself for a daily report; for a standup
/// the previous working day up to the start of `date` (so work on the non-working days
/// in between is in it) and the day; for a week the days of the week (Monday to Sunday)
/// holding `date`. A range has its own function, [`range_windows`].
pub fn report_windows(
    kind: ReportKind,
    date: Date,
    calendar: &Calendar,
) -> Result<Vec<(BucketKind, Window)>, Error> {
    match kind {
        ReportKind::Daily | ReportKind::Range => {
            Ok(vec![(BucketKind::Day, calendar.window(date)?)])
        }
        ReportKind::Standup => {
            let previous = calendar.previous_workday(date)?;
            let today = calendar.window(date)?;
            let mut previous_window = calendar.window(previous)?;
            previous_window.end = today.start;
            Ok(vec![(BucketKind::PreviousWorkday, previous_window), (BucketKind::Today, today)])
        }
        ReportKind::Week => {
            let offset = date.weekday().to_monday_zero_offset();
            let monday = date
                .checked_sub(i64::from(offset).days())
                .map_err(|source| Error::OutOfRange { date, source })?;
            let sunday = monday
                .checked_add(6.days())
                .map_err(|source| Error::OutOfRange { date, source })?;
            range_windows(monday, sunday, calendar)
        }
    }
}

/// The longest range [`range_windows`] accepts, in days.
pub const MAX_RANGE_DAYS: i32 = 366;

/// One window per day from `since` to `until`, both included.
pub fn range_windows(
    since: Date,
    until: Date,
    calendar: &Calendar,
) -> Result<Vec<(BucketKind, Window)>, Error> {
    if until < since {
        return Err(Error::EmptyRange { since, until });
    }
    let days = since.until(until).map_or(i32::MAX, |span| span.get_days());
    if days >= MAX_RANGE_DAYS {
        return Err(Error::RangeTooLong { since, until, max: MAX_RANGE_DAYS });
    }
    let mut windows = Vec::new();
    let mut day = since;
    loop {
        windows.push((BucketKind::Day, calendar.window(day)?));
        if day >= until {
            break;
        }
        day = day.tomorrow().map_err(|source| Error::OutOfRange { date: day, source })?;
    }
    Ok(windows)
}

/// Ends every window at `now` at the latest: a report shows nothing after the clock. A
/// week or a range keeps only its days that began before `now` (all of them when none
/// did); any other window that starts after `now` becomes empty (`end == start`).
pub fn end_at(windows: &mut Vec<(BucketKind, Window)>, kind: ReportKind, now: Timestamp) {
    if matches!(kind, ReportKind::Week | ReportKind::Range)
        && windows.iter().any(|(_, window)| window.start < now)
    {
        windows.retain(|(_, window)| window.start < now);
    }
    for (_, window) in windows {
        window.end = window.end.min(now.max(window.start));
    }
}

/// What a report needs from the calendar once aggregated: each bucket's `through` date,
/// and in a week or a range, the days that are not working days and had no activity
/// left out (weekend work shows, an idle weekend does not).
pub fn settle(report: &mut Report, calendar: &Calendar) {
    for bucket in &mut report.buckets {
        bucket.through = through(&bucket.window, calendar);
    }
    if matches!(report.kind, ReportKind::Week | ReportKind::Range) && report.buckets.len() > 1 {
        report
            .buckets
            .retain(|bucket| !bucket.is_empty() || calendar.is_workday(bucket.window.date));
    }
}

/// The last local date a window covers when it spans more than one day: the day before
/// the date its end falls on (a standup's previous bucket ending where today starts).
pub fn through(window: &Window, calendar: &Calendar) -> Option<Date> {
    let next = window.date.tomorrow().ok()?;
    let next_start = calendar.instant(next).ok()?;
    if window.end <= next_start {
        return None;
    }
    let last = today(window.end, calendar).yesterday().ok()?;
    (last > window.date).then_some(last)
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    fn calendar(zone: &str) -> Calendar {
        Calendar::new(TimeZone::get(zone).unwrap())
    }

    #[test]
    fn dst_spring_forward_day_is_23_hours() {
        let window = calendar("America/New_York").window(date(2026, 3, 8)).unwrap();
        assert_eq!(window.start.to_string(), "2026-03-08T05:00:00Z");
        assert_eq!(window.end.to_string(), "2026-03-09T04:00:00Z");
    }

    #[test]
    fn dst_fall_back_day_is_25_hours() {
        let window = calendar("America/New_York").window(date(2026, 11, 1)).unwrap();
        assert_eq!(window.end.duration_since(window.start).as_hours(), 25);
    }

    #[test]
    fn day_start_shifts_both_edges_and_today() {
        let mut calendar = calendar("Asia/Tokyo");
        calendar.day_start = Time::new(4, 0, 0, 0).unwrap();
        let window = calendar.window(date(2026, 11, 27)).unwrap();
        assert_eq!(window.start.to_string(), "2026-11-26T19:00:00Z");
        assert_eq!(window.end.to_string(), "2026-11-27T19:00:00Z");
        // 03:30 local on the 28th still belongs to the 27th.
        let now: Timestamp = "2026-11-27T18:30:00Z".parse().unwrap();
        assert_eq!(today(now, &calendar), date(2026, 11, 27));
    }

    #[test]
    fn monday_goes_back_to_friday() {
        assert_eq!(
            calendar("UTC").previous_workday(date(2026, 11, 30)).unwrap(),
            date(2026, 11, 27)
        );
    }

    #[test]
    fn day_after_holiday_goes_back_past_it() {
        let mut calendar = calendar("UTC");
        calendar.holidays.insert(date(2026, 11, 23));
        // Tuesday the 24th: Monday the 23rd is a holiday, so Friday the 20th.
        assert_eq!(calendar.previous_workday(date(2026, 11, 24)).unwrap(), date(2026, 11, 20));
    }

    #[test]
    fn monday_standup_previous_bucket_runs_from_friday_to_monday() {
        let calendar = calendar("Asia/Tokyo");
        let windows = report_windows(ReportKind::Standup, date(2026, 11, 30), &calendar).unwrap();
        let (kind, previous) = windows[0];
        assert_eq!(kind, BucketKind::PreviousWorkday);
        assert_eq!(previous.date, date(2026, 11, 27));
        assert_eq!(previous.start.to_string(), "2026-11-26T15:00:00Z");
        // Up to the start of Monday: Saturday and Sunday are in it.
        assert_eq!(previous.end, windows[1].1.start);
        assert_eq!(through(&previous, &calendar), Some(date(2026, 11, 29)));
        // Tuesday's previous bucket is Monday alone.
        let windows = report_windows(ReportKind::Standup, date(2026, 12, 1), &calendar).unwrap();
        assert_eq!(windows[0].1, calendar.window(date(2026, 11, 30)).unwrap());
        assert_eq!(through(&windows[0].1, &calendar), None);
    }

    #[test]
    fn windows_end_at_now() {
        let calendar = calendar("Asia/Tokyo");
        let now: Timestamp = "2026-11-30T00:00:00Z".parse().unwrap();
        let mut windows =
            report_windows(ReportKind::Standup, date(2026, 11, 30), &calendar).unwrap();
        let previous_end = windows[0].1.end;
        end_at(&mut windows, ReportKind::Standup, now);
        assert_eq!(windows[0].1.end, previous_end);
        assert_eq!(windows[1].1.end, now);
        // A day after now is empty.
        let mut windows = report_windows(ReportKind::Daily, date(2026, 12, 2), &calendar).unwrap();
        end_at(&mut windows, ReportKind::Daily, now);
        assert_eq!(windows[0].1.start, windows[0].1.end);
    }

    #[test]
    fn a_week_is_monday_to_sunday_and_so_far() {
        let calendar = calendar("UTC");
        let windows = report_windows(ReportKind::Week, date(2026, 11, 26), &calendar).unwrap();
        let days: Vec<Date> = windows.iter().map(|(_, window)| window.date).collect();
        assert_eq!(days.first(), Some(&date(2026, 11, 23)));
        assert_eq!(days.last(), Some(&date(2026, 11, 29)));
        assert_eq!(days.len(), 7);
        let mut so_far = windows.clone();
        end_at(&mut so_far, ReportKind::Week, "2026-11-25T10:00:00Z".parse().unwrap());
        let days: Vec<Date> = so_far.iter().map(|(_, window)| window.date).collect();
        assert_eq!(days, [date(2026, 11, 23), date(2026, 11, 24), date(2026, 11, 25)]);
        // Sunday belongs to the week before.
        let windows = report_windows(ReportKind::Week, date(2026, 11, 29), &calendar).unwrap();
        assert_eq!(windows[0].1.date, date(2026, 11, 23));
    }

    #[test]
    fn ranges_are_checked() {
        let calendar = calendar("UTC");
        assert_eq!(
            range_windows(date(2026, 11, 1), date(2026, 11, 3), &calendar).unwrap().len(),
            3
        );
        insta::assert_snapshot!(range_windows(date(2026, 11, 3), date(2026, 11, 1), &calendar).unwrap_err(), @"the range ends (2026-11-01) before it starts (2026-11-03)");
        insta::assert_snapshot!(range_windows(date(2025, 1, 1), date(2026, 11, 1), &calendar).unwrap_err(), @"the range 2025-01-01 to 2026-11-01 is longer than 366 days");
    }

    #[test]
    fn no_workdays_is_an_error() {
        let mut calendar = calendar("UTC");
        calendar.workdays.clear();
        let error = calendar.previous_workday(date(2026, 11, 24)).unwrap_err();
        insta::assert_snapshot!(error, @"no working day is configured (`workdays` is empty)");
    }
}
