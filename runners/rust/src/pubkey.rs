//! The public-key families (docs/protocol.md, "Public-key operations"): kex (keygen, agree)
//! and signature (keygen, sign, verify). A library describes a primitive as a scheme of
//! functions over the protocol's encodings (`K`/`P`: its parsed private/public key); the jobs
//! here are the same for every library. Our key is parsed once per case (in every call with
//! `fresh_context`); `agree` parses the peer's public key in every call. `keygen` without
//! `key_seed` makes a fresh random pair per call.
use crate::protocol::{Fail, auth_failed, invalid, unsupported};
use crate::registry::{Call, Done, Job, plain, put};

pub const KEX: &[&str] = &["keygen", "agree"];
pub const SIGNATURE: &[&str] = &["keygen", "sign", "verify"];
/// A library with no key generation for the primitive (ring's RSA).
pub const SIGN_VERIFY: &[&str] = &["sign", "verify"];
/// A library that cannot load a private key of this type from its bytes (ring's ECDSA).
pub const VERIFY: &[&str] = &["verify"];

/// (public key, private key) in the protocol's encodings.
pub type Pair = (Vec<u8>, Vec<u8>);
/// Makes a key pair: from the 32-byte `key_seed` when sent, else at random.
pub type KeyGen = fn(Option<&[u8]>) -> Result<Pair, Fail>;
/// Parses a key from its encoding; the message says why it cannot.
pub type Load<K> = fn(&[u8]) -> Result<K, String>;

pub struct Kex<K> {
    pub keygen: KeyGen,
    pub load: Load<K>,
    /// The shared secret with the peer's public key (encoded); a refused peer key →
    /// `invalid_params` (see `peer_error`).
    pub agree: fn(&K, &[u8]) -> Result<Vec<u8>, Fail>,
}

pub struct Sig<K, P> {
    /// `None` where the library has no key generation (the entry does not offer `keygen`).
    pub keygen: Option<KeyGen>,
    /// `None` where the library cannot load the private key (the entry offers `verify` only).
    pub load_private: Option<Load<K>>,
    pub load_public: Load<P>,
    pub sign: fn(&K, &[u8]) -> Result<Vec<u8>, Fail>,
    pub verify: fn(&P, &[u8], &[u8]) -> bool,
}

pub fn kex_job<K: 'static>(call: &Call, s: &'static Kex<K>) -> Result<Box<dyn Job>, Fail> {
    match call.operation {
        "keygen" => keygen_job(call, s.keygen),
        _ => {
            let peer = call.take("peer_public_key")?;
            keyed(call, "private_key", s.load, move |key, out| {
                put(out, &(s.agree)(key, &peer)?);
                Ok(())
            })
        }
    }
}

pub fn sig_job<K: 'static, P: 'static>(
    call: &Call,
    s: &'static Sig<K, P>,
) -> Result<Box<dyn Job>, Fail> {
    let missing = || unsupported(format!("{} is not offered", call.operation));
    let msg = call.take("msg");
    match call.operation {
        "keygen" => keygen_job(call, s.keygen.ok_or_else(missing)?),
        "sign" => {
            let (msg, load) = (msg?, s.load_private.ok_or_else(missing)?);
            keyed(call, "private_key", load, move |key, out| {
                put(out, &(s.sign)(key, &msg)?);
                Ok(())
            })
        }
        _ => {
            let (msg, sig) = (msg?, call.take("signature")?);
            keyed(call, "public_key", s.load_public, move |key, out| {
                if !(s.verify)(key, &msg, &sig) {
                    return Err(auth_failed("the signature does not verify"));
                }
                put(out, b"ok");
                Ok(())
            })
        }
    }
}

/// keygen's job: public key ‖ private key, from `key_seed` (32 bytes) when it is sent.
fn keygen_job(call: &Call, make: KeyGen) -> Result<Box<dyn Job>, Fail> {
    seeded_keygen_job(call, make, 32)
}

/// keygen's job with a `key_seed` of `size` bytes (ML-KEM's d‖z: 64).
pub fn seeded_keygen_job(call: &Call, make: KeyGen, size: usize) -> Result<Box<dyn Job>, Fail> {
    let seed = match call.inputs.get("key_seed") {
        Ok(seed) if seed.len() != size => {
            return Err(invalid(format!(
                "key_seed is {} bytes, not {size}",
                seed.len()
            )));
        }
        Ok(seed) => Some(seed.to_vec()),
        Err(_) => None,
    };
    Ok(plain(move |out| {
        let (public, private) = make(seed.as_deref())?;
        out.clear();
        out.extend_from_slice(&public);
        out.extend_from_slice(&private);
        Ok(())
    }))
}

/// Parses the named key input once (or in every call with `fresh_context`) and runs `f`.
pub fn keyed<K: 'static>(
    call: &Call,
    name: &'static str,
    load: Load<K>,
    mut f: impl FnMut(&K, &mut Vec<u8>) -> Done + 'static,
) -> Result<Box<dyn Job>, Fail> {
    let raw = call.take(name)?;
    let parse = move |raw: &[u8]| load(raw).map_err(|why| invalid(format!("{name}: {why}")));
    if call.fresh {
        return Ok(plain(move |out| f(&parse(&raw)?, out)));
    }
    let key = parse(&raw)?;
    Ok(plain(move |out| f(&key, out)))
}

/// The optional 32-byte `randomness` input (ML-KEM's m, ML-DSA's rnd); another length →
/// `invalid_params`.
pub fn randomness(call: &Call) -> Result<Option<[u8; 32]>, Fail> {
    match call.inputs.get("randomness") {
        Ok(raw) => bytes32(raw)
            .map(Some)
            .map_err(|why| invalid(format!("randomness: {why}"))),
        Err(_) => Ok(None),
    }
}

/// keygen's answer for a key type with no standard generation from a seed (RSA).
pub fn no_seed() -> Fail {
    unsupported("this key type has no key generation from a seed")
}

/// A peer public key the library refused (or an X25519 low-order point).
pub fn peer_error(why: impl std::fmt::Display) -> Fail {
    invalid(format!("peer_public_key: {why}"))
}

/// A P-256 public key as the protocol fixes it: the 65-byte uncompressed SEC1 point.
pub fn uncompressed_p256(public: &[u8]) -> Result<(), String> {
    if public.len() != 65 || public[0] != 4 {
        return Err("not an uncompressed SEC1 P-256 point (65 bytes, 04||X||Y)".into());
    }
    Ok(())
}

/// A 32-byte key input (X25519, Ed25519 and P-256 private keys, X25519 and Ed25519 public).
pub fn bytes32(raw: &[u8]) -> Result<[u8; 32], String> {
    raw.try_into()
        .map_err(|_| format!("{} bytes, not 32", raw.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_uncompressed_p256_points_pass() {
        let mut point = vec![4u8; 65];
        assert!(uncompressed_p256(&point).is_ok());
        point[0] = 2;
        assert!(uncompressed_p256(&point).is_err());
        assert!(uncompressed_p256(&[4u8; 33]).is_err());
    }

    #[test]
    fn key_inputs_are_32_bytes() {
        assert_eq!(bytes32(&[7; 32]).unwrap(), [7; 32]);
        assert!(bytes32(&[7; 31]).is_err());
    }
}
