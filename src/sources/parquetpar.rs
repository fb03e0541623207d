//! A Parquet file streamed on every core, as JSONL batches are: one
//! thread decodes the row groups read, column by column, into batches of
//! [`CHUNK`] rows of arrow arrays; workers turn each batch into rows and
//! run the caller's work on them (so that a row is made and dropped on one
//! thread: only the arrays cross threads); the results are consumed in
//! file order.
//!
//! Where the columnar read stops (a batch the crate fails on, a column or
//! value not converted), the results before it are consumed and the rest
//! of the file is read on this thread as [`super::parquetfile`] reads it,
//! from the first row of that batch.

use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Mutex};

use arrow_array::RecordBatch;

use super::SourceFile;
use super::dataset::Dataset;
use super::json::Projection;
use super::parquetcol::{Handed, next_batch, records};
use super::parquetfile::{Opened, open};
use crate::error::Result;
use crate::value::Row;

/// Rows of a batch (as a source hands on rows in batches).
const CHUNK: usize = 4096;

/// Batches queued between the threads.
const QUEUE: usize = 4;

/// What the decoding thread sends, numbered in file order.
enum Job {
    /// A batch of group `group`, whose first row is row `first` (1-based)
    /// of the file and row `in_group` (0-based) of its group.
    Batch {
        group: usize,
        first: u64,
        in_group: u64,
        batch: RecordBatch,
    },
    /// The columnar read stops here: group `group`, from its row
    /// `in_group`, whose first row follows `before` rows of the file.
    Stop {
        group: usize,
        in_group: u64,
        before: u64,
    },
}

/// A worker's result.
enum Done<T> {
    /// The work's result on this many rows.
    Rows(u64, T),
    /// As [`Job::Stop`].
    Stop {
        group: usize,
        in_group: u64,
        before: u64,
    },
}

/// Streams Parquet file `file` of dataset `set`: `work` runs on batches of
/// its rows on every core, `each` consumes the results in file order.
/// Returns the number of rows in the file, read or skipped. Errors as
/// [`super::parquetfile::read_parquet`]'s.
pub(super) fn stream_parquet<T: Send>(
    file: &SourceFile,
    projection: Option<&Projection>,
    set: &mut Dataset,
    work: &(dyn Fn(Vec<Row>) -> Result<T> + Sync),
    each: &mut dyn FnMut(T) -> Result<()>,
) -> Result<u64> {
    let mut opened = open(file, projection, set)?;
    let workers = rayon::current_num_threads().max(1);
    let (from, resume, before) = match opened.columnar.is_some() && workers > 1 {
        true => match parallel(&opened, workers, work, each)? {
            Ended::All(n) => return Ok(n),
            Ended::Stop {
                group,
                in_group,
                before,
            } => (group, in_group, before),
        },
        false => (0, 0, 0),
    };
    // The rest on this thread, in batches of CHUNK rows.
    let mut pending = Vec::new();
    let mut serial = |r: Row| -> Result<()> {
        pending.push(r);
        if pending.len() >= CHUNK {
            each(work(std::mem::take(&mut pending))?)?;
        }
        Ok(())
    };
    let total = opened.read_from(set, from, resume, before, &mut serial)?;
    if !pending.is_empty() {
        each(work(pending)?)?;
    }
    Ok(total)
}

/// How the parallel read ended.
enum Ended {
    /// Every row group: the number of rows in the file.
    All(u64),
    /// At a [`Job::Stop`].
    Stop {
        group: usize,
        in_group: u64,
        before: u64,
    },
}

