//! rust/aws-lc-rs's public-key rows (added to lib_awslc's table): X25519 and P-256 ECDH
//! (`agreement::PrivateKey`, importable and exportable, unlike ring's), Ed25519, ECDSA P-256
//! (DER and fixed r‖s) and RSA-PSS / PKCS#1 v1.5 with key generation. Public keys are
//! parsed once per case into a `signature::ParsedPublicKey`. An ECDSA key pair is loaded from
//! the scalar and its public point; the point comes from the same scalar loaded as an
//! `agreement::PrivateKey` (aws-lc-rs's one way to compute it).
use crate::protocol::{Fail, internal, invalid};
use crate::pubkey::{
    KEX, Kex, Pair, SIGNATURE, Sig, bytes32, kex_job, no_seed, peer_error, sig_job,
    uncompressed_p256,
};
use crate::registry::{Entry, NO_PARAMS, entry};
use aws_lc_rs::agreement::{self, ECDH_P256, PrivateKey, UnparsedPublicKey, X25519};
use aws_lc_rs::encoding::{
    AsBigEndian, AsDer, Curve25519SeedBin, EcPrivateKeyBin, Pkcs8V1Der, PublicKeyX509Der,
};
use aws_lc_rs::rand::SystemRandom;
use aws_lc_rs::rsa::KeySize;
use aws_lc_rs::signature::{
    self as sig, EcdsaKeyPair, Ed25519KeyPair, KeyPair, ParsedPublicKey, RsaKeyPair,
};

pub const TABLE: &[Entry] = &[
    entry("x25519", KEX, NO_PARAMS, "agreement::agree X25519", |c| {
        kex_job(c, &KEX_X25519)
    }),
    entry(
        "ecdh-p256",
        KEX,
        NO_PARAMS,
        "agreement::agree ECDH_P256",
        |c| kex_job(c, &KEX_P256),
    ),
    entry(
        "ed25519",
        SIGNATURE,
        NO_PARAMS,
        "signature::Ed25519KeyPair::sign / ParsedPublicKey ED25519",
        |c| sig_job(c, &ED25519),
    ),
    entry(
        "ecdsa-p256-sha256",
        SIGNATURE,
        NO_PARAMS,
        "signature::EcdsaKeyPair ECDSA_P256_SHA256_ASN1_SIGNING",
        |c| sig_job(c, &ECDSA_DER),
    ),
    entry(
        "ecdsa-p256-sha256-p1363",
        SIGNATURE,
        NO_PARAMS,
        "signature::EcdsaKeyPair ECDSA_P256_SHA256_FIXED_SIGNING",
        |c| sig_job(c, &ECDSA_P1363),
    ),
    entry(
        "rsa-2048-pss-sha256",
        SIGNATURE,
        NO_PARAMS,
        "signature::RsaKeyPair::sign RSA_PSS_SHA256 / RSA_PSS_2048_8192_SHA256",
        |c| sig_job(c, &RSA_2048_PSS),
    ),
    entry(
        "rsa-3072-pss-sha256",
        SIGNATURE,
        NO_PARAMS,
        "signature::RsaKeyPair::sign RSA_PSS_SHA256 / RSA_PSS_2048_8192_SHA256",
        |c| sig_job(c, &RSA_3072_PSS),
    ),
    entry(
        "rsa-2048-pkcs1-sha256",
        SIGNATURE,
        NO_PARAMS,
        "signature::RsaKeyPair::sign RSA_PKCS1_SHA256 / RSA_PKCS1_2048_8192_SHA256",
        |c| sig_job(c, &RSA_2048_PKCS1),
    ),
];

static KEX_X25519: Kex<PrivateKey> = kex_scheme::<false>();
static KEX_P256: Kex<PrivateKey> = kex_scheme::<true>();

