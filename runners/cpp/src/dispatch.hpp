// Request routing: hello / compute / bench, from impl + primitive to a library's entry.
#pragma once

#include "protocol.hpp"

namespace cb {

// Answers one request object with its `result` (throws Fail).
json handle(const json &req);

} // namespace cb
