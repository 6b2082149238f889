//! Bakes build facts into the binary for `hello`: the version of every direct dependency as
//! resolved in Cargo.lock (never typed by hand), the rustc version, the target and RUSTFLAGS;
//! and compiles src/memcheck.c, the Valgrind client requests of the leak `taint` check.
use std::{env, fs, process::Command};

fn main() {
    println!("cargo:rerun-if-changed=Cargo.lock");
    println!("cargo:rerun-if-env-changed=RUSTFLAGS");
    let lock = fs::read_to_string("Cargo.lock").expect("Cargo.lock is committed");
    let lock: toml::Table = toml::from_str(&lock).expect("Cargo.lock is TOML");
    println!(
        "cargo:rustc-env=CB_CRATE_VERSIONS={}",
        direct_versions(&lock)
    );
    println!("cargo:rustc-env=CB_RUSTC_VERSION={}", rustc_version());
    println!(
        "cargo:rustc-env=CB_TARGET={}",
        env::var("TARGET").unwrap_or_default()
    );
    let flags = env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    println!(
        "cargo:rustc-env=CB_RUSTFLAGS={}",
        flags.replace('\x1f', " ")
    );
    // Valgrind's client requests are C macros: src/memcheck.c wraps them (src/taint.rs).
    println!("cargo:rerun-if-changed=src/memcheck.c");
    cc::Build::new()
        .file("src/memcheck.c")
        .compile("cbmemcheck");
}

/// `name=version;…` for every locked package; where several versions of a name are locked,
/// the one the root package depends on comes first.
fn direct_versions(lock: &toml::Table) -> String {
    let packages = lock["package"].as_array().expect("[[package]] entries");
    let root = env::var("CARGO_PKG_NAME").unwrap();
    let root = packages
        .iter()
        .find(|p| p["name"].as_str() == Some(&root))
        .expect("root package in Cargo.lock");
    let deps = root["dependencies"].as_array().expect("root dependencies");
    // An entry is "name" when one version is locked, "name version" when several are.
    let mut out: Vec<String> = deps
        .iter()
        .filter_map(|d| d.as_str())
        .filter_map(|d| d.split_once(' '))
        .map(|(name, version)| format!("{name}={version}"))
        .collect();
    for p in packages {
        let (Some(name), Some(version)) = (p["name"].as_str(), p["version"].as_str()) else {
            continue;
        };
        out.push(format!("{name}={version}"));
    }
    out.join(";")
}

fn rustc_version() -> String {
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| "unknown".into())
}
