// The hello answer: runtime, CPU features, and every library with its primitives.
#pragma once

#include "registry.hpp"

#include <vector>

namespace cb {

json hello(const std::vector<const Library *> &libraries);

} // namespace cb
