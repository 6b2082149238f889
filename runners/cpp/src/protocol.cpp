// Request decoding and response shapes of protocol v1.
#include "protocol.hpp"
#include "msggen.hpp"
#include "reqlimits.hpp"

namespace cb {

static const char *kind_name(Kind kind) {
    switch (kind) {
    case Kind::bad_request:
        return "bad_request";
    case Kind::unsupported:
        return "unsupported";
    case Kind::invalid_params:
        return "invalid_params";
    case Kind::auth_failed:
        return "auth_failed";
    case Kind::internal:
        break;
    }
    return "internal";
}

std::string to_hex(const std::uint8_t *p, std::size_t n) {
    static const char digits[] = "0123456789abcdef";
    std::string s(2 * n, '0');
    for (std::size_t i = 0; i < n; i++) {
        s[2 * i] = digits[p[i] >> 4];
        s[2 * i + 1] = digits[p[i] & 15];
    }
    return s;
}

static int nibble(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

Bytes from_hex(const std::string &text, const std::string &what) {
    if (text.size() % 2 != 0)
        throw bad_request("input " + what + " is not hex: odd length");
    Bytes out(text.size() / 2);
    for (std::size_t i = 0; i < out.size(); i++) {
        int hi = nibble(text[2 * i]), lo = nibble(text[2 * i + 1]);
        if (hi < 0 || lo < 0)
            throw bad_request("input " + what + " is not hex");
        out[i] = static_cast<std::uint8_t>(hi << 4 | lo);
    }
    return out;
}

const Bytes &Inputs::get(const std::string &name) const {
    auto it = bytes.find(name);
    if (it == bytes.end())
        throw bad_request("missing input " + name);
    return it->second;
}

static std::string field_str(const json &req, const char *name) {
    auto it = req.find(name);
    if (it == req.end())
        throw bad_request(std::string("missing field ") + name);
    if (!it->is_string())
        throw bad_request(std::string(name) + " must be a string");
    return it->get<std::string>();
}

std::uint64_t field_count(const json &req, const char *name) {
    auto it = req.find(name);
    if (it == req.end() || !it->is_number_unsigned() || it->get<std::uint64_t>() < 1)
        throw bad_request(std::string(name) + " must be an integer >= 1");
    std::uint64_t most = std::string(name) == "batches" ? MAX_BATCHES : MAX_ITERATIONS;
    if (it->get<std::uint64_t>() > most)
        throw invalid(std::string(name) + " must be at most " + std::to_string(most));
    return it->get<std::uint64_t>();
}

static Inputs parse_inputs(const json &req) {
    Inputs inputs;
    auto it = req.find("inputs");
    if (it == req.end())
        return inputs;
    if (!it->is_object())
        throw bad_request("inputs must be an object");
    for (const auto &[name, value] : it->items()) {
        if (name == "msg" && value.is_object()) {
            inputs.bytes[name] = expand_generated(value);
            continue;
        }
        if (!value.is_string())
            throw bad_request("input " + name + " must be a string");
        if (name == "encoded")
            inputs.encoded = value.get<std::string>();
        else
            inputs.bytes[name] = from_hex(value.get<std::string>(), name);
    }
    return inputs;
}

Work parse_work(const json &req) {
    Work work;
    auto impl = req.find("impl");
    if (impl != req.end() && !impl->is_null()) {
        if (!impl->is_string())
            throw bad_request("impl must be a string");
        work.impl = impl->get<std::string>();
    }
    auto params = req.find("params");
    if (params != req.end()) {
        if (!params->is_object())
            throw bad_request("params must be an object");
        work.params = *params;
    }
    work.primitive = field_str(req, "primitive");
    work.operation = field_str(req, "operation");
    work.inputs = parse_inputs(req);
    return work;
}

json ok(const json &id, json result) {
    return {{"id", id}, {"ok", true}, {"result", std::move(result)}};
}

json error(const json &id, Kind kind, const std::string &message) {
    return {
        {"id", id}, {"ok", false}, {"error", {{"kind", kind_name(kind)}, {"message", message}}}};
}

} // namespace cb
