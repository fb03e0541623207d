//! The values an order statistic needs, in bounded memory.
//!
//! A median is exact only with every value at hand. [`Values`] keeps them in
//! memory until the group step holding it is told to spill (its memory
//! budget is shared by all groups); then they go, in arrival order, to an
//! unnamed temporary file. Order statistics of spilled values are found by
//! radix selection over the float's total-order bits (16 bits a pass, a
//! 65,536-count histogram), so a median over a billion values needs a few
//! sequential reads, not a billion values in memory; up to [`GATHER`]
//! values are read back whole instead, one read for each statistic. Means and standard
//! deviations read the values in arrival order, so sums are the same as in
//! memory, bit for bit.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};

use crate::error::{Error, Result};
use crate::stats;

/// Values of one aggregate, in memory or spilled to a temporary file.
#[derive(Debug, Default)]
pub struct Values {
    mem: Vec<f64>,
    file: Option<File>,
    spilled: u64,
    /// Largest bucket gathered into memory (0: the default, [`GATHER`]).
    gather: u64,
}

fn io(e: std::io::Error) -> Error {
    Error::msg(format!(
        "cannot use a temporary file for spilled values: {e}"
    ))
}

/// Maps a float to an integer with the same order (`total_cmp`).
fn key(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 1 { !b } else { b | (1 << 63) }
}

const CHUNK: usize = 1 << 16;
/// Values gathered in memory in the last selection pass (and all of them
/// read back at once, when there are no more).
const GATHER: u64 = 1 << 20;

impl Values {
    /// Appends a value.
    pub fn push(&mut self, x: f64) {
        self.mem.push(x);
    }

