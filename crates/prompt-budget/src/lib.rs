#![doc = include_str!("../README.md")]
#![doc = ""]
//! Fits a structured payload (a `serde_json::Value`) into a budget counted in characters
//! (Unicode scalar values) by ordered drop tiers, marking what was cut.
//!
//! Owns the drop tiers, the size accounting and the final hard cap. Never knows what the
//! payload means (reports, prompts, models): the caller describes what may be dropped, in
//! which order, with path patterns.
//!
//! # Model
//!
//! A [`Tier`] names a set of places in the payload with a *target pattern* — a JSON pointer
//! (RFC 6901) whose segments may be `*` — and one drop operation:
//!
//! - [`Tier::trim`]: every array the pattern matches loses its elements beyond the first
//!   `keep`, the last element first, one element at a time;
//! - [`Tier::remove`]: every object field the pattern matches is removed, one field at a
//!   time.
//!
//! Each drop sets `"truncated": true` ([`MARK_KEY`]) on the object named by the tier's
//! *mark pattern*, which must be a proper prefix of the target pattern (so `/shell` marks the
//! `shell` object when `/shell/groups` is trimmed). Marks on things that are not objects are
//! skipped.
//!
//! [`fit`] applies the tiers in order, and each tier only as far as needed: before every
//! single drop it checks the running size against the budget and stops as soon as the
//! payload fits. Matches of a tier are visited in document order, or reversed with
//! [`Tier::last_match_first`]. When every tier is spent and the payload still does not fit,
//! the serialized text is cut to the budget (the hard cap), so the result never exceeds the
//! budget, even when the budget is smaller than an empty payload. The hard-capped text is
//! usually no longer valid JSON; [`Fitted::hard_capped`] says when that happened.
//!
//! # Cost
//!
//! The payload is measured once with a counting writer; after that each drop subtracts the
//! size of what it removed (measured once, when removed) and each mark adds its own size, so
//! fitting costs time linear in the payload, never one re-serialization per dropped item.
//! The text is serialized once more at the end. Size accounting assumes a formatter that
//! writes no whitespace between tokens (like `serde_json`'s `CompactFormatter`); how it
//! escapes strings is free, because every removed piece is measured through the same
//! formatter.
//!
//! Object keys come out sorted (`Value::sort_all_objects` runs before the final
//! serialization), so the same payload always gives the same text.

mod error;
mod pattern;

use std::io;

use serde::Serialize;
use serde_json::Value;
use serde_json::ser::{CompactFormatter, Formatter};

pub use crate::error::Error;
use crate::pattern::{Pattern, Step, get_mut};

/// The key set to `true` on an object when a tier cut something from it.
pub const MARK_KEY: &str = "truncated";

/// The order in which a tier visits the places its target pattern matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    /// Document order: object keys in map order, array elements by index.
    FirstMatchFirst,
    /// Reverse document order.
    LastMatchFirst,
}

/// What a tier does to each place it matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    /// Drop the elements of an array beyond the first `keep`, the last one first.
    Trim { keep: usize },
    /// Remove an object field.
    Remove,
}

/// One drop tier: what may be dropped, where the cut is marked, and in which order.
#[derive(Debug, Clone)]
pub struct Tier {
    name: String,
    target: Pattern,
    mark: Pattern,
    action: Action,
    order: Order,
}

impl Tier {
    /// A tier that trims every array matched by `arrays` to its first `keep` elements,
    /// dropping the last element first, and marks the object matched by `mark`.
    pub fn trim(
        name: impl Into<String>,
        arrays: &str,
        keep: usize,
        mark: &str,
    ) -> Result<Tier, Error> {
        Tier::new(name.into(), arrays, mark, Action::Trim { keep })
    }

    /// A tier that removes every object field matched by `fields` (the last segment names
    /// the key, or `*` for every key) and marks the object matched by `mark`.
    pub fn remove(name: impl Into<String>, fields: &str, mark: &str) -> Result<Tier, Error> {
        Tier::new(name.into(), fields, mark, Action::Remove)
    }

