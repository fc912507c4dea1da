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

/// The most threads [`for_cache`] gives.
const COLD_MAX: usize = 16;

/// What the process must have read from storage for [`for_cache`] to take the cache for
/// cold: a warm run reads nothing from the disk at all (its files are all in the page
/// cache), and a cold one has read megabytes by the time the folders are walked.
const COLD_READS: u64 = 1 << 20;

/// The threads for the repositories' reads, chosen once the folders have been walked:
/// `workers`, or twice as many (at most 16) when the run has read at least a MiB from
/// storage by then (the growth of `read_bytes`, as [`storage_reads`] gives it). On a cold cache
/// every ref, index and folder is a small read that leaves its worker waiting, and more
/// workers keep more of them in flight: on two cores, 16 read `pulled` and `fetched`
/// cold in 0.91–0.95 and 0.88 of the time 8 took; on a warm cache 16 cost 1–5% (more
/// threads taking turns on two cores), so they are used only where the disk was read.
pub fn for_cache(workers: usize, read_from_storage: Option<u64>) -> usize {
    match read_from_storage {
        Some(read) if read >= COLD_READS => {
            workers.saturating_mul(2).clamp(workers, COLD_MAX.max(workers))
        }
        _ => workers,
    }
}

/// The bytes this process has caused to be read from storage so far (`read_bytes` of
/// `/proc/self/io`: page-cache misses, its own and its threads'), or `None` where the
/// kernel does not count them.
pub fn storage_reads() -> Option<u64> {
    let text = crate::fsread::read_small_text(std::path::Path::new("/proc/self/io"), 4096).ok()?;
    read_bytes(&text)
}

/// The `read_bytes:` line of a `/proc/<pid>/io` text.
fn read_bytes(text: &str) -> Option<u64> {
    text.lines()
        .find_map(|line| line.strip_prefix("read_bytes:"))
        .and_then(|value| value.trim().parse().ok())
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
    use super::{for_cache, map_ordered, map_ordered_by_cost, read_bytes};

    #[test]
    fn a_cold_cache_doubles_the_workers_up_to_sixteen() {
        // Warm (nothing read from storage), not counted, or under a MiB: as given.
        for read in [None, Some(0), Some((1 << 20) - 1)] {
            assert_eq!(for_cache(8, read), 8, "{read:?}");
        }
        assert_eq!(for_cache(8, Some(1 << 20)), 16);
        assert_eq!(for_cache(4, Some(171 << 20)), 8);
        assert_eq!(for_cache(12, Some(1 << 30)), 16);
        // Never fewer than given, never none.
        assert_eq!(for_cache(20, Some(1 << 30)), 20);
        assert_eq!(for_cache(1, Some(1 << 30)), 2);
    }

    #[test]
    fn the_bytes_read_from_storage_are_read_from_proc_self_io() {
        let text = "rchar: 6976\nwchar: 0\nsyscr: 10\nsyscw: 0\nread_bytes: 171159552\nwrite_bytes: 0\ncancelled_write_bytes: 0\n";
        assert_eq!(read_bytes(text), Some(171_159_552));
        assert_eq!(read_bytes("rchar: 1\nwchar: 0\n"), None);
        assert_eq!(read_bytes("read_bytes: many\n"), None);
        // Where the kernel counts them (Linux with task I/O accounting), this process's.
        if std::path::Path::new("/proc/self/io").exists() {
            assert!(super::storage_reads().is_some());
        }
    }

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
