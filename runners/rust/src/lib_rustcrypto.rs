//! rust/rustcrypto: the pure-Rust RustCrypto crates. The dispatch tables live one per family
//! (lib_rustcrypto_hash / _aead / _kdf); this file assembles them into one library.
use crate::registry::Library;
use crate::{build_info, cpu};
use crate::{lib_rustcrypto_aead, lib_rustcrypto_hash, lib_rustcrypto_kdf};

pub const LIBRARY: Library = Library {
    name: "rustcrypto",
    crates: &["digest", "cipher", "aead", "password-hash"],
    backend: || {
        (
            "rustcrypto".into(),
            build_info::versions(&["digest", "cipher", "aead"]),
        )
    },
    code_path,
    notes: "one-shot Digest::digest; HMAC clones a keyed Hmac per message (verify: \
            Mac::verify_slice); AEADs encrypt out of place (AeadInOut with an InOutBuf); CTR \
            re-inits Ctr128BE from a cloned expanded key; SIMD chosen at run time by the \
            cpufeatures crate; ML-KEM and ML-DSA private keys (seeds) are expanded when parsed",
    tables: &[
        lib_rustcrypto_hash::TABLE,
        lib_rustcrypto_aead::TABLE,
        lib_rustcrypto_kdf::TABLE,
        crate::lib_rustcrypto_pubkey::TABLE,
        crate::lib_rustcrypto_pq::TABLE,
        crate::lib_rustcrypto_slhdsa::TABLE,
    ],
};

/// The back ends the crates' run-time detection (cpufeatures) picks on this CPU, or the soft
/// ones the build forced (`--cfg aes_backend="soft"` etc.: the soft build, Makefile SOFT_CFG).
fn code_path() -> String {
    let pick = |cond: bool, yes: &str, no: &str| if cond { yes } else { no }.to_string();
    let aes = if cfg!(aes_backend = "soft") {
        "soft AES (fixslice), forced by --cfg aes_backend=\"soft\""
    } else if cpu::has("vaes") && cpu::has("avx512f") {
        "AES-NI, VAES-512 for parallel blocks"
    } else if cpu::has("vaes") {
        "AES-NI, VAES-256 for parallel blocks"
    } else if cpu::has("aes") {
        "AES-NI"
    } else {
        "soft AES (fixslice)"
    };
    [
        format!("aes: {aes}"),
        if cfg!(polyval_backend = "soft") {
            "ghash/polyval: soft, forced by --cfg polyval_backend=\"soft\"".to_string()
        } else {
            pick(
                cpu::has("pclmulqdq"),
                "ghash/polyval: CLMUL",
                "ghash/polyval: soft",
            )
        },
        if cfg!(all(sha1_backend = "soft", sha2_256_backend = "soft")) {
            "sha1/sha256: soft, forced by --cfg sha1_backend/sha2_256_backend=\"soft\"".to_string()
        } else {
            pick(cpu::has("sha"), "sha1/sha256: SHA-NI", "sha1/sha256: soft")
        },
        pick(cpu::has("avx2"), "sha512: AVX2", "sha512: soft"),
        pick(
            cpu::has("avx2"),
            "chacha20/poly1305/argon2: AVX2",
            "chacha20: SSE2, poly1305/argon2: soft",
        ),
    ]
    .join(", ")
}
