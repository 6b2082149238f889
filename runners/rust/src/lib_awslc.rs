//! rust/aws-lc-rs: digests, HMAC, AEADs (LessSafeKey) and PBKDF2 from aws-lc-rs (AWS-LC):
//! one dispatch table. aws-lc-rs mirrors ring's API: the table and every job but the AEAD's
//! come from lib_ring.rs's `ring_api!`; the AEADs here seal and open out of place.
use crate::build_info;
use crate::lib_ring::ring_api;
use crate::protocol::{Fail, auth_failed, invalid};
use crate::registry::{Call, Done, Job, Library, fit, plain, same, stepped};
use aws_lc_rs::aead;

const TAG_LEN: usize = 16;

ring_api!(aws_lc_rs);
use api::Keyed;

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
    notes: "digest::digest one-shot; hmac::sign and hmac::verify with a Key made once; \
            aead::LessSafeKey out of place (seal_out_of_place_scatter / open_separate_gather); \
            AWS-LC built from source by aws-lc-sys with the cc builder; ML-KEM: encaps only \
            (aws-lc-rs takes no seed-form private key and no given randomness)",
    tables: &[
        api::TABLE,
        crate::lib_awslc_pubkey::TABLE,
        crate::lib_awslc_pq::TABLE,
    ],
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
