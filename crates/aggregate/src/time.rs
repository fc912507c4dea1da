//! Time spent: an estimate of active time from the times of events.

use jiff::Timestamp;
use report_model::{Span, TimeSpent};

/// How active time is estimated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeRules {
    /// Events less than this many minutes apart join one span.
    pub idle_minutes: u64,
    /// The least a span counts for, in minutes (what a lone event counts).
    pub min_span_minutes: u64,
}

impl Default for TimeRules {
    fn default() -> Self {
        TimeRules { idle_minutes: 30, min_span_minutes: 10 }
    }
}

/// The spans of activity `times` form: sorted, events less than `idle_minutes` apart
/// join one span, and each span counts its length rounded down to the minute, or
/// `min_span_minutes` when that is more (so a lone event counts `min_span_minutes`).
/// The estimate is the spans' counts added up.
pub fn time_spent(times: &[Timestamp], rules: TimeRules) -> TimeSpent {
    let mut times = times.to_vec();
    times.sort_unstable();
    let idle_seconds = i64::try_from(rules.idle_minutes.saturating_mul(60)).unwrap_or(i64::MAX);
    let mut spans: Vec<Span> = Vec::new();
    for time in times {
        match spans.last_mut() {
            Some(span) if time.duration_since(span.end).as_secs() < idle_seconds => {
                span.end = time;
                span.events += 1;
            }
            _ => spans.push(Span { start: time, end: time, events: 1, minutes: 0 }),
        }
    }
    let mut minutes = 0u64;
    for span in &mut spans {
        let length = u64::try_from(span.end.duration_since(span.start).as_secs() / 60).unwrap_or(0);
        span.minutes = length.max(rules.min_span_minutes);
        minutes = minutes.saturating_add(span.minutes);
    }
    TimeSpent { minutes, spans }
}

/// Estimates added up, their spans one after the other (for windows that do not
/// overlap, such as the days of a report).
pub(crate) fn sum<'a>(parts: impl IntoIterator<Item = &'a TimeSpent>) -> TimeSpent {
    let mut total = TimeSpent::default();
    for part in parts {
        total.minutes = total.minutes.saturating_add(part.minutes);
        total.spans.extend(part.spans.iter().copied());
    }
    total.spans.sort_by_key(|span| (span.start, span.end));
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(clock: &str) -> Timestamp {
        format!("2026-11-27T{clock}:00Z").parse().unwrap()
    }

    fn spans(spent: &TimeSpent) -> Vec<(String, String, u64, u64)> {
        spent
            .spans
            .iter()
            .map(|span| {
                (
                    span.start.strftime("%H:%M").to_string(),
                    span.end.strftime("%H:%M").to_string(),
                    span.events,
                    span.minutes,
                )
            })
            .collect()
    }

    #[test]
    fn events_closer_than_the_idle_gap_join_one_span() {
        let times = [at("09:12"), at("09:40"), at("10:05"), at("10:34")];
        let spent = time_spent(&times, TimeRules::default());
        assert_eq!(spans(&spent), [("09:12".into(), "10:34".into(), 4, 82)]);
        assert_eq!(spent.minutes, 82);
    }

    #[test]
    fn a_gap_of_exactly_the_idle_minutes_splits() {
        let spent = time_spent(&[at("09:00"), at("09:30")], TimeRules::default());
        assert_eq!(
            spans(&spent),
            [("09:00".into(), "09:00".into(), 1, 10), ("09:30".into(), "09:30".into(), 1, 10)]
        );
        assert_eq!(spent.minutes, 20);
        let spent = time_spent(&[at("09:00"), at("09:29")], TimeRules::default());
        assert_eq!(spent.minutes, 29);
    }

    #[test]
    fn a_lone_event_and_a_short_span_count_the_minimum() {
        let rules = TimeRules { idle_minutes: 30, min_span_minutes: 10 };
        let spent = time_spent(&[at("14:00"), at("14:03"), at("18:05")], rules);
        assert_eq!(
            spans(&spent),
            [("14:00".into(), "14:03".into(), 2, 10), ("18:05".into(), "18:05".into(), 1, 10)]
        );
        assert_eq!(spent.minutes, 20);
    }

    #[test]
    fn unsorted_input_and_custom_rules() {
        let rules = TimeRules { idle_minutes: 60, min_span_minutes: 0 };
        let spent = time_spent(&[at("11:00"), at("09:12"), at("10:10"), at("18:05")], rules);
        assert_eq!(
            spans(&spent),
            [("09:12".into(), "11:00".into(), 3, 108), ("18:05".into(), "18:05".into(), 1, 0)]
        );
        assert_eq!(spent.minutes, 108);
    }

    #[test]
    fn nothing_is_nothing() {
        assert_eq!(time_spent(&[], TimeRules::default()), TimeSpent::default());
    }

    #[test]
    fn sums_keep_spans_in_order() {
        let rules = TimeRules::default();
        let afternoon = time_spent(&[at("15:00"), at("15:20")], rules);
        let morning = time_spent(&[at("09:00")], rules);
        let total = sum([&afternoon, &morning]);
        assert_eq!(total.minutes, 30);
        assert_eq!(total.spans[0].start, at("09:00"));
    }
}
