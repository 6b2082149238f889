//! What a library module provides: a dispatch table of entries, each making a `Job` from a call.
use crate::protocol::{Fail, Inputs, internal, invalid};
use serde_json::{Map, Value};

pub type Done = Result<(), Fail>;

/// One prepared operation: set up once, then run many times.
pub trait Job {
    /// Runs the operation once, writing its output to `out`; `step` first advances the nonce
    /// (or CTR counter block) as the protocol's timed calls require.
    fn run(&mut self, out: &mut Vec<u8>, step: bool) -> Done;
}

struct Plain<F>(F);

impl<F: FnMut(&mut Vec<u8>) -> Done> Job for Plain<F> {
    fn run(&mut self, out: &mut Vec<u8>, _step: bool) -> Done {
        (self.0)(out)
    }
}

/// A job with no nonce: digests, MACs, `open`, password hashes.
pub fn plain(f: impl FnMut(&mut Vec<u8>) -> Done + 'static) -> Box<dyn Job> {
    Box::new(Plain(f))
}

struct Stepped<F> {
    nonce: Vec<u8>,
    f: F,
}

impl<F: FnMut(&[u8], &mut Vec<u8>, bool) -> Done> Job for Stepped<F> {
    fn run(&mut self, out: &mut Vec<u8>, step: bool) -> Done {
        if step {
            step_nonce(&mut self.nonce);
        }
        (self.f)(&self.nonce, out, !step)
    }
}

/// A job whose nonce (or counter block) is stepped before every timed call. `f` gets the
/// nonce, the output buffer, and whether this is the untimed, verified call (where
/// `roundtrip` compares the decryption with the message).
pub fn stepped(
    nonce: Vec<u8>,
    f: impl FnMut(&[u8], &mut Vec<u8>, bool) -> Done + 'static,
) -> Box<dyn Job> {
    Box::new(Stepped { nonce, f })
}

/// Nonce stepping (docs/protocol.md): a big-endian counter in the last 4 bytes, wrapping.
pub fn step_nonce(nonce: &mut [u8]) {
    let Some(start) = nonce.len().checked_sub(4) else {
        return;
    };
    let tail: [u8; 4] = nonce[start..].try_into().unwrap();
    let next = u32::from_be_bytes(tail).wrapping_add(1);
    nonce[start..].copy_from_slice(&next.to_be_bytes());
}

/// Sets `out` to `len` bytes without rewriting them when it already has room.
pub fn fit(out: &mut Vec<u8>, len: usize) {
    if out.len() >= len {
        out.truncate(len);
    } else {
        out.resize(len, 0);
    }
}

/// Replaces `out` with `bytes`.
pub fn put(out: &mut Vec<u8>, bytes: &[u8]) {
    out.clear();
    out.extend_from_slice(bytes);
}

/// The roundtrip check (on the verified call): decrypting must give the message back.
pub fn same(verified: bool, back: &[u8], msg: &[u8]) -> Done {
    if !verified || back == msg {
        Ok(())
    } else {
        Err(internal("decryption did not give the message back"))
    }
}

/// The request as a library's `make` function sees it.
pub struct Call<'a> {
    pub operation: &'a str,
    pub inputs: &'a Inputs,
    pub params: &'a Map<String, Value>,
    /// `params.fresh_context`: set up the key/context for every message.
    pub fresh: bool,
}

impl Call<'_> {
    pub fn take(&self, name: &str) -> Result<Vec<u8>, Fail> {
        self.inputs.take(name)
    }

    /// A non-negative integer parameter (always sent by the orchestrator).
    pub fn uint(&self, name: &str) -> Result<u64, Fail> {
        match self.params.get(name) {
            None => Err(invalid(format!("missing param {name}"))),
            Some(v) => v
                .as_u64()
                .ok_or_else(|| invalid(format!("param {name} must be a non-negative integer"))),
        }
    }

    pub fn u32(&self, name: &str) -> Result<u32, Fail> {
        u32::try_from(self.uint(name)?).map_err(|_| invalid(format!("param {name} too large")))
    }

    pub fn usize(&self, name: &str) -> Result<usize, Fail> {
        usize::try_from(self.uint(name)?).map_err(|_| invalid(format!("param {name} too large")))
    }

    /// A fixed-length input (key, nonce, salt) as the library requires it.
    pub fn exact(&self, name: &str, len: usize) -> Result<Vec<u8>, Fail> {
        let bytes = self.take(name)?;
        if bytes.len() != len {
            return Err(invalid(format!("{name} must be {len} bytes")));
        }
        Ok(bytes)
    }
}

