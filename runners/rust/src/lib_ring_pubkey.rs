//! rust/ring's public-key rows (added to lib_ring's table). What ring 0.17 cannot do, and so
//! is not offered: key agreement (an `agreement::EphemeralPrivateKey` is only generated, never
//! imported nor exported, so neither `agree` with our private key nor a `keygen` answering the
//! private key is possible); ECDSA `keygen` and `sign` (an `EcdsaKeyPair` loads from PKCS#8 or
//! from the scalar *and* its public point, and ring has no way to compute that point from a
//! scalar nor to export a generated key's scalar); RSA `keygen` (ring generates no RSA keys).
//! Ed25519 keygen draws the 32-byte RFC 8032 secret from `SystemRandom`, as ring's own
//! `generate_pkcs8` does. ring verifies with an `UnparsedPublicKey`: the key is parsed inside
//! every `verify` call (ring has no parsed public key). RSA public keys arrive as
//! SubjectPublicKeyInfo; ring takes the RFC 8017 `RSAPublicKey` inside it, unwrapped with the
//! `spki` crate's DER parser.
use crate::protocol::{Fail, internal, invalid};
use crate::pubkey::{
    Pair, SIGN_VERIFY, SIGNATURE, Sig, VERIFY, bytes32, sig_job, uncompressed_p256,
};
use crate::registry::{Entry, NO_PARAMS, entry};
use ring::rand::{self, SystemRandom};
use ring::signature::{self as sig, Ed25519KeyPair, KeyPair, RsaKeyPair, UnparsedPublicKey};
use spki::der::Decode;

type Public = UnparsedPublicKey<Vec<u8>>;

pub const TABLE: &[Entry] = &[
    entry(
        "ed25519",
        SIGNATURE,
        NO_PARAMS,
        "signature::Ed25519KeyPair::sign / ED25519",
        |c| sig_job(c, &ED25519),
    ),
    entry(
        "ecdsa-p256-sha256",
        VERIFY,
        NO_PARAMS,
        "signature::ECDSA_P256_SHA256_ASN1",
        |c| sig_job(c, &ECDSA_DER),
    ),
    entry(
        "ecdsa-p256-sha256-p1363",
        VERIFY,
        NO_PARAMS,
        "signature::ECDSA_P256_SHA256_FIXED",
        |c| sig_job(c, &ECDSA_P1363),
    ),
    entry(
        "rsa-2048-pss-sha256",
        SIGN_VERIFY,
        NO_PARAMS,
        "signature::RsaKeyPair::sign RSA_PSS_SHA256 / RSA_PSS_2048_8192_SHA256",
        |c| sig_job(c, &RSA_2048_PSS),
    ),
    entry(
        "rsa-3072-pss-sha256",
        SIGN_VERIFY,
        NO_PARAMS,
        "signature::RsaKeyPair::sign RSA_PSS_SHA256 / RSA_PSS_2048_8192_SHA256",
        |c| sig_job(c, &RSA_3072_PSS),
    ),
    entry(
        "rsa-2048-pkcs1-sha256",
        SIGN_VERIFY,
        NO_PARAMS,
        "signature::RsaKeyPair::sign RSA_PKCS1_SHA256 / RSA_PKCS1_2048_8192_SHA256",
        |c| sig_job(c, &RSA_2048_PKCS1),
    ),
];

static ED25519: Sig<Ed25519KeyPair, Public> = Sig {
    keygen: Some(ed25519_keygen),
    load_private: Some(|raw| {
        bytes32(raw)?;
        Ed25519KeyPair::from_seed_unchecked(raw).map_err(|e| e.to_string())
    }),
    load_public: |raw| {
        bytes32(raw)?;
        Ok(UnparsedPublicKey::new(&sig::ED25519, raw.to_vec()))
    },
    sign: |key, msg| Ok(key.sign(msg).as_ref().to_vec()),
    verify: |key, msg, sig| key.verify(msg, sig).is_ok(),
};