const fn kex_scheme<const P256: bool>() -> Kex<PrivateKey> {
    Kex {
        keygen: |seed| {
            let key = match seed {
                Some(seed) => {
                    agreement_key(P256, seed).map_err(|w| invalid(format!("key_seed: {w}")))?
                }
                None => {
                    PrivateKey::generate(curve(P256)).map_err(|_| internal("generate failed"))?
                }
            };
            agreement_pair(P256, &key)
        },
        load: |raw| agreement_key(P256, raw),
        agree: |key, peer| {
            if P256 {
                uncompressed_p256(peer).map_err(peer_error)?;
            }
            let peer = UnparsedPublicKey::new(curve(P256), peer);
            agreement::agree(key, peer, (), |secret| Ok(secret.to_vec()))
                .map_err(|_| peer_error("refused by agreement::agree"))
        },
    }
}

const fn curve(p256: bool) -> &'static agreement::Algorithm {
    if p256 { &ECDH_P256 } else { &X25519 }
}

fn agreement_key(p256: bool, raw: &[u8]) -> Result<PrivateKey, String> {
    bytes32(raw)?;
    PrivateKey::from_private_key(curve(p256), raw).map_err(|e| e.to_string())
}

fn agreement_pair(p256: bool, key: &PrivateKey) -> Result<Pair, Fail> {
    let public = key
        .compute_public_key()
        .map_err(|_| internal("compute_public_key failed"))?;
    let private = if p256 {
        let bin: Result<EcPrivateKeyBin, _> = key.as_be_bytes();
        bin.map(|b| b.as_ref().to_vec())
    } else {
        let bin: Result<Curve25519SeedBin, _> = key.as_be_bytes();
        bin.map(|b| b.as_ref().to_vec())
    };
    let private = private.map_err(|_| internal("the private key cannot be exported"))?;
    Ok((public.as_ref().to_vec(), private))
}

static ED25519: Sig<Ed25519KeyPair, ParsedPublicKey> = Sig {
    keygen: Some(|seed| {
        let key = match seed {
            Some(seed) => {
                Ed25519KeyPair::from_seed_unchecked(seed).map_err(|e| invalid(e.to_string()))?
            }
            None => Ed25519KeyPair::generate().map_err(|_| internal("generate failed"))?,
        };
        let seed: Result<Curve25519SeedBin, _> = key.seed().and_then(|s| s.as_be_bytes());
        let seed = seed.map_err(|_| internal("the seed cannot be exported"))?;
        Ok((key.public_key().as_ref().to_vec(), seed.as_ref().to_vec()))
    }),
    load_private: Some(|raw| {
        bytes32(raw)?;
        Ed25519KeyPair::from_seed_unchecked(raw).map_err(|e| e.to_string())
    }),
    load_public: |raw| {
        bytes32(raw)?;
        ParsedPublicKey::new(&sig::ED25519, raw).map_err(|e| e.to_string())
    },
    sign: |key, msg| Ok(key.sign(msg).as_ref().to_vec()),
    verify: |key, msg, sig| key.verify_sig(msg, sig).is_ok(),
};

static ECDSA_DER: Sig<EcdsaKeyPair, ParsedPublicKey> = ecdsa_scheme::<true>();
static ECDSA_P1363: Sig<EcdsaKeyPair, ParsedPublicKey> = ecdsa_scheme::<false>();

