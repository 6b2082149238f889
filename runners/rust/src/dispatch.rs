//! Request routing: hello / compute / bench / leak, each handed a job by `prepare`.
use crate::prepare::{LIBRARIES, prepare};
use crate::protocol::{Fail, bad_request, field_count, field_str, parse_work};
use crate::{hello, limits, threads, timing};
use serde_json::{Map, Value, json};

/// Answers one request object with its `result`.
pub fn handle(req: &Map<String, Value>) -> Result<Value, Fail> {
    match field_str(req, "op")?.as_str() {
        "hello" => Ok(hello::hello(LIBRARIES)),
        "compute" => compute(req),
        "bench" => bench(req),
        "leak" => crate::leak::leak(req),
        other => Err(bad_request(format!("unknown op {other:?}"))),
    }
}

fn compute(req: &Map<String, Value>) -> Result<Value, Fail> {
    let work = parse_work(req)?;
    let mut job = prepare(&work)?;
    let out = timing::once(job.as_mut())?;
    Ok(json!({"output": render(&work.operation, &out)?}))
}

fn bench(req: &Map<String, Value>) -> Result<Value, Fail> {
    let work = parse_work(req)?;
    let iterations = field_count(req, "iterations", 1, limits::MAX_ITERATIONS)?;
    let batches = field_count(req, "batches", 1, limits::MAX_BATCHES)?;
    let threads = threads::count(req)?;
    let mut job = prepare(&work)?;
    let out = timing::once(job.as_mut())?;
    let output = render(&work.operation, &out)?;
    if threads > 1 {
        let all: Vec<Value> = threads::bench(&work, threads, iterations, batches)?
            .iter()
            .map(|t| samples_json(t.as_slice()))
            .collect();
        return Ok(json!({"output": output, "samples": all[0], "thread_samples": all}));
    }
    let samples = timing::batches(job.as_mut(), iterations, batches, out)?;
    Ok(json!({"output": output, "samples": samples_json(&samples)}))
}

fn samples_json(samples: &[timing::Sample]) -> Value {
    samples
        .iter()
        .map(|s| json!({"iterations": s.iterations, "ns": s.ns}))
        .collect()
}

/// Password hashes and `verify` answer with a string; everything else with hex.
fn render(operation: &str, out: &[u8]) -> Result<String, Fail> {
    match operation {
        "hash" | "verify" => String::from_utf8(out.to_vec())
            .map_err(|_| crate::protocol::internal("encoded string is not UTF-8")),
        _ => Ok(hex::encode(out)),
    }
}
