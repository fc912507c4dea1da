//! The one worker pool: a function mapped over items on a few scoped threads, the
//! results in item order whichever thread finished first.

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Threads for work that waits on the disk about as much as it computes (reading
/// repositories, walking folders): four per core, at most 8. On a cold cache each loose
/// object, ref and index is a small random read, and a worker waiting on one leaves its
/// core idle: eight workers on two cores read `fetched` cold in 0.81 of the time four
/// took, for a few percent more warm (see `docs/decisions.md`, round 12).
pub fn threads() -> usize {
    std::thread::available_parallelism().map_or(8, |cores| NonZeroUsize::get(cores) * 4).min(8)
}

/// Applies `f` to every item on up to `threads` threads (at least one, at most one per
/// item) and returns the results in the order of `items`. Items are handed out one at
/// a time, so a slow item does not hold back a whole share. A panic in `f` is passed on
/// to the caller once every thread has stopped.
pub fn map_ordered<T, R, F>(items: &[T], threads: usize, f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync,
{
    map_in(items, None, threads, f)
}

/// [`map_ordered`], the items handed out costliest first (by `cost`, an estimate such as
/// a file's size; equal costs in item order), so that the last item taken is a cheap
/// one and no thread is left alone with a large one at the end. The results are still
/// in the order of `items`.
pub fn map_ordered_by_cost<T, R, F>(
    items: &[T],
    threads: usize,
    cost: impl Fn(&T) -> u64,
    f: F,
) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync,
{
    map_in(items, Some(&costliest_first(items, cost)), threads, f)
}

/// The indexes of `items`, costliest first; equal costs in item order.
fn costliest_first<T>(items: &[T], cost: impl Fn(&T) -> u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&index| std::cmp::Reverse(cost(&items[index])));
    order
}

/// The pool: the items handed out in `order` (indexes into `items`), else in item order.
fn map_in<T, R, F>(items: &[T], order: Option<&[usize]>, threads: usize, f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync,
{
    let threads = threads.clamp(1, items.len().max(1));
    if threads == 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let done: Vec<Vec<(usize, R)>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let taken = next.fetch_add(1, Ordering::Relaxed);
                        let index = order.map_or(Some(taken), |order| order.get(taken).copied());
                        let Some(index) = index else { break };
                        let Some(item) = items.get(index) else { break };
                        done.push((index, f(item)));
                    }
                    done
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| worker.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    });
    let mut slots: Vec<Option<R>> = items.iter().map(|_| None).collect();
    for (index, result) in done.into_iter().flatten() {
        slots[index] = Some(result);
    }
    slots.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::{map_ordered, map_ordered_by_cost};

    #[test]
    fn results_come_in_item_order() {
        let items: Vec<u64> = (0..200).collect();
        for threads in [0, 1, 2, 7, 500] {
            // Later items finish first: the order must still be the items'.
            let results = map_ordered(&items, threads, |&item| {
                std::thread::sleep(std::time::Duration::from_micros((200 - item) * 5));
                item * 2
            });
            assert_eq!(results, items.iter().map(|item| item * 2).collect::<Vec<_>>());
        }
        assert!(map_ordered(&[] as &[u8], 4, |&item| item).is_empty());
    }

    #[test]
    fn work_is_spread_over_threads() {
        let items: Vec<u32> = (0..64).collect();
        let threads = map_ordered(&items, 4, |_| {
            std::thread::sleep(std::time::Duration::from_millis(2));
            std::thread::current().id()
        });
        let distinct: std::collections::BTreeSet<String> =
            threads.iter().map(|id| format!("{id:?}")).collect();
        assert!(distinct.len() > 1, "{distinct:?}");
    }

    #[test]
    fn the_costliest_items_are_handed_out_first_and_results_stay_in_item_order() {
        let items: Vec<u64> = vec![3, 9, 1, 9, 5];
        assert_eq!(super::costliest_first(&items, |&item| item), vec![1, 3, 4, 0, 2]);
        for threads in [1, 2, 3, 8] {
            let results = map_ordered_by_cost(
                &items,
                threads,
                |&item| item,
                |&item| {
                    // The costliest finish last: the order must still be the items'.
                    std::thread::sleep(std::time::Duration::from_micros(item * 50));
                    item * 10
                },
            );
            assert_eq!(results, vec![30, 90, 10, 90, 50], "{threads} threads");
        }
    }
}
