//! The content checksum of a `.bvh` file: catches accidental damage (bit rot, truncated copies, stray writes)
//! before anything reads the payload.
//!
//! The payload (every byte after the preamble) is cut into chunks of [`CHUNK`] bytes (the last may be shorter);
//! each chunk is hashed with XXH3-64 (seed 0), and the checksum is the XXH3-64 of the chunk digests written as
//! little-endian `u64`s one after the other. The chunks are independent, so validation hashes them in parallel
//! and writing hashes them as they stream out. XXH3 is not cryptographic: it detects damage, not tampering (a
//! deliberately edited file can carry a matching checksum; the tree verification is what makes such files safe).
//!
//! Validation hashes each chunk when its first reader reaches it ([`Chunks::touch`]): the tree walk hashes the
//! chunks of the nodes it is about to check, so the file is read from memory once and checked from the cache
//! (the 327,680-triangle f64 OBB file is 93 MB, far more than a core's cache), and the chunks no reader reached
//! are hashed at the end ([`Chunks::finish`]). The order does not change the checksum.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

/// XXH3-64 (seed 0) of `bytes`, with the widest vector instructions of this CPU (chosen at run time).
fn xxh3_64(bytes: &[u8]) -> u64 {
    twox_hash::XxHash3_64::oneshot(bytes)
}

/// Bytes per independently hashed chunk.
pub(crate) const CHUNK: usize = 1 << 20;

/// The checksum of `payload` (module docs).
pub(crate) fn checksum(payload: &[u8]) -> u64 {
    Chunks::new(payload).finish()
}

/// A payload's chunk digests, each computed once by whichever task first touches its chunk (module docs).
pub(crate) struct Chunks<'a> {
    payload: &'a [u8],
    digests: Vec<AtomicU64>,
    claimed: Vec<AtomicBool>,
}

impl<'a> Chunks<'a> {
    /// No chunk of `payload` hashed yet (one digest per [`CHUNK`] bytes: 16 bytes of bookkeeping per MiB).
    pub(crate) fn new(payload: &'a [u8]) -> Self {
        let n = payload.len().div_ceil(CHUNK);
        Self {
            payload,
            digests: (0..n).map(|_| AtomicU64::new(0)).collect(),
            claimed: (0..n).map(|_| AtomicBool::new(false)).collect(),
        }
    }

    /// The chunk that holds payload byte `at`.
    #[inline(always)]
    pub(crate) fn chunk_of(at: usize) -> usize {
        at / CHUNK
    }

    /// Hashes chunk `k` unless a task has claimed it already (or it lies past the payload).
    #[inline]
    pub(crate) fn touch(&self, k: usize) {
        if let Some(claim) = self.claimed.get(k)
            && !claim.load(Relaxed)
            && !claim.swap(true, Relaxed)
        {
            self.hash(k);
        }
    }

    #[cold]
    #[inline(never)]
    fn hash(&self, k: usize) {
        let end = (k * CHUNK + CHUNK).min(self.payload.len());
        self.digests[k].store(xxh3_64(&self.payload[k * CHUNK..end]), Relaxed);
    }

    /// The checksum, after hashing every chunk that no task touched. The tasks that touched chunks must have
    /// finished (joined) before, so that their digests are visible here.
    pub(crate) fn finish(&self) -> u64 {
        (0..self.digests.len())
            .into_par_iter()
            .for_each(|k| self.touch(k));
        let digests: Vec<u64> = self.digests.iter().map(|d| d.load(Relaxed)).collect();
        combine(&digests)
    }
}

/// The checksum from the chunk digests, in order.
fn combine(digests: &[u64]) -> u64 {
    xxh3_64(bytemuck::cast_slice(
        &digests.iter().map(|d| d.to_le()).collect::<Vec<u64>>(),
    ))
}

/// A writer that passes bytes on to `inner` and computes their [`checksum`] on the way.
pub(crate) struct Checksummed<W> {
    inner: W,
    chunk: Vec<u8>,
    digests: Vec<u64>,
}

impl<W: Write> Checksummed<W> {
    pub(crate) fn new(inner: W) -> Self {
        Self {
            inner,
            chunk: Vec::with_capacity(CHUNK),
            digests: Vec::new(),
        }
    }

    /// The writer and the checksum of everything written through it.
    pub(crate) fn finish(mut self) -> (W, u64) {
        if !self.chunk.is_empty() {
            self.digests.push(xxh3_64(&self.chunk));
        }
        (self.inner, combine(&self.digests))
    }
}

impl<W: Write> Write for Checksummed<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let n = bytes.len().min(CHUNK - self.chunk.len());
        self.inner.write_all(&bytes[..n])?;
        self.chunk.extend_from_slice(&bytes[..n]);
        if self.chunk.len() == CHUNK {
            self.digests.push(xxh3_64(&self.chunk));
            self.chunk.clear();
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Streaming, one-shot and touched-as-read checksums agree, on chunk boundaries and off them, and any
    /// changed byte changes the checksum.
    #[test]
    fn streaming_matches_one_shot_and_detects_changes() {
        for len in [0, 1, CHUNK - 1, CHUNK, CHUNK + 7, 3 * CHUNK] {
            let data: Vec<u8> = (0..len).map(|i| (i * 31 % 251) as u8).collect();
            let mut w = Checksummed::new(Vec::new());
            for piece in data.chunks(4093) {
                w.write_all(piece).unwrap();
            }
            let (out, sum) = w.finish();
            assert_eq!(out, data);
            assert_eq!(sum, checksum(&data), "length {len}");
            // Chunks touched in any order, some never (hashed by `finish`), give the same checksum.
            let chunks = Chunks::new(&data);
            for k in (0..len.div_ceil(CHUNK) + 2).rev().step_by(2) {
                chunks.touch(k);
            }
            assert_eq!(chunks.finish(), sum, "length {len}");
            if len > 0 {
                let mut bad = data.clone();
                bad[len / 2] ^= 0x10;
                assert_ne!(checksum(&bad), sum, "length {len}");
            }
        }
    }
}
