//! Request routing: hello / compute / bench, from `impl` + `primitive` to a library's entry.
use crate::protocol::{
    Fail, Work, bad_request, field_count, field_str, invalid, parse_work, unsupported,
};
use crate::registry::{Call, DIGEST, Entry, Job, Library, NO_PARAMS, entry, plain, put};
use crate::{hello, limits, threads, timing};
use crate::{
    lib_awslc, lib_bcrypt, lib_blake3, lib_crc32c, lib_crc32fast, lib_ring, lib_rustcrypto,
    lib_xxhash,
};
use serde_json::{Map, Value, json};

/// Every library this runner hosts, in the order hello lists them.
pub const LIBRARIES: &[&Library] = &[
    &lib_rustcrypto::LIBRARY,
    &lib_bcrypt::LIBRARY,
    &lib_ring::LIBRARY,
    &lib_awslc::LIBRARY,
    &lib_blake3::LIBRARY,
    &lib_crc32fast::LIBRARY,
    &lib_crc32c::LIBRARY,
    &lib_xxhash::LIBRARY,
];

/// The pseudo-primitive every runner answers: the input length, 8 bytes big-endian.
const NOOP: Entry = entry("noop", DIGEST, NO_PARAMS, "noop", make_noop);

fn make_noop(call: &Call) -> Result<Box<dyn Job>, Fail> {
    let msg = call.take("msg")?;
    Ok(plain(move |out| {
        put(out, &(msg.len() as u64).to_be_bytes());
        Ok(())
    }))
}

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

/// Finds the entry, checks operation and params, and sets the job up.
pub(crate) fn prepare(work: &Work) -> Result<Box<dyn Job>, Fail> {
    let library = match &work.implementation {
        Some(name) => Some(
            LIBRARIES
                .iter()
                .find(|l| l.name == name)
                .ok_or_else(|| unsupported(format!("implementation {name} is not offered")))?,
        ),
        None => None,
    };
    let entry = match (library, work.primitive.as_str()) {
        (_, "noop") => &NOOP,
        (Some(lib), id) => lib
            .find(id)
            .ok_or_else(|| unsupported(format!("{}/{id} is not offered", lib.name)))?,
        (None, _) => return Err(bad_request("missing field impl")),
    };
    if !entry.ops.contains(&work.operation.as_str()) {
        return Err(unsupported(format!(
            "{}/{} is not offered",
            entry.id, work.operation
        )));
    }
    let fresh = check_params(entry, &work.params)?;
    let call = Call {
        operation: &work.operation,
        inputs: &work.inputs,
        params: &work.params,
        fresh,
    };
    (entry.make)(&call)
}

/// Rejects parameters the primitive does not take; returns `fresh_context`.
fn check_params(entry: &Entry, params: &Map<String, Value>) -> Result<bool, Fail> {
    let mut fresh = false;
    for (name, value) in params {
        if name == "fresh_context" {
            fresh = value
                .as_bool()
                .ok_or_else(|| invalid("fresh_context must be a boolean"))?;
        } else if !entry.params.contains(&name.as_str()) {
            return Err(invalid(format!("{} takes no param {name}", entry.id)));
        }
    }
    Ok(fresh)
}
