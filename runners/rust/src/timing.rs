//! The timed loop: one untimed verified call, then `batches` batches of `iterations` calls,
//! each batch read with `Instant` once before and once after. No warm-up, no policy.
use crate::protocol::{Fail, internal};
use crate::registry::Job;
use std::hint::black_box;
use std::time::Instant;

pub struct Sample {
    pub iterations: u64,
    pub ns: u64,
}

/// Runs the untimed call (nonce as sent) and returns its output.
pub fn once(job: &mut dyn Job) -> Result<Vec<u8>, Fail> {
    let mut out = Vec::new();
    job.run(&mut out, false)?;
    Ok(out)
}

/// Times `batches` batches; every call steps the nonce first and its output is sunk.
/// `out` is the untimed call's output buffer, so timed calls start with its capacity.
pub fn batches(
    job: &mut dyn Job,
    iterations: u64,
    batches: u64,
    mut out: Vec<u8>,
) -> Result<Vec<Sample>, Fail> {
    let mut sink = 0u8;
    let mut samples = Vec::with_capacity(batches as usize);
    for _ in 0..batches {
        let start = Instant::now();
        for _ in 0..iterations {
            job.run(&mut out, true)?;
            // One byte read per call keeps every output alive.
            sink ^= out.last().copied().unwrap_or(0);
        }
        let elapsed = start.elapsed();
        let ns = u64::try_from(elapsed.as_nanos()).map_err(|_| internal("batch too long"))?;
        samples.push(Sample { iterations, ns });
    }
    black_box(sink);
    Ok(samples)
}

/// One timed call (the leak request): nanoseconds; its outcome (a bad tag) is not an error.
pub fn single(job: &mut dyn Job, out: &mut Vec<u8>) -> u128 {
    let start = Instant::now();
    let done = job.run(out, false);
    let ns = start.elapsed().as_nanos();
    black_box((done.is_ok(), out.last().copied()));
    ns
}
