//! rust/rustcrypto's post-quantum rows (added to lib_rustcrypto's tables): ML-KEM (crate
//! ml-kem, FIPS 203) and ML-DSA (crate ml-dsa, FIPS 204, pure, empty context). Private keys
//! travel as seeds (ML-KEM's d‖z, ML-DSA's ξ), the form both crates keep; randomness: the OS
//! (getrandom's SysRng) unless the request sends it.
use crate::kem::{KEM, Kem, kem_job};
use crate::protocol::{Fail, internal, invalid};
use crate::pubkey::{Pair, SIGNATURE, Sig, bytes32, keyed, randomness, sig_job};
use crate::registry::{Call, Entry, Job, NO_PARAMS, entry, put};
use getrandom::SysRng;
use getrandom::rand_core::UnwrapErr;
use ml_dsa::{B32, EncodedVerifyingKey, MlDsa44, MlDsa65, MlDsa87, MlDsaParams, Signature};
use ml_dsa::{ExpandedSigningKey, Generate, Keypair, SigningKey, VerifyingKey};
use ml_kem::{Decapsulate, Encapsulate, Kem as _, KeyExport, MlKem512, MlKem768, MlKem1024};

pub const TABLE: &[Entry] = &[
    entry("ml-kem-512", KEM, NO_PARAMS, "ml_kem::MlKem512", |c| {
        kem_job(c, &ML_KEM_512)
    }),
    entry("ml-kem-768", KEM, NO_PARAMS, "ml_kem::MlKem768", |c| {
        kem_job(c, &ML_KEM_768)
    }),
    entry("ml-kem-1024", KEM, NO_PARAMS, "ml_kem::MlKem1024", |c| {
        kem_job(c, &ML_KEM_1024)
    }),
    entry("ml-dsa-44", SIGNATURE, NO_PARAMS, "ml_dsa::MlDsa44", |c| {
        ml_dsa_job(c, &ML_DSA_44)
    }),
    entry("ml-dsa-65", SIGNATURE, NO_PARAMS, "ml_dsa::MlDsa65", |c| {
        ml_dsa_job(c, &ML_DSA_65)
    }),
    entry("ml-dsa-87", SIGNATURE, NO_PARAMS, "ml_dsa::MlDsa87", |c| {
        ml_dsa_job(c, &ML_DSA_87)
    }),
];

/// One ML-KEM parameter set: `encapsulate_deterministic` (the crate's `hazmat` feature) is
/// an inherent method of each concrete key type, so the scheme is spelled out per set.
macro_rules! ml_kem {
    ($name:ident, $set:ty, $ek:expr, $ct:expr) => {
        static $name: Kem<ml_kem::EncapsulationKey<$set>, ml_kem::DecapsulationKey<$set>> = Kem {
            seed_len: 64,
            ciphertext_len: $ct,
            keygen: |seed| {
                let (dk, ek) = match seed {
                    Some(seed) => {
                        <$set as ml_kem::FromSeed>::from_seed(&seed_of(seed).map_err(invalid)?)
                    }
                    None => <$set>::generate_keypair(),
                };
                Ok((ek.to_bytes().to_vec(), dk.to_bytes().to_vec()))
            },
            load_public: |raw| {
                let key = raw.try_into().map_err(|_| wrong_length(raw, $ek))?;
                ml_kem::EncapsulationKey::<$set>::new(&key)
                    .map_err(|_| "not an ML-KEM encapsulation key (modulus check)".into())
            },
            load_private: |raw| Ok(ml_kem::DecapsulationKey::<$set>::from_seed(seed_of(raw)?)),
            encaps: |key, m| {
                let (ct, k) = match m {
                    Some(m) => key.encapsulate_deterministic(&(*m).into()),
                    None => key.encapsulate(),
                };
                Ok([ct.as_slice(), k.as_slice()].concat())
            },
            decaps: |key, ct| {
                let ct = ct.try_into().map_err(|_| invalid("ciphertext length"))?;
                Ok(key.decapsulate(&ct).to_vec())
            },
        };
    };
}

ml_kem!(ML_KEM_512, MlKem512, 800, 768);
ml_kem!(ML_KEM_768, MlKem768, 1184, 1088);
ml_kem!(ML_KEM_1024, MlKem1024, 1568, 1568);

/// The 64-byte seed d‖z.
fn seed_of(raw: &[u8]) -> Result<ml_kem::Seed, String> {
    raw.try_into().map_err(|_| wrong_length(raw, 64))
}

fn wrong_length(raw: &[u8], want: usize) -> String {
    format!("{} bytes, not {want}", raw.len())
}

type MlDsa<P> = Sig<ExpandedSigningKey<P>, VerifyingKey<P>>;

