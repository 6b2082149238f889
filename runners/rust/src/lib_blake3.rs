//! rust/blake3: the official BLAKE3 crate (Rust + assembly, SIMD chosen at run time).
use crate::protocol::Fail;
use crate::registry::{Call, DIGEST, Entry, Job, Library, NO_PARAMS, entry, plain, put};
use crate::{build_info, cpu};

pub const LIBRARY: Library = Library {
    name: "blake3",
    crates: &["blake3"],
    backend: || ("blake3".into(), build_info::version("blake3").into()),
    code_path,
    notes: "blake3::hash one-shot, single-threaded (no rayon); SIMD across 1 KiB chunks, so \
            messages under 2 KiB use the one-block compression function",
    tables: &[TABLE],
};

pub const TABLE: &[Entry] = &[entry("blake3", DIGEST, NO_PARAMS, "blake3::hash", hash)];

/// The widest SIMD back end the crate's documented dispatch order can pick on this CPU.
fn code_path() -> String {
    let widest = if cpu::has("avx512f") && cpu::has("avx512vl") {
        "AVX-512"
    } else if cpu::has("avx2") {
        "AVX2"
    } else if cpu::has("sse4_1") {
        "SSE4.1"
    } else {
        "SSE2/portable"
    };
    format!("run-time dispatch; widest available: {widest}")
}

fn hash(call: &Call) -> Result<Box<dyn Job>, Fail> {
    let msg = call.take("msg")?;
    Ok(plain(move |out| {
        put(out, blake3::hash(&msg).as_bytes());
        Ok(())
    }))
}
