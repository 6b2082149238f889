// cpp/botan's public-key rows (pubkey.hpp): X25519 and ECDH P-256 (PK_Key_Agreement "Raw"),
// Ed25519 ("Pure"), ECDSA P-256 with SHA-256 (EMSA1, DER_SEQUENCE or IEEE_1363), RSA PSS
// ("PSSR(SHA-256,MGF1,32)") and PKCS#1 v1.5 ("EMSA3(SHA-256)"); RSA keys through
// X509::BER_encode / PKCS8::BER_encode. PK_Signer/Verifier/Key_Agreement are made when our
// key is parsed.
#include "pubkey.hpp"

#include <botan/auto_rng.h>
#include <botan/curve25519.h>
#include <botan/data_src.h>
#include <botan/ecdh.h>
#include <botan/ecdsa.h>
#include <botan/ed25519.h>
#include <botan/pk_keys.h>
#include <botan/pkcs8.h>
#include <botan/pubkey.h>
#include <botan/rsa.h>
#include <botan/x509_key.h>

namespace cb {
namespace {

using Buffer = Botan::secure_vector<std::uint8_t>;

Botan::RandomNumberGenerator &rng() {
    thread_local Botan::AutoSeeded_RNG r;
    return r;
}

Bytes bytes(const std::vector<std::uint8_t> &v) {
    return Bytes(v.begin(), v.end());
}

Bytes bytes(const Buffer &v) {
    return Bytes(v.begin(), v.end());
}

// A key with the operation made from it, which may refer to the key (Ed25519's does): both
// kept alive together, shared (the job copies it).
template <class Op> struct Held {
    std::shared_ptr<const void> key;
    std::shared_ptr<Op> op;
};

using Agreer = Held<Botan::PK_Key_Agreement>;
using Signer = Held<Botan::PK_Signer>;
using Verifier = Held<Botan::PK_Verifier>;

Bytes derive(Agreer &k, const Bytes &peer) {
    return bytes(k.op->derive_key(0, peer.data(), peer.size()).bits_of());
}

// X25519: raw 32-byte scalars and u-coordinates.
Bytes x25519_keygen(const Bytes *seed) {
    auto key = seed ? Botan::X25519_PrivateKey(Buffer(seed->begin(), seed->end()))
                    : Botan::X25519_PrivateKey(rng());
    return concat(key.public_value(), bytes(key.get_x()));
}

Agreer x25519_load(const Bytes &raw) {
    if (raw.size() != 32)
        throw invalid("an X25519 private key is 32 bytes");
    auto key = std::make_shared<Botan::X25519_PrivateKey>(Buffer(raw.begin(), raw.end()));
    return {key, std::make_shared<Botan::PK_Key_Agreement>(*key, rng(), "Raw")};
}

Bytes x25519_agree(Agreer &k, const Bytes &peer) {
    if (peer.size() != 32)
        throw invalid("peer_public_key: an X25519 public key is 32 bytes");
    return derive(k, peer);
}

// P-256: 32-byte big-endian scalars, uncompressed SEC1 points.
const Botan::EC_Group &p256() {
    static const Botan::EC_Group g("secp256r1");
    return g;
}

Botan::BigInt scalar(const Bytes &raw) {
    Botan::BigInt d(raw.data(), raw.size());
    if (raw.size() != 32 || d < 1 || d >= p256().get_order())
        throw invalid("not a P-256 scalar (32 bytes, 1 <= d < n)");
    return d;
}

void uncompressed(const Bytes &point) {
    if (point.size() != 65 || point[0] != 0x04)
        throw invalid("not an uncompressed P-256 point (04||X||Y)");
}

template <class Key> Bytes ec_pair(const Key &key) {
    Bytes pub = bytes(key.public_point().encode(Botan::PointGFp::UNCOMPRESSED));
    return concat(pub, bytes(Botan::BigInt::encode_1363(key.private_value(), 32)));
}

template <class Key> Bytes ec_keygen(const Bytes *seed) {
    return ec_pair(Key(rng(), p256(), seed ? scalar(*seed) : Botan::BigInt(0)));
}

Agreer ecdh_load(const Bytes &raw) {
    auto key = std::make_shared<Botan::ECDH_PrivateKey>(rng(), p256(), scalar(raw));
    return {key, std::make_shared<Botan::PK_Key_Agreement>(*key, rng(), "Raw")};
}

Bytes ecdh_agree(Agreer &k, const Bytes &peer) {
    uncompressed(peer);
    try {
        return derive(k, peer);
    } catch (const std::exception &e) {
        throw invalid(std::string("peer_public_key: ") + e.what());
    }
}

Bytes sign(Signer &k, const Bytes &msg) {
    return k.op->sign_message(msg, rng());
}

bool verify(Verifier &v, const Bytes &msg, const Bytes &sig) {
    try {
        return v.op->verify_message(msg, sig);
    } catch (const std::exception &) { // a malformed signature
        return false;
    }
}

template <class Key>
Signer signer(std::shared_ptr<Key> key, const std::string &padding,
              Botan::Signature_Format format = Botan::IEEE_1363) {
    return {key, std::make_shared<Botan::PK_Signer>(*key, rng(), padding, format)};
}

template <class Key>
Verifier verifier(std::shared_ptr<Key> key, const std::string &padding,
                  Botan::Signature_Format format = Botan::IEEE_1363) {
    return {key, std::make_shared<Botan::PK_Verifier>(*key, padding, format)};
}

// Ed25519: the 32-byte RFC 8032 secret (Botan keeps secret ‖ public), pure EdDSA.
Bytes ed25519_pair(const Botan::Ed25519_PrivateKey &key) {
    Buffer secret = key.get_private_key();
    return concat(key.get_public_key(), Bytes(secret.begin(), secret.begin() + 32));
}

Bytes ed25519_keygen(const Bytes *seed) {
    if (seed)
        return ed25519_pair(Botan::Ed25519_PrivateKey(Buffer(seed->begin(), seed->end())));
    return ed25519_pair(Botan::Ed25519_PrivateKey(rng()));
}

Signer ed25519_private(const Bytes &raw) {
    if (raw.size() != 32)
        throw invalid("an Ed25519 private key is 32 bytes");
    return signer(std::make_shared<Botan::Ed25519_PrivateKey>(Buffer(raw.begin(), raw.end())),
                  "Pure");
}

Verifier ed25519_public(const Bytes &raw) {
    if (raw.size() != 32)
        throw invalid("an Ed25519 public key is 32 bytes");
    return verifier(std::make_shared<Botan::Ed25519_PublicKey>(raw), "Pure");
}

// ECDSA over P-256 with SHA-256: DER SEQUENCE or r‖s (IEEE 1363).
SigScheme<Signer, Verifier> ecdsa(Botan::Signature_Format format) {
    return {
        ec_keygen<Botan::ECDSA_PrivateKey>,
        [format](const Bytes &raw) {
            auto key = std::make_shared<Botan::ECDSA_PrivateKey>(rng(), p256(), scalar(raw));
            return signer(key, "EMSA1(SHA-256)", format);
        },
        [format](const Bytes &raw) {
            uncompressed(raw);
            auto key = std::make_shared<Botan::ECDSA_PublicKey>(p256(), p256().OS2ECP(raw));
            return verifier(key, "EMSA1(SHA-256)", format);
        },
        sign,
        verify,
    };
}

// RSA: SubjectPublicKeyInfo and PKCS#8 DER, e = 65537; no generation from a seed.
KeyGen rsa_keygen(std::size_t bits) {
    return [bits](const Bytes *seed) {
        if (seed)
            throw unsupported("RSA has no key generation from a seed");
        Botan::RSA_PrivateKey key(rng(), bits, 65537);
        return concat(bytes(Botan::X509::BER_encode(key)), bytes(Botan::PKCS8::BER_encode(key)));
    };
}

template <class Key> std::shared_ptr<Key> rsa_sized(Key *key, std::size_t bits) {
    std::shared_ptr<Key> held(key);
    if (!held || held->algo_name() != "RSA" || held->key_length() != bits)
        throw invalid("not an RSA-" + std::to_string(bits) + " key");
    return held;
}

SigScheme<Signer, Verifier> rsa(std::size_t bits, const std::string &padding) {
    SigScheme<Signer, Verifier> s{
        rsa_keygen(bits),
        [bits, padding](const Bytes &raw) {
            Botan::DataSource_Memory src(raw);
            return signer(rsa_sized(Botan::PKCS8::load_key(src).release(), bits), padding);
        },
        [bits, padding](const Bytes &raw) {
            return verifier(rsa_sized(Botan::X509::load_key(raw), bits), padding);
        },
        sign,
        // RFC 8017 8.1.2/8.2.2 step 1: a signature of another length than the modulus is
        // invalid (Botan 2 reads it as an integer and accepts leading zeros).
        [bits](Verifier &v, const Bytes &msg, const Bytes &sig) {
            return sig.size() == bits / 8 && verify(v, msg, sig);
        },
    };
    s.seedable = false;
    return s;
}

} // namespace

std::vector<Entry> botan_pubkey() {
    const std::string pss = "PSSR(SHA-256,MGF1,32)", pkcs1 = "EMSA3(SHA-256)";
    return {
        {"x25519", KEX, NO_PARAMS, "X25519_PrivateKey, PK_Key_Agreement(Raw)",
         kex(KexScheme<Agreer>{x25519_keygen, x25519_load, x25519_agree})},
        {"ecdh-p256", KEX, NO_PARAMS, "ECDH_PrivateKey secp256r1, PK_Key_Agreement(Raw)",
         kex(KexScheme<Agreer>{ec_keygen<Botan::ECDH_PrivateKey>, ecdh_load, ecdh_agree})},
        {"ed25519", SIG, NO_PARAMS, "Ed25519_PrivateKey, PK_Signer(Pure)",
         sig(SigScheme<Signer, Verifier>{ed25519_keygen, ed25519_private, ed25519_public, sign,
                                         verify})},
        {"ecdsa-p256-sha256", SIG, NO_PARAMS, "ECDSA secp256r1 EMSA1(SHA-256), DER_SEQUENCE",
         sig(ecdsa(Botan::DER_SEQUENCE))},
        {"ecdsa-p256-sha256-p1363", SIG, NO_PARAMS, "ECDSA secp256r1 EMSA1(SHA-256), IEEE_1363",
         sig(ecdsa(Botan::IEEE_1363))},
        {"rsa-2048-pss-sha256", SIG, NO_PARAMS, "RSA " + pss, sig(rsa(2048, pss))},
        {"rsa-3072-pss-sha256", SIG, NO_PARAMS, "RSA " + pss, sig(rsa(3072, pss))},
        {"rsa-2048-pkcs1-sha256", SIG, NO_PARAMS, "RSA " + pkcs1, sig(rsa(2048, pkcs1))},
    };
}

} // namespace cb
