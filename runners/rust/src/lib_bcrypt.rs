//! rust/bcrypt: the `bcrypt` crate (RustCrypto has no bcrypt of its own; it uses their
//! blowfish crate). Takes an explicit salt, so `hash` is cross-checked too.
use crate::build_info;
use crate::protocol::{Fail, auth_failed, invalid};
use crate::registry::{Call, Entry, Job, Library, entry, plain, put};

const OPERATIONS: &[&str] = &["hash", "verify"];
const PARAMS: &[&str] = &["cost"];

pub const LIBRARY: Library = Library {
    name: "bcrypt",
    crates: &["bcrypt"],
    backend: || ("blowfish".into(), build_info::version("blowfish").into()),
    code_path: || "pure Rust (RustCrypto blowfish)".into(),
    notes: "hash_with_salt(password, cost, salt) formatted as $2b$; verify accepts \
            $2a$/$2b$/$2y$; passwords over 72 bytes are truncated (the crate's hash)",
    tables: &[TABLE],
};

pub const TABLE: &[Entry] = &[entry(
    "bcrypt",
    OPERATIONS,
    PARAMS,
    "bcrypt::hash_with_salt / bcrypt::verify",
    bcrypt_job,
)];

fn bcrypt_job(call: &Call) -> Result<Box<dyn Job>, Fail> {
    let cost = call.u32("cost")?;
    let password = call.take("password")?;
    if call.operation == "verify" {
        let encoded = call.inputs.encoded()?.to_string();
        return Ok(plain(move |out| {
            match bcrypt::verify(&password, &encoded) {
                Ok(true) => put(out, b"ok"),
                Ok(false) => return Err(auth_failed("password does not match")),
                Err(e) => return Err(invalid(format!("bcrypt: {e}"))),
            }
            Ok(())
        }));
    }
    let salt: [u8; 16] = call
        .exact("salt", 16)?
        .try_into()
        .map_err(|_| invalid("salt must be 16 bytes"))?;
    // Checked once up front, so a bad cost is invalid_params rather than a failed bench.
    bcrypt::hash_with_salt(b"", cost, salt).map_err(|e| invalid(format!("bcrypt: {e}")))?;
    Ok(plain(move |out| {
        let parts = bcrypt::hash_with_salt(&password, cost, salt)
            .map_err(|e| invalid(format!("bcrypt: {e}")))?;
        put(
            out,
            parts.format_for_version(bcrypt::Version::TwoB).as_bytes(),
        );
        Ok(())
    }))
}
