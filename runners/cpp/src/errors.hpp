// The protocol's error kinds (docs/protocol.md, "Errors") and the two types every file speaks
// (json, Bytes): what msggen and protocol both need, so neither needs the other.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace cb {

using json = nlohmann::json;
using Bytes = std::vector<std::uint8_t>;

enum class Kind { bad_request, unsupported, invalid_params, auth_failed, internal };

// A failed request: thrown anywhere below dispatch, answered as {"ok": false, ...}.
struct Fail : std::runtime_error {
    Kind kind;
    Fail(Kind k, const std::string &message) : std::runtime_error(message), kind(k) {}
};

inline Fail bad_request(const std::string &m) {
    return {Kind::bad_request, m};
}
inline Fail unsupported(const std::string &m) {
    return {Kind::unsupported, m};
}
inline Fail invalid(const std::string &m) {
    return {Kind::invalid_params, m};
}
inline Fail auth_failed(const std::string &m) {
    return {Kind::auth_failed, m};
}
inline Fail internal(const std::string &m) {
    return {Kind::internal, m};
}

} // namespace cb
