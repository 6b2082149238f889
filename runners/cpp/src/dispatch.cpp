// Request routing, the noop primitive, and the compute/bench shapes.
#include "dispatch.hpp"

#include "hello.hpp"
#include "leak.hpp"
#include "libraries.hpp"
#include "threads.hpp"
#include "timing.hpp"

namespace cb {

// The pseudo-primitive every runner answers: the input length, 8 bytes big-endian.
static JobPtr make_noop(const Call &c) {
    Bytes msg = c.take("msg");
    Bytes out(8);
    return plain([msg = std::move(msg), out]() mutable {
        std::uint64_t n = msg.size();
        for (int i = 7; i >= 0; i--, n >>= 8)
            out[i] = static_cast<std::uint8_t>(n);
        return view(out);
    });
}

static const Entry NOOP{"noop", DIGEST, {}, "noop", make_noop};

static const Library *find_library(const Work &work) {
    if (!work.impl)
        return nullptr;
    for (const Library *lib : libraries())
        if (lib->name == *work.impl)
            return lib;
    throw unsupported("implementation " + *work.impl + " is not offered");
}

static const Entry &find_entry(const Library *lib, const Work &work) {
    if (work.primitive == "noop")
        return NOOP;
    if (!lib)
        throw bad_request("missing field impl");
    if (const Entry *e = lib->find(work.primitive))
        return *e;
    throw unsupported(lib->name + "/" + work.primitive + " is not offered");
}

// Runs f, turning the library's own exceptions into protocol error kinds.
template <class F> static auto guarded(const Library *lib, F f) {
    try {
        return f();
    } catch (const Fail &) {
        throw;
    } catch (...) {
        if (lib && lib->translate)
            lib->translate();
        throw;
    }
}

// Rejects parameters the primitive does not take; returns fresh_context.
static bool check_params(const Entry &e, const json &params) {
    bool fresh = false;
    for (const auto &[name, value] : params.items()) {
        if (name == "fresh_context") {
            if (!value.is_boolean())
                throw invalid("fresh_context must be a boolean");
            fresh = value.get<bool>();
        } else {
            bool known = false;
            for (const auto &p : e.params)
                known = known || p == name;
            if (!known)
                throw invalid(e.id + " takes no param " + name);
        }
    }
    return fresh;
}

static JobPtr prepare(const Library *lib, const Work &work) {
    const Entry &e = find_entry(lib, work);
    unsigned op = op_bit(work.operation);
    if (!(e.ops & op))
        throw unsupported(e.id + "/" + work.operation + " is not offered");
    // fresh_context: the keyed ciphers and MACs (a MAC's verify too), and the public-key
    // operations that parse our key
    unsigned keyed = MAC | ENCRYPT | SEAL | OPEN | ROUNDTRIP | AGREE | SIGN;
    if (e.ops & (SIGN | MAC))
        keyed |= VERIFY;
    bool fresh = check_params(e, work.params) && (op & keyed);
    Call call{work.operation, work.inputs, work.params, fresh};
    return e.make(call);
}

// Password hashes and verify answer with a string; everything else with hex.
static json render(const std::string &operation, const Bytes &out) {
    if (operation == "hash" || operation == "verify")
        return std::string(out.begin(), out.end());
    return to_hex(out.data(), out.size());
}

static json compute(const json &req) {
    Work work = parse_work(req);
    const Library *lib = find_library(work);
    return guarded(lib, [&] {
        JobPtr job = prepare(lib, work);
        return json{{"output", render(work.operation, once(*job))}};
    });
}

static json samples_json(const std::vector<Sample> &samples) {
    json out = json::array();
    for (const Sample &s : samples)
        out.push_back({{"iterations", s.iterations}, {"ns", s.ns}});
    return out;
}

// bench with threads: N (threads.cpp): one job per thread, each set up and verified here.
static json bench_threads(const Library *lib, const Work &work, JobPtr first, std::uint64_t n,
                          std::uint64_t iterations, std::uint64_t n_batches) {
    std::vector<JobPtr> jobs;
    jobs.push_back(std::move(first));
    while (jobs.size() < n) {
        jobs.push_back(prepare(lib, work));
        once(*jobs.back());
    }
    json all = json::array();
    for (const std::vector<Sample> &samples : threaded(jobs, iterations, n_batches))
        all.push_back(samples_json(samples));
    return all;
}

static json bench(const json &req) {
    Work work = parse_work(req);
    std::uint64_t iterations = field_count(req, "iterations");
    std::uint64_t n_batches = field_count(req, "batches");
    std::uint64_t n_threads = thread_count(req);
    const Library *lib = find_library(work);
    return guarded(lib, [&] {
        JobPtr job = prepare(lib, work);
        json output = render(work.operation, once(*job));
        if (n_threads > 1) {
            json all = bench_threads(lib, work, std::move(job), n_threads, iterations, n_batches);
            return json{
                {"output", std::move(output)}, {"samples", all[0]}, {"thread_samples", all}};
        }
        json samples = samples_json(batches(*job, iterations, n_batches));
        return json{{"output", std::move(output)}, {"samples", std::move(samples)}};
    });
}

json handle(const json &req) {
    auto op = req.find("op");
    if (op == req.end() || !op->is_string())
        throw bad_request("op must be a string");
    const std::string name = op->get<std::string>();
    if (name == "hello")
        return hello(libraries());
    if (name == "compute")
        return compute(req);
    if (name == "bench")
        return bench(req);
    if (name == "leak")
        return leak(
            req,
            [](const Work &work) {
                const Library *lib = find_library(work);
                return guarded(lib, [&] { return prepare(lib, work); });
            },
            [](const Work &work, const std::function<void()> &f) {
                guarded(find_library(work), [&] {
                    f();
                    return 0;
                });
            });
    throw bad_request("unknown op " + name);
}

} // namespace cb
