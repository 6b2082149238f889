// cpp/cryptopp: Crypto++ (Debian libcrypto++-dev) through its class templates: one dispatch table.
#include "pubkey.hpp"
#include "registry.hpp"

#define CRYPTOPP_ENABLE_NAMESPACE_WEAK 1
#include <cryptopp/adler32.h>
#include <cryptopp/aes.h>
#include <cryptopp/blake2.h>
#include <cryptopp/chacha.h>
#include <cryptopp/chachapoly.h>
#include <cryptopp/cpu.h>
#include <cryptopp/crc.h>
#include <cryptopp/cryptlib.h>
#include <cryptopp/gcm.h>
#include <cryptopp/hmac.h>
#include <cryptopp/keccak.h>
#include <cryptopp/md2.h>
#include <cryptopp/md4.h>
#include <cryptopp/md5.h>
#include <cryptopp/modes.h>
#include <cryptopp/pwdbased.h>
#include <cryptopp/ripemd.h>
#include <cryptopp/scrypt.h>
#include <cryptopp/sha.h>
#include <cryptopp/sha3.h>
#include <cryptopp/shake.h>
#include <cryptopp/sm3.h>
#include <cryptopp/tiger.h>
#include <cryptopp/whrlpool.h>

#include <algorithm>

namespace cb {
namespace {

namespace C = CryptoPP;

// The hash object is made once and reused: CalculateTruncatedDigest = Update + TruncatedFinal,
// which restarts it. `len` 0 = the full digest; Tiger/128 and /160 are prefixes of Tiger/192.
template <class H> Make digest(std::size_t len = 0) {
    return [len](const Call &c) {
        auto h = std::make_shared<H>();
        Bytes msg = c.take("msg"), out(len ? len : h->DigestSize());
        return plain([h, msg, out]() mutable {
            h->CalculateTruncatedDigest(out.data(), out.size(), msg.data(), msg.size());
            return view(out);
        });
    };
}

// CRC32 / CRC32C write the register little-endian: the protocol wants the integer big-endian.
template <class H> Make checksum_le() {
    return [](const Call &c) {
        auto h = std::make_shared<H>();
        Bytes msg = c.take("msg"), out(4);
        return plain([h, msg, out]() mutable {
            h->CalculateDigest(out.data(), msg.data(), msg.size());
            std::reverse(out.begin(), out.end());
            return view(out);
        });
    };
}

// SHAKE128 / SHAKE256 constructed with the output size.
template <class H> Make xof() {
    return [](const Call &c) {
        std::size_t out_len = c.size("out_len", 1, 1 << 20);
        auto h = std::make_shared<H>(static_cast<unsigned>(out_len));
        Bytes msg = c.take("msg"), out(out_len);
        return plain([h, msg, out]() mutable {
            h->CalculateDigest(out.data(), msg.data(), msg.size());
            return view(out);
        });
    };
}

using HmacSha256 = C::HMAC<C::SHA256>;

// verify: VerifyDigest = Update + Verify (a constant-time compare of the full MAC). A tag of
// another length is refused without touching the object, so its state stays clean.
JobPtr hmac_sha256_verify(std::shared_ptr<HmacSha256> m, const Bytes &key, const Bytes &msg,
                          const Bytes &tag, bool fresh) {
    return plain([m, key, msg, tag, fresh]() mutable {
        if (fresh)
            m = std::make_shared<HmacSha256>(key.data(), key.size());
        if (tag.size() != HmacSha256::DIGESTSIZE ||
            !m->VerifyDigest(tag.data(), msg.data(), msg.size()))
            throw auth_failed("tag does not verify");
        return verified();
    });
}

// HMAC<SHA256> keyed once (or constructed per message with fresh_context).
JobPtr hmac_sha256(const Call &c) {
    using M = HmacSha256;
    Bytes key = c.take("key"), msg = c.take("msg"), out(M::DIGESTSIZE);
    auto m = std::make_shared<M>(key.data(), key.size());
    bool fresh = c.fresh;
    if (c.operation == "verify")
        return hmac_sha256_verify(m, key, msg, c.take("tag"), fresh);
    return plain([m, key, msg, out, fresh]() mutable {
        if (fresh)
            m = std::make_shared<M>(key.data(), key.size());
        m->CalculateDigest(out.data(), msg.data(), msg.size());
        return view(out);
    });
}

// CTR_Mode<AES>: keyed once, Resynchronize with the (stepped) counter block, ProcessData.
Make aes_ctr(std::size_t key_len) {
    return [key_len](const Call &c) {
        using E = C::CTR_Mode<C::AES>::Encryption;
        Bytes key = c.exact("key", key_len), nonce = c.exact("nonce", 16), msg = c.take("msg");
        Bytes out(msg.size()), back(msg.size());
        auto e = std::make_shared<E>(key.data(), key.size(), nonce.data(), nonce.size());
        bool fresh = c.fresh, roundtrip = c.operation == "roundtrip";
        return stepped(nonce, [=](const Bytes &n, bool verified) mutable {
            if (fresh)
                e = std::make_shared<E>(key.data(), key.size(), n.data(), n.size());
            else
                e->Resynchronize(n.data(), static_cast<int>(n.size()));
            e->ProcessData(out.data(), msg.data(), msg.size());
            if (roundtrip) {
                e->Resynchronize(n.data(), static_cast<int>(n.size()));
                e->ProcessData(back.data(), out.data(), out.size());
                same(verified, back.data(), back.size(), msg);
            }
            return view(out);
        });
    };
}

// An AEAD object keyed once (or per message with fresh_context); EncryptAndAuthenticate and
// DecryptAndVerify resynchronise it with the nonce they are given.
template <class T> struct Keyed {
    Bytes key, nonce;
    bool fresh;
    std::shared_ptr<T> kept;

    T &get() {
        if (fresh || !kept) {
            kept = std::make_shared<T>();
            kept->SetKeyWithIV(key.data(), key.size(), nonce.data(), nonce.size());
        }
        return *kept;
    }
};

constexpr int TAG = 16;

// GCM<AES>, ChaCha20Poly1305, XChaCha20Poly1305: one-shot calls, out of place, tag after the
// ciphertext in the job's buffer.
template <class A> Make aead(std::size_t key_len, std::size_t nonce_len) {
    return [=](const Call &c) {
        using Enc = typename A::Encryption;
        using Dec = typename A::Decryption;
        Bytes key = c.exact("key", key_len), nonce = c.exact("nonce", nonce_len);
        Bytes aad = c.optional("aad"), msg = c.take("msg");
        Keyed<Enc> enc{key, nonce, c.fresh, nullptr};
        Keyed<Dec> dec{key, nonce, c.fresh, nullptr};
        if (c.operation == "open") {
            if (msg.size() < TAG)
                throw invalid("open needs ciphertext||tag (at least 16 bytes)");
            dec.get();
            Bytes out(msg.size() - TAG);
            return plain([dec, aad, nonce, msg, out]() mutable {
                if (!dec.get().DecryptAndVerify(out.data(), msg.data() + out.size(), TAG,
                                                nonce.data(), static_cast<int>(nonce.size()),
                                                aad.data(), aad.size(), msg.data(), out.size()))
                    throw auth_failed("tag does not verify");
                return view(out);
            });
        }
        enc.get();
        dec.get();
        Bytes out(msg.size() + TAG), back(msg.size());
        bool roundtrip = c.operation == "roundtrip";
        return stepped(nonce, [=](const Bytes &n, bool verified) mutable {
            enc.get().EncryptAndAuthenticate(out.data(), out.data() + msg.size(), TAG, n.data(),
                                             static_cast<int>(n.size()), aad.data(), aad.size(),
                                             msg.data(), msg.size());
            if (roundtrip) {
                if (!dec.get().DecryptAndVerify(back.data(), out.data() + msg.size(), TAG, n.data(),
                                                static_cast<int>(n.size()), aad.data(), aad.size(),
                                                out.data(), msg.size()))
                    throw internal("roundtrip: own ciphertext rejected");
                same(verified, back.data(), back.size(), msg);
            }
            return view(out);
        });
    };
}

JobPtr scrypt(const Call &c) {
    std::uint64_t n = c.size("n", 2, 1ull << 40);
    auto r = static_cast<unsigned>(c.size("r", 1, 1 << 20));
    auto p = static_cast<unsigned>(c.size("p", 1, 1 << 20));
    Bytes password = c.take("password"), salt = c.take("salt");
    Bytes out(c.size("out_len", 1, 1 << 20));
    auto kdf = std::make_shared<C::Scrypt>();
    return plain([=]() mutable {
        kdf->DeriveKey(out.data(), out.size(), password.data(), password.size(), salt.data(),
                       salt.size(), n, r, p);
        return view(out);
    });
}

// PKCS5_PBKDF2_HMAC<H>::DeriveKey(purpose 0, iterations, timeInSeconds 0).
template <class H> JobPtr pbkdf2(const Call &c) {
    auto iterations = static_cast<unsigned>(c.size("iterations", 1, 0xffffffffu));
    Bytes password = c.take("password"), salt = c.take("salt");
    Bytes out(c.size("out_len", 1, 1 << 20));
    auto kdf = std::make_shared<C::PKCS5_PBKDF2_HMAC<H>>();
    return plain([=]() mutable {
        kdf->DeriveKey(out.data(), out.size(), 0, password.data(), password.size(), salt.data(),
                       salt.size(), iterations, 0);
        return view(out);
    });
}

// Crypto++'s exceptions as protocol error kinds.
void translate() {
    try {
        throw;
    } catch (const C::InvalidArgument &e) {
        throw invalid(e.what());
    } catch (...) {
    }
}

// What Crypto++ says each algorithm runs on (its own run-time CPU dispatch).
std::string code_path() {
    std::string s = "AlgorithmProvider():";
    s += " SHA-1=" + C::SHA1().AlgorithmProvider();
    s += " SHA-256=" + C::SHA256().AlgorithmProvider();
    s += " SHA-512=" + C::SHA512().AlgorithmProvider();
    s += " BLAKE2b=" + C::BLAKE2b().AlgorithmProvider();
    s += " BLAKE2s=" + C::BLAKE2s().AlgorithmProvider();
    C::AES::Encryption aes;
    s += " AES=" + static_cast<C::BlockTransformation &>(aes).AlgorithmProvider();
    C::ChaCha::Encryption chacha;
    s += " ChaCha20=" + static_cast<C::StreamTransformation &>(chacha).AlgorithmProvider();
    s += std::string("; CPU: aesni=") + (C::HasAESNI() ? "1" : "0") +
         " clmul=" + (C::HasCLMUL() ? "1" : "0") + " sha=" + (C::HasSHA() ? "1" : "0") +
         " sse4.2=" + (C::HasSSE42() ? "1" : "0") + " avx2=" + (C::HasAVX2() ? "1" : "0");
    return s;
}

std::string version() {
    int v = C::LibraryVersion();
    return std::to_string(v / 100) + "." + std::to_string(v / 10 % 10) + "." +
           std::to_string(v % 10);
}

} // namespace

const Library &lib_cryptopp() {
    static const Library lib{
        "cryptopp",
        version(),
        "cryptopp",
        version(),
        code_path,
        "hash objects made once, CalculateDigest (Update+Final, restarts the object); "
        "HMAC<SHA256> keyed once; CTR_Mode<AES> Resynchronize()+ProcessData() out of place; "
        "GCM<AES>/ChaCha20Poly1305/XChaCha20Poly1305 keyed once, EncryptAndAuthenticate / "
        "DecryptAndVerify out of place (GCM with its default 2K tables, CLMUL when present); "
        "CRC32/CRC32C byte-swapped to big-endian; Scrypt and PKCS5_PBKDF2_HMAC<H> DeriveKey",
        {
            {"md2", DIGEST, NO_PARAMS, "Weak::MD2", digest<C::Weak::MD2>()},
            {"md4", DIGEST, NO_PARAMS, "Weak::MD4", digest<C::Weak::MD4>()},
            {"md5", DIGEST, NO_PARAMS, "Weak::MD5", digest<C::Weak::MD5>()},
            {"sha1", DIGEST, NO_PARAMS, "SHA1", digest<C::SHA1>()},
            {"sha224", DIGEST, NO_PARAMS, "SHA224", digest<C::SHA224>()},
            {"sha256", DIGEST, NO_PARAMS, "SHA256", digest<C::SHA256>()},
            {"sha384", DIGEST, NO_PARAMS, "SHA384", digest<C::SHA384>()},
            {"sha512", DIGEST, NO_PARAMS, "SHA512", digest<C::SHA512>()},
            {"sha3-224", DIGEST, NO_PARAMS, "SHA3_224", digest<C::SHA3_224>()},
            {"sha3-256", DIGEST, NO_PARAMS, "SHA3_256", digest<C::SHA3_256>()},
            {"sha3-384", DIGEST, NO_PARAMS, "SHA3_384", digest<C::SHA3_384>()},
            {"sha3-512", DIGEST, NO_PARAMS, "SHA3_512", digest<C::SHA3_512>()},
            {"shake128", DIGEST, XOF_PARAMS, "SHAKE128(outputSize)", xof<C::SHAKE128>()},
            {"shake256", DIGEST, XOF_PARAMS, "SHAKE256(outputSize)", xof<C::SHAKE256>()},
            {"keccak-256", DIGEST, NO_PARAMS, "Keccak_256", digest<C::Keccak_256>()},
            {"blake2b-512", DIGEST, NO_PARAMS, "BLAKE2b", digest<C::BLAKE2b>()},
            {"blake2s-256", DIGEST, NO_PARAMS, "BLAKE2s", digest<C::BLAKE2s>()},
            {"ripemd128", DIGEST, NO_PARAMS, "RIPEMD128", digest<C::RIPEMD128>()},
            {"ripemd160", DIGEST, NO_PARAMS, "RIPEMD160", digest<C::RIPEMD160>()},
            {"ripemd256", DIGEST, NO_PARAMS, "RIPEMD256", digest<C::RIPEMD256>()},
            {"ripemd320", DIGEST, NO_PARAMS, "RIPEMD320", digest<C::RIPEMD320>()},
            {"whirlpool", DIGEST, NO_PARAMS, "Whirlpool", digest<C::Whirlpool>()},
            {"tiger128-3", DIGEST, NO_PARAMS, "Tiger (truncated to 16)", digest<C::Tiger>(16)},
            {"tiger160-3", DIGEST, NO_PARAMS, "Tiger (truncated to 20)", digest<C::Tiger>(20)},
            {"tiger192-3", DIGEST, NO_PARAMS, "Tiger", digest<C::Tiger>()},
            {"sm3", DIGEST, NO_PARAMS, "SM3", digest<C::SM3>()},
            {"crc32", DIGEST, NO_PARAMS, "CRC32", checksum_le<C::CRC32>()},
            {"crc32c", DIGEST, NO_PARAMS, "CRC32C", checksum_le<C::CRC32C>()},
            {"adler32", DIGEST, NO_PARAMS, "Adler32", digest<C::Adler32>()},
            {"hmac-sha256", MAC_VERIFY, NO_PARAMS, "HMAC<SHA256>", hmac_sha256},
            {"aes-128-ctr", CIPHER, NO_PARAMS, "CTR_Mode<AES>", aes_ctr(16)},
            {"aes-256-ctr", CIPHER, NO_PARAMS, "CTR_Mode<AES>", aes_ctr(32)},
            {"aes-128-gcm", AEAD, AEAD_PARAMS, "GCM<AES>", aead<C::GCM<C::AES>>(16, 12)},
            {"aes-256-gcm", AEAD, AEAD_PARAMS, "GCM<AES>", aead<C::GCM<C::AES>>(32, 12)},
            {"chacha20-poly1305", AEAD, AEAD_PARAMS, "ChaCha20Poly1305",
             aead<C::ChaCha20Poly1305>(32, 12)},
            {"xchacha20-poly1305", AEAD, AEAD_PARAMS, "XChaCha20Poly1305",
             aead<C::XChaCha20Poly1305>(32, 24)},
            {"scrypt", DERIVE, SCRYPT_PARAMS, "Scrypt", scrypt},
            {"pbkdf2-sha1", DERIVE, PBKDF2_PARAMS, "PKCS5_PBKDF2_HMAC<SHA1>", pbkdf2<C::SHA1>},
            {"pbkdf2-sha256", DERIVE, PBKDF2_PARAMS, "PKCS5_PBKDF2_HMAC<SHA256>",
             pbkdf2<C::SHA256>},
            {"pbkdf2-sha512", DERIVE, PBKDF2_PARAMS, "PKCS5_PBKDF2_HMAC<SHA512>",
             pbkdf2<C::SHA512>},
        },
        translate,
        cryptopp_pubkey()};
    return lib;
}

} // namespace cb
