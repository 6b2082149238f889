// The leak request (docs/protocol.md): two classes of inputs prepared before timing, one timed
// call per measurement (timing.cpp: single) in the order the orchestrator sends. No policy.
#include "leak.hpp"

#include "timing.hpp"

#include <cstring>
#include <string>
#include <vector>

// The secret-taint check (docs/protocol.md, "leak", `taint`): under Valgrind's memcheck the
// named inputs are marked undefined before the call is prepared. Without the header, `taint`
// is not offered.
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define CB_MEMCHECK 1
#endif
#endif
#ifndef CB_MEMCHECK
#define RUNNING_ON_VALGRIND 0
#define VALGRIND_MAKE_MEM_UNDEFINED(p, n) ((void)(p), (void)(n))
#define VALGRIND_MAKE_MEM_DEFINED(p, n) ((void)(p), (void)(n))
#define VALGRIND_PRINTF(...) 0
#endif

#ifdef CB_HAVE_BOTAN
#include <botan/base64.h>
#include <botan/mem_ops.h>
#else
#include <cryptopp/base64.h>
#include <cryptopp/filters.h>
#include <cryptopp/misc.h>
#endif

namespace cb {

static Bytes b64_decode(const std::string &text) {
#ifdef CB_HAVE_BOTAN
    try {
        auto v = Botan::base64_decode(text);
        return Bytes(v.begin(), v.end());
    } catch (const std::exception &) {
        throw bad_request("order is not base64");
    }
#else
    std::string out;
    CryptoPP::StringSource(text, true, new CryptoPP::Base64Decoder(new CryptoPP::StringSink(out)));
    return Bytes(out.begin(), out.end());
#endif
}

static std::string b64_encode(const Bytes &data) {
#ifdef CB_HAVE_BOTAN
    return Botan::base64_encode(data.data(), data.size());
#else
    std::string out;
    CryptoPP::StringSource(data.data(), data.size(), true,
                           new CryptoPP::Base64Encoder(new CryptoPP::StringSink(out), false));
    return out;
#endif
}

// Constant-time equality from the library compiled in: Botan's constant_time_compare or
// Crypto++'s VerifyBufsEqual.
static bool ct_equal(const Bytes &a, const Bytes &b) {
    if (a.size() != b.size())
        return false;
#ifdef CB_HAVE_BOTAN
    return Botan::constant_time_compare(a.data(), b.data(), a.size());
#else
    return CryptoPP::VerifyBufsEqual(a.data(), b.data(), a.size());
#endif
}

// The language's equality (operator== on std::vector: size, then memcmp) and the
// constant-time counterpart; output 01 equal, 00 differ.
static JobPtr control(const std::string &primitive, const Work &work) {
    Bytes a = work.inputs.get("a"), b = work.inputs.get("b");
    Bytes out(1);
    if (primitive == "equal")
        return plain([a, b, out]() mutable {
            out[0] = a == b;
            return view(out);
        });
    return plain([a, b, out]() mutable {
        out[0] = ct_equal(a, b);
        return view(out);
    });
}

static bool listed(const json &names, const std::string &name) {
    for (const auto &v : names)
        if (v.is_string() && v.get<std::string>() == name)
            return true;
    return false;
}

// Mark the inputs `req.taint` names undefined when running under memcheck; each one marked is
// added to `tainted`. Only then does the reply say it was done.
static void taint(const json &req, Work &work, json &tainted) {
    auto names = req.find("taint");
    if (!RUNNING_ON_VALGRIND || names == req.end() || !names->is_array())
        return;
    for (auto &[name, bytes] : work.inputs.bytes) {
        if (bytes.empty() || !listed(*names, name))
            continue;
        if (tainted.empty())
            VALGRIND_PRINTF("cryptobench-taint-start\n");
        VALGRIND_MAKE_MEM_UNDEFINED(bytes.data(), bytes.size());
        if (!listed(tainted, name))
            tainted.push_back(name);
    }
}

json leak(const json &req, const Prepare &prepare, const Guard &guard) {
    auto order_it = req.find("order");
    if (order_it == req.end() || !order_it->is_string())
        throw bad_request("order must be a base64 string");
    Bytes order = b64_decode(order_it->get<std::string>());
    if (order.empty())
        throw bad_request("order is empty");
    for (auto c : order)
        if (c > 1)
            throw bad_request("order holds classes 0 and 1 only");
    auto classes = req.find("classes");
    if (classes == req.end() || !classes->is_array() || classes->size() != 2 ||
        !(*classes)[0].is_object() || !(*classes)[1].is_object())
        throw bad_request("classes must be a list of two objects");
    json shared = req.value("inputs", json::object());
    if (!shared.is_object())
        throw bad_request("inputs must be an object");
    std::string primitive = req.value("primitive", "");
    bool is_control = primitive == "equal" || primitive == "equal-ct";
    std::vector<JobPtr> jobs;
    json outcomes = json::array(), tainted = json::array();
    for (const auto &over : *classes) {
        json sub = req;
        json merged = shared;
        merged.update(over);
        sub["inputs"] = merged;
        Work work = parse_work(sub);
        taint(req, work, tainted);
        JobPtr job = is_control ? control(primitive, work) : prepare(work);
        try {
            Bytes out;
            guard(work, [&] { out = once(*job); });
            VALGRIND_MAKE_MEM_DEFINED(out.data(), out.size()); // the outcome is public
            if (work.operation == "verify")
                outcomes.push_back(std::string(out.begin(), out.end()));
            else
                outcomes.push_back(to_hex(out.data(), out.size()));
        } catch (const Fail &f) {
            if (f.kind != Kind::auth_failed)
                throw;
            outcomes.push_back("auth_failed");
        }
        jobs.push_back(std::move(job));
    }
    Bytes ns(4 * order.size());
    for (std::size_t i = 0; i < order.size(); i++) {
        std::uint64_t t = single(*jobs[order[i]]);
        std::uint32_t v = t > 0xffffffffu ? 0xffffffffu : static_cast<std::uint32_t>(t);
        for (int j = 0; j < 4; j++)
            ns[4 * i + j] = static_cast<std::uint8_t>(v >> (8 * j));
    }
    json result{
        {"outcomes", outcomes}, {"ns", b64_encode(ns)}, {"clock", "std::chrono::steady_clock"}};
    if (!tainted.empty())
        result["tainted"] = tainted;
    return result;
}

} // namespace cb
