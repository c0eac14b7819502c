//! A cache prefetch hint for the nodes the traversal will read next.

/// Bytes per cache line on the targets ccd is tuned for.
const LINE: usize = 64;

/// Asks the processor to start loading the cache lines of `items[first..first + count]`, without checking that
/// the range is inside `items`: a hint only, for a range that is in bounds whenever the hint is useful (e.g. the
/// children of a node of a validated tree) and may be anything otherwise. Nothing is read through the address and
/// nothing is returned, so an address outside `items` costs at most a wasted prefetch.
#[inline(always)]
pub(crate) fn prefetch_unchecked<T>(items: &[T], first: usize, count: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let start = items.as_ptr().wrapping_add(first).cast::<i8>();
        let bytes = count * std::mem::size_of::<T>();
        let mut offset = 0;
        while offset < bytes {
            // SAFETY: `prefetch` (SSE, which every x86_64 target has) reads nothing architecturally and cannot
            // fault, whatever the address; the address is formed with `wrapping_add`, which is defined for any
            // offset, and is never dereferenced.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(offset)) };
            offset += LINE;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (items, first, count);
}

#[cfg(test)]
mod tests {
    use super::prefetch_unchecked;

    /// The hint leaves memory untouched and never faults, for ranges smaller and larger than a line, in bounds and
    /// far outside them (it runs the module's only `unsafe`).
    #[test]
    fn prefetch_changes_nothing() {
        let data: Vec<u64> = (0..1024).collect();
        for first in 0..1024 {
            prefetch_unchecked(&data, first, 1);
        }
        for first in [0, 5, 1000, 1023, 1024, 5000, usize::MAX / 16, usize::MAX] {
            prefetch_unchecked(&data, first, 2);
            prefetch_unchecked(&data, first, 300);
        }
        assert!(data.iter().enumerate().all(|(i, x)| *x == i as u64));
    }
}
