//! rust/ring: digests, HMAC, AEADs (LessSafeKey) and PBKDF2 from ring: one dispatch table.
//! aws-lc-rs mirrors ring's API, so the table and every job but the AEAD's are written once,
//! in `ring_api!`, for either crate; lib_awslc.rs invokes it with `aws_lc_rs`. The AEAD jobs
//! differ (ring works in place, aws-lc-rs out of place) and stay in each library's file.
use crate::build_info;
use crate::protocol::{Fail, auth_failed, invalid};
use crate::registry::{Call, Done, Job, Library, fit, plain, put, same, stepped};
use ring::aead;

/// Writes `mod api` for a crate with ring's API (`ring` or `aws_lc_rs`): `TABLE`, the digest,
/// HMAC and PBKDF2 jobs, and `Keyed` (the AEAD key the caller's `aead_job` seals with).
macro_rules! ring_api {
    ($krate:ident) => {
        mod api {
            use crate::protocol::{Fail, auth_failed, invalid};
            use crate::registry::{
                AEAD, AEAD_PARAMS, Call, DERIVE, DIGEST, Done, Entry, Job, MAC, NO_PARAMS,
                PBKDF2_PARAMS, entry, fit, plain, put,
            };
            use std::num::NonZeroU32;
            use $krate::{aead, digest, hmac, pbkdf2};

            pub const TABLE: &[Entry] = &[
                entry(
                    "sha1",
                    DIGEST,
                    NO_PARAMS,
                    "digest::SHA1_FOR_LEGACY_USE_ONLY",
                    |c| digest_job(c, &digest::SHA1_FOR_LEGACY_USE_ONLY),
                ),
                entry("sha256", DIGEST, NO_PARAMS, "digest::SHA256", |c| {
                    digest_job(c, &digest::SHA256)
                }),
                entry("sha384", DIGEST, NO_PARAMS, "digest::SHA384", |c| {
                    digest_job(c, &digest::SHA384)
                }),
                entry("sha512", DIGEST, NO_PARAMS, "digest::SHA512", |c| {
                    digest_job(c, &digest::SHA512)
                }),
                entry("hmac-sha256", MAC, NO_PARAMS, "hmac::HMAC_SHA256", hmac_job),
                entry("aes-128-gcm", AEAD, AEAD_PARAMS, "aead::AES_128_GCM", |c| {
                    super::aead_job(c, &aead::AES_128_GCM)
                }),
                entry("aes-256-gcm", AEAD, AEAD_PARAMS, "aead::AES_256_GCM", |c| {
                    super::aead_job(c, &aead::AES_256_GCM)
                }),
                entry(
                    "chacha20-poly1305",
                    AEAD,
                    AEAD_PARAMS,
                    "aead::CHACHA20_POLY1305",
                    |c| super::aead_job(c, &aead::CHACHA20_POLY1305),
                ),
                entry(
                    "pbkdf2-sha1",
                    DERIVE,
                    PBKDF2_PARAMS,
                    "pbkdf2::PBKDF2_HMAC_SHA1",
                    |c| pbkdf2_job(c, pbkdf2::PBKDF2_HMAC_SHA1),
                ),
                entry(
                    "pbkdf2-sha256",
                    DERIVE,
                    PBKDF2_PARAMS,
                    "pbkdf2::PBKDF2_HMAC_SHA256",
                    |c| pbkdf2_job(c, pbkdf2::PBKDF2_HMAC_SHA256),
                ),
                entry(
                    "pbkdf2-sha512",
                    DERIVE,
                    PBKDF2_PARAMS,
                    "pbkdf2::PBKDF2_HMAC_SHA512",
                    |c| pbkdf2_job(c, pbkdf2::PBKDF2_HMAC_SHA512),
                ),
            ];

            fn digest_job(
                call: &Call,
                alg: &'static digest::Algorithm,
            ) -> Result<Box<dyn Job>, Fail> {
                let msg = call.take("msg")?;
                Ok(plain(move |out| {
                    put(out, digest::digest(alg, &msg).as_ref());
                    Ok(())
                }))
            }

            /// `mac` signs; `verify` is the crate's `hmac::verify` (it signs, then compares
            /// in constant time; a tag of another length fails).
            fn hmac_job(call: &Call) -> Result<Box<dyn Job>, Fail> {
                let key = MacKey::new(call)?;
                let msg = call.take("msg")?;
                if call.operation == "verify" {
                    let tag = call.take("tag")?;
                    return Ok(plain(move |out| {
                        key.with(|k| hmac::verify(k, &msg, &tag))
                            .map_err(|_| auth_failed("tag does not verify"))?;
                        put(out, b"ok");
                        Ok(())
                    }));
                }
                Ok(plain(move |out| {
                    put(out, key.with(|k| hmac::sign(k, &msg)).as_ref());
                    Ok(())
                }))
            }

            /// The HMAC key made once, or per message when `fresh_context` asks for it.
            struct MacKey {
                bytes: Vec<u8>,
                key: hmac::Key,
                fresh: bool,
            }

            impl MacKey {
                fn new(call: &Call) -> Result<MacKey, Fail> {
                    let bytes = call.take("key")?;
                    let key = hmac::Key::new(hmac::HMAC_SHA256, &bytes);
                    Ok(MacKey {
                        bytes,
                        key,
                        fresh: call.fresh,
                    })
                }

                fn with<T>(&self, f: impl FnOnce(&hmac::Key) -> T) -> T {
                    if self.fresh {
                        f(&hmac::Key::new(hmac::HMAC_SHA256, &self.bytes))
                    } else {
                        f(&self.key)
                    }
                }
            }

            /// A LessSafeKey made once, or per message when `fresh_context` asks for it.
            pub(super) struct Keyed {
                alg: &'static aead::Algorithm,
                bytes: Vec<u8>,
                key: aead::LessSafeKey,
                fresh: bool,
            }

            impl Keyed {
                pub(super) fn new(
                    call: &Call,
                    alg: &'static aead::Algorithm,
                ) -> Result<Keyed, Fail> {
                    let bytes = call.exact("key", alg.key_len())?;
                    let key = less_safe_key(alg, &bytes)?;
                    Ok(Keyed {
                        alg,
                        bytes,
                        key,
                        fresh: call.fresh,
                    })
                }

                pub(super) fn with(&self, f: impl FnOnce(&aead::LessSafeKey) -> Done) -> Done {
                    if self.fresh {
                        f(&less_safe_key(self.alg, &self.bytes)?)
                    } else {
                        f(&self.key)
                    }
                }
            }

            pub(super) fn less_safe_key(
                alg: &'static aead::Algorithm,
                bytes: &[u8],
            ) -> Result<aead::LessSafeKey, Fail> {
                let unbound =
                    aead::UnboundKey::new(alg, bytes).map_err(|_| invalid("key rejected"))?;
                Ok(aead::LessSafeKey::new(unbound))
            }

            fn pbkdf2_job(call: &Call, alg: pbkdf2::Algorithm) -> Result<Box<dyn Job>, Fail> {
                let rounds = NonZeroU32::new(call.u32("iterations")?)
                    .ok_or_else(|| invalid("iterations must be at least 1"))?;
                let out_len = call.usize("out_len")?;
                if out_len == 0 {
                    return Err(invalid("out_len must be at least 1"));
                }
                let password = call.take("password")?;
                let salt = call.take("salt")?;
                Ok(plain(move |out| {
                    fit(out, out_len);
                    pbkdf2::derive(alg, rounds, &salt, &password, out);
                    Ok(())
                }))
            }
        }
    };
}

