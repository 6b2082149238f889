// The timed loop: the only place that reads the clock.
#pragma once

#include "registry.hpp"

#include <cstdint>
#include <vector>

namespace cb {

struct Sample {
    std::uint64_t iterations, ns;
};

// Runs the untimed call (nonce as sent) and returns a copy of its output.
Bytes once(Job &job);

// Times `batches` batches of `iterations` calls; every call steps the nonce first and one
// byte of its output is sunk. No warm-up, no policy.
std::vector<Sample> batches(Job &job, std::uint64_t iterations, std::uint64_t batches);

// One timed call (the leak request), in nanoseconds; an exception (a bad tag) is its outcome.
std::uint64_t single(Job &job);

} // namespace cb
