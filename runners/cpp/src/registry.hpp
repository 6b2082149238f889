// What a library file provides: one dispatch table of entries, each making a Job from a call.
#pragma once

#include "protocol.hpp"

#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace cb {

// The bytes one call produced, owned by the job (no copy per call).
struct View {
    const std::uint8_t *data;
    std::size_t size;
};

inline View view(const Bytes &b) {
    return {b.data(), b.size()};
}

// One prepared operation: set up once, then run many times.
struct Job {
    virtual ~Job() = default;
    // Runs the operation once; `step` first advances the nonce (or CTR counter block), as the
    // protocol's timed calls require. The untimed, verified call has step == false.
    virtual View run(bool step) = 0;
};

using JobPtr = std::unique_ptr<Job>;

// Nonce stepping (docs/protocol.md): a big-endian counter in the last 4 bytes, wrapping.
inline void step_nonce(Bytes &nonce) {
    if (nonce.size() < 4)
        return;
    for (std::size_t i = nonce.size(); i-- > nonce.size() - 4;)
        if (++nonce[i] != 0)
            break;
}

// verify's answer, "ok" (rendered as a string: dispatch.cpp), from bytes nobody frees.
inline View verified() {
    static const Bytes ok{'o', 'k'};
    return view(ok);
}

template <class F> struct Plain final : Job {
    F f;
    explicit Plain(F fn) : f(std::move(fn)) {}
    View run(bool) override { return f(); }
};

// A job with no nonce: digests, MACs, `open`, password hashes. f() → View.
template <class F> JobPtr plain(F f) {
    return std::make_unique<Plain<F>>(std::move(f));
}

template <class F> struct Stepped final : Job {
    Bytes nonce;
    F f;
    Stepped(Bytes n, F fn) : nonce(std::move(n)), f(std::move(fn)) {}
    View run(bool step) override {
        if (step)
            step_nonce(nonce);
        return f(nonce, !step);
    }
};

// A job whose nonce is stepped before every timed call. f(nonce, verified) → View; `verified`
// is true on the untimed call, where `roundtrip` compares the decryption with the message.
template <class F> JobPtr stepped(Bytes nonce, F f) {
    return std::make_unique<Stepped<F>>(std::move(nonce), std::move(f));
}

// The roundtrip check (on the verified call only): decrypting must give the message back.
inline void same(bool verified, const std::uint8_t *back, std::size_t n, const Bytes &msg) {
    if (verified && (n != msg.size() || (n && std::memcmp(back, msg.data(), n) != 0)))
        throw internal("roundtrip: decryption did not give the message back");
}

// The request as a library's make function sees it.
struct Call {
    const std::string &operation;
    const Inputs &inputs;
    const json &params;
    bool fresh; // params.fresh_context: set up the key/context for every message

    Bytes take(const std::string &name) const { return inputs.get(name); }
    // An input that may be absent (aad): absent = empty.
    Bytes optional(const std::string &name) const;
    // A fixed-length input (key, nonce) as the library requires it.
    Bytes exact(const std::string &name, std::size_t len) const;
    // A non-negative integer parameter (always sent by the orchestrator).
    std::uint64_t uint(const std::string &name) const;
    std::size_t size(const std::string &name, std::uint64_t min, std::uint64_t max) const;
    std::string encoded() const;
};

using Make = std::function<JobPtr(const Call &)>;

// Operations, as a bit mask per entry.
enum Op : unsigned {
    DIGEST = 1,
    MAC = 2,
    ENCRYPT = 4,
    SEAL = 8,
    OPEN = 16,
    ROUNDTRIP = 32,
    HASH = 64,
    VERIFY = 128,
    DERIVE = 256,
    KEYGEN = 512,
    SIGN = 1024,
    AGREE = 2048,
};
constexpr unsigned CIPHER = ENCRYPT | ROUNDTRIP;
constexpr unsigned AEAD = SEAL | OPEN | ROUNDTRIP;
constexpr unsigned PWHASH = HASH | VERIFY;
constexpr unsigned KEX = KEYGEN | AGREE;
constexpr unsigned SIG = KEYGEN | SIGN | VERIFY;
constexpr unsigned MAC_VERIFY = MAC | VERIFY; // verify: key, msg, tag → "ok" or auth_failed

const char *op_name(unsigned op);
unsigned op_bit(const std::string &name); // 0 when unknown

// One dispatch-table row: a catalog id and how this library computes it.
struct Entry {
    std::string id;
    unsigned ops;
    std::vector<std::string> params; // the parameters it takes besides fresh_context
    std::string native;              // the library's own name for it
    Make make;
};

// A library as hello reports it, with its dispatch table.
struct Library {
    std::string name; // short lowercase id: the implementation is cpp/<name>
    std::string version;
    std::string backend_name, backend_version;
    std::function<std::string()> code_path; // what the library detected, asked at hello
    std::string notes;
    std::vector<Entry> entries;
    // Called inside a catch block: rethrows the library's own exceptions as Fail (auth_failed,
    // invalid_params, ...); returns for anything it does not know (answered as internal).
    void (*translate)() = nullptr;
    // The public-key rows (lib_<library>_pubkey.cpp), after the table: find() and hello see both.
    std::vector<Entry> pubkey = {};

    const Entry *find(const std::string &id) const;
};

// Parameter lists shared by the tables.
inline const std::vector<std::string> NO_PARAMS{};
inline const std::vector<std::string> XOF_PARAMS{"out_len"};
inline const std::vector<std::string> AEAD_PARAMS{"aad_len"};
inline const std::vector<std::string> BCRYPT_PARAMS{"cost"};
inline const std::vector<std::string> ARGON2_PARAMS{"t", "m", "p", "out_len"};
inline const std::vector<std::string> SCRYPT_PARAMS{"n", "r", "p", "out_len"};
inline const std::vector<std::string> PBKDF2_PARAMS{"iterations", "out_len"};

} // namespace cb
