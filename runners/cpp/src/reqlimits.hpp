// Request limits (docs/protocol.md, "Limits"): what a line may hold before it is parsed, and
// the largest sizes a request may ask for (refused before anything is allocated).
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>

namespace cb {

constexpr std::size_t LINE_LIMIT = std::size_t{192} << 20; // bytes before the newline
constexpr int DEPTH_LIMIT = 64; // arrays and objects, the request object included
constexpr std::uint64_t MAX_GENERATED = std::uint64_t{1} << 40;
constexpr std::uint64_t MAX_ITERATIONS = std::uint64_t{1} << 40;
constexpr std::uint64_t MAX_BATCHES = std::uint64_t{1} << 16;

// The next line into `line` (newline and trailing CRs removed); false at EOF. A line over
// LINE_LIMIT is read to its end without being kept: `too_long` is set.
bool read_request(std::istream &in, std::string &line, bool &too_long);
// Why the line is refused before parsing (empty, a NUL byte, nested too deep), or nullptr.
const char *line_refusal(const std::string &line);

} // namespace cb
