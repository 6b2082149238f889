//! Facts baked in by build.rs: crate versions from Cargo.lock, rustc, target, RUSTFLAGS.

const CRATE_VERSIONS: &str = env!("CB_CRATE_VERSIONS");
pub const RUSTC_VERSION: &str = env!("CB_RUSTC_VERSION");
pub const TARGET: &str = env!("CB_TARGET");
pub const RUSTFLAGS: &str = env!("CB_RUSTFLAGS");

/// The locked version of a crate (`?` when it is not in Cargo.lock).
pub fn version(krate: &str) -> &'static str {
    CRATE_VERSIONS
        .split(';')
        .filter_map(|pair| pair.split_once('='))
        .find(|(name, _)| *name == krate)
        .map(|(_, v)| v)
        .unwrap_or("?")
}

/// The version of a one-crate library; `crate version, …` for a family of crates.
pub fn versions(crates: &[&str]) -> String {
    if let [one] = crates {
        return version(one).to_string();
    }
    crates
        .iter()
        .map(|c| format!("{c} {}", version(c)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The `rustc x.y.z` part of `rustc --version`.
pub fn rustc_short() -> &'static str {
    RUSTC_VERSION.split(" (").next().unwrap_or(RUSTC_VERSION)
}

/// The crate a Rust path like `aes_gcm::Aes128Gcm` comes from, with its locked version.
pub fn crate_of_path(path: &str) -> Option<String> {
    let head = path.split("::").next()?.split('<').next()?;
    let name = match head {
        "md5" => "md-5".to_string(),
        other => other.replace('_', "-"),
    };
    let v = version(&name);
    (v != "?").then(|| format!("{name} {v}"))
}
