//! Generated messages (docs/protocol.md, "Generated messages"): xorshift64 over one 64 KiB
//! block, repeated to the length. Not a cryptographic primitive: the same bytes in every runner.
use crate::errors::{Fail, bad_request, invalid};
use serde_json::{Map, Value};

pub const GENERATORS: [&str; 1] = ["xorshift64"];
const BLOCK: usize = 65536;

fn block(seed: u64) -> Vec<u8> {
    let mut x = seed ^ 0x9E37_79B9_7F4A_7C15;
    let mut out = Vec::with_capacity(BLOCK);
    for _ in 0..BLOCK / 8 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out.extend_from_slice(&x.to_le_bytes());
    }
    out
}

/// The message a generator object describes.
pub fn expand(spec: &Map<String, Value>) -> Result<Vec<u8>, Fail> {
    if spec.get("generator").and_then(Value::as_str) != Some("xorshift64") {
        return Err(bad_request("unknown generator; valid: xorshift64"));
    }
    let seed = spec
        .get("seed")
        .and_then(Value::as_u64)
        .filter(|s| *s <= 0xFFFF_FFFF);
    let Some(seed) = seed else {
        return Err(bad_request(
            "generator seed must be an integer in 0..4294967295",
        ));
    };
    let Some(length) = spec.get("length").and_then(Value::as_u64) else {
        return Err(bad_request("generator length must be an integer >= 0"));
    };
    if length > crate::limits::MAX_GENERATED {
        return Err(invalid("a generated message is at most 2^40 bytes"));
    }
    let length = length as usize;
    let block = block(seed);
    let mut msg = Vec::new();
    if msg.try_reserve_exact(length).is_err() {
        return Err(invalid(format!("cannot hold a {length}-byte message")));
    }
    while msg.len() < length {
        let n = (length - msg.len()).min(BLOCK);
        msg.extend_from_slice(&block[..n]);
    }
    Ok(msg)
}
