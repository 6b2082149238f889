// Protocol v1 framing (docs/protocol.md): error kinds, hex, the decoded request.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
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

std::string to_hex(const std::uint8_t *p, std::size_t n);
Bytes from_hex(const std::string &text, const std::string &what);

// The byte-string inputs of a compute/bench request (`encoded` stays a string).
struct Inputs {
    std::map<std::string, Bytes> bytes;
    std::optional<std::string> encoded;

    const Bytes &get(const std::string &name) const; // absent → bad_request
};

// A compute or bench request, fields checked and hex decoded.
struct Work {
    std::optional<std::string> impl;
    std::string primitive, operation;
    Inputs inputs;
    json params = json::object();
};

Work parse_work(const json &req);
std::uint64_t field_count(const json &req, const char *name);

json ok(const json &id, json result);
json error(const json &id, Kind kind, const std::string &message);

} // namespace cb
