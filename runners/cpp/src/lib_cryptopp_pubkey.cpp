// cpp/cryptopp's public-key rows (pubkey.hpp): x25519 and ECDH<ECP> over secp256r1
// (SimpleKeyAgreementDomain::Agree, peer key validated), ed25519Signer/Verifier,
// ECDSA<ECP, SHA256> (r‖s natively; DER through DSAConvertSignatureFormat), RSASS<PSS,
// SHA256> (salt = the digest length, 32; MGF1-SHA-256) and RSASS<PKCS1v15, SHA256>, RSA keys
// as X.509 SubjectPublicKeyInfo / PKCS#8 (DEREncode/BERDecode). Signers and verifiers are
// made when our key is parsed.
#include "pubkey.hpp"

#include <cryptopp/dsa.h>
#include <cryptopp/eccrypto.h>
#include <cryptopp/oids.h>
#include <cryptopp/osrng.h>
#include <cryptopp/pssr.h>
#include <cryptopp/queue.h>
#include <cryptopp/rsa.h>
#include <cryptopp/sha.h>
#include <cryptopp/xed25519.h>

namespace cb {
namespace {

namespace C = CryptoPP;

C::RandomNumberGenerator &rng() {
    thread_local C::AutoSeededRandomPool r;
    return r;
}

// X25519: raw 32-byte keys. A low-order peer point is refused (Agree validates it).
Bytes x25519_keygen(const Bytes *seed) {
    C::x25519 x;
    Bytes pub(32), priv(32);
    if (seed)
        priv = *seed;
    else
        x.GeneratePrivateKey(rng(), priv.data());
    x.GeneratePublicKey(rng(), priv.data(), pub.data());
    return concat(pub, priv);
}

Bytes x25519_load(const Bytes &raw) {
    if (raw.size() != 32)
        throw invalid("an X25519 private key is 32 bytes");
    return raw;
}

Bytes x25519_agree(Bytes &priv, const Bytes &peer) {
    C::x25519 x;
    Bytes out(32);
    if (peer.size() != 32 || !x.Agree(out.data(), priv.data(), peer.data(), true))
        throw invalid("peer_public_key refused (not 32 bytes, or a low-order point)");
    return out;
}

// P-256: 32-byte big-endian scalars, uncompressed SEC1 points.
const C::DL_GroupParameters_EC<C::ECP> &p256() {
    static const C::DL_GroupParameters_EC<C::ECP> g(C::ASN1::secp256r1());
    return g;
}

C::Integer scalar(const Bytes &raw) {
    C::Integer d(raw.data(), raw.size());
    if (raw.size() != 32 || d < C::Integer::One() || d >= p256().GetSubgroupOrder())
        throw invalid("not a P-256 scalar (32 bytes, 1 <= d < n)");
    return d;
}

C::ECP::Point point(const Bytes &raw) {
    C::ECP::Point q;
    const C::ECP &curve = p256().GetCurve();
    if (raw.size() != 65 || raw[0] != 0x04 || !curve.DecodePoint(q, raw.data(), raw.size()) ||
        !curve.VerifyPoint(q))
        throw invalid("not an uncompressed P-256 point on the curve (04||X||Y)");
    return q;
}

Bytes encode(const C::ECP::Point &q) {
    Bytes out(65);
    p256().GetCurve().EncodePoint(out.data(), q, false);
    return out;
}

Bytes ec_pair(const C::Integer &d) {
    Bytes priv(32);
    d.Encode(priv.data(), 32);
    return concat(encode(p256().ExponentiateBase(d)), priv);
}

Bytes ec_keygen(const Bytes *seed) {
    if (seed)
        return ec_pair(scalar(*seed));
    C::ECDSA<C::ECP, C::SHA256>::PrivateKey key;
    key.Initialize(rng(), C::ASN1::secp256r1());
    return ec_pair(key.GetPrivateExponent());
}

Bytes ecdh_load(const Bytes &raw) {
    scalar(raw);
    return raw;
}

Bytes ecdh_agree(Bytes &priv, const Bytes &peer) {
    C::ECDH<C::ECP>::Domain dh(C::ASN1::secp256r1());
    Bytes out(dh.AgreedValueLength());
    point(peer);
    if (!dh.Agree(out.data(), priv.data(), peer.data(), true))
        throw invalid("peer_public_key refused");
    return out;
}

// Ed25519: the 32-byte RFC 8032 secret.
Bytes ed25519_pair(const C::ed25519Signer &s) {
    const auto &key = static_cast<const C::ed25519PrivateKey &>(s.GetPrivateKey());
    return concat(Bytes(key.GetPublicKeyBytePtr(), key.GetPublicKeyBytePtr() + 32),
                  Bytes(key.GetPrivateKeyBytePtr(), key.GetPrivateKeyBytePtr() + 32));
}

Bytes ed25519_keygen(const Bytes *seed) {
    return seed ? ed25519_pair(C::ed25519Signer(seed->data()))
                : ed25519_pair(C::ed25519Signer(rng()));
}

using Signer = std::shared_ptr<C::PK_Signer>;
using Verifier = std::shared_ptr<C::PK_Verifier>;

Signer ed25519_private(const Bytes &raw) {
    if (raw.size() != 32)
        throw invalid("an Ed25519 private key is 32 bytes");
    return std::make_shared<C::ed25519Signer>(raw.data());
}

Verifier ed25519_public(const Bytes &raw) {
    if (raw.size() != 32)
        throw invalid("an Ed25519 public key is 32 bytes");
    return std::make_shared<C::ed25519Verifier>(raw.data());
}

Bytes sign(Signer &s, const Bytes &msg) {
    Bytes sig(s->MaxSignatureLength());
    sig.resize(s->SignMessage(rng(), msg.data(), msg.size(), sig.data()));
    return sig;
}

bool verify(Verifier &v, const Bytes &msg, const Bytes &sig) {
    try {
        return sig.size() == v->SignatureLength() &&
               v->VerifyMessage(msg.data(), msg.size(), sig.data(), sig.size());
    } catch (const C::Exception &) { // a malformed signature
        return false;
    }
}

using ECDSA = C::ECDSA<C::ECP, C::SHA256>;

Signer ecdsa_private(const Bytes &raw) {
    ECDSA::PrivateKey key;
    key.Initialize(C::ASN1::secp256r1(), scalar(raw));
    return std::make_shared<ECDSA::Signer>(key);
}

Verifier ecdsa_public(const Bytes &raw) {
    ECDSA::PublicKey key;
    key.Initialize(C::ASN1::secp256r1(), point(raw));
    return std::make_shared<ECDSA::Verifier>(key);
}

// DER ↔ r‖s. A DER signature must be the canonical encoding of its r‖s (no BER variants).
Bytes to_der(const Bytes &p1363) {
    Bytes der(80);
    der.resize(C::DSAConvertSignatureFormat(der.data(), der.size(), C::DSA_DER, p1363.data(),
                                            p1363.size(), C::DSA_P1363));
    return der;
}

Bytes ecdsa_sign_der(Signer &s, const Bytes &msg) {
    return to_der(sign(s, msg));
}

bool ecdsa_verify_der(Verifier &v, const Bytes &msg, const Bytes &der) {
    Bytes p1363(64);
    try {
        p1363.resize(C::DSAConvertSignatureFormat(p1363.data(), p1363.size(), C::DSA_P1363,
                                                  der.data(), der.size(), C::DSA_DER));
        if (p1363.size() != 64 || to_der(p1363) != der)
            return false;
    } catch (const C::Exception &) {
        return false;
    }
    return verify(v, msg, p1363);
}

// RSA: SubjectPublicKeyInfo and PKCS#8 DER, e = 65537; no generation from a seed.
template <class Key> Bytes der_of(const Key &key) {
    C::ByteQueue q;
    key.DEREncode(q);
    Bytes out(q.CurrentSize());
    q.Get(out.data(), out.size());
    return out;
}

KeyGen rsa_keygen(unsigned bits) {
    return [bits](const Bytes *) {
        C::RSA::PrivateKey key;
        key.Initialize(rng(), bits, 65537);
        return concat(der_of(C::RSA::PublicKey(key)), der_of(key));
    };
}

template <class Key> Key rsa_key(const Bytes &raw, unsigned bits) {
    Key key;
    C::ByteQueue q;
    q.Put(raw.data(), raw.size());
    key.BERDecode(q);
    if (q.CurrentSize() != 0 || key.GetModulus().BitCount() != bits)
        throw invalid("not an RSA-" + std::to_string(bits) + " key");
    return key;
}

template <class Scheme> SigScheme<Signer, Verifier> rsa(unsigned bits) {
    SigScheme<Signer, Verifier> s{
        rsa_keygen(bits),
        [bits](const Bytes &raw) -> Signer {
            return std::make_shared<typename Scheme::Signer>(
                rsa_key<C::RSA::PrivateKey>(raw, bits));
        },
        [bits](const Bytes &raw) -> Verifier {
            return std::make_shared<typename Scheme::Verifier>(
                rsa_key<C::RSA::PublicKey>(raw, bits));
        },
        sign,
        verify,
    };
    s.seedable = false;
    return s;
}

using PSS = C::RSASS<C::PSS, C::SHA256>;
using PKCS1 = C::RSASS<C::PKCS1v15, C::SHA256>;

} // namespace

std::vector<Entry> cryptopp_pubkey() {
    using S = SigScheme<Signer, Verifier>;
    return {
        {"x25519", KEX, NO_PARAMS, "x25519 Agree (public key validated)",
         kex(KexScheme<Bytes>{x25519_keygen, x25519_load, x25519_agree})},
        {"ecdh-p256", KEX, NO_PARAMS, "ECDH<ECP>::Domain secp256r1 Agree (public key validated)",
         kex(KexScheme<Bytes>{ec_keygen, ecdh_load, ecdh_agree})},
        {"ed25519", SIG, NO_PARAMS, "ed25519Signer / ed25519Verifier",
         sig(S{ed25519_keygen, ed25519_private, ed25519_public, sign, verify})},
        {"ecdsa-p256-sha256", SIG, NO_PARAMS, "ECDSA<ECP, SHA256>, DSAConvertSignatureFormat DER",
         sig(S{ec_keygen, ecdsa_private, ecdsa_public, ecdsa_sign_der, ecdsa_verify_der})},
        {"ecdsa-p256-sha256-p1363", SIG, NO_PARAMS, "ECDSA<ECP, SHA256> (r||s)",
         sig(S{ec_keygen, ecdsa_private, ecdsa_public, sign, verify})},
        {"rsa-2048-pss-sha256", SIG, NO_PARAMS, "RSASS<PSS, SHA256>", sig(rsa<PSS>(2048))},
        {"rsa-3072-pss-sha256", SIG, NO_PARAMS, "RSASS<PSS, SHA256>", sig(rsa<PSS>(3072))},
        {"rsa-2048-pkcs1-sha256", SIG, NO_PARAMS, "RSASS<PKCS1v15, SHA256>", sig(rsa<PKCS1>(2048))},
    };
}

} // namespace cb
