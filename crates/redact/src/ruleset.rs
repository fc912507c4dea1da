//! A set of rule numbers, without allocating for up to 256 rules.

/// A set of rule numbers (indices into the redactor's rules).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RuleSet {
    /// Up to 256 rules: one bit each.
    Small([u64; 4]),
    /// More rules.
    Large(Vec<bool>),
}

impl RuleSet {
    /// An empty set for `n_rules` rules.
    pub(crate) fn new(n_rules: usize) -> RuleSet {
        if n_rules <= 256 { RuleSet::Small([0; 4]) } else { RuleSet::Large(vec![false; n_rules]) }
    }

    pub(crate) fn insert(&mut self, rule_idx: usize) {
        match self {
            RuleSet::Small(words) => words[rule_idx / 64] |= 1 << (rule_idx % 64),
            RuleSet::Large(flags) => flags[rule_idx] = true,
        }
    }

    pub(crate) fn contains(&self, rule_idx: usize) -> bool {
        match self {
            RuleSet::Small(words) => words[rule_idx / 64] & (1 << (rule_idx % 64)) != 0,
            RuleSet::Large(flags) => flags[rule_idx],
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        match self {
            RuleSet::Small(words) => words.iter().all(|&word| word == 0),
            RuleSet::Large(flags) => !flags.contains(&true),
        }
    }

    /// The rule numbers in the set, in increasing order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        let (small, large) = match self {
            RuleSet::Small(bits) => (Some(*bits), None),
            RuleSet::Large(flags) => (None, Some(flags)),
        };
        let small = small.into_iter().flat_map(|words| {
            words.into_iter().enumerate().flat_map(|(word_idx, mut bits)| {
                std::iter::from_fn(move || {
                    (bits != 0).then(|| {
                        let rule_idx = word_idx * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        rule_idx
                    })
                })
            })
        });
        let large = large.into_iter().flat_map(|flags| {
            flags.iter().enumerate().filter(|&(_, &flag)| flag).map(|(idx, _)| idx)
        });
        small.chain(large)
    }
}

#[cfg(test)]
mod tests {
    use super::RuleSet;

    #[test]
    fn small_and_large_sets_agree() {
        for n_rules in [1, 127, 128, 129, 255, 256, 257, 300] {
            let mut set = RuleSet::new(n_rules);
            assert!(set.is_empty());
            let members: Vec<usize> = [0, 5, 63, 64, 127, 128, 191, 192, 255, 256, 299]
                .into_iter()
                .filter(|&idx| idx < n_rules)
                .collect();
            for &idx in &members {
                set.insert(idx);
            }
            assert_eq!(set.iter().collect::<Vec<_>>(), members, "{n_rules} rules");
            assert!(set.contains(0) && !set.contains(1));
            assert!(!set.is_empty());
        }
    }
}
