//! rust/rustcrypto's public-key rows (added to lib_rustcrypto's tables): X25519
//! (x25519-dalek), Ed25519 (ed25519-dalek), P-256 ECDH and ECDSA (p256, RFC 6979 nonces)
//! and RSA-PSS / PKCS#1 v1.5 (rsa, with sha2). Randomness: the OS (getrandom's SysRng).
use crate::protocol::{Fail, internal, invalid};
use crate::pubkey::{
    KEX, Kex, Pair, SIGNATURE, Sig, bytes32, kex_job, no_seed, peer_error, sig_job,
    uncompressed_p256,
};
use crate::registry::{Entry, NO_PARAMS, entry};
use ed25519_dalek as ed;
use getrandom::SysRng;
use getrandom::rand_core::UnwrapErr;
use p256::ecdsa::signature::{Signer, Verifier};
use p256::ecdsa::{Signature, SigningKey, VerifyingKey};
use p256::elliptic_curve::Generate;
use rsa::pkcs8::{DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey};
use rsa::signature::SignatureEncoding;
use rsa::traits::PublicKeyParts;
use rsa::{PrivateKey as RsaPrivateKey, PublicKey as RsaPublicKey, pkcs1v15, pss};
use sha2::Sha256;
use x25519_dalek::{PublicKey as XPublic, StaticSecret};

type PssKey = pss::SigningKey<Sha256>;
type PssPublic = pss::VerifyingKey<Sha256>;
type Pkcs1Key = pkcs1v15::SigningKey<Sha256>;
type Pkcs1Public = pkcs1v15::VerifyingKey<Sha256>;

pub const TABLE: &[Entry] = &[
    entry(
        "x25519",
        KEX,
        NO_PARAMS,
        "x25519_dalek::StaticSecret::diffie_hellman",
        |c| kex_job(c, &X25519),
    ),
    entry(
        "ecdh-p256",
        KEX,
        NO_PARAMS,
        "p256::SecretKey::diffie_hellman",
        |c| kex_job(c, &ECDH_P256),
    ),
    entry(
        "ed25519",
        SIGNATURE,
        NO_PARAMS,
        "ed25519_dalek::SigningKey::sign / VerifyingKey::verify",
        |c| sig_job(c, &ED25519),
    ),
    entry(
        "ecdsa-p256-sha256",
        SIGNATURE,
        NO_PARAMS,
        "p256::ecdsa::SigningKey::sign (RFC 6979), Signature::to_der / from_der",
        |c| sig_job(c, &ECDSA_DER),
    ),
    entry(
        "ecdsa-p256-sha256-p1363",
        SIGNATURE,
        NO_PARAMS,
        "p256::ecdsa::SigningKey::sign (RFC 6979), Signature::to_bytes / from_slice",
        |c| sig_job(c, &ECDSA_P1363),
    ),
    entry(
        "rsa-2048-pss-sha256",
        SIGNATURE,
        NO_PARAMS,
        "rsa::pss::SigningKey<Sha256> (salt 32)",
        |c| sig_job(c, &RSA_2048_PSS),
    ),
    entry(
        "rsa-3072-pss-sha256",
        SIGNATURE,
        NO_PARAMS,
        "rsa::pss::SigningKey<Sha256> (salt 32)",
        |c| sig_job(c, &RSA_3072_PSS),
    ),
    entry(
        "rsa-2048-pkcs1-sha256",
        SIGNATURE,
        NO_PARAMS,
        "rsa::pkcs1v15::SigningKey<Sha256>",
        |c| sig_job(c, &RSA_2048_PKCS1),
    ),
];

static X25519: Kex<StaticSecret> = Kex {
    keygen: |seed| {
        let key = match seed {
            Some(seed) => StaticSecret::from(bytes32(seed).map_err(invalid)?),
            None => StaticSecret::random(),
        };
        Ok((
            XPublic::from(&key).to_bytes().to_vec(),
            key.to_bytes().to_vec(),
        ))
    },
    load: |raw| Ok(StaticSecret::from(bytes32(raw)?)),
    agree: |key, peer| {
        let peer = XPublic::from(bytes32(peer).map_err(peer_error)?);
        let shared = key.diffie_hellman(&peer);
        if !shared.was_contributory() {
            return Err(peer_error("a low-order point (all-zero shared secret)"));
        }
        Ok(shared.as_bytes().to_vec())
    },
};

static ECDH_P256: Kex<p256::SecretKey> = Kex {
    keygen: p256_keygen,
    load: p256_secret,
    agree: |key, peer| {
        let peer = p256_public(peer).map_err(peer_error)?;
        Ok(key.diffie_hellman(&peer).raw_secret_bytes().to_vec())
    },
};

fn p256_secret(raw: &[u8]) -> Result<p256::SecretKey, String> {
    bytes32(raw)?;
    p256::SecretKey::from_slice(raw).map_err(|_| "not a P-256 scalar in 1..n-1".into())
}

fn p256_public(raw: &[u8]) -> Result<p256::PublicKey, String> {
    uncompressed_p256(raw)?;
    p256::PublicKey::from_sec1_bytes(raw).map_err(|_| "not a point on P-256".into())
}

