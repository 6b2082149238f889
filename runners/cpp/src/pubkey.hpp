// The public-key rows (families kex and signature, docs/protocol.md "Public-key operations"):
// a library gives functions over the protocol's encodings (raw X25519/Ed25519 keys, SEC1
// points and 32-byte scalars for P-256, DER SubjectPublicKeyInfo / PKCS#8 for RSA); these
// builders make the jobs. Our key is parsed once per case (in every call with
// fresh_context); agree parses the peer's key in every call; keygen without key_seed makes a
// fresh random pair per call.
#pragma once

#include "registry.hpp"

namespace cb {

// keygen(seed) → public ‖ private; seed is the 32-byte key_seed or nullptr (a random pair).
using KeyGen = std::function<Bytes(const Bytes *seed)>;

template <class Priv> struct KexScheme {
    KeyGen keygen;
    std::function<Priv(const Bytes &)> load;               // throws on a bad key
    std::function<Bytes(Priv &, const Bytes &peer)> agree; // throws invalid on a bad peer
    bool seedable = true;                                  // keygen takes a key_seed
};

template <class Priv, class Pub> struct SigScheme {
    KeyGen keygen;
    std::function<Priv(const Bytes &)> load_private;
    std::function<Pub(const Bytes &)> load_public;
    std::function<Bytes(Priv &, const Bytes &msg)> sign;
    std::function<bool(Pub &, const Bytes &msg, const Bytes &sig)> verify; // false: refused
    bool seedable = true; // false: RSA, no standard key generation from a seed
};

inline Bytes concat(const Bytes &a, const Bytes &b) {
    Bytes out(a);
    out.insert(out.end(), b.begin(), b.end());
    return out;
}

inline JobPtr keygen_job(const Call &c, const KeyGen &gen, bool seedable) {
    auto it = c.inputs.bytes.find("key_seed");
    std::optional<Bytes> seed;
    if (it != c.inputs.bytes.end() && !seedable)
        throw unsupported("this key type has no key generation from a seed");
    if (it != c.inputs.bytes.end()) {
        if (it->second.size() != 32)
            throw invalid("key_seed is " + std::to_string(it->second.size()) + " bytes, not 32");
        seed = it->second;
    }
    return plain([gen, seed, out = Bytes{}]() mutable {
        out = gen(seed ? &*seed : nullptr);
        return view(out);
    });
}

// A library's own exception while parsing our key → invalid_params (Fail passes through).
template <class K>
K parsed(const std::function<K(const Bytes &)> &load, const Bytes &raw, const std::string &name) {
    try {
        return load(raw);
    } catch (const Fail &) {
        throw;
    } catch (const std::exception &e) {
        throw invalid(name + ": " + e.what());
    }
}

// use(key) → Bytes, with the key parsed once, or inside every call when fresh.
template <class K, class Use>
JobPtr keyed_job(const Call &c, const std::function<K(const Bytes &)> &load,
                 const std::string &name, Use use) {
    Bytes raw = c.take(name);
    if (c.fresh)
        return plain([load, raw, name, use, out = Bytes{}]() mutable {
            K key = parsed(load, raw, name);
            out = use(key);
            return view(out);
        });
    return plain([key = parsed(load, raw, name), use, out = Bytes{}]() mutable {
        out = use(key);
        return view(out);
    });
}

template <class Priv> Make kex(KexScheme<Priv> s) {
    return [s](const Call &c) -> JobPtr {
        if (c.operation == "keygen")
            return keygen_job(c, s.keygen, s.seedable);
        Bytes peer = c.take("peer_public_key");
        auto agree = s.agree;
        return keyed_job<Priv>(c, s.load, "private_key",
                               [agree, peer](Priv &key) { return agree(key, peer); });
    };
}

template <class Priv, class Pub> Make sig(SigScheme<Priv, Pub> s) {
    return [s](const Call &c) -> JobPtr {
        if (c.operation == "keygen")
            return keygen_job(c, s.keygen, s.seedable);
        Bytes msg = c.take("msg");
        if (c.operation == "sign") {
            auto sign = s.sign;
            return keyed_job<Priv>(c, s.load_private, "private_key",
                                   [sign, msg](Priv &key) { return sign(key, msg); });
        }
        Bytes signature = c.take("signature");
        auto verify = s.verify;
        return keyed_job<Pub>(c, s.load_public, "public_key", [verify, msg, signature](Pub &key) {
            if (!verify(key, msg, signature))
                throw auth_failed("the signature does not verify");
            return Bytes{'o', 'k'};
        });
    };
}

// Each library's public-key rows (lib_<library>_pubkey.cpp).
std::vector<Entry> botan_pubkey();
std::vector<Entry> cryptopp_pubkey();

} // namespace cb