    fn new(name: String, target: &str, mark: &str, action: Action) -> Result<Tier, Error> {
        let target = Pattern::parse(target)?;
        let mark = Pattern::parse(mark)?;
        if !mark.is_proper_prefix_of(&target) {
            return Err(Error::MarkNotAncestor {
                tier: name,
                mark: mark.text,
                target: target.text,
            });
        }
        Ok(Tier { name, target, mark, action, order: Order::FirstMatchFirst })
    }

    /// Visits the matched places in reverse document order (the default is document order).
    /// Inside one trimmed array, elements are always dropped from the end.
    #[must_use]
    pub fn last_match_first(mut self) -> Tier {
        self.order = Order::LastMatchFirst;
        self
    }

    /// The tier's name, as reported in [`Fitted::tiers_applied`].
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// The result of fitting a payload.
#[derive(Debug, Clone)]
pub struct Fitted {
    /// The serialized payload, at most `budget` characters long.
    pub text: String,
    /// The payload after the tiers' drops and marks, before any hard cap.
    pub value: Value,
    /// The names of the tiers that dropped something, in the order they ran.
    pub tiers_applied: Vec<String>,
    /// Whether the text had to be cut after every tier was spent (it is then usually not
    /// valid JSON).
    pub hard_capped: bool,
}

/// Fits `payload` into `budget` characters with compact JSON (see the crate docs).
pub fn fit(payload: Value, budget: usize, tiers: &[Tier]) -> Result<Fitted, Error> {
    fit_with(payload, budget, tiers, CompactFormatter)
}

/// Fits `payload` into `budget` characters, serializing through `formatter`, which must write
/// no whitespace between tokens but may escape strings as it likes.
pub fn fit_with<F>(
    payload: Value,
    budget: usize,
    tiers: &[Tier],
    formatter: F,
) -> Result<Fitted, Error>
where
    F: Formatter + Clone,
{
    fit_counting(payload, budget, tiers, formatter).map(|(fitted, _)| fitted)
}

/// What a fit cost, for tests: characters measured in total, and the size the accounting
/// tracked before the final serialization.
#[derive(Debug, Clone, Copy)]
struct Cost {
    #[cfg_attr(not(test), expect(dead_code, reason = "read by the unit tests only"))]
    measured: usize,
    #[cfg_attr(not(test), expect(dead_code, reason = "read by the unit tests only"))]
    tracked_size: usize,
}

/// [`fit_with`], also returning what the fit cost.
fn fit_counting<F>(
    mut payload: Value,
    budget: usize,
    tiers: &[Tier],
    formatter: F,
) -> Result<(Fitted, Cost), Error>
where
    F: Formatter + Clone,
{
    let mut fitter = Fitter { formatter, size: 0, measured: 0 };
    fitter.size = fitter.measure(&payload)?;
    let mut tiers_applied = Vec::new();
    for tier in tiers {
        if fitter.size <= budget {
            break;
        }
        if fitter.apply(&mut payload, tier, budget)? {
            tiers_applied.push(tier.name.clone());
        }
    }
    payload.sort_all_objects();
    let mut text = fitter.serialize(&payload)?;
    let hard_capped = match text.char_indices().nth(budget) {
        Some((cut, _)) => {
            text.truncate(cut);
            true
        }
        None => false,
    };
    let result = Fitted { text, value: payload, tiers_applied, hard_capped };
    Ok((result, Cost { measured: fitter.measured, tracked_size: fitter.size }))
}

/// The running state of one fit: the formatter, the current size of the payload in
/// characters, and (for tests) how many characters were measured in total.
struct Fitter<F> {
    formatter: F,
    size: usize,
    measured: usize,
}

impl<F: Formatter + Clone> Fitter<F> {
    /// Applies `tier` until the payload fits; returns whether anything was dropped.
    fn apply(&mut self, payload: &mut Value, tier: &Tier, budget: usize) -> Result<bool, Error> {
        let mut places = tier.target.matches(payload, tier.action == Action::Remove);
        if tier.order == Order::LastMatchFirst {
            places.reverse();
        }
        // Matches of one pattern all have the same depth, so none is inside another and
        // dropping at one place never moves another place's path.
        let mut dropped = false;
        for place in &places {
            let mark_path = &place[..tier.mark.segments.len()];
            loop {
                if self.size <= budget {
                    return Ok(dropped);
                }
                if !self.drop_one(payload, place, tier.action)? {
                    break;
                }
                dropped = true;
                self.mark(payload, mark_path)?;
                if tier.action == Action::Remove {
                    break;
                }
            }
        }
        Ok(dropped)
    }

