/* bench/fidelity's measure of what `botan speed` adds to every message. Botan_CLI::Timer
 * (Botan 2.19) times each message alone: start() reads OS::get_system_timestamp_ns
 * (clock_gettime(CLOCK_REALTIME)) then OS::get_cpu_cycle_counter (rdtsc); stop() reads rdtsc,
 * scales the cycles by a double, then reads the timestamp; the figure printed is the bytes over
 * the sum of (stop's timestamp - start's). So part of the four reads falls inside what it
 * counts and part outside. This program does the same around the same update() + final() of
 * Botan's SHA-256 and takes what the timestamps count (`counted_ns`) minus the same hash in a
 * plain loop (`without_ns`, one clock read per ~10 ms batch), their batches alternated over
 * SECONDS, medians per message; the four reads back to back (`reads_ns`) for the record.
 * Prints JSON: {"median_ns": counted - without, "counted_ns", "without_ns", "reads_ns",
 * "batches"}.
 *
 *   c++ -O2 -I/usr/include/botan-2 -o clock_reads clock_reads.cpp -lbotan-2
 *   ./clock_reads SIZE SECONDS */
#include <botan/hash.h>
#include <x86intrin.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <vector>

namespace {

volatile uint64_t sink;

enum Kind { WITHOUT, WITH, READS };

int64_t mono_ns() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

uint64_t realtime_ns() {
    timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return uint64_t(ts.tv_sec) * 1000000000 + uint64_t(ts.tv_nsec);
}

struct Loop {
    std::unique_ptr<Botan::HashFunction> hash = Botan::HashFunction::create_or_throw("SHA-256");
    std::vector<uint8_t> msg, out;
    volatile double ratio = 1.0;  // Botan's m_clock_cycle_ratio, read as a variable

    explicit Loop(size_t size) : msg(size, 0x5a), out(hash->output_length()) {}

    /* ns per message of n messages of `kind`: the batch's wall time, or (WITH) what the
     * timer's timestamps count */
    double batch(Kind kind, long n) {
        int64_t t0 = mono_ns();
        uint64_t acc = 0, counted = 0, cycles_used = 0;
        for (long i = 0; i < n; i++) {
            uint64_t start = 0, cycles = 0;
            if (kind != WITHOUT) {
                start = realtime_ns();
                cycles = __rdtsc();
            }
            if (kind != READS) {
                hash->update(msg.data(), msg.size());
                hash->final(out.data());
                acc += out[0];
            }
            if (kind != WITHOUT) {
                cycles_used += uint64_t(double(__rdtsc() - cycles) * ratio);
                counted += realtime_ns() - start;
            }
        }
        int64_t wall = mono_ns() - t0;
        sink = acc + cycles_used;
        return double(kind == WITH ? int64_t(counted) : wall) / double(n);
    }

    /* messages per ~10 ms batch of `kind` */
    long calibrate(Kind kind) {
        long n = 1;
        while (batch(kind, n) * double(n) < 1e7)
            n *= 2;
        return n;
    }
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: clock_reads SIZE SECONDS\n");
        return 2;
    }
    Loop loop(size_t(std::atol(argv[1])));
    int64_t stop = mono_ns() + int64_t(std::atof(argv[2]) * 1e9);
    const Kind kinds[] = {WITH, WITHOUT, READS};
    long n[3];
    for (Kind k : kinds)
        n[k] = loop.calibrate(k);
    std::vector<double> per[3];
    do
        for (Kind k : kinds)
            per[k].push_back(loop.batch(k, n[k]));
    while (mono_ns() < stop);
    double counted = median(per[WITH]), without = median(per[WITHOUT]);
    std::printf(
        "{\"median_ns\": %.3f, \"counted_ns\": %.3f, \"without_ns\": %.3f, \"reads_ns\": "
        "%.3f, \"batches\": %zu}\n",
        counted - without, counted, without, median(per[READS]), per[WITH].size());
    return 0;
}
