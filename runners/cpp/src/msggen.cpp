// Generated messages: see msggen.hpp.
#include "msggen.hpp"
#include "reqlimits.hpp"

#include <algorithm>
#include <cstring>
#include <new>

namespace cb {

namespace {
constexpr std::size_t BLOCK = 65536;

std::vector<std::uint8_t> block(std::uint64_t seed) {
    std::vector<std::uint8_t> out(BLOCK);
    std::uint64_t x = seed ^ 0x9E3779B97F4A7C15ULL;
    for (std::size_t i = 0; i < BLOCK; i += 8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        for (int k = 0; k < 8; k++)
            out[i + k] = static_cast<std::uint8_t>(x >> (8 * k));
    }
    return out;
}
} // namespace

Bytes expand_generated(const json &spec) {
    auto gen = spec.find("generator");
    if (gen == spec.end() || !gen->is_string() || gen->get<std::string>() != GENERATOR)
        throw bad_request("unknown generator; valid: xorshift64");
    auto seed = spec.find("seed");
    if (seed == spec.end() || !seed->is_number_integer() || seed->get<std::int64_t>() < 0 ||
        seed->get<std::int64_t>() > 4294967295LL)
        throw bad_request("generator seed must be an integer in 0..4294967295");
    auto length = spec.find("length");
    if (length == spec.end() || !length->is_number_integer() || length->get<std::int64_t>() < 0)
        throw bad_request("generator length must be an integer >= 0");
    if (length->get<std::uint64_t>() > MAX_GENERATED)
        throw invalid("a generated message is at most 2^40 bytes");
    auto n = static_cast<std::size_t>(length->get<std::int64_t>());
    Bytes msg;
    try {
        msg.resize(n);
    } catch (const std::bad_alloc &) {
        throw invalid("cannot hold a " + std::to_string(n) + "-byte message");
    }
    auto b = block(seed->get<std::uint64_t>());
    for (std::size_t off = 0; off < n; off += BLOCK)
        std::memcpy(msg.data() + off, b.data(), std::min(BLOCK, n - off));
    return msg;
}

} // namespace cb