fn p256_keygen(seed: Option<&[u8]>) -> Result<Pair, Fail> {
    let key = match seed {
        Some(seed) => p256_secret(seed).map_err(|why| invalid(format!("key_seed: {why}")))?,
        None => p256::SecretKey::generate(),
    };
    let public = key.public_key().to_sec1_bytes().to_vec();
    Ok((public, key.to_bytes().to_vec()))
}

static ED25519: Sig<ed::SigningKey, ed::VerifyingKey> = Sig {
    keygen: Some(|seed| {
        let key = match seed {
            Some(seed) => ed::SigningKey::from_bytes(&bytes32(seed).map_err(invalid)?),
            None => ed::SigningKey::generate(&mut UnwrapErr(SysRng)),
        };
        Ok((
            key.verifying_key().to_bytes().to_vec(),
            key.to_bytes().to_vec(),
        ))
    }),
    load_private: Some(|raw| Ok(ed::SigningKey::from_bytes(&bytes32(raw)?))),
    load_public: |raw| {
        ed::VerifyingKey::from_bytes(&bytes32(raw)?).map_err(|_| "not an Ed25519 point".into())
    },
    sign: |key, msg| Ok(key.sign(msg).to_bytes().to_vec()),
    verify: |key, msg, sig| {
        ed::Signature::from_slice(sig).is_ok_and(|sig| key.verify(msg, &sig).is_ok())
    },
};

static ECDSA_DER: Sig<SigningKey, VerifyingKey> = Sig {
    sign: |key, msg| {
        let sig: Signature = key.sign(msg);
        Ok(sig.to_der().as_bytes().to_vec())
    },
    verify: |key, msg, sig| Signature::from_der(sig).is_ok_and(|sig| key.verify(msg, &sig).is_ok()),
    ..ECDSA
};

static ECDSA_P1363: Sig<SigningKey, VerifyingKey> = Sig {
    sign: |key, msg| {
        let sig: Signature = key.sign(msg);
        Ok(sig.to_bytes().to_vec())
    },
    verify: |key, msg, sig| {
        Signature::from_slice(sig).is_ok_and(|sig| key.verify(msg, &sig).is_ok())
    },
    ..ECDSA
};

/// The P-256 keys both ECDSA encodings share (their sign and verify are replaced).
const ECDSA: Sig<SigningKey, VerifyingKey> = Sig {
    keygen: Some(p256_keygen),
    load_private: Some(|raw| p256_secret(raw).map(SigningKey::from)),
    load_public: |raw| {
        uncompressed_p256(raw)?;
        VerifyingKey::from_sec1_bytes(raw).map_err(|_| "not a point on P-256".into())
    },
    sign: |_, _| Err(internal("no signature encoding")),
    verify: |_, _, _| false,
};

static RSA_2048_PSS: Sig<PssKey, PssPublic> = rsa_scheme::<2048, _, _, pss::Signature>();
static RSA_3072_PSS: Sig<PssKey, PssPublic> = rsa_scheme::<3072, _, _, pss::Signature>();
static RSA_2048_PKCS1: Sig<Pkcs1Key, Pkcs1Public> = rsa_scheme::<2048, _, _, pkcs1v15::Signature>();

/// RSA with a BITS-bit modulus: K/P the padding's signing/verifying key, S its signature.
const fn rsa_scheme<const BITS: usize, K, P, S>() -> Sig<K, P>
where
    K: From<RsaPrivateKey> + Signer<S>,
    P: From<RsaPublicKey> + Verifier<S>,
    S: SignatureEncoding + for<'a> TryFrom<&'a [u8]>,
{
    Sig {
        keygen: Some(rsa_keygen::<BITS>),
        load_private: Some(|raw| rsa_private::<BITS>(raw).map(K::from)),
        load_public: |raw| rsa_public::<BITS>(raw).map(P::from),
        sign: |key, msg| {
            Ok(key
                .try_sign(msg)
                .map_err(|e| internal(e.to_string()))?
                .to_vec())
        },
        verify: |key, msg, sig| S::try_from(sig).is_ok_and(|sig| key.verify(msg, &sig).is_ok()),
    }
}

fn rsa_keygen<const BITS: usize>(seed: Option<&[u8]>) -> Result<Pair, Fail> {
    if seed.is_some() {
        return Err(no_seed());
    }
    let key = RsaPrivateKey::new(&mut SysRng, BITS).map_err(|e| internal(e.to_string()))?;
    let public = key.to_public_key().to_public_key_der();
    let private = key.to_pkcs8_der();
    match (public, private) {
        (Ok(public), Ok(private)) => Ok((public.into_vec(), private.as_bytes().to_vec())),
        _ => Err(internal("DER encoding of the new key failed")),
    }
}

fn rsa_private<const BITS: usize>(raw: &[u8]) -> Result<RsaPrivateKey, String> {
    let key = RsaPrivateKey::from_pkcs8_der(raw).map_err(|e| e.to_string())?;
    if key.size() * 8 != BITS {
        return Err(format!("not an RSA-{BITS} key"));
    }
    Ok(key)
}

fn rsa_public<const BITS: usize>(raw: &[u8]) -> Result<RsaPublicKey, String> {
    let key = RsaPublicKey::from_public_key_der(raw).map_err(|e| e.to_string())?;
    if key.size() * 8 != BITS {
        return Err(format!("not an RSA-{BITS} key"));
    }
    Ok(key)
}
