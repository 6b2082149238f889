// One untimed verified call, then batches read with std::chrono::steady_clock once before and
// once after each batch (libstdc++: clock_gettime(CLOCK_MONOTONIC), nanoseconds).
#include "timing.hpp"

#include <atomic>
#include <chrono>

namespace cb {

// Every output byte read in the timed loop ends up here, so no call can be dropped (atomic:
// the threads of a threaded bench each add theirs once).
std::atomic<std::uint8_t> sink;

Bytes once(Job &job) {
    View v = job.run(false);
    return Bytes(v.data, v.data + v.size);
}

std::vector<Sample> batches(Job &job, std::uint64_t iterations, std::uint64_t batches) {
    using clock = std::chrono::steady_clock;
    std::vector<Sample> samples;
    samples.reserve(batches);
    std::uint8_t acc = 0;
    for (std::uint64_t b = 0; b < batches; b++) {
        auto start = clock::now();
        for (std::uint64_t i = 0; i < iterations; i++) {
            View v = job.run(true);
            acc ^= v.size ? v.data[v.size - 1] : 0;
        }
        auto elapsed = clock::now() - start;
        auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count();
        samples.push_back({iterations, static_cast<std::uint64_t>(ns)});
    }
    sink.fetch_xor(acc, std::memory_order_relaxed);
    return samples;
}

std::uint64_t single(Job &job) {
    using clock = std::chrono::steady_clock;
    std::uint8_t acc = 0;
    auto start = clock::now();
    try {
        View v = job.run(false);
        acc = v.size ? v.data[v.size - 1] : 0;
    } catch (...) {
    }
    auto elapsed = clock::now() - start;
    sink.fetch_xor(acc, std::memory_order_relaxed);
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count());
}

} // namespace cb
