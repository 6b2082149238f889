// A bench in N std::threads: each has its own job (its own library objects), waits at a start
// gate (mutex + condition variable, opened once every thread exists) and times the same
// batches with cb::batches. Threads share the process's allocator and any lock a library
// takes inside (Botan and Crypto++ objects are per thread; neither locks per call).
#include "threads.hpp"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>

namespace cb {

namespace {

struct Gate {
    std::mutex mu;
    std::condition_variable cv;
    int state = 0; // 0 closed, 1 go, -1 abort

    int wait() {
        std::unique_lock<std::mutex> lock(mu);
        cv.wait(lock, [this] { return state != 0; });
        return state;
    }
    void open(int to) {
        {
            std::lock_guard<std::mutex> lock(mu);
            state = to;
        }
        cv.notify_all();
    }
};

} // namespace

std::uint64_t thread_count(const json &req) {
    auto it = req.find("threads");
    if (it == req.end() || it->is_null())
        return 1;
    if (!it->is_number_integer() || it->get<std::int64_t>() < 1 ||
        it->get<std::int64_t>() > static_cast<std::int64_t>(MAX_THREADS))
        throw bad_request("threads must be an integer in 1.." + std::to_string(MAX_THREADS));
    return it->get<std::uint64_t>();
}

std::vector<std::vector<Sample>> threaded(std::vector<JobPtr> &jobs, std::uint64_t iterations,
                                          std::uint64_t n_batches) {
    const std::size_t n = jobs.size();
    std::vector<std::vector<Sample>> all(n);
    std::vector<std::exception_ptr> errors(n);
    std::vector<std::thread> threads;
    threads.reserve(n);
    Gate gate;
    try {
        for (std::size_t i = 0; i < n; i++)
            threads.emplace_back([&, i] {
                if (gate.wait() < 0)
                    return;
                try {
                    all[i] = batches(*jobs[i], iterations, n_batches);
                } catch (...) {
                    errors[i] = std::current_exception();
                }
            });
    } catch (const std::system_error &e) {
        gate.open(-1);
        for (std::thread &t : threads)
            t.join();
        throw internal(std::string("cannot start thread: ") + e.what());
    }
    gate.open(1);
    for (std::thread &t : threads)
        t.join();
    for (const std::exception_ptr &e : errors)
        if (e)
            std::rethrow_exception(e);
    return all;
}

} // namespace cb
