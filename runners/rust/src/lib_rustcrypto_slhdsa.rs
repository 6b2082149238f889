//! rust/rustcrypto's SLH-DSA rows (added to lib_rustcrypto's tables): crate slh-dsa (FIPS
//! 205), pure SLH-DSA with the empty context, the three 128-bit parameter sets (n = 16).
//! The private key travels in seed form, SK.seed ‖ SK.prf ‖ PK.seed (48 bytes), expanded with
//! `slh_keygen_internal` (which computes PK.root) when it is parsed. `sign` is hedged (a
//! fresh 16-byte opt_rand from the OS) unless the request sends `randomness` (16 bytes, FIPS
//! 205's opt_rand; PK.seed as opt_rand gives the deterministic variant).
use crate::protocol::{Fail, internal, invalid};
use crate::pubkey::{Pair, SIGNATURE, Sig, keyed, seeded_keygen_job, sig_job};
use crate::registry::{Call, Entry, Job, NO_PARAMS, entry, put};
use slh_dsa::{ParameterSet, Sha2_128f, Sha2_128s, Shake128f, Signature, SigningKey, VerifyingKey};

pub const TABLE: &[Entry] = &[
    entry(
        "slh-dsa-sha2-128s",
        SIGNATURE,
        NO_PARAMS,
        "slh_dsa::Sha2_128s",
        |c| slh_job(c, &SHA2_128S),
    ),
    entry(
        "slh-dsa-sha2-128f",
        SIGNATURE,
        NO_PARAMS,
        "slh_dsa::Sha2_128f",
        |c| slh_job(c, &SHA2_128F),
    ),
    entry(
        "slh-dsa-shake-128f",
        SIGNATURE,
        NO_PARAMS,
        "slh_dsa::Shake128f",
        |c| slh_job(c, &SHAKE_128F),
    ),
];

/// n, the security parameter of the 128-bit sets: the seed form is 3n, opt_rand n bytes.
const N: usize = 16;

type SlhDsa<P> = Sig<SigningKey<P>, VerifyingKey<P>>;

static SHA2_128S: SlhDsa<Sha2_128s> = slh_scheme();
static SHA2_128F: SlhDsa<Sha2_128f> = slh_scheme();
static SHAKE_128F: SlhDsa<Shake128f> = slh_scheme();

const fn slh_scheme<P: ParameterSet>() -> SlhDsa<P> {
    Sig {
        keygen: Some(slh_keygen::<P>),
        load_private: Some(|raw| derive::<P>(raw)),
        load_public: |raw| {
            VerifyingKey::<P>::try_from(raw)
                .map_err(|_| format!("{} bytes, not {}", raw.len(), 2 * N))
        },
        sign: |key, msg| slh_sign(key, msg, None),
        verify: |key, msg, sig| {
            Signature::<P>::try_from(sig)
                .is_ok_and(|sig| key.try_verify_with_context(msg, &[], &sig).is_ok())
        },
    }
}

/// slh_keygen_internal(SK.seed, SK.prf, PK.seed) from the 48-byte seed form.
fn derive<P: ParameterSet>(seed: &[u8]) -> Result<SigningKey<P>, String> {
    if seed.len() != 3 * N {
        return Err(format!("{} bytes, not {}", seed.len(), 3 * N));
    }
    let (sk_seed, rest) = seed.split_at(N);
    let (sk_prf, pk_seed) = rest.split_at(N);
    Ok(SigningKey::slh_keygen_internal(sk_seed, sk_prf, pk_seed))
}

/// SLH-DSA.KeyGen: from `key_seed` (the seed form) or from 48 fresh bytes of the OS.
fn slh_keygen<P: ParameterSet>(seed: Option<&[u8]>) -> Result<Pair, Fail> {
    let seed = match seed {
        Some(seed) => seed.to_vec(),
        None => fresh(3 * N)?,
    };
    let key = derive::<P>(&seed).map_err(invalid)?;
    let public: &VerifyingKey<P> = key.as_ref();
    Ok((public.to_vec(), seed))
}

fn fresh(len: usize) -> Result<Vec<u8>, Fail> {
    let mut out = vec![0u8; len];
    getrandom::fill(&mut out).map_err(|e| internal(e.to_string()))?;
    Ok(out)
}

/// slh_sign (FIPS 205 Algorithm 22) with the empty context and opt_rand = `rnd`, or a fresh
/// one (hedged).
fn slh_sign<P: ParameterSet>(
    key: &SigningKey<P>,
    msg: &[u8],
    rnd: Option<&[u8]>,
) -> Result<Vec<u8>, Fail> {
    let fresh_rnd;
    let rnd = match rnd {
        Some(rnd) => rnd,
        None => {
            fresh_rnd = fresh(N)?;
            &fresh_rnd
        }
    };
    let sig = key
        .try_sign_with_context(msg, &[], Some(rnd))
        .map_err(|e| internal(e.to_string()))?;
    Ok(sig.to_vec())
}

/// The signature family's job, with a 48-byte `key_seed` and `sign` taking the optional
/// 16-byte `randomness` (another length → `invalid_params`).
fn slh_job<P: ParameterSet>(call: &Call, s: &'static SlhDsa<P>) -> Result<Box<dyn Job>, Fail> {
    match call.operation {
        "keygen" => seeded_keygen_job(call, slh_keygen::<P>, 3 * N),
        "sign" => {
            let rnd = match call.inputs.get("randomness") {
                Ok(raw) if raw.len() != N => {
                    return Err(invalid(format!("randomness: {} bytes, not {N}", raw.len())));
                }
                Ok(raw) => Some(raw.to_vec()),
                Err(_) => None,
            };
            let msg = call.take("msg")?;
            let load = s.load_private.expect("SLH-DSA loads its seed");
            keyed(call, "private_key", load, move |key, out| {
                put(out, &slh_sign(key, &msg, rnd.as_deref())?);
                Ok(())
            })
        }
        _ => sig_job(call, s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pk_seed_as_opt_rand_is_the_crates_deterministic_variant() {
        let key = derive::<Sha2_128f>(&[7; 48]).unwrap();
        let ours = slh_sign(&key, b"message", Some(&[7; 16])).unwrap();
        let own = key.try_sign_with_context(b"message", &[], None).unwrap();
        assert_eq!(ours, own.to_vec());
        let hedged = slh_sign(&key, b"message", None).unwrap();
        assert_ne!(hedged, ours);
        let public: &VerifyingKey<Sha2_128f> = key.as_ref();
        assert!((SHA2_128F.verify)(public, b"message", &hedged));
        assert!(!(SHA2_128F.verify)(public, b"massage", &hedged));
    }

    #[test]
    fn wrong_length_seeds_and_keys_are_refused() {
        assert!(derive::<Sha2_128s>(&[0; 47]).is_err());
        assert!((SHA2_128S.load_public)(&[0; 31]).is_err());
        assert!(slh_keygen::<Shake128f>(Some(&[0; 49])).is_err());
    }
}
