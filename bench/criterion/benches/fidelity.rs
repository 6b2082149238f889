//! The cases bench/vs-criterion compares: rust/ring sha256 digest of 1 KiB and
//! rust/rustcrypto aes-128-gcm seal of 8 KiB, written the way the runner calls them
//! (one-shot digest; a key set up once, out-of-place seal with a nonce stepped per message);
//! bench/fidelity's: rust/ring sha256 at 64 B, 1 KiB and 16 KiB; and `bench/vs-criterion
//! --mlkem`'s: rust/rustcrypto ML-KEM-768 keygen, encaps and decaps (crate ml-kem), through
//! the calls runners/rust/src/lib_rustcrypto_pq.rs makes.
use aes_gcm::Aes128Gcm;
use aes_gcm::aead::inout::InOutBuf;
use aes_gcm::aead::{AeadInOut, KeyInit, Nonce};
use criterion::{Criterion, criterion_group, criterion_main};
use ml_kem::{Decapsulate, Encapsulate, Kem as _, KeyExport, MlKem768};
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

/// catalog/keys.toml's ml-kem-768 private key (the seed d‖z of Wycheproof mlkem_768_test.json
/// tcId 2), from which the runner's benchmark public key derives.
const MLKEM768_SEED: &str = "7c9935a0b07694aa0c6d10e4db6b1add2fd81a25ccb148032dcd739936737f2d\
                             8626ed79d451140800e03b59b956f8210e556067407d13dc90fa9e8b872bfb8f";

fn seed_from_hex(hex: &str) -> ml_kem::Seed {
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    ml_kem::Seed::try_from(bytes.as_slice()).unwrap()
}

/// The runner's kem bench (lib_rustcrypto_pq.rs, kem.rs): keygen makes a fresh random key
/// pair per call (`MlKem768::generate_keypair`, the OS random source, both keys encoded and
/// copied into the output); encaps and decaps parse their key once (fresh_context=false),
/// encaps draws a fresh m per call (`encapsulate`), decaps decapsulates one valid ciphertext.
fn rustcrypto_mlkem768(c: &mut Criterion) {
    let mut out = Vec::new();
    c.bench_function("rustcrypto-mlkem768-keygen", |b| {
        b.iter(|| {
            let (dk, ek) = MlKem768::generate_keypair();
            let (public, private) = (ek.to_bytes().to_vec(), dk.to_bytes().to_vec());
            out.clear();
            out.extend_from_slice(&public);
            out.extend_from_slice(&private);
            black_box(&out);
        })
    });
    let seed = seed_from_hex(MLKEM768_SEED);
    let dk = ml_kem::DecapsulationKey::<MlKem768>::from_seed(seed);
    let raw = dk.encapsulation_key().to_bytes();
    let ek = ml_kem::EncapsulationKey::<MlKem768>::new(&raw).unwrap();
    c.bench_function("rustcrypto-mlkem768-encaps", |b| {
        b.iter(|| {
            let (ct, k) = black_box(&ek).encapsulate();
            let both = [ct.as_slice(), k.as_slice()].concat();
            out.clear();
            out.extend_from_slice(&both);
            black_box(&out);
        })
    });
    // The ciphertext as the runner holds it (bytes, made into the crate's array per call).
    let ct = ek.encapsulate().0.to_vec();
    c.bench_function("rustcrypto-mlkem768-decaps", |b| {
        b.iter(|| {
            let ct: ml_kem::Ciphertext<MlKem768> = black_box(&ct[..]).try_into().unwrap();
            let k = black_box(&dk).decapsulate(&ct).to_vec();
            out.clear();
            out.extend_from_slice(&k);
            black_box(&out);
        })
    });
}

criterion_group!(
    fidelity,
    ring_sha256,
    rustcrypto_aes128gcm_seal,
    rustcrypto_mlkem768
);
criterion_main!(fidelity);
