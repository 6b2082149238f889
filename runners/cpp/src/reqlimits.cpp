// Request limits (docs/protocol.md, "Limits").
#include "reqlimits.hpp"

#include <streambuf>

namespace cb {

bool read_request(std::istream &in, std::string &line, bool &too_long) {
    std::streambuf *buf = in.rdbuf();
    using traits = std::streambuf::traits_type;
    bool any = false;
    line.clear();
    too_long = false;
    for (int ch = buf->sbumpc(); ch != traits::eof(); ch = buf->sbumpc()) {
        any = true;
        if (ch == '\n')
            break;
        if (too_long)
            continue;
        if (line.size() == LINE_LIMIT) {
            too_long = true; // drop what was kept, skip to the newline
            std::string().swap(line);
            continue;
        }
        line.push_back(static_cast<char>(ch));
    }
    while (!line.empty() && line.back() == '\r')
        line.pop_back();
    return any;
}

const char *line_refusal(const std::string &line) {
    int depth = 0;
    bool in_string = false, blank = true;
    for (std::size_t i = 0; i < line.size(); i++) {
        char c = line[i];
        if (c == '\0')
            return "request line holds a NUL byte";
        if (c != ' ' && c != '\t' && c != '\r')
            blank = false;
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > DEPTH_LIMIT)
                return "JSON nested deeper than 64 levels";
        } else if (c == ']' || c == '}') {
            depth--;
        }
    }
    return blank ? "empty request line" : nullptr;
}

} // namespace cb
