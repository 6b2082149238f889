// A bench in N threads (docs/protocol.md, bench, "threads").
#pragma once

#include "registry.hpp"
#include "timing.hpp"

#include <cstdint>
#include <vector>

namespace cb {

constexpr std::uint64_t MAX_THREADS = 256;

// Times the same batches in one std::thread per job, released together by a start gate; every
// job is set up and has made its untimed call already. An exception thrown in a thread is
// rethrown here (the first one) once every thread has ended.
// The optional `threads` field of a bench request: 1 when absent or null, else 1..MAX_THREADS
// (anything else is a bad request).
std::uint64_t thread_count(const json &req);

std::vector<std::vector<Sample>> threaded(std::vector<JobPtr> &jobs, std::uint64_t iterations,
                                          std::uint64_t batches);

} // namespace cb
