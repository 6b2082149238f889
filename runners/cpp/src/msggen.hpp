// Generated messages (docs/protocol.md, "Generated messages"): xorshift64 over one 64 KiB block,
// repeated to the length. Not a cryptographic primitive: the same bytes in every runner.
#pragma once

#include "errors.hpp"

namespace cb {

inline const char *const GENERATOR = "xorshift64";

// The message a generator object describes; Fail (bad_request, invalid_params) otherwise.
Bytes expand_generated(const json &spec);

} // namespace cb
