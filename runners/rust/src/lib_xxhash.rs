//! rust/xxhash-rust: XXH32, XXH64, XXH3-64 and XXH3-128 (pure Rust; XXH3's SIMD width is
//! fixed at compile time, so only the `rust@native` build can use AVX2/AVX-512).
use crate::build_info;
use crate::protocol::{Fail, invalid};
use crate::registry::{Call, DIGEST, Entry, Job, Library, SEED_PARAMS, entry, plain, put};
use xxhash_rust::{xxh3, xxh32, xxh64};

pub const LIBRARY: Library = Library {
    name: "xxhash-rust",
    crates: &["xxhash-rust"],
    backend: || {
        (
            "xxhash-rust".into(),
            build_info::version("xxhash-rust").into(),
        )
    },
    code_path,
    notes: "one-shot functions with the seed param (xxh3 *_with_seed); integers big-endian, \
            xxh3-128 as high64‖low64",
    tables: &[TABLE],
};

pub const TABLE: &[Entry] = &[
    entry("xxh32", DIGEST, SEED_PARAMS, "xxh32::xxh32", xxh32_job),
    entry("xxh64", DIGEST, SEED_PARAMS, "xxh64::xxh64", xxh64_job),
    entry(
        "xxh3-64",
        DIGEST,
        SEED_PARAMS,
        "xxh3::xxh3_64_with_seed",
        xxh3_64_job,
    ),
    entry(
        "xxh3-128",
        DIGEST,
        SEED_PARAMS,
        "xxh3::xxh3_128_with_seed",
        xxh3_128_job,
    ),
];

/// XXH3's accumulate loop is chosen by `cfg(target_feature)`: no run-time dispatch.
fn code_path() -> String {
    let simd = if cfg!(target_feature = "avx512f") {
        "AVX-512"
    } else if cfg!(target_feature = "avx2") {
        "AVX2"
    } else if cfg!(target_feature = "sse2") {
        "SSE2"
    } else {
        "scalar"
    };
    format!("xxh3: {simd} (compile time); xxh32/xxh64: scalar")
}

fn xxh32_job(call: &Call) -> Result<Box<dyn Job>, Fail> {
    let seed = u32::try_from(call.uint("seed")?).map_err(|_| invalid("xxh32 seed is 32-bit"))?;
    let msg = call.take("msg")?;
    Ok(plain(move |out| {
        put(out, &xxh32::xxh32(&msg, seed).to_be_bytes());
        Ok(())
    }))
}

fn xxh64_job(call: &Call) -> Result<Box<dyn Job>, Fail> {
    let seed = call.uint("seed")?;
    let msg = call.take("msg")?;
    Ok(plain(move |out| {
        put(out, &xxh64::xxh64(&msg, seed).to_be_bytes());
        Ok(())
    }))
}

fn xxh3_64_job(call: &Call) -> Result<Box<dyn Job>, Fail> {
    let seed = call.uint("seed")?;
    let msg = call.take("msg")?;
    Ok(plain(move |out| {
        put(out, &xxh3::xxh3_64_with_seed(&msg, seed).to_be_bytes());
        Ok(())
    }))
}

/// The u128's big-endian bytes are the canonical high64‖low64 form.
fn xxh3_128_job(call: &Call) -> Result<Box<dyn Job>, Fail> {
    let seed = call.uint("seed")?;
    let msg = call.take("msg")?;
    Ok(plain(move |out| {
        put(out, &xxh3::xxh3_128_with_seed(&msg, seed).to_be_bytes());
        Ok(())
    }))
}
