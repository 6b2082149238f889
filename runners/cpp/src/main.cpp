// cryptobench runner for C++ (protocol v1, docs/protocol.md): JSON Lines on stdin/stdout.
#include "dispatch.hpp"
#include "reqlimits.hpp"

#include <exception>
#include <iostream>
#include <string>

namespace {

// One request line → one response object; never lets an exception take the runner down.
cb::json answer(const std::string &line) {
    cb::json req = cb::json::parse(line, nullptr, false);
    if (req.is_discarded())
        return cb::error(nullptr, cb::Kind::bad_request, "not JSON");
    if (!req.is_object())
        return cb::error(nullptr, cb::Kind::bad_request, "not an object");
    auto id = req.find("id");
    if (id == req.end() || !id->is_number_integer())
        return cb::error(nullptr, cb::Kind::bad_request, "id must be an integer");
    try {
        return cb::ok(*id, cb::handle(req));
    } catch (const cb::Fail &f) {
        return cb::error(*id, f.kind, f.what());
    } catch (const std::exception &e) {
        return cb::error(*id, cb::Kind::internal, e.what());
    } catch (...) {
        return cb::error(*id, cb::Kind::internal, "the library threw");
    }
}

} // namespace

int main() {
    std::ios::sync_with_stdio(false);
    std::string line;
    bool too_long = false;
    while (cb::read_request(std::cin, line, too_long)) {
        const char *why =
            too_long ? "request line longer than 201326592 bytes" : cb::line_refusal(line);
        cb::json response = why ? cb::error(nullptr, cb::Kind::bad_request, why) : answer(line);
        // Replace: a stray non-UTF-8 byte in a message string must not throw on output.
        std::cout << response.dump(-1, ' ', false, cb::json::error_handler_t::replace) << '\n'
                  << std::flush;
        if (!std::cout)
            break;
    }
    return 0;
}
