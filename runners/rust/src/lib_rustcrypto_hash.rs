//! rust/rustcrypto hashes, XOFs and HMAC: one dispatch table.
use crate::protocol::{Fail, auth_failed, invalid};
use crate::registry::{Call, DIGEST, Entry, Job, MAC, NO_PARAMS, XOF_PARAMS, entry, plain, put};
use digest::{Digest, ExtendableOutput, KeyInit, Mac};

pub const TABLE: &[Entry] = &[
    hash("md2", "md2::Md2", one_shot::<md2::Md2>),
    hash("md4", "md4::Md4", one_shot::<md4::Md4>),
    hash("md5", "md5::Md5", one_shot::<md5::Md5>),
    hash("sha1", "sha1::Sha1", one_shot::<sha1::Sha1>),
    hash("sha224", "sha2::Sha224", one_shot::<sha2::Sha224>),
    hash("sha256", "sha2::Sha256", one_shot::<sha2::Sha256>),
    hash("sha384", "sha2::Sha384", one_shot::<sha2::Sha384>),
    hash("sha512", "sha2::Sha512", one_shot::<sha2::Sha512>),
    hash(
        "sha512-224",
        "sha2::Sha512_224",
        one_shot::<sha2::Sha512_224>,
    ),
    hash(
        "sha512-256",
        "sha2::Sha512_256",
        one_shot::<sha2::Sha512_256>,
    ),
    hash("sha3-224", "sha3::Sha3_224", one_shot::<sha3::Sha3_224>),
    hash("sha3-256", "sha3::Sha3_256", one_shot::<sha3::Sha3_256>),
    hash("sha3-384", "sha3::Sha3_384", one_shot::<sha3::Sha3_384>),
    hash("sha3-512", "sha3::Sha3_512", one_shot::<sha3::Sha3_512>),
    xof(
        "shake128",
        "shake::Shake128",
        xof_one_shot::<shake::Shake128>,
    ),
    xof(
        "shake256",
        "shake::Shake256",
        xof_one_shot::<shake::Shake256>,
    ),
    hash("keccak-256", "sha3::Keccak256", one_shot::<sha3::Keccak256>),
    hash(
        "blake2b-512",
        "blake2::Blake2b512",
        one_shot::<blake2::Blake2b512>,
    ),
    hash(
        "blake2s-256",
        "blake2::Blake2s256",
        one_shot::<blake2::Blake2s256>,
    ),
    hash(
        "ripemd128",
        "ripemd::Ripemd128",
        one_shot::<ripemd::Ripemd128>,
    ),
    hash(
        "ripemd160",
        "ripemd::Ripemd160",
        one_shot::<ripemd::Ripemd160>,
    ),
    hash(
        "ripemd256",
        "ripemd::Ripemd256",
        one_shot::<ripemd::Ripemd256>,
    ),
    hash(
        "ripemd320",
        "ripemd::Ripemd320",
        one_shot::<ripemd::Ripemd320>,
    ),
    hash(
        "whirlpool",
        "whirlpool::Whirlpool",
        one_shot::<whirlpool::Whirlpool>,
    ),
    hash("tiger192-3", "tiger::Tiger", one_shot::<tiger::Tiger>),
    hash(
        "gost94-test",
        "gost94::Gost94Test",
        one_shot::<gost94::Gost94Test>,
    ),
    hash(
        "gost94-cryptopro",
        "gost94::Gost94CryptoPro",
        one_shot::<gost94::Gost94CryptoPro>,
    ),
    hash(
        "streebog-256",
        "streebog::Streebog256",
        one_shot::<streebog::Streebog256>,
    ),
    hash(
        "streebog-512",
        "streebog::Streebog512",
        one_shot::<streebog::Streebog512>,
    ),
    hash("sm3", "sm3::Sm3", one_shot::<sm3::Sm3>),
    entry(
        "hmac-sha256",
        MAC,
        NO_PARAMS,
        "hmac::Hmac<sha2::Sha256>",
        hmac_sha256,
    ),
];

const fn hash(id: &'static str, native: &'static str, make: crate::registry::Make) -> Entry {
    entry(id, DIGEST, NO_PARAMS, native, make)
}

const fn xof(id: &'static str, native: &'static str, make: crate::registry::Make) -> Entry {
    entry(id, DIGEST, XOF_PARAMS, native, make)
}

/// `D::digest(msg)`: init, update and finalize in one call.
fn one_shot<D: Digest>(call: &Call) -> Result<Box<dyn Job>, Fail> {
    let msg = call.take("msg")?;
    Ok(plain(move |out| {
        put(out, &D::digest(&msg));
        Ok(())
    }))
}

/// `X::digest_xof(msg, out)` with `params.out_len` bytes of output.
fn xof_one_shot<X: ExtendableOutput + Default>(call: &Call) -> Result<Box<dyn Job>, Fail> {
    let msg = call.take("msg")?;
    let out_len = call.usize("out_len")?;
    if out_len == 0 {
        return Err(invalid("out_len must be at least 1"));
    }
    Ok(plain(move |out| {
        crate::registry::fit(out, out_len);
        X::digest_xof(&msg, out);
        Ok(())
    }))
}

type HmacSha256 = hmac::Hmac<sha2::Sha256>;

/// Reused key: the keyed state is computed once and cloned per message (the crate's idiom).
/// `verify` finishes with `Mac::verify_slice` (constant time; a tag of another length fails).
fn hmac_sha256(call: &Call) -> Result<Box<dyn Job>, Fail> {
    let key = call.take("key")?;
    let msg = call.take("msg")?;
    let keyed = hmac_key(&key)?;
    let fresh = call.fresh;
    let start = move || {
        if fresh {
            hmac_key(&key)
        } else {
            Ok(keyed.clone())
        }
    };
    if call.operation == "verify" {
        let tag = call.take("tag")?;
        return Ok(plain(move |out| {
            let mut mac = start()?;
            mac.update(&msg);
            mac.verify_slice(&tag)
                .map_err(|_| auth_failed("tag does not verify"))?;
            put(out, b"ok");
            Ok(())
        }));
    }
    Ok(plain(move |out| {
        let mut mac = start()?;
        mac.update(&msg);
        put(out, &mac.finalize().into_bytes());
        Ok(())
    }))
}

fn hmac_key(key: &[u8]) -> Result<HmacSha256, Fail> {
    <HmacSha256 as KeyInit>::new_from_slice(key).map_err(|_| invalid("HMAC key rejected"))
}
