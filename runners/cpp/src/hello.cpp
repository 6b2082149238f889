// hello: the compiler that built the runner, what the CPU offers, the dispatch tables.
#include "hello.hpp"
#include "msggen.hpp"

#include <string>

#ifndef CB_CXXFLAGS
#define CB_CXXFLAGS "?"
#endif

namespace cb {

static json runtime() {
    std::string compiler = "unknown";
#if defined(__clang__)
    compiler = "clang " __clang_version__;
#elif defined(__GNUC__)
    compiler = "g++ " __VERSION__;
#endif
    std::string version = compiler.substr(compiler.find(' ') + 1);
    return {{"name", "cpp"},
            {"version", version},
            {"details",
             {{"compiler", compiler},
              {"std", std::to_string(__cplusplus)},
              {"cxxflags", CB_CXXFLAGS},
              {"libstdcxx", std::to_string(__GLIBCXX__)}}}};
}

// What the CPU offers, as GCC's run-time detection sees it (the libraries detect on their own:
// each implementation's code_path says what it picked).
static json cpu() {
    __builtin_cpu_init();
    json f = {{"aes", __builtin_cpu_supports("aes") != 0},
              {"pclmulqdq", __builtin_cpu_supports("pclmul") != 0},
              {"sha", __builtin_cpu_supports("sha") != 0},
              {"sse4_2", __builtin_cpu_supports("sse4.2") != 0},
              {"avx2", __builtin_cpu_supports("avx2") != 0},
              {"avx512f", __builtin_cpu_supports("avx512f") != 0},
              {"vaes", __builtin_cpu_supports("vaes") != 0},
              {"vpclmulqdq", __builtin_cpu_supports("vpclmulqdq") != 0}};
    return {{"features", f}, {"source", "__builtin_cpu_supports (GCC)"}};
}

static json primitive(const Entry &e) {
    json ops = json::array();
    for (unsigned bit = 1; bit <= AGREE; bit <<= 1)
        if (e.ops & bit)
            ops.push_back(op_name(bit));
    json p = {{"operations", ops}, {"native", e.native}};
    if (e.ops & (MAC | ENCRYPT | SEAL))
        p["reuses_key"] = true;
    if (e.ops & HASH)
        p["takes_salt"] = true;
    return p;
}

static json implementation(const Library &lib) {
    json prims = json::object();
    for (const Entry &e : lib.entries)
        prims[e.id] = primitive(e);
    for (const Entry &e : lib.pubkey)
        prims[e.id] = primitive(e);
    return {{"library", lib.name},
            {"version", lib.version},
            {"backend", {{"name", lib.backend_name}, {"version", lib.backend_version}}},
            {"code_path", lib.code_path()},
            {"notes", lib.notes},
            {"primitives", prims}};
}

json hello(const std::vector<const Library *> &libraries) {
    json impls = json::array();
    for (const Library *lib : libraries)
        impls.push_back(implementation(*lib));
    return {{"protocol", 1},
            {"generators", json::array({GENERATOR})},
            {"runtime", runtime()},
            {"cpu", cpu()},
            {"implementations", impls}};
}

} // namespace cb
