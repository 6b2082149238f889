// Every library this runner hosts; the Makefile compiles the lib_ files whose packages exist.
#pragma once

#include "registry.hpp"

#include <vector>

namespace cb {

#ifdef CB_HAVE_BOTAN
const Library &lib_botan();
#endif
#ifdef CB_HAVE_CRYPTOPP
const Library &lib_cryptopp();
#endif

// In the order hello lists them.
inline std::vector<const Library *> libraries() {
    std::vector<const Library *> all;
#ifdef CB_HAVE_BOTAN
    all.push_back(&lib_botan());
#endif
#ifdef CB_HAVE_CRYPTOPP
    all.push_back(&lib_cryptopp());
#endif
    return all;
}

} // namespace cb
