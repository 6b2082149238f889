// The leak request (docs/protocol.md): single calls timed one by one over two input classes.
#pragma once

#include "protocol.hpp"
#include "registry.hpp"

#include <functional>

namespace cb {

// Sets a library job up from a decoded request.
using Prepare = std::function<JobPtr(const Work &)>;
// Runs `f`, turning the request's library's own exceptions into protocol errors (Fail).
using Guard = std::function<void(const Work &, const std::function<void()> &f)>;

// Answers a leak request.
json leak(const json &req, const Prepare &prepare, const Guard &guard);

} // namespace cb
