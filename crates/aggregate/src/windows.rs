//! Local calendar days as half-open windows, and the standup's previous working day.

use std::collections::BTreeSet;

use jiff::civil::{Date, Time, Weekday};
use jiff::tz::TimeZone;
use jiff::{Timestamp, ToSpan};
use report_model::{BucketKind, ReportKind, Window};

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

    fn instant(&self, date: Date) -> Result<Timestamp, Error> {
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

/// The windows of a report for `date`: the day itself for a daily report; the previous
/// working day and the day for a standup.
pub fn report_windows(
    kind: ReportKind,
    date: Date,
    calendar: &Calendar,
) -> Result<Vec<(BucketKind, Window)>, Error> {
    match kind {
        ReportKind::Daily => Ok(vec![(BucketKind::Day, calendar.window(date)?)]),
        ReportKind::Standup => {
            let previous = calendar.previous_workday(date)?;
            Ok(vec![
                (BucketKind::PreviousWorkday, calendar.window(previous)?),
                (BucketKind::Today, calendar.window(date)?),
            ])
        }
    }
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
    fn no_workdays_is_an_error() {
        let mut calendar = calendar("UTC");
        calendar.workdays.clear();
        let error = calendar.previous_workday(date(2026, 11, 24)).unwrap_err();
        insta::assert_snapshot!(error, @"no working day is configured (`workdays` is empty)");
    }
}
