//! A bench in N threads (docs/protocol.md, `bench`, "threads"): each `std::thread` sets its own
//! case up (its own library objects) and makes its own untimed call, then waits at a
//! `Barrier`; all are released together and time the same batches. Threads share the
//! process's allocator and any lock a library takes inside; no job crosses a thread.
use crate::prepare::prepare;
use crate::protocol::{Fail, Work, bad_request, internal};
use crate::registry::Job;
use crate::timing::{self, Sample};
use serde_json::{Map, Value};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Barrier;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

pub const MAX_THREADS: u64 = 256;

/// The optional `threads` field: 1 when absent or null, else 1..=MAX_THREADS.
pub fn count(req: &Map<String, Value>) -> Result<u64, Fail> {
    match req.get("threads") {
        None | Some(Value::Null) => Ok(1),
        Some(v) => v
            .as_u64()
            .filter(|n| (1..=MAX_THREADS).contains(n))
            .ok_or_else(|| bad_request(format!("threads must be an integer in 1..{MAX_THREADS}"))),
    }
}

/// Times `work` in `n` threads at once: every thread's batches, in thread order.
pub fn bench(work: &Work, n: u64, iterations: u64, batches: u64) -> Result<Vec<Vec<Sample>>, Fail> {
    let barrier = Barrier::new(n as usize);
    let failed = AtomicBool::new(false);
    let results: Vec<Result<Vec<Sample>, Fail>> = thread::scope(|s| {
        let handles: Vec<_> = (0..n)
            .map(|_| {
                s.spawn(|| {
                    // A failed (or panicking) setup still reaches the barrier: no thread waits
                    // for one that will never come.
                    let setup = panic::catch_unwind(AssertUnwindSafe(
                        || -> Result<(Box<dyn Job>, Vec<u8>), Fail> {
                            let mut job = prepare(work)?;
                            let out = timing::once(job.as_mut())?;
                            Ok((job, out))
                        },
                    ))
                    .unwrap_or_else(|_| Err(internal("the library panicked")));
                    if setup.is_err() {
                        failed.store(true, Ordering::SeqCst);
                    }
                    barrier.wait();
                    let (mut job, out) = setup?;
                    if failed.load(Ordering::SeqCst) {
                        return Ok(Vec::new());
                    }
                    timing::batches(job.as_mut(), iterations, batches, out)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(internal("the library panicked")))
            })
            .collect()
    });
    results.into_iter().collect()
}
