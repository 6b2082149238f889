//! rust/aws-lc-rs: digests, HMAC, AEADs (LessSafeKey) and PBKDF2 from aws-lc-rs (AWS-LC):
//! one dispatch table.
use crate::build_info;
use crate::protocol::{Fail, auth_failed, invalid};
use crate::registry::{
    AEAD, AEAD_PARAMS, Call, DERIVE, DIGEST, Done, Entry, Job, Library, MAC, NO_PARAMS,
    PBKDF2_PARAMS, entry, fit, plain, put, same, stepped,
};
use aws_lc_rs::{aead, digest, hmac, pbkdf2};
use std::num::NonZeroU32;

const TAG_LEN: usize = 16;

pub const LIBRARY: Library = Library {
    name: "aws-lc-rs",
    crates: &["aws-lc-rs"],
    backend: || ("aws-lc".into(), awslc_version()),
    code_path: || {
        format!(
            "AWS-LC's own run-time dispatch (OPENSSL_ia32cap, not exposed); CPU offers: {}",
            crate::cpu::offered()
        )
    },
    notes: "digest::digest one-shot; hmac::sign with a Key made once; aead::LessSafeKey out \
            of place (seal_out_of_place_scatter / open_separate_gather); AWS-LC built from \
            source by aws-lc-sys with the cc builder",
    tables: &[TABLE],
};

/// The AWS-LC release aws-lc-sys bundles (its own version constant, not the crate's).
fn awslc_version() -> String {
    let raw = aws_lc_sys::AWSLC_VERSION_NUMBER_STRING;
    let text = String::from_utf8_lossy(raw);
    format!(
        "{} (aws-lc-sys {})",
        text.trim_end_matches('\0'),
        build_info::version("aws-lc-sys")
    )
}

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
        aead_job(c, &aead::AES_128_GCM)
    }),
    entry("aes-256-gcm", AEAD, AEAD_PARAMS, "aead::AES_256_GCM", |c| {
        aead_job(c, &aead::AES_256_GCM)
    }),
    entry(
        "chacha20-poly1305",
        AEAD,
        AEAD_PARAMS,
        "aead::CHACHA20_POLY1305",
        |c| aead_job(c, &aead::CHACHA20_POLY1305),
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

fn digest_job(call: &Call, alg: &'static digest::Algorithm) -> Result<Box<dyn Job>, Fail> {
    let msg = call.take("msg")?;
    Ok(plain(move |out| {
        put(out, digest::digest(alg, &msg).as_ref());
        Ok(())
    }))
}

fn hmac_job(call: &Call) -> Result<Box<dyn Job>, Fail> {
    let key_bytes = call.take("key")?;
    let msg = call.take("msg")?;
    let key = hmac::Key::new(hmac::HMAC_SHA256, &key_bytes);
    let fresh = call.fresh;
    Ok(plain(move |out| {
        let tag = if fresh {
            hmac::sign(&hmac::Key::new(hmac::HMAC_SHA256, &key_bytes), &msg)
        } else {
            hmac::sign(&key, &msg)
        };
        put(out, tag.as_ref());
        Ok(())
    }))
}

/// A LessSafeKey made once, or per message when `fresh_context` asks for it.
struct Keyed {
    alg: &'static aead::Algorithm,
    bytes: Vec<u8>,
    key: aead::LessSafeKey,
    fresh: bool,
}

impl Keyed {
    fn new(call: &Call, alg: &'static aead::Algorithm) -> Result<Keyed, Fail> {
        let bytes = call.exact("key", alg.key_len())?;
        let key = less_safe_key(alg, &bytes)?;
        Ok(Keyed {
            alg,
            bytes,
            key,
            fresh: call.fresh,
        })
    }

    fn with(&self, f: impl FnOnce(&aead::LessSafeKey) -> Done) -> Done {
        if self.fresh {
            f(&less_safe_key(self.alg, &self.bytes)?)
        } else {
            f(&self.key)
        }
    }
}

fn less_safe_key(alg: &'static aead::Algorithm, bytes: &[u8]) -> Result<aead::LessSafeKey, Fail> {
    let unbound = aead::UnboundKey::new(alg, bytes).map_err(|_| invalid("key rejected"))?;
    Ok(aead::LessSafeKey::new(unbound))
}

fn aead_job(call: &Call, alg: &'static aead::Algorithm) -> Result<Box<dyn Job>, Fail> {
    let keyed = Keyed::new(call, alg)?;
    let nonce = call.exact("nonce", alg.nonce_len())?;
    let aad = call.take("aad").unwrap_or_default();
    let msg = call.take("msg")?;
    match call.operation {
        "seal" => Ok(stepped(nonce, move |n, out, _| {
            keyed.with(|k| seal(k, n, &aad, &msg, out))
        })),
        "open" => {
            if msg.len() < TAG_LEN {
                return Err(invalid("ciphertext shorter than the tag"));
            }
            Ok(plain(move |out| {
                keyed.with(|k| open(k, &nonce, &aad, &msg, out))
            }))
        }
        _ => {
            let mut back = Vec::new();
            Ok(stepped(nonce, move |n, out, verified| {
                keyed.with(|k| {
                    seal(k, n, &aad, &msg, out)?;
                    open(k, n, &aad, out, &mut back)?;
                    same(verified, &back, &msg)
                })
            }))
        }
    }
}

fn seal(k: &aead::LessSafeKey, nonce: &[u8], aad: &[u8], msg: &[u8], out: &mut Vec<u8>) -> Done {
    let nonce = aead::Nonce::try_assume_unique_for_key(nonce).map_err(|_| invalid("bad nonce"))?;
    fit(out, msg.len() + TAG_LEN);
    let (ct, tag) = out.split_at_mut(msg.len());
    k.seal_out_of_place_scatter(nonce, aead::Aad::from(aad), msg, ct, &[], tag)
        .map_err(|_| invalid("message too long"))
}

fn open(k: &aead::LessSafeKey, nonce: &[u8], aad: &[u8], sealed: &[u8], out: &mut Vec<u8>) -> Done {
    let nonce = aead::Nonce::try_assume_unique_for_key(nonce).map_err(|_| invalid("bad nonce"))?;
    let (ct, tag) = sealed.split_at(sealed.len() - TAG_LEN);
    fit(out, ct.len());
    k.open_separate_gather(nonce, aead::Aad::from(aad), ct, tag, out)
        .map_err(|_| auth_failed("tag does not verify"))
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
