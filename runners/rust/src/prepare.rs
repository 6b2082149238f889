//! From a request's `impl` + `primitive` + `operation` to a prepared job: the libraries this
//! runner hosts, the noop every runner answers, and the checks of operation and params.
use crate::protocol::{Fail, Work, bad_request, invalid, unsupported};
use crate::registry::{Call, DIGEST, Entry, Job, Library, NO_PARAMS, entry, plain, put};
use crate::{
    lib_awslc, lib_bcrypt, lib_blake3, lib_crc32c, lib_crc32fast, lib_ring, lib_rustcrypto,
    lib_xxhash,
};
use serde_json::{Map, Value};

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

/// Finds the entry, checks operation and params, and sets the job up.
pub fn prepare(work: &Work) -> Result<Box<dyn Job>, Fail> {
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
