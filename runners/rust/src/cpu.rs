//! CPU features as `is_x86_feature_detected!` sees them at run time, and the ones the build
//! enabled at compile time (non-empty only in the `rust@native` variant).
use serde_json::{Map, Value};

/// (protocol key, detected) for the features hello reports.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
pub fn detected() -> Vec<(&'static str, bool)> {
    vec![
        ("aes", is_x86_feature_detected!("aes")),
        ("pclmulqdq", is_x86_feature_detected!("pclmulqdq")),
        ("sha", is_x86_feature_detected!("sha")),
        ("sse4_1", is_x86_feature_detected!("sse4.1")),
        ("sse4_2", is_x86_feature_detected!("sse4.2")),
        ("avx2", is_x86_feature_detected!("avx2")),
        ("avx512f", is_x86_feature_detected!("avx512f")),
        ("avx512vl", is_x86_feature_detected!("avx512vl")),
        ("vaes", is_x86_feature_detected!("vaes")),
        ("vpclmulqdq", is_x86_feature_detected!("vpclmulqdq")),
    ]
}

#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
pub fn detected() -> Vec<(&'static str, bool)> {
    Vec::new()
}

pub fn has(feature: &str) -> bool {
    detected().iter().any(|(name, on)| *name == feature && *on)
}

pub fn features_json() -> Value {
    let map: Map<String, Value> = detected()
        .into_iter()
        .map(|(name, on)| (name.to_string(), Value::Bool(on)))
        .collect();
    Value::Object(map)
}

/// Features the compiler may use without a run-time check (target-cpu / target-feature).
pub fn compiled() -> Vec<&'static str> {
    let all = [
        ("aes", cfg!(target_feature = "aes")),
        ("pclmulqdq", cfg!(target_feature = "pclmulqdq")),
        ("sha", cfg!(target_feature = "sha")),
        ("sse4.2", cfg!(target_feature = "sse4.2")),
        ("avx2", cfg!(target_feature = "avx2")),
        ("avx512f", cfg!(target_feature = "avx512f")),
        ("vaes", cfg!(target_feature = "vaes")),
    ];
    all.into_iter()
        .filter(|(_, on)| *on)
        .map(|(n, _)| n)
        .collect()
}

/// The detected features, space-separated: what a library with its own (unexposed)
/// run-time dispatch has to choose from.
pub fn offered() -> String {
    detected()
        .into_iter()
        .filter(|(_, on)| *on)
        .map(|(name, _)| name)
        .collect::<Vec<_>>()
        .join(" ")
}
