// cpp/botan: Botan 2 (Debian libbotan-2-dev) through its public factories: one dispatch table.
#include "pubkey.hpp"
#include "registry.hpp"

// argon2.h and cpuid.h are marked "will be made internal in the future" in Botan 2, but are
// where Botan 2 declares the Argon2 PHC-string functions and its CPU detection.
#define BOTAN_NO_DEPRECATED_WARNINGS
#include <botan/aead.h>
#include <botan/argon2.h>
#include <botan/bcrypt.h>
#include <botan/block_cipher.h>
#include <botan/cpuid.h>
#include <botan/exceptn.h>
#include <botan/hash.h>
#include <botan/mac.h>
#include <botan/pwdhash.h>
#include <botan/rng.h>
#include <botan/stream_cipher.h>
#include <botan/version.h>

namespace cb {
namespace {

using Buffer = Botan::secure_vector<std::uint8_t>;

View view_of(const Buffer &b) {
    return {b.data(), b.size()};
}

// HashFunction made once; update + final into a buffer the job owns (Botan's reusable hasher).
Make digest(std::string name) {
    return [name](const Call &c) {
        std::shared_ptr<Botan::HashFunction> h = Botan::HashFunction::create_or_throw(name);
        Bytes msg = c.take("msg"), out(h->output_length());
        return plain([h, msg, out]() mutable {
            h->update(msg.data(), msg.size());
            h->final(out.data());
            return view(out);
        });
    };
}

// SHAKE-128(bits) / SHAKE-256(bits): the output length is part of Botan's algorithm name.
Make xof(std::string family) {
    return [family](const Call &c) {
        std::size_t out_len = c.size("out_len", 1, 1 << 20);
        return digest(family + "(" + std::to_string(8 * out_len) + ")")(c);
    };
}

// verify: the MAC object as for mac, then update() + verify_mac(tag), which computes the MAC
// and compares it in constant time (a tag of another length never verifies).
JobPtr mac_verify(const std::string &name, const Bytes &key, const Bytes &msg, const Bytes &tag,
                  std::shared_ptr<Botan::MessageAuthenticationCode> m, bool fresh) {
    return plain([name, key, msg, tag, m, fresh]() mutable {
        if (fresh) {
            m = Botan::MessageAuthenticationCode::create_or_throw(name);
            m->set_key(key);
        }
        m->update(msg.data(), msg.size());
        if (!m->verify_mac(tag.data(), tag.size()))
            throw auth_failed("tag does not verify");
        return verified();
    });
}

// HMAC keyed once (or per message with fresh_context).
Make mac(std::string name) {
    return [name](const Call &c) {
        Bytes key = c.take("key"), msg = c.take("msg");
        std::shared_ptr<Botan::MessageAuthenticationCode> m =
            Botan::MessageAuthenticationCode::create_or_throw(name);
        m->set_key(key);
        bool fresh = c.fresh;
        if (c.operation == "verify")
            return mac_verify(name, key, msg, c.take("tag"), m, fresh);
        Bytes out(m->output_length());
        return plain([name, key, msg, out, m, fresh]() mutable {
            if (fresh) {
                m = Botan::MessageAuthenticationCode::create_or_throw(name);
                m->set_key(key);
            }
            m->update(msg.data(), msg.size());
            m->final(out.data());
            return view(out);
        });
    };
}

// A keyed Botan object made once, or per message when fresh_context asks for it.
template <class T> struct Keyed {
    std::function<std::unique_ptr<T>()> create;
    Bytes key;
    bool fresh;
    std::shared_ptr<T> kept;

    T &get() {
        if (fresh || !kept) {
            kept = create();
            kept->set_key(key);
        }
        return *kept;
    }
};

// CTR-BE(AES-n): set_iv with the (stepped) counter block, then cipher() out of place.
Make ctr(std::string name) {
    return [name](const Call &c) {
        std::size_t key_len = name.find("256") != std::string::npos ? 32 : 16;
        Keyed<Botan::StreamCipher> k{[name] { return Botan::StreamCipher::create_or_throw(name); },
                                     c.exact("key", key_len), c.fresh, nullptr};
        k.get();
        Bytes msg = c.take("msg"), out(msg.size()), back(msg.size());
        bool roundtrip = c.operation == "roundtrip";
        return stepped(c.exact("nonce", 16),
                       [k, msg, out, back, roundtrip](const Bytes &n, bool verified) mutable {
                           Botan::StreamCipher &s = k.get();
                           s.set_iv(n.data(), n.size());
                           s.cipher(msg.data(), out.data(), msg.size());
                           if (roundtrip) {
                               s.set_iv(n.data(), n.size());
                               s.cipher(out.data(), back.data(), out.size());
                               same(verified, back.data(), back.size(), msg);
                           }
                           return view(out);
                       });
    };
}

using Mode = Keyed<Botan::AEAD_Mode>;

// One message through an AEAD object: associated data, start(nonce), finish(buf) in place.
void crypt(Botan::AEAD_Mode &m, const Bytes &aad, const Bytes &nonce, Buffer &buf) {
    m.set_associated_data(aad.data(), aad.size());
    m.start(nonce.data(), nonce.size());
    m.finish(buf);
}

// AEAD_Mode::create(name, ENCRYPTION / DECRYPTION): Botan's one-buffer API, finish() in place.
Make aead(std::string name, std::size_t key_len, std::size_t nonce_len) {
    return [=](const Call &c) {
        auto mode = [name](Botan::Cipher_Dir dir) {
            return [name, dir] {
                return Botan::AEAD_Mode::create_or_throw(name, dir);
            };
        };
        Bytes key = c.exact("key", key_len), nonce = c.exact("nonce", nonce_len);
        Bytes aad = c.optional("aad"), msg = c.take("msg");
        Mode enc{mode(Botan::ENCRYPTION), key, c.fresh, nullptr};
        Mode dec{mode(Botan::DECRYPTION), key, c.fresh, nullptr};
        Buffer buf(msg.begin(), msg.end()), sealed;
        if (c.operation == "open") {
            if (msg.size() < 16)
                throw invalid("open needs ciphertext||tag (at least 16 bytes)");
            dec.get();
            // finish() decrypts in place: the copy of ciphertext||tag is in open's time.
            return plain([dec, aad, nonce, msg, buf]() mutable {
                buf.assign(msg.begin(), msg.end());
                crypt(dec.get(), aad, nonce, buf);
                return view_of(buf);
            });
        }
        enc.get();
        if (c.operation == "seal") {
            // The verified call seals the message; timed calls re-seal the previous ciphertext
            // in place (tag dropped, no copy), as `botan speed` does.
            return stepped(nonce, [enc, aad, msg, buf](const Bytes &n, bool verified) mutable {
                if (verified)
                    buf.assign(msg.begin(), msg.end());
                else
                    buf.resize(msg.size());
                crypt(enc.get(), aad, n, buf);
                return view_of(buf);
            });
        }
        dec.get();
        // Seal then open in one buffer: the open restores the message.
        return stepped(nonce,
                       [enc, dec, aad, msg, buf, sealed](const Bytes &n, bool verified) mutable {
                           crypt(enc.get(), aad, n, buf);
                           if (verified)
                               sealed = buf;
                           crypt(dec.get(), aad, n, buf);
                           same(verified, buf.data(), buf.size(), msg);
                           return verified ? view_of(sealed) : view_of(buf);
                       });
    };
}

// Hands the salt sent to the functions that draw their salt from an RNG (generate_bcrypt,
// argon2_generate_pwhash), so `hash` with an explicit salt can be cross-checked.
class SaltRng final : public Botan::RandomNumberGenerator {
  public:
    explicit SaltRng(Bytes salt) : salt_(std::move(salt)) {}
    void randomize(std::uint8_t out[], std::size_t len) override {
        if (len != salt_.size())
            throw invalid("salt must be " + std::to_string(len) + " bytes");
        std::memcpy(out, salt_.data(), len);
    }
    bool accepts_input() const override { return false; }
    void add_entropy(const std::uint8_t[], std::size_t) override {}
    std::string name() const override { return "cryptobench-salt"; }
    void clear() override {}
    bool is_seeded() const override { return true; }