static ML_DSA_44: MlDsa<MlDsa44> = ml_dsa_scheme();
static ML_DSA_65: MlDsa<MlDsa65> = ml_dsa_scheme();
static ML_DSA_87: MlDsa<MlDsa87> = ml_dsa_scheme();

/// Pure ML-DSA with the empty context; `sign` here is the hedged default (fresh rnd), the
/// request's own `randomness` is handled by `ml_dsa_job`. The private key (ξ) is expanded
/// when it is parsed.
const fn ml_dsa_scheme<P: MlDsaParams>() -> MlDsa<P> {
    Sig {
        keygen: Some(ml_dsa_keygen::<P>),
        load_private: Some(|raw| Ok(ExpandedSigningKey::from_seed(&B32::from(bytes32(raw)?)))),
        load_public: |raw| {
            let key = EncodedVerifyingKey::<P>::try_from(raw)
                .map_err(|_| wrong_length(raw, size_of::<EncodedVerifyingKey<P>>()))?;
            Ok(VerifyingKey::decode(&key))
        },
        sign: |key, msg| ml_dsa_sign(key, msg, None),
        verify: |key, msg, sig| {
            Signature::<P>::try_from(sig).is_ok_and(|sig| key.verify_with_context(msg, &[], &sig))
        },
    }
}

/// ML-DSA.KeyGen (the crate's `Generate`, a fresh ξ) or KeyGen_internal from `key_seed`.
fn ml_dsa_keygen<P: MlDsaParams>(seed: Option<&[u8]>) -> Result<Pair, Fail> {
    let key = match seed {
        Some(seed) => SigningKey::<P>::from_seed(&B32::from(bytes32(seed).map_err(invalid)?)),
        None => SigningKey::<P>::generate(),
    };
    Ok((
        key.verifying_key().encode().to_vec(),
        key.to_seed().to_vec(),
    ))
}

/// ML-DSA.Sign (FIPS 204 Algorithm 2) with the empty context: hedged with a fresh rnd, or
/// Sign_internal over M' = 0 ‖ 0 ‖ M with the request's rnd (32 zero bytes: deterministic).
fn ml_dsa_sign<P: MlDsaParams>(
    key: &ExpandedSigningKey<P>,
    msg: &[u8],
    rnd: Option<&[u8; 32]>,
) -> Result<Vec<u8>, Fail> {
    let sig = match rnd {
        Some(rnd) => key.sign_internal(&[&[0, 0], msg], &B32::from(*rnd)),
        None => key
            .sign_randomized(msg, &[], &mut UnwrapErr(SysRng))
            .map_err(|e| internal(e.to_string()))?,
    };
    Ok(sig.encode().to_vec())
}

/// The signature family's job, with `sign` taking the optional 32-byte `randomness`.
fn ml_dsa_job<P: MlDsaParams>(call: &Call, s: &'static MlDsa<P>) -> Result<Box<dyn Job>, Fail> {
    if call.operation != "sign" {
        return sig_job(call, s);
    }
    let (rnd, msg) = (randomness(call)?, call.take("msg")?);
    let load = s.load_private.expect("ML-DSA loads its seed");
    keyed(call, "private_key", load, move |key, out| {
        put(out, &ml_dsa_sign(key, msg.as_slice(), rnd.as_ref())?);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_randomness_signs_as_the_crates_deterministic_variant() {
        let key = ExpandedSigningKey::<MlDsa65>::from_seed(&B32::from([7; 32]));
        let ours = ml_dsa_sign(&key, b"message", Some(&[0; 32])).unwrap();
        let own = key.sign_deterministic(b"message", &[]).unwrap();
        assert_eq!(ours, own.encode().to_vec());
        let hedged = ml_dsa_sign(&key, b"message", None).unwrap();
        assert_ne!(hedged, ours);
        let public = SigningKey::<MlDsa65>::from_seed(&B32::from([7; 32])).verifying_key();
        let sig = Signature::<MlDsa65>::try_from(hedged.as_slice()).unwrap();
        assert!(public.verify_with_context(b"message", &[], &sig));
    }

    #[test]
    fn wrong_length_kem_keys_are_refused() {
        assert!((ML_KEM_768.load_private)(&[0; 63]).is_err());
        assert!((ML_KEM_768.load_public)(&[0; 1183]).is_err());
        assert!((ML_KEM_768.load_public)(&[0xff; 1184]).is_err()); // not reduced mod q
        let key = (ML_KEM_768.load_private)(&[1; 64]).unwrap();
        assert_eq!((ML_KEM_768.decaps)(&key, &[0; 1088]).unwrap().len(), 32);
    }
}