fn parallel<T: Send>(
    opened: &Opened<'_>,
    workers: usize,
    work: &(dyn Fn(Vec<Row>) -> Result<T> + Sync),
    each: &mut dyn FnMut(T) -> Result<()>,
) -> Result<Ended> {
    let Some(columnar) = opened.columnar.as_ref() else {
        return Ok(Ended::Stop {
            group: 0,
            in_group: 0,
            before: 0,
        });
    };
    let rows = &opened.rows;
    let meta = opened.metadata();
    std::thread::scope(|scope| -> Result<Ended> {
        let (job_tx, job_rx) = sync_channel::<(u64, Job)>(QUEUE);
        let (done_tx, done_rx) = sync_channel::<(u64, Result<Done<T>>)>(QUEUE);
        scope.spawn(move || {
            let mut index = 0u64;
            let mut before = 0u64;
            for (g, rg) in meta.row_groups().iter().enumerate() {
                if !opened.keep[g] {
                    before += rg.num_rows() as u64;
                    continue;
                }
                let stop = |in_group| Job::Stop {
                    group: g,
                    in_group,
                    before,
                };
                let Some(mut batches) = columnar.batches(&opened.handle, g, CHUNK) else {
                    let _ = job_tx.send((index, stop(0)));
                    return;
                };
                let mut in_group = 0u64;
                loop {
                    let job = match next_batch(&mut batches) {
                        Some(Some(batch)) => Job::Batch {
                            group: g,
                            first: before + in_group + 1,
                            in_group,
                            batch,
                        },
                        Some(None) => break,
                        None => stop(in_group),
                    };
                    let end = matches!(job, Job::Stop { .. });
                    if let Job::Batch { batch, .. } = &job {
                        in_group += batch.num_rows() as u64;
                    }
                    if job_tx.send((index, job)).is_err() || end {
                        return;
                    }
                    index += 1;
                }
                before += in_group;
            }
        });
        let jobs = Arc::new(Mutex::new(job_rx));
        for _ in 0..workers {
            let jobs = jobs.clone();
            let done_tx = done_tx.clone();
            scope.spawn(move || {
                let mut keys = columnar.keys.clone();
                loop {
                    let next = match jobs.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => return,
                    };
                    let Ok((index, job)) = next else { return };
                    let out = match job {
                        Job::Stop {
                            group,
                            in_group,
                            before,
                        } => Ok(Done::Stop {
                            group,
                            in_group,
                            before,
                        }),
                        Job::Batch {
                            group,
                            first,
                            in_group,
                            batch,
                        } => {
                            let mut made = Vec::with_capacity(batch.num_rows());
                            let mut row_no = first;
                            let handed =
                                records(&batch, &rows.fields, &rows.names, &mut keys, &mut |r| {
                                    let rec = r.map_err(|e| rows.cell_error(e, row_no))?;
                                    made.push(rows.row(rec, row_no));
                                    row_no += 1;
                                    Ok(())
                                });
                            drop(batch);
                            match handed {
                                Err(e) => Err(e),
                                Ok(Handed::All(n)) => work(made).map(|t| Done::Rows(n, t)),
                                // The batch is left to the record API,
                                // from its first row.
                                Ok(Handed::Until(_)) => Ok(Done::Stop {
                                    group,
                                    in_group,
                                    before: first - 1 - in_group,
                                }),
                            }
                        }
                    };
                    if done_tx.send((index, out)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done_tx);
        let mut waiting = std::collections::BTreeMap::new();
        let mut next = 0u64;
        let mut handed = 0u64;
        for (index, out) in done_rx.iter() {
            waiting.insert(index, out);
            while let Some(out) = waiting.remove(&next) {
                match out? {
                    Done::Rows(n, t) => {
                        handed += n;
                        each(t)?;
                    }
                    Done::Stop {
                        group,
                        in_group,
                        before,
                    } => {
                        return Ok(Ended::Stop {
                            group,
                            in_group,
                            before,
                        });
                    }
                }
                next += 1;
            }
        }
        let skipped: u64 = meta
            .row_groups()
            .iter()
            .zip(&opened.keep)
            .filter(|(_, k)| !**k)
            .map(|(rg, _)| rg.num_rows() as u64)
            .sum();
        Ok(Ended::All(handed + skipped))
    })
}