    /// Drops one thing at `place`; returns whether there was something to drop.
    fn drop_one(
        &mut self,
        payload: &mut Value,
        place: &[Step],
        action: Action,
    ) -> Result<bool, Error> {
        let removed_size = match action {
            Action::Trim { keep } => {
                let Some(Value::Array(items)) = get_mut(payload, place) else {
                    return Ok(false);
                };
                if items.len() <= keep {
                    return Ok(false);
                }
                let Some(item) = items.pop() else {
                    return Ok(false);
                };
                let separator = usize::from(!items.is_empty());
                self.measure(&item)? + separator
            }
            Action::Remove => {
                let Some((Step::Key(key), parent_path)) = place.split_last() else {
                    return Ok(false);
                };
                let Some(Value::Object(map)) = get_mut(payload, parent_path) else {
                    return Ok(false);
                };
                let Some(value) = map.remove(key) else {
                    return Ok(false);
                };
                let separator = usize::from(!map.is_empty());
                let key = Value::String(key.clone());
                self.measure(&key)? + 1 + self.measure(&value)? + separator
            }
        };
        self.size = self.size.saturating_sub(removed_size);
        Ok(true)
    }

    /// Sets the mark on the object at `path`, accounting for its size.
    fn mark(&mut self, payload: &mut Value, path: &[Step]) -> Result<(), Error> {
        let Some(Value::Object(map)) = get_mut(payload, path) else {
            return Ok(());
        };
        let marked = Value::Bool(true);
        match map.get(MARK_KEY) {
            Some(old) if *old == marked => return Ok(()),
            Some(old) => {
                let old = old.clone();
                self.size = self.size.saturating_sub(self.measure(&old)?);
                self.size += self.measure(&marked)?;
            }
            None => {
                let key = Value::String(MARK_KEY.to_owned());
                let separator = usize::from(!map.is_empty());
                self.size += self.measure(&key)? + 1 + self.measure(&marked)? + separator;
            }
        }
        map.insert(MARK_KEY.to_owned(), marked);
        Ok(())
    }

    /// The size of `value` in characters, serialized through the formatter.
    fn measure(&mut self, value: &Value) -> Result<usize, Error> {
        let mut counter = CharCounter { chars: 0 };
        let mut serializer =
            serde_json::Serializer::with_formatter(&mut counter, self.formatter.clone());
        value.serialize(&mut serializer).map_err(Error::Serialize)?;
        self.measured += counter.chars;
        Ok(counter.chars)
    }

    /// The whole payload as text, through the formatter.
    fn serialize(&self, value: &Value) -> Result<String, Error> {
        let mut bytes = Vec::new();
        let mut serializer =
            serde_json::Serializer::with_formatter(&mut bytes, self.formatter.clone());
        value.serialize(&mut serializer).map_err(Error::Serialize)?;
        // serde_json writes UTF-8 from `&str` pieces; a formatter that wrote anything else is
        // a bug in that formatter, and lossy decoding keeps this total.
        Ok(String::from_utf8(bytes)
            .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned()))
    }
}

/// A writer that only counts the characters written to it. serde_json writes whole UTF-8
/// sequences, so counting the bytes that do not continue a sequence counts characters.
struct CharCounter {
    chars: usize,
}

impl io::Write for CharCounter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.chars += buf.iter().filter(|&&byte| byte & 0xC0 != 0x80).count();
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests;