    /// How many values in all.
    pub fn len(&self) -> u64 {
        self.spilled + self.mem.len() as u64
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many values are held in memory.
    pub fn buffered(&self) -> usize {
        self.mem.len()
    }

    /// Moves the values held in memory to the temporary file.
    pub fn spill(&mut self) -> Result<()> {
        if self.mem.is_empty() {
            return Ok(());
        }
        if self.file.is_none() {
            self.file = Some(tempfile::tempfile().map_err(io)?);
        }
        let f = self.file.as_mut().expect("created");
        f.seek(SeekFrom::End(0)).map_err(io)?;
        let mut w = BufWriter::with_capacity(1 << 16, f);
        for x in &self.mem {
            w.write_all(&x.to_le_bytes()).map_err(io)?;
        }
        w.flush().map_err(io)?;
        self.spilled += self.mem.len() as u64;
        // The capacity stays: the next values reuse these pages, not new ones.
        self.mem.clear();
        Ok(())
    }

    /// Calls `each` on the values in arrival order, a chunk at a time.
    fn scan(&mut self, mut each: impl FnMut(&[f64])) -> Result<()> {
        if let Some(f) = self.file.as_mut() {
            f.seek(SeekFrom::Start(0)).map_err(io)?;
            let mut r = BufReader::with_capacity(1 << 16, f);
            let mut bytes = vec![0u8; CHUNK * 8];
            let mut left = self.spilled as usize;
            let mut chunk = Vec::with_capacity(CHUNK);
            while left > 0 {
                let n = left.min(CHUNK);
                r.read_exact(&mut bytes[..n * 8]).map_err(io)?;
                chunk.clear();
                chunk.extend(
                    bytes[..n * 8]
                        .chunks_exact(8)
                        .map(|b| f64::from_le_bytes(b.try_into().expect("8 bytes"))),
                );
                each(&chunk);
                left -= n;
            }
        }
        each(&self.mem);
        Ok(())
    }

    /// The value of rank `k` (0-based) in sorted order.
    fn select(&mut self, mut k: u64) -> Result<f64> {
        let (mut prefix, mut bits) = (0u64, 0u32);
        loop {
            let shift = 64 - bits - 16;
            let mut counts = vec![0u64; 1 << 16];
            self.scan(|xs| {
                for &x in xs {
                    let kx = key(x);
                    if bits == 0 || kx >> (64 - bits) == prefix {
                        counts[((kx >> shift) & 0xffff) as usize] += 1;
                    }
                }
            })?;
            let mut bucket = 0usize;
            while k >= counts[bucket] {
                k -= counts[bucket];
                bucket += 1;
            }
            prefix = (prefix << 16) | bucket as u64;
            bits += 16;
            let gather = if self.gather == 0 {
                GATHER
            } else {
                self.gather
            };
            if counts[bucket] <= gather || bits == 64 {
                let mut found = Vec::with_capacity(counts[bucket] as usize);
                self.scan(|xs| {
                    found.extend(
                        xs.iter()
                            .copied()
                            .filter(|&x| key(x) >> (64 - bits) == prefix),
                    )
                })?;
                let (_, &mut x, _) = found.select_nth_unstable_by(k as usize, f64::total_cmp);
                return Ok(x);
            }
        }
    }

    /// Every value, read back into memory, when they are few enough to
    /// gather ([`GATHER`]): one read of the file, where each order
    /// statistic by radix selection reads it twice.
    fn gather_all(&mut self) -> Result<Option<Vec<f64>>> {
        let limit = if self.gather == 0 {
            GATHER
        } else {
            self.gather
        };
        if self.len() > limit {
            return Ok(None);
        }
        let mut all = Vec::with_capacity(self.len() as usize);
        self.scan(|xs| all.extend_from_slice(xs))?;
        Ok(Some(all))
    }

    /// numpy's median.
    pub fn median(&mut self) -> Result<Option<f64>> {
        if self.file.is_none() {
            return Ok(stats::median(&self.mem));
        }
        if let Some(mut all) = self.gather_all()? {
            return Ok(stats::median_of(&mut all));
        }
        let n = self.len();
        Ok(Some(if n % 2 == 1 {
            self.select(n / 2)?
        } else {
            (self.select(n / 2 - 1)? + self.select(n / 2)?) / 2.0
        }))
    }

    /// numpy's linear quantile.
    pub fn quantile(&mut self, q: f64) -> Result<Option<f64>> {
        if self.file.is_none() {
            return Ok(stats::quantile(&self.mem, q));
        }
        if let Some(mut all) = self.gather_all()? {
            return Ok(stats::quantile_of(&mut all, q));
        }
        let n = self.len();
        let pos = q * (n - 1) as f64;
        let lo = pos.floor() as u64;
        let t = pos - lo as f64;
        let a = self.select(lo)?;
        let b = if lo + 1 < n { self.select(lo + 1)? } else { a };
        let d = b - a;
        Ok(Some(if t >= 0.5 {
            b - d * (1.0 - t)
        } else {
            a + d * t
        }))
    }

    /// The mean and the sample standard deviation, summing in arrival order.
    pub fn mean_std(&mut self) -> Result<(Option<f64>, Option<f64>)> {
        if self.file.is_none() {
            return Ok((stats::mean(&self.mem), stats::std(&self.mem)));
        }
        let n = self.len();
        let mut sum = 0.0;
        self.scan(|xs| xs.iter().for_each(|x| sum += x))?;
        let m = sum / n as f64;
        let mut ss = 0.0;
        self.scan(|xs| xs.iter().for_each(|x| ss += (x - m) * (x - m)))?;
        let std = (n >= 2).then(|| (ss / (n - 1) as f64).sqrt());
        Ok((Some(m), std))
    }

    /// scipy's median absolute deviation (scale 1): the median, then the
    /// median of the distances to it, those distances spilled as they are
    /// made when these values are spilled (so memory stays bounded).
    pub fn mad(&mut self) -> Result<Option<f64>> {
        let Some(m) = self.median()? else {
            return Ok(None);
        };
        if self.file.is_none() {
            return Ok(stats::mad(&self.mem));
        }
        let mut dev = Values::default();
        let mut failed = None;
        self.scan(|xs| {
            dev.mem.extend(xs.iter().map(|x| (x - m).abs()));
            if failed.is_none()
                && dev.mem.len() >= CHUNK
                && let Err(e) = dev.spill()
            {
                failed = Some(e);
            }
        })?;
        if let Some(e) = failed {
            return Err(e);
        }
        dev.gather = self.gather;
        dev.median()
    }

    /// All values in memory (for the bootstrap, which resamples at random).
    pub fn all(&mut self) -> Result<Vec<f64>> {
        let mut v = Vec::with_capacity(self.len() as usize);
        self.scan(|xs| v.extend_from_slice(xs))?;
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filled(xs: &[f64], spill_every: usize) -> Values {
        let mut v = Values::default();
        for (i, x) in xs.iter().enumerate() {
            v.push(*x);
            if spill_every > 0 && i % spill_every == spill_every - 1 {
                v.spill().unwrap();
            }
        }
        v
    }

    #[test]
    fn mad_of_spilled_values_equals_the_in_memory_mad() {
        // More values than a chunk, so the distances are spilled too.
        let mut s = 99u64;
        let xs: Vec<f64> = (0..(2 * CHUNK + 7))
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((s >> 11) as f64 / (1u64 << 53) as f64).powi(3) * 1000.0
            })
            .collect();
        let want = stats::mad(&xs).unwrap();
        assert_eq!(filled(&xs, 0).mad().unwrap(), Some(want));
        for gather in [16, 0] {
            let mut disk = filled(&xs, 9973);
            disk.gather = gather;
            assert_eq!(disk.mad().unwrap(), Some(want), "gather={gather}");
        }
    }

    #[test]
    fn spilled_order_statistics_equal_the_in_memory_ones() {
        let mut s = 12345u64;
        let xs: Vec<f64> = (0..50_001)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((s >> 11) as f64 / (1u64 << 53) as f64 - 0.3) * 1000.0
            })
            .collect();
        for n in [xs.len(), xs.len() - 1] {
            let xs = &xs[..n];
            let mut mem = filled(xs, 0);
            // Several radix passes (at most 16 values gathered), and every
            // value read back at once (the default: few enough).
            for gather in [16, 0] {
                let mut disk = filled(xs, 997);
                assert!(disk.file.is_some());
                disk.gather = gather;
                assert_eq!(mem.median().unwrap(), disk.median().unwrap());
                for q in [0.0, 0.1, 0.25, 0.9, 1.0] {
                    assert_eq!(mem.quantile(q).unwrap(), disk.quantile(q).unwrap(), "q={q}");
                }
                assert_eq!(mem.mean_std().unwrap(), disk.mean_std().unwrap());
            }
        }
    }

    #[test]
    fn selection_handles_duplicates_and_negative_values() {
        let xs = [3.0, -1.0, 3.0, 3.0, -2.5, 0.0, 3.0];
        let mut disk = filled(&xs, 2);
        disk.gather = 1; // by radix selection, not read back whole
        assert_eq!(disk.median().unwrap(), Some(3.0));
        assert_eq!(disk.quantile(0.0).unwrap(), Some(-2.5));
    }
}
