// Protocol v1 framing (docs/protocol.md): hex, the decoded request (error kinds: errors.hpp).
#pragma once

#include "errors.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cb {

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
