//! The cases bench/vs-criterion compares: rust/ring sha256 digest of 1 KiB and
//! rust/rustcrypto aes-128-gcm seal of 8 KiB, written the way the runner calls them
//! (one-shot digest; a key set up once, out-of-place seal with a nonce stepped per message);
//! and bench/fidelity's: rust/ring sha256 at 64 B, 1 KiB and 16 KiB.
use aes_gcm::Aes128Gcm;
use aes_gcm::aead::inout::InOutBuf;
use aes_gcm::aead::{AeadInOut, KeyInit, Nonce};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// Deterministic filler: the content does not change the timing of these primitives.
fn bytes(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
        .collect()
}

fn ring_sha256(c: &mut Criterion) {
    for size in [64, 1024, 16384] {
        let msg = bytes(size, 1);
        c.bench_function(&format!("ring-sha256-{size}"), |b| {
            b.iter(|| ring::digest::digest(&ring::digest::SHA256, black_box(&msg)))
        });
    }
}

fn rustcrypto_aes128gcm_seal(c: &mut Criterion) {
    let cipher = Aes128Gcm::new_from_slice(&bytes(16, 2)).unwrap();
    let msg = bytes(8192, 3);
    let mut nonce = [0u8; 12];
    let mut out = vec![0u8; msg.len() + 16];
    c.bench_function("rustcrypto-aes128gcm-seal-8192", |b| {
        b.iter(|| {
            // The protocol's nonce stepping: a big-endian counter in the last 4 bytes.
            let counter = u32::from_be_bytes(nonce[8..].try_into().unwrap()).wrapping_add(1);
            nonce[8..].copy_from_slice(&counter.to_be_bytes());
            let n = <&Nonce<Aes128Gcm>>::try_from(&nonce[..]).unwrap();
            let (ct, tag_out) = out.split_at_mut(msg.len());
            let buf = InOutBuf::new(black_box(&msg[..]), ct).unwrap();
            let tag = cipher.encrypt_inout_detached(n, b"", buf).unwrap();
            tag_out.copy_from_slice(&tag);
            black_box(&out);
        })
    });
}

criterion_group!(fidelity, ring_sha256, rustcrypto_aes128gcm_seal);
criterion_main!(fidelity);
