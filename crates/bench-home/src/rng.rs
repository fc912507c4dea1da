//! A small seeded PRNG (splitmix64): fast, deterministic on every platform, and with no
//! dependency. Quality is ample for shaping synthetic data; it is not for cryptography.

/// A splitmix64 generator.
pub(crate) struct Rng(u64);

impl Rng {
    /// A generator for one part of the home: the preset's seed mixed with a label, so
    /// that each part draws its own stream and changing one part does not shift another.
    pub(crate) fn derive(seed: u64, label: &str) -> Rng {
        // FNV-1a over the label.
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in label.bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        let mut rng = Rng(seed ^ hash);
        rng.next_u64();
        rng
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`0` when `n` is `0`), without modulo bias worth noticing.
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        // The high half of a 64×64 product always fits in 64 bits.
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// A number in `low..=high`.
    pub(crate) fn range(&mut self, low: u64, high: u64) -> u64 {
        low + self.below(high - low + 1)
    }

    /// A `usize` in `low..=high`.
    pub(crate) fn range_usize(&mut self, low: usize, high: usize) -> usize {
        low + self.index(high - low + 1)
    }

    /// An `i64` in `low..=high`.
    pub(crate) fn range_i64(&mut self, low: i64, high: i64) -> i64 {
        low + i64::try_from(self.below(high.abs_diff(low) + 1)).unwrap_or(0)
    }

    /// An index into a collection of `len` items.
    pub(crate) fn index(&mut self, len: usize) -> usize {
        usize::try_from(self.below(len as u64)).unwrap_or(0)
    }

    /// `true` with probability `percent` / 100.
    pub(crate) fn percent(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// One item of a non-empty slice.
    pub(crate) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.index(items.len())]
    }

    /// One string of a non-empty list (`pick` with the `&str` already copied out, which
    /// type inference needs where a `&str` is expected).
    pub(crate) fn pick_str(&mut self, items: &[&'static str]) -> &'static str {
        items[self.index(items.len())]
    }

    /// An index chosen with the given weights (not all zero).
    pub(crate) fn weighted(&mut self, weights: &[u64]) -> usize {
        let total: u64 = weights.iter().sum();
        let mut draw = self.below(total);
        for (index, weight) in weights.iter().enumerate() {
            if draw < *weight {
                return index;
            }
            draw -= weight;
        }
        weights.len() - 1
    }

    /// A random (version 4) UUID in its hyphenated form.
    pub(crate) fn uuid(&mut self) -> String {
        let high = self.next_u64();
        let low = self.next_u64();
        let high = (high & 0xffff_ffff_ffff_0fff) | 0x0000_0000_0000_4000;
        let low = (low & 0x3fff_ffff_ffff_ffff) | 0x8000_0000_0000_0000;
        format!(
            "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
            high >> 32,
            (high >> 16) & 0xffff,
            high & 0xffff,
            low >> 48,
            low & 0xffff_ffff_ffff
        )
    }

    /// `digits` lowercase hexadecimal digits.
    pub(crate) fn hex(&mut self, digits: usize) -> String {
        let mut text = String::with_capacity(digits);
        while text.len() < digits {
            let value = self.next_u64();
            for shift in (0..16).rev() {
                if text.len() == digits {
                    break;
                }
                let digit = ((value >> (shift * 4)) & 0xf) as u32;
                text.push(char::from_digit(digit, 16).unwrap_or('0'));
            }
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_and_label_give_the_same_stream() {
        let mut first = Rng::derive(7, "git");
        let mut second = Rng::derive(7, "git");
        let mut other = Rng::derive(7, "shell");
        let a: Vec<u64> = (0..8).map(|_| first.next_u64()).collect();
        let b: Vec<u64> = (0..8).map(|_| second.next_u64()).collect();
        let c: Vec<u64> = (0..8).map(|_| other.next_u64()).collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn ranges_stay_inside_their_bounds() {
        let mut rng = Rng::derive(1, "ranges");
        for _ in 0..10_000 {
            assert!((3..=9).contains(&rng.range(3, 9)));
            assert!((-5..=5).contains(&rng.range_i64(-5, 5)));
            assert!(rng.index(4) < 4);
            assert_eq!(rng.weighted(&[0, 5, 0]), 1);
        }
    }

    #[test]
    fn uuids_have_the_version_4_shape() {
        let mut rng = Rng::derive(1, "uuid");
        let uuid = rng.uuid();
        assert_eq!(uuid.len(), 36);
        assert_eq!(&uuid[14..15], "4");
        assert!(matches!(&uuid[19..20], "8" | "9" | "a" | "b"), "{uuid}");
        assert_eq!(rng.hex(12).len(), 12);
    }
}
