//! A cache prefetch hint for the nodes the traversal will read next.

/// Bytes per cache line on the targets ccd is tuned for.
const LINE: usize = 64;

/// Asks the processor to start loading every cache line that `x` covers (and does nothing on targets without a
/// prefetch instruction). A hint only: it never changes a result.
#[inline(always)]
pub(crate) fn prefetch<T: ?Sized>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let start = std::ptr::from_ref(x).cast::<i8>();
        let mut offset = 0;
        while offset < std::mem::size_of_val(x) {
            // SAFETY: `prefetch` (SSE, which every x86_64 target has) reads nothing architecturally and cannot
            // fault; the address is inside the object `x` refers to, so even the pointer arithmetic stays in
            // bounds.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.add(offset)) };
            offset += LINE;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

#[cfg(test)]
mod tests {
    use super::prefetch;

    /// The hint leaves memory untouched, for objects smaller and larger than a line (and runs: it is the only
    /// `unsafe` in the crate).
    #[test]
    fn prefetch_changes_nothing() {
        let data: Vec<u64> = (0..1024).collect();
        for x in &data {
            prefetch(x);
        }
        prefetch(&data[..]);
        prefetch(&data[3..700]);
        assert!(data.iter().enumerate().all(|(i, x)| *x == i as u64));
    }
}