/// ECDSA P-256 with SHA-256; DER (ASN.1) or fixed r‖s signatures.
const fn ecdsa_scheme<const DER: bool>() -> Sig<EcdsaKeyPair, ParsedPublicKey> {
    Sig {
        keygen: Some(|seed| {
            let key = match seed {
                Some(seed) => {
                    ecdsa_key(DER, seed).map_err(|w| invalid(format!("key_seed: {w}")))?
                }
                None => {
                    EcdsaKeyPair::generate(signing(DER)).map_err(|_| internal("generate failed"))?
                }
            };
            let private: Result<EcPrivateKeyBin, _> = key.private_key().as_be_bytes();
            let private = private.map_err(|_| internal("the scalar cannot be exported"))?;
            Ok((
                key.public_key().as_ref().to_vec(),
                private.as_ref().to_vec(),
            ))
        }),
        load_private: Some(|raw| ecdsa_key(DER, raw)),
        load_public: |raw| {
            uncompressed_p256(raw)?;
            let alg = if DER {
                &sig::ECDSA_P256_SHA256_ASN1
            } else {
                &sig::ECDSA_P256_SHA256_FIXED
            };
            ParsedPublicKey::new(alg, raw).map_err(|e| e.to_string())
        },
        sign: |key, msg| {
            let out = key.sign(&SystemRandom::new(), msg);
            Ok(out
                .map_err(|_| internal("EcdsaKeyPair::sign failed"))?
                .as_ref()
                .to_vec())
        },
        verify: |key, msg, sig| key.verify_sig(msg, sig).is_ok(),
    }
}

const fn signing(der: bool) -> &'static sig::EcdsaSigningAlgorithm {
    if der {
        &sig::ECDSA_P256_SHA256_ASN1_SIGNING
    } else {
        &sig::ECDSA_P256_SHA256_FIXED_SIGNING
    }
}

/// The key pair of a P-256 scalar: its point computed by `agreement::PrivateKey`.
fn ecdsa_key(der: bool, scalar: &[u8]) -> Result<EcdsaKeyPair, String> {
    let point = agreement_key(true, scalar)?
        .compute_public_key()
        .map_err(|_| "compute_public_key failed".to_string())?;
    EcdsaKeyPair::from_private_key_and_public_key(signing(der), scalar, point.as_ref())
        .map_err(|e| e.to_string())
}

static RSA_2048_PSS: Sig<RsaKeyPair, ParsedPublicKey> = rsa_scheme::<2048, true>();
static RSA_3072_PSS: Sig<RsaKeyPair, ParsedPublicKey> = rsa_scheme::<3072, true>();
static RSA_2048_PKCS1: Sig<RsaKeyPair, ParsedPublicKey> = rsa_scheme::<2048, false>();

/// RSA with a BITS-bit modulus, PSS (SHA-256, MGF1-SHA-256, 32-byte salt) or PKCS#1 v1.5.
const fn rsa_scheme<const BITS: usize, const PSS: bool>() -> Sig<RsaKeyPair, ParsedPublicKey> {
    Sig {
        keygen: Some(rsa_keygen::<BITS>),
        load_private: Some(|raw| {
            let key = RsaKeyPair::from_pkcs8(raw).map_err(|e| e.to_string())?;
            if key.public_modulus_len() * 8 != BITS {
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
            ParsedPublicKey::new(alg, raw).map_err(|e| e.to_string())
        },
        sign: |key, msg| {
            let pad: &'static dyn sig::RsaEncoding = if PSS {
                &sig::RSA_PSS_SHA256
            } else {
                &sig::RSA_PKCS1_SHA256
            };
            let mut out = vec![0; key.public_modulus_len()];
            key.sign(pad, &SystemRandom::new(), msg, &mut out)
                .map_err(|_| internal("RsaKeyPair::sign failed"))?;
            Ok(out)
        },
        verify: |key, msg, sig| key.verify_sig(msg, sig).is_ok(),
    }
}

fn rsa_keygen<const BITS: usize>(seed: Option<&[u8]>) -> Result<Pair, Fail> {
    if seed.is_some() {
        return Err(no_seed());
    }
    let size = if BITS == 3072 {
        KeySize::Rsa3072
    } else {
        KeySize::Rsa2048
    };
    let key = RsaKeyPair::generate(size).map_err(|_| internal("generate failed"))?;
    let private: Result<Pkcs8V1Der, _> = key.as_der();
    let public: Result<PublicKeyX509Der, _> = key.public_key().as_der();
    match (public, private) {
        (Ok(public), Ok(private)) => Ok((public.as_ref().to_vec(), private.as_ref().to_vec())),
        _ => Err(internal("DER encoding of the new key failed")),
    }
}
