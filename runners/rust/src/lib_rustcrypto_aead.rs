//! rust/rustcrypto AES-CTR and AEADs: one dispatch table.
use crate::protocol::{Fail, auth_failed, internal, invalid};
use crate::registry::{
    AEAD, AEAD_PARAMS, CIPHER, Call, Done, Entry, Job, Make, NO_PARAMS, entry, fit, plain, same,
    stepped,
};
use aes_gcm::aead::array::typenum::Unsigned;
use aes_gcm::aead::inout::InOutBuf;
use aes_gcm::aead::{AeadInOut, KeyInit, Nonce, Tag};
use ctr::cipher::consts::U16;
use ctr::cipher::{BlockCipherEncrypt, BlockSizeUser, InnerIvInit, StreamCipher};

type Aes128Ocb = ocb3::Ocb3<aes::Aes128>;
type Aes256Ocb = ocb3::Ocb3<aes::Aes256>;

pub const TABLE: &[Entry] = &[
    ctr_entry(
        "aes-128-ctr",
        "ctr::Ctr128BE<aes::Aes128>",
        ctr::<aes::Aes128>,
    ),
    ctr_entry(
        "aes-256-ctr",
        "ctr::Ctr128BE<aes::Aes256>",
        ctr::<aes::Aes256>,
    ),
    aead_entry(
        "aes-128-gcm",
        "aes_gcm::Aes128Gcm",
        aead::<aes_gcm::Aes128Gcm>,
    ),
    aead_entry(
        "aes-256-gcm",
        "aes_gcm::Aes256Gcm",
        aead::<aes_gcm::Aes256Gcm>,
    ),
    aead_entry(
        "aes-128-gcm-siv",
        "aes_gcm_siv::Aes128GcmSiv",
        aead::<aes_gcm_siv::Aes128GcmSiv>,
    ),
    aead_entry(
        "aes-256-gcm-siv",
        "aes_gcm_siv::Aes256GcmSiv",
        aead::<aes_gcm_siv::Aes256GcmSiv>,
    ),
    aead_entry("aes-128-ocb", "ocb3::Ocb3<aes::Aes128>", aead::<Aes128Ocb>),
    aead_entry("aes-256-ocb", "ocb3::Ocb3<aes::Aes256>", aead::<Aes256Ocb>),
    aead_entry(
        "chacha20-poly1305",
        "chacha20poly1305::ChaCha20Poly1305",
        aead::<chacha20poly1305::ChaCha20Poly1305>,
    ),
    aead_entry(
        "xchacha20-poly1305",
        "chacha20poly1305::XChaCha20Poly1305",
        aead::<chacha20poly1305::XChaCha20Poly1305>,
    ),
];

const fn ctr_entry(id: &'static str, native: &'static str, make: Make) -> Entry {
    entry(id, CIPHER, NO_PARAMS, native, make)
}

const fn aead_entry(id: &'static str, native: &'static str, make: Make) -> Entry {
    entry(id, AEAD, AEAD_PARAMS, native, make)
}

/// A cipher keyed once, or re-keyed per message when `fresh_context` asks for it.
struct Keyed<C> {
    key: Vec<u8>,
    cipher: C,
    fresh: bool,
}

impl<C: KeyInit> Keyed<C> {
    fn new(call: &Call) -> Result<Self, Fail> {
        let key = call.take("key")?;
        let cipher = C::new_from_slice(&key)
            .map_err(|_| invalid(format!("key must be {} bytes", C::key_size())))?;
        Ok(Keyed {
            key,
            cipher,
            fresh: call.fresh,
        })
    }

    fn with<R>(&self, f: impl FnOnce(&C) -> R) -> R {
        if self.fresh {
            f(&C::new_from_slice(&self.key).expect("key length checked in new"))
        } else {
            f(&self.cipher)
        }
    }
}

