//! The `hello` answer: runtime, CPU features, and every library with its primitives.
use crate::build_info::{self, RUSTFLAGS, TARGET, rustc_short};
use crate::cpu;
use crate::registry::{Entry, Library};
use serde_json::{Map, Value, json};

pub fn hello(libraries: &[&Library]) -> Value {
    json!({
        "protocol": 1,
        "generators": crate::msggen::GENERATORS,
        "runtime": runtime(),
        "cpu": {"features": cpu::features_json(), "source": "is_x86_feature_detected!"},
        "implementations": libraries.iter().map(|l| implementation(l)).collect::<Vec<_>>(),
    })
}

fn runtime() -> Value {
    let version = rustc_short().trim_start_matches("rustc ");
    json!({"name": "rust", "version": version, "details": {
        "rustc": build_info::RUSTC_VERSION,
        "target": TARGET,
        "profile": if cfg!(debug_assertions) { "debug" } else { "release" },
        "rustflags": RUSTFLAGS,
        "compile_time_features": cpu::compiled().join(" "),
    }})
}

fn implementation(lib: &Library) -> Value {
    let (backend, backend_version) = (lib.backend)();
    let primitives: Map<String, Value> = lib
        .entries()
        .map(|e| (e.id.to_string(), primitive(e, lib.crates.len() > 1)))
        .collect();
    json!({
        "library": lib.name,
        "version": build_info::versions(lib.crates),
        "backend": {"name": backend, "version": backend_version},
        "code_path": (lib.code_path)(),
        "notes": lib.notes,
        "primitives": primitives,
    })
}

/// A primitive's hello entry; `crate_version` names the crate it comes from (crate families).
fn primitive(entry: &Entry, crate_version: bool) -> Value {
    let mut p = Map::new();
    p.insert("operations".into(), json!(entry.ops));
    let keyed = entry
        .ops
        .iter()
        .any(|op| matches!(*op, "mac" | "encrypt" | "seal"));
    if keyed {
        p.insert("reuses_key".into(), json!(true));
    }
    if entry.ops.contains(&"hash") {
        p.insert("takes_salt".into(), json!(true));
    }
    let native = match build_info::crate_of_path(entry.native) {
        Some(krate) if crate_version => format!("{} ({krate})", entry.native),
        _ => entry.native.to_string(),
    };
    p.insert("native".into(), json!(native));
    Value::Object(p)
}