  private:
    Bytes salt_;
};

std::string text(const Bytes &b) {
    return std::string(b.begin(), b.end());
}

// The encoded string (hash) or "ok" (verify), as bytes the job owns.
JobPtr encoded_job(std::function<std::string()> f) {
    Bytes out;
    return plain([f, out]() mutable {
        std::string s = f();
        out.assign(s.begin(), s.end());
        return view(out);
    });
}

JobPtr verify_job(std::function<bool()> check) {
    return encoded_job([check] {
        if (!check())
            throw auth_failed("password does not match");
        return std::string("ok");
    });
}

// generate_bcrypt(password, rng, cost, 'b') / check_bcrypt.
JobPtr bcrypt(const Call &c) {
    std::string password = text(c.take("password"));
    auto cost = static_cast<std::uint16_t>(c.size("cost", 4, 18));
    if (c.operation == "verify") {
        std::string encoded = c.encoded();
        return verify_job([password, encoded] { return Botan::check_bcrypt(password, encoded); });
    }
    auto rng = std::make_shared<SaltRng>(c.exact("salt", 16));
    return encoded_job(
        [password, rng, cost] { return Botan::generate_bcrypt(password, *rng, cost, 'b'); });
}

// derive: PasswordHashFamily(name)->from_params(a, b, c)->derive_key (PBKDF2, Scrypt, Argon2).
JobPtr derive(const Call &c, const std::string &family, std::size_t a, std::size_t b,
              std::size_t p) {
    std::shared_ptr<Botan::PasswordHash> kdf =
        Botan::PasswordHashFamily::create_or_throw(family)->from_params(a, b, p);
    Bytes password = c.take("password"), salt = c.take("salt");
    Bytes out(c.size("out_len", 1, 1 << 20));
    return plain([kdf, password, salt, out]() mutable {
        kdf->derive_key(out.data(), out.size(), reinterpret_cast<const char *>(password.data()),
                        password.size(), salt.data(), salt.size());
        return view(out);
    });
}

// Argon2: derive_key (raw), argon2_generate_pwhash / argon2_check_pwhash (PHC string).
Make argon2(std::string family, std::uint8_t y) {
    return [family, y](const Call &c) {
        std::size_t t = c.size("t", 1, 1 << 24), m = c.size("m", 8, 1 << 24);
        std::size_t p = c.size("p", 1, 128), out_len = c.size("out_len", 4, 1 << 20);
        if (c.operation == "derive")
            return derive(c, family, m, t, p);
        std::string password = text(c.take("password"));
        if (c.operation == "verify") {
            std::string encoded = c.encoded();
            return verify_job([password, encoded] {
                return Botan::argon2_check_pwhash(password.data(), password.size(), encoded);
            });
        }
        auto rng = std::make_shared<SaltRng>(c.take("salt"));
        std::size_t salt_len = c.take("salt").size();
        return encoded_job([=] {
            return Botan::argon2_generate_pwhash(password.data(), password.size(), *rng, p, m, t, y,
                                                 salt_len, out_len);
        });
    };
}

JobPtr scrypt(const Call &c) {
    return derive(c, "Scrypt", c.size("n", 2, 1u << 30), c.size("r", 1, 1 << 16),
                  c.size("p", 1, 1 << 16));
}

Make pbkdf2(std::string hash) {
    return [hash](const Call &c) {
        return derive(c, "PBKDF2(" + hash + ")", c.size("iterations", 1, 1u << 31), 0, 0);
    };
}

// Botan's exceptions as protocol error kinds.
void translate() {
    try {
        throw;
    } catch (const Botan::Invalid_Authentication_Tag &e) {
        throw auth_failed(e.what());
    } catch (const Botan::Invalid_Argument &e) {
        throw invalid(e.what());
    } catch (const Botan::Lookup_Error &e) {
        throw unsupported(e.what());
    } catch (...) {
    }
}

// The provider Botan picked for a few algorithms (its own run-time CPU dispatch).
std::string code_path() {
    std::string s = "Botan::CPUID: " + Botan::CPUID::to_string() + "; providers:";
    for (const char *h : {"SHA-1", "SHA-256", "SHA-512", "SHA-3(256)", "BLAKE2b(512)"})
        s += std::string(" ") + h + "=" + Botan::HashFunction::create_or_throw(h)->provider();
    for (const char *a : {"AES-128/GCM", "AES-128/OCB", "ChaCha20Poly1305"})
        s += std::string(" ") + a + "=" +
             Botan::AEAD_Mode::create_or_throw(a, Botan::ENCRYPTION)->provider();
    s += std::string(" AES-128=") + Botan::BlockCipher::create_or_throw("AES-128")->provider();
    return s + " ChaCha(20)=" + Botan::StreamCipher::create_or_throw("ChaCha(20)")->provider();
}

Entry hash_entry(const char *id, const char *name) {
    return {id, DIGEST, NO_PARAMS, name, digest(name)};
}

} // namespace

const Library &lib_botan() {
    static const Library lib{
        "botan",
        Botan::short_version_string(),
        "botan",
        Botan::short_version_string(),
        code_path,
        "HashFunction/MessageAuthenticationCode made once, update()+final() into the job's "
        "buffer; StreamCipher CTR-BE set_iv()+cipher() out of place; AEAD_Mode "
        "set_associated_data()+start()+finish() in place on a secure_vector (timed seals "
        "re-seal the previous ciphertext, open copies ciphertext||tag in first); "
        "PasswordHashFamily::from_params()->derive_key() for PBKDF2/Scrypt/Argon2; "
        "generate_bcrypt / argon2_generate_pwhash fed the salt sent through an RNG",
        {
            hash_entry("md4", "MD4"),
            hash_entry("md5", "MD5"),
            hash_entry("sha1", "SHA-1"),
            hash_entry("sha224", "SHA-224"),
            hash_entry("sha256", "SHA-256"),
            hash_entry("sha384", "SHA-384"),
            hash_entry("sha512", "SHA-512"),
            hash_entry("sha512-256", "SHA-512-256"),
            hash_entry("sha3-224", "SHA-3(224)"),
            hash_entry("sha3-256", "SHA-3(256)"),
            hash_entry("sha3-384", "SHA-3(384)"),
            hash_entry("sha3-512", "SHA-3(512)"),
            {"shake128", DIGEST, XOF_PARAMS, "SHAKE-128(bits)", xof("SHAKE-128")},
            {"shake256", DIGEST, XOF_PARAMS, "SHAKE-256(bits)", xof("SHAKE-256")},
            hash_entry("keccak-256", "Keccak-1600(256)"),
            hash_entry("blake2b-512", "BLAKE2b(512)"),
            hash_entry("ripemd160", "RIPEMD-160"),
            hash_entry("whirlpool", "Whirlpool"),
            hash_entry("tiger128-3", "Tiger(16,3)"),
            hash_entry("tiger160-3", "Tiger(20,3)"),
            hash_entry("tiger192-3", "Tiger(24,3)"),
            hash_entry("tiger128-4", "Tiger(16,4)"),
            hash_entry("tiger160-4", "Tiger(20,4)"),
            hash_entry("tiger192-4", "Tiger(24,4)"),
            hash_entry("gost94-cryptopro", "GOST-34.11"),
            hash_entry("streebog-256", "Streebog-256"),
            hash_entry("streebog-512", "Streebog-512"),
            hash_entry("sm3", "SM3"),
            hash_entry("crc32", "CRC32"),
            hash_entry("adler32", "Adler32"),
            {"hmac-sha256", MAC_VERIFY, NO_PARAMS, "HMAC(SHA-256)", mac("HMAC(SHA-256)")},
            {"aes-128-ctr", CIPHER, NO_PARAMS, "CTR-BE(AES-128)", ctr("CTR-BE(AES-128)")},
            {"aes-256-ctr", CIPHER, NO_PARAMS, "CTR-BE(AES-256)", ctr("CTR-BE(AES-256)")},
            {"aes-128-gcm", AEAD, AEAD_PARAMS, "AES-128/GCM", aead("AES-128/GCM", 16, 12)},
            {"aes-256-gcm", AEAD, AEAD_PARAMS, "AES-256/GCM", aead("AES-256/GCM", 32, 12)},
            {"aes-128-ocb", AEAD, AEAD_PARAMS, "AES-128/OCB", aead("AES-128/OCB", 16, 12)},
            {"aes-256-ocb", AEAD, AEAD_PARAMS, "AES-256/OCB", aead("AES-256/OCB", 32, 12)},
            {"chacha20-poly1305", AEAD, AEAD_PARAMS, "ChaCha20Poly1305",
             aead("ChaCha20Poly1305", 32, 12)},
            {"xchacha20-poly1305", AEAD, AEAD_PARAMS, "ChaCha20Poly1305 (24-byte nonce)",
             aead("ChaCha20Poly1305", 32, 24)},
            {"bcrypt", PWHASH, BCRYPT_PARAMS, "generate_bcrypt / check_bcrypt", bcrypt},
            {"argon2id", PWHASH | DERIVE, ARGON2_PARAMS, "Argon2id", argon2("Argon2id", 2)},
            {"argon2i", PWHASH | DERIVE, ARGON2_PARAMS, "Argon2i", argon2("Argon2i", 1)},
            {"scrypt", DERIVE, SCRYPT_PARAMS, "Scrypt", scrypt},
            {"pbkdf2-sha1", DERIVE, PBKDF2_PARAMS, "PBKDF2(SHA-1)", pbkdf2("SHA-1")},
            {"pbkdf2-sha256", DERIVE, PBKDF2_PARAMS, "PBKDF2(SHA-256)", pbkdf2("SHA-256")},
            {"pbkdf2-sha512", DERIVE, PBKDF2_PARAMS, "PBKDF2(SHA-512)", pbkdf2("SHA-512")},
        },
        translate,
        botan_pubkey()};
    return lib;
}

} // namespace cb
