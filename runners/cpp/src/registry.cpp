// Helpers of the dispatch tables: call inputs and parameters, operation names.
#include "registry.hpp"

namespace cb {

static const char *const OP_NAMES[] = {"digest", "mac",    "encrypt", "seal",   "open", "roundtrip",
                                       "hash",   "verify", "derive",  "keygen", "sign", "agree"};

const char *op_name(unsigned op) {
    for (unsigned i = 0; i < sizeof(OP_NAMES) / sizeof(OP_NAMES[0]); i++)
        if (op == (1u << i))
            return OP_NAMES[i];
    return "?";
}

unsigned op_bit(const std::string &name) {
    for (unsigned i = 0; i < sizeof(OP_NAMES) / sizeof(OP_NAMES[0]); i++)
        if (name == OP_NAMES[i])
            return 1u << i;
    return 0;
}

Bytes Call::optional(const std::string &name) const {
    auto it = inputs.bytes.find(name);
    return it == inputs.bytes.end() ? Bytes{} : it->second;
}

Bytes Call::exact(const std::string &name, std::size_t len) const {
    Bytes b = take(name);
    if (b.size() != len)
        throw invalid(name + " must be " + std::to_string(len) + " bytes");
    return b;
}

std::uint64_t Call::uint(const std::string &name) const {
    auto it = params.find(name);
    if (it == params.end())
        throw invalid("missing param " + name);
    if (!it->is_number_unsigned())
        throw invalid("param " + name + " must be a non-negative integer");
    return it->get<std::uint64_t>();
}

std::size_t Call::size(const std::string &name, std::uint64_t min, std::uint64_t max) const {
    std::uint64_t v = uint(name);
    if (v < min || v > max)
        throw invalid("param " + name + " = " + std::to_string(v) + " outside [" +
                      std::to_string(min) + ", " + std::to_string(max) + "] for this library");
    return static_cast<std::size_t>(v);
}

std::string Call::encoded() const {
    if (!inputs.encoded)
        throw bad_request("missing input encoded");
    return *inputs.encoded;
}

const Entry *Library::find(const std::string &id) const {
    for (const auto &e : entries)
        if (e.id == id)
            return &e;
    for (const auto &e : pubkey)
        if (e.id == id)
            return &e;
    return nullptr;
}

} // namespace cb
