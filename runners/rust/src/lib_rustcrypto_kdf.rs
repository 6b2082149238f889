//! rust/rustcrypto password hashes and KDFs (argon2, scrypt, pbkdf2): one dispatch table.
use crate::protocol::{Fail, auth_failed, invalid};
use crate::registry::{
    Call, DERIVE, Entry, Job, PASSWORD_HASH, PBKDF2_PARAMS, entry, fit, plain, put,
};
use argon2::password_hash::{Error as PhcError, PasswordHasher, PasswordVerifier};
use argon2::{Algorithm, Argon2, Params, Version};

const ARGON2_PARAMS: &[&str] = &["t", "m", "p", "out_len"];
const SCRYPT_PARAMS: &[&str] = &["n", "r", "p", "out_len"];

pub const TABLE: &[Entry] = &[
    entry(
        "argon2id",
        PASSWORD_HASH,
        ARGON2_PARAMS,
        "argon2::Argon2 (Algorithm::Argon2id)",
        argon2_job::<true>,
    ),
    entry(
        "argon2i",
        PASSWORD_HASH,
        ARGON2_PARAMS,
        "argon2::Argon2 (Algorithm::Argon2i)",
        argon2_job::<false>,
    ),
    entry(
        "scrypt",
        DERIVE,
        SCRYPT_PARAMS,
        "scrypt::scrypt",
        scrypt_job,
    ),
    entry(
        "pbkdf2-sha1",
        DERIVE,
        PBKDF2_PARAMS,
        "pbkdf2::pbkdf2_hmac::<sha1::Sha1>",
        pbkdf2_job::<sha1::Sha1>,
    ),
    entry(
        "pbkdf2-sha256",
        DERIVE,
        PBKDF2_PARAMS,
        "pbkdf2::pbkdf2_hmac::<sha2::Sha256>",
        pbkdf2_job::<sha2::Sha256>,
    ),
    entry(
        "pbkdf2-sha512",
        DERIVE,
        PBKDF2_PARAMS,
        "pbkdf2::pbkdf2_hmac::<sha2::Sha512>",
        pbkdf2_job::<sha2::Sha512>,
    ),
];

/// Argon2 (version 0x13): `hash` → PHC string, `verify` a PHC string, `derive` the raw tag.
fn argon2_job<const ID: bool>(call: &Call) -> Result<Box<dyn Job>, Fail> {
    let algorithm = if ID {
        Algorithm::Argon2id
    } else {
        Algorithm::Argon2i
    };
    let out_len = call.usize("out_len")?;
    let params = Params::new(
        call.u32("m")?,
        call.u32("t")?,
        call.u32("p")?,
        Some(out_len),
    )
    .map_err(|e| invalid(format!("argon2 params: {e}")))?;
    let argon2 = Argon2::new(algorithm, Version::V0x13, params);
    let password = call.take("password")?;
    match call.operation {
        "hash" => {
            let salt = call.take("salt")?;
            Ok(plain(move |out| {
                let phc = argon2
                    .hash_password_with_salt(&password, &salt)
                    .map_err(phc_error)?;
                put(out, phc.to_string().as_bytes());
                Ok(())
            }))
        }
        "verify" => {
            let encoded = call.inputs.encoded()?.to_string();
            if !encoded.starts_with(&format!("${}$", algorithm.as_str())) {
                return Err(invalid(format!("not an {} string", algorithm.as_str())));
            }
            Ok(plain(move |out| {
                argon2
                    .verify_password(&password, encoded.as_str())
                    .map_err(phc_error)?;
                put(out, b"ok");
                Ok(())
            }))
        }
        _ => {
            let salt = call.take("salt")?;
            Ok(plain(move |out| {
                fit(out, out_len);
                argon2
                    .hash_password_into(&password, &salt, out)
                    .map_err(|e| invalid(format!("argon2: {e}")))
            }))
        }
    }
}

fn phc_error(e: PhcError) -> Fail {
    match e {
        PhcError::PasswordInvalid => auth_failed("password does not match"),
        other => invalid(format!("argon2: {other}")),
    }
}

/// scrypt with N = 2^log_n (the crate takes log2 N; N must be a power of two).
fn scrypt_job(call: &Call) -> Result<Box<dyn Job>, Fail> {
    let n = call.uint("n")?;
    if n < 2 || !n.is_power_of_two() {
        return Err(invalid("n must be a power of two >= 2"));
    }
    let log_n = n.trailing_zeros() as u8;
    let params = scrypt::Params::new(log_n, call.u32("r")?, call.u32("p")?)
        .map_err(|e| invalid(format!("scrypt params: {e}")))?;
    let out_len = call.usize("out_len")?;
    let password = call.take("password")?;
    let salt = call.take("salt")?;
    Ok(plain(move |out| {
        fit(out, out_len);
        scrypt::scrypt(&password, &salt, &params, out).map_err(|e| invalid(format!("scrypt: {e}")))
    }))
}

/// PBKDF2-HMAC with `iterations` rounds and `out_len` bytes.
fn pbkdf2_job<D>(call: &Call) -> Result<Box<dyn Job>, Fail>
where
    D: hmac::EagerHash + 'static,
{
    let rounds = call.u32("iterations")?;
    let out_len = call.usize("out_len")?;
    if rounds == 0 || out_len == 0 {
        return Err(invalid("iterations and out_len must be at least 1"));
    }
    let password = call.take("password")?;
    let salt = call.take("salt")?;
    Ok(plain(move |out| {
        fit(out, out_len);
        pbkdf2::pbkdf2_hmac::<D>(&password, &salt, rounds, out);
        Ok(())
    }))
}
