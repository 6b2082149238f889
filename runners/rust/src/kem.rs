//! The kem family (docs/protocol.md, "Key encapsulation"): keygen (optional `key_seed`, the
//! 64-byte ML-KEM seed d‖z) answers public key ‖ private key (the seed); encaps
//! (`public_key`, optional 32-byte `randomness`: FIPS 203's m) answers ciphertext ‖ shared
//! secret; decaps (`private_key`, `ciphertext`) answers the shared secret — a ciphertext that
//! does not decrypt gives the implicit-rejection secret, never an error. `E`/`D` are the
//! library's parsed encapsulation/decapsulation keys; our key is parsed once per case (in
//! every call with `fresh_context`).
use crate::protocol::{Fail, invalid};
use crate::pubkey::{KeyGen, Load, keyed, randomness, seeded_keygen_job};
use crate::registry::{Call, Job, put};

pub const KEM: &[&str] = &["keygen", "encaps", "decaps"];

/// Ciphertext ‖ shared secret to a parsed encapsulation key; `m` is `None` for fresh
/// randomness.
pub type Encaps<E> = fn(&E, Option<&[u8; 32]>) -> Result<Vec<u8>, Fail>;

pub struct Kem<E, D> {
    /// Bytes of `key_seed` and of the private key (ML-KEM: 64).
    pub seed_len: usize,
    pub ciphertext_len: usize,
    pub keygen: KeyGen,
    pub load_public: Load<E>,
    pub load_private: Load<D>,
    pub encaps: Encaps<E>,
    /// The shared secret of a ciphertext of `ciphertext_len` bytes.
    pub decaps: fn(&D, &[u8]) -> Result<Vec<u8>, Fail>,
}

pub fn kem_job<E: 'static, D: 'static>(
    call: &Call,
    s: &'static Kem<E, D>,
) -> Result<Box<dyn Job>, Fail> {
    match call.operation {
        "keygen" => seeded_keygen_job(call, s.keygen, s.seed_len),
        "encaps" => {
            let m = randomness(call)?;
            keyed(call, "public_key", s.load_public, move |key, out| {
                put(out, &(s.encaps)(key, m.as_ref())?);
                Ok(())
            })
        }
        _ => {
            let ct = call.take("ciphertext")?;
            if ct.len() != s.ciphertext_len {
                return Err(invalid(format!(
                    "ciphertext is {} bytes, not {}",
                    ct.len(),
                    s.ciphertext_len
                )));
            }
            keyed(call, "private_key", s.load_private, move |key, out| {
                put(out, &(s.decaps)(key, &ct)?);
                Ok(())
            })
        }
    }
}