pub type Make = fn(&Call) -> Result<Box<dyn Job>, Fail>;

/// One dispatch-table row: a catalog id and how this library computes it.
pub struct Entry {
    pub id: &'static str,
    pub ops: &'static [&'static str],
    pub params: &'static [&'static str],
    /// The library's own name for it (shown in reports).
    pub native: &'static str,
    pub make: Make,
}

pub const fn entry(
    id: &'static str,
    ops: &'static [&'static str],
    params: &'static [&'static str],
    native: &'static str,
    make: Make,
) -> Entry {
    Entry {
        id,
        ops,
        params,
        native,
        make,
    }
}

pub const DIGEST: &[&str] = &["digest"];
/// `verify` recomputes the tag and compares it with the input `tag` in the library's own
/// constant-time check (`"ok"`, else `auth_failed`).
pub const MAC: &[&str] = &["mac", "verify"];
pub const CIPHER: &[&str] = &["encrypt", "roundtrip"];
pub const AEAD: &[&str] = &["seal", "open", "roundtrip"];
pub const PASSWORD_HASH: &[&str] = &["hash", "verify", "derive"];
pub const DERIVE: &[&str] = &["derive"];

pub const NO_PARAMS: &[&str] = &[];
pub const XOF_PARAMS: &[&str] = &["out_len"];
pub const SEED_PARAMS: &[&str] = &["seed"];
pub const AEAD_PARAMS: &[&str] = &["aad_len"];
pub const PBKDF2_PARAMS: &[&str] = &["iterations", "out_len"];

/// A library as `hello` reports it, with its dispatch tables.
pub struct Library {
    /// Short lowercase id: the implementation is `rust/<name>`.
    pub name: &'static str,
    /// The crates whose versions make up the library version (first = headline).
    pub crates: &'static [&'static str],
    /// The code that runs: name and the crate whose version is the backend's (or a fixed one).
    pub backend: fn() -> (String, String),
    /// What the library (or CPU detection) says about the code path taken.
    pub code_path: fn() -> String,
    pub notes: &'static str,
    pub tables: &'static [&'static [Entry]],
}

impl Library {
    pub fn find(&self, id: &str) -> Option<&'static Entry> {
        self.tables
            .iter()
            .flat_map(|t| t.iter())
            .find(|e| e.id == id)
    }

    pub fn entries(&self) -> impl Iterator<Item = &'static Entry> {
        self.tables.iter().flat_map(|t| t.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonce_steps_the_last_four_bytes_big_endian_and_wraps() {
        let mut n = vec![7, 0, 0, 0, 0xff, 0xff, 0xff, 0xfe];
        step_nonce(&mut n);
        assert_eq!(n, [7, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]);
        step_nonce(&mut n);
        assert_eq!(n, [7, 0, 0, 0, 0, 0, 0, 0]);
    }

    #[test]
    fn timed_calls_step_the_nonce_and_the_verified_call_does_not() {
        let mut job = stepped(vec![0; 12], |n, out, verified| {
            put(out, n);
            out.push(u8::from(verified));
            Ok(())
        });
        let mut out = Vec::new();
        job.run(&mut out, false).unwrap();
        assert_eq!(out[8..], [0, 0, 0, 0, 1]);
        job.run(&mut out, true).unwrap();
        assert_eq!(out[8..], [0, 0, 0, 1, 0]);
    }

    #[test]
    fn fit_keeps_bytes_and_capacity() {
        let mut out = vec![1, 2, 3, 4];
        fit(&mut out, 2);
        assert_eq!(out, [1, 2]);
        fit(&mut out, 3);
        assert_eq!(out, [1, 2, 0]);
    }

    #[test]
    fn roundtrip_check_only_on_the_verified_call() {
        assert!(same(true, b"a", b"a").is_ok());
        assert!(same(true, b"a", b"b").is_err());
        assert!(same(false, b"a", b"b").is_ok());
    }
}