pub(crate) use ring_api;

ring_api!(ring);
use api::Keyed;

pub const LIBRARY: Library = Library {
    name: "ring",
    crates: &["ring"],
    backend: || ("ring".into(), build_info::version("ring").into()),
    code_path: || {
        format!(
            "ring's own run-time dispatch (not exposed); CPU offers: {}",
            crate::cpu::offered()
        )
    },
    notes: "digest::digest one-shot; hmac::sign and hmac::verify with a Key made once; \
            aead::LessSafeKey works in place only: timed seals re-seal the previous ciphertext \
            in the output buffer (no copy), roundtrip seals and opens one buffer, open copies \
            ciphertext‖tag in first (that memcpy is in open's time)",
    tables: &[api::TABLE, crate::lib_ring_pubkey::TABLE],
};

fn aead_job(call: &Call, alg: &'static aead::Algorithm) -> Result<Box<dyn Job>, Fail> {
    let keyed = Keyed::new(call, alg)?;
    let nonce = call.exact("nonce", alg.nonce_len())?;
    let aad = call.take("aad").unwrap_or_default();
    let msg = call.take("msg")?;
    match call.operation {
        "seal" => Ok(stepped(nonce, move |n, out, verified| {
            // The verified call seals the message; timed calls re-seal the previous
            // ciphertext in place (same length, no copy), as a ring user seals their buffer.
            if verified {
                put(out, &msg);
            } else {
                fit(out, msg.len());
            }
            keyed.with(|k| seal_in_place(k, n, &aad, out))
        })),
        "open" => {
            if msg.len() < alg.tag_len() {
                return Err(invalid("ciphertext shorter than the tag"));
            }
            Ok(plain(move |out| {
                put(out, &msg);
                keyed.with(|k| open_in_place(k, &nonce, &aad, out))
            }))
        }
        _ => {
            // Seal then open in place in one work buffer: the open restores the message.
            let mut buf = msg.clone();
            Ok(stepped(nonce, move |n, out, verified| {
                keyed.with(|k| {
                    seal_in_place(k, n, &aad, &mut buf)?;
                    if verified {
                        put(out, &buf);
                    }
                    open_in_place(k, n, &aad, &mut buf)?;
                    same(verified, &buf, &msg)
                })
            }))
        }
    }
}

/// `buf` holds the plaintext on entry and ciphertext‖tag on return.
fn seal_in_place(k: &aead::LessSafeKey, nonce: &[u8], aad: &[u8], buf: &mut Vec<u8>) -> Done {
    let nonce = aead::Nonce::try_assume_unique_for_key(nonce).map_err(|_| invalid("bad nonce"))?;
    let tag = k
        .seal_in_place_separate_tag(nonce, aead::Aad::from(aad), buf)
        .map_err(|_| invalid("message too long"))?;
    buf.extend_from_slice(tag.as_ref());
    Ok(())
}

/// `buf` holds ciphertext‖tag on entry and the plaintext on success.
fn open_in_place(k: &aead::LessSafeKey, nonce: &[u8], aad: &[u8], buf: &mut Vec<u8>) -> Done {
    let nonce = aead::Nonce::try_assume_unique_for_key(nonce).map_err(|_| invalid("bad nonce"))?;
    let len = k
        .open_in_place(nonce, aead::Aad::from(aad), buf)
        .map_err(|_| auth_failed("tag does not verify"))?
        .len();
    buf.truncate(len);
    Ok(())
}
