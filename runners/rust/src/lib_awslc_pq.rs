//! rust/aws-lc-rs's post-quantum rows (added to lib_awslc's tables): ML-KEM `encaps` only.
//! aws-lc-rs 1.19's `kem` API takes and exports the decapsulation key only in FIPS 203's
//! expanded form (1632/2400/3168 bytes), never the 64-byte seed d‖z the protocol's private
//! keys are, and has no key generation from a seed and no encapsulation with a given m: so
//! no `keygen`, no `decaps`, and `encaps` with `randomness` is `unsupported`.
use crate::kem::{Kem, kem_job};
use crate::protocol::{Fail, internal, invalid, unsupported};
use crate::pubkey::Pair;
use crate::registry::{Entry, NO_PARAMS, entry};
use aws_lc_rs::kem::{Algorithm, EncapsulationKey, ML_KEM_512, ML_KEM_768, ML_KEM_1024};

/// What aws-lc-rs offers of the kem family.
const ENCAPS: &[&str] = &["encaps"];

pub const TABLE: &[Entry] = &[
    entry(
        "ml-kem-512",
        ENCAPS,
        NO_PARAMS,
        "kem::EncapsulationKey ML_KEM_512",
        |c| kem_job(c, &ML_KEM_512_ENCAPS),
    ),
    entry(
        "ml-kem-768",
        ENCAPS,
        NO_PARAMS,
        "kem::EncapsulationKey ML_KEM_768",
        |c| kem_job(c, &ML_KEM_768_ENCAPS),
    ),
    entry(
        "ml-kem-1024",
        ENCAPS,
        NO_PARAMS,
        "kem::EncapsulationKey ML_KEM_1024",
        |c| kem_job(c, &ML_KEM_1024_ENCAPS),
    ),
];

static ML_KEM_512_ENCAPS: Kem<EncapsulationKey, ()> = encaps_only::<512>(768);
static ML_KEM_768_ENCAPS: Kem<EncapsulationKey, ()> = encaps_only::<768>(1088);
static ML_KEM_1024_ENCAPS: Kem<EncapsulationKey, ()> = encaps_only::<1024>(1568);

/// ML-KEM-`SET`; keygen and decaps are never reached (not in `ENCAPS`).
const fn encaps_only<const SET: usize>(ciphertext_len: usize) -> Kem<EncapsulationKey, ()> {
    Kem {
        seed_len: 64,
        ciphertext_len,
        keygen: no_seed_form,
        // EncapsulationKey::new: the length, then AWS-LC's import (a refused key: its message)
        load_public: |raw| {
            EncapsulationKey::new(algorithm(SET), raw)
                .map_err(|e| format!("{} bytes: {e}", raw.len()))
        },
        load_private: |_| Err("aws-lc-rs takes no seed-form private key".into()),
        encaps: |key, m| {
            if m.is_some() {
                return Err(unsupported(
                    "aws-lc-rs has no encapsulation with a given randomness",
                ));
            }
            let (ct, k) = key
                .encapsulate()
                .map_err(|_| invalid("public_key: AWS-LC refused the encapsulation key"))?;
            Ok([ct.as_ref(), k.as_ref()].concat())
        },
        decaps: |_, _| Err(internal("aws-lc-rs takes no seed-form private key")),
    }
}

const fn algorithm(set: usize) -> &'static Algorithm {
    match set {
        512 => &ML_KEM_512,
        768 => &ML_KEM_768,
        _ => &ML_KEM_1024,
    }
}

fn no_seed_form(_: Option<&[u8]>) -> Result<Pair, Fail> {
    Err(unsupported(
        "aws-lc-rs cannot export the seed-form private key",
    ))
}