fn ed25519_keygen(seed: Option<&[u8]>) -> Result<Pair, Fail> {
    let secret: [u8; 32] = match seed {
        Some(seed) => bytes32(seed).map_err(invalid)?,
        None => rand::generate(&SystemRandom::new())
            .map_err(|_| internal("SystemRandom failed"))?
            .expose(),
    };
    let key = Ed25519KeyPair::from_seed_unchecked(&secret).map_err(|e| internal(e.to_string()))?;
    Ok((key.public_key().as_ref().to_vec(), secret.to_vec()))
}

static ECDSA_DER: Sig<(), Public> = ecdsa_verifier::<true>();
static ECDSA_P1363: Sig<(), Public> = ecdsa_verifier::<false>();

/// ECDSA P-256 with SHA-256, verify only; DER (ASN.1) or fixed r‖s signatures.
const fn ecdsa_verifier<const DER: bool>() -> Sig<(), Public> {
    Sig {
        keygen: None,
        load_private: None,
        load_public: |raw| {
            uncompressed_p256(raw)?;
            let alg = if DER {
                &sig::ECDSA_P256_SHA256_ASN1
            } else {
                &sig::ECDSA_P256_SHA256_FIXED
            };
            Ok(UnparsedPublicKey::new(alg, raw.to_vec()))
        },
        sign: |_, _| Err(internal("ring cannot sign with a raw P-256 scalar")),
        verify: |key, msg, sig| key.verify(msg, sig).is_ok(),
    }
}

static RSA_2048_PSS: Sig<RsaKeyPair, Public> = rsa_scheme::<2048, true>();
static RSA_3072_PSS: Sig<RsaKeyPair, Public> = rsa_scheme::<3072, true>();
static RSA_2048_PKCS1: Sig<RsaKeyPair, Public> = rsa_scheme::<2048, false>();

/// RSA with a BITS-bit modulus, PSS (SHA-256, MGF1-SHA-256, 32-byte salt) or PKCS#1 v1.5.
const fn rsa_scheme<const BITS: usize, const PSS: bool>() -> Sig<RsaKeyPair, Public> {
    Sig {
        keygen: None,
        load_private: Some(|raw| {
            let key = RsaKeyPair::from_pkcs8(raw).map_err(|e| e.to_string())?;
            if key.public().modulus_len() * 8 != BITS {
                return Err(format!("not an RSA-{BITS} key"));
            }
            Ok(key)
        }),
        load_public: |raw| {
            let alg = if PSS {
                &sig::RSA_PSS_2048_8192_SHA256
            } else {
                &sig::RSA_PKCS1_2048_8192_SHA256
            };
            Ok(UnparsedPublicKey::new(alg, rsa_public_key(raw)?))
        },
        sign: |key, msg| {
            let pad: &'static dyn sig::RsaEncoding = if PSS {
                &sig::RSA_PSS_SHA256
            } else {
                &sig::RSA_PKCS1_SHA256
            };
            let mut out = vec![0; key.public().modulus_len()];
            key.sign(pad, &SystemRandom::new(), msg, &mut out)
                .map_err(|_| internal("RsaKeyPair::sign failed"))?;
            Ok(out)
        },
        verify: |key, msg, sig| key.verify(msg, sig).is_ok(),
    }
}

/// The RFC 8017 RSAPublicKey inside a SubjectPublicKeyInfo (algorithm rsaEncryption).
fn rsa_public_key(spki_der: &[u8]) -> Result<Vec<u8>, String> {
    const RSA_ENCRYPTION: spki::ObjectIdentifier =
        spki::ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");
    let info = spki::SubjectPublicKeyInfoRef::from_der(spki_der).map_err(|e| e.to_string())?;
    if info.algorithm.oid != RSA_ENCRYPTION {
        return Err("not an rsaEncryption SubjectPublicKeyInfo".into());
    }
    let key = info.subject_public_key.as_bytes();
    key.map(<[u8]>::to_vec)
        .ok_or_else(|| "a public key bit string with unused bits".into())
}