/// AES-CTR with a 128-bit big-endian counter; the expanded key is cloned per message.
fn ctr<B: CtrBlockCipher>(call: &Call) -> Result<Box<dyn Job>, Fail> {
    let keyed = Keyed::<B>::new(call)?;
    let nonce = call.exact("nonce", 16)?;
    let msg = call.take("msg")?;
    let check = call.operation == "roundtrip";
    let mut back = Vec::new();
    Ok(stepped(nonce, move |iv, out, verified| {
        fit(out, msg.len());
        keyed
            .with(|b| stream(b, iv))?
            .apply_keystream_b2b(&msg, out);
        if check {
            fit(&mut back, msg.len());
            keyed
                .with(|b| stream(b, iv))?
                .apply_keystream_b2b(out, &mut back);
            same(verified, &back, &msg)?;
        }
        Ok(())
    }))
}

/// What `ctr::Ctr128BE<B>` needs of a block cipher.
trait CtrBlockCipher:
    KeyInit + Clone + BlockCipherEncrypt + BlockSizeUser<BlockSize = U16> + 'static
{
}
impl<B: KeyInit + Clone + BlockCipherEncrypt + BlockSizeUser<BlockSize = U16> + 'static>
    CtrBlockCipher for B
{
}

fn stream<B: CtrBlockCipher>(cipher: &B, iv: &[u8]) -> Result<ctr::Ctr128BE<B>, Fail> {
    let core = ctr::CtrCore::inner_iv_slice_init(cipher.clone(), iv)
        .map_err(|_| invalid("counter block must be 16 bytes"))?;
    Ok(ctr::Ctr128BE::<B>::from_core(core))
}

/// seal / open / roundtrip through `AeadInOut`, out of place (input buffer → `out`).
fn aead<A: AeadInOut + KeyInit + 'static>(call: &Call) -> Result<Box<dyn Job>, Fail> {
    let keyed = Keyed::<A>::new(call)?;
    let nonce = call.exact("nonce", A::NonceSize::USIZE)?;
    let aad = call.take("aad").unwrap_or_default();
    let msg = call.take("msg")?;
    match call.operation {
        "seal" => Ok(stepped(nonce, move |n, out, _| {
            keyed.with(|c| seal(c, n, &aad, &msg, out))
        })),
        "open" => {
            if msg.len() < A::TagSize::USIZE {
                return Err(invalid("ciphertext shorter than the tag"));
            }
            Ok(plain(move |out| {
                keyed.with(|c| open(c, &nonce, &aad, &msg, out))
            }))
        }
        _ => {
            let mut back = Vec::new();
            Ok(stepped(nonce, move |n, out, verified| {
                keyed.with(|c| {
                    seal(c, n, &aad, &msg, out)?;
                    open(c, n, &aad, out, &mut back)?;
                    same(verified, &back, &msg)
                })
            }))
        }
    }
}

fn seal<A: AeadInOut>(c: &A, nonce: &[u8], aad: &[u8], msg: &[u8], out: &mut Vec<u8>) -> Done {
    let nonce = <&Nonce<A>>::try_from(nonce).map_err(|_| invalid("bad nonce length"))?;
    fit(out, msg.len());
    let buf = InOutBuf::new(msg, out).map_err(|_| internal("buffer lengths differ"))?;
    let tag = c
        .encrypt_inout_detached(nonce, aad, buf)
        .map_err(|_| invalid("message or AAD too long"))?;
    out.extend_from_slice(&tag);
    Ok(())
}

fn open<A: AeadInOut>(c: &A, nonce: &[u8], aad: &[u8], sealed: &[u8], out: &mut Vec<u8>) -> Done {
    let nonce = <&Nonce<A>>::try_from(nonce).map_err(|_| invalid("bad nonce length"))?;
    let (ct, tag) = sealed.split_at(sealed.len() - A::TagSize::USIZE);
    let tag = <&Tag<A>>::try_from(tag).map_err(|_| internal("bad tag length"))?;
    fit(out, ct.len());
    let buf = InOutBuf::new(ct, out).map_err(|_| internal("buffer lengths differ"))?;
    c.decrypt_inout_detached(nonce, aad, buf, tag)
        .map_err(|_| auth_failed("tag does not verify"))
}
