package main

// Request limits (docs/protocol.md, "Limits"): what a line may hold before it is parsed, and
// the largest sizes a request may ask for (refused before anything is allocated).

import (
	"bufio"
	"errors"
	"io"
	"unicode/utf8"
)

const (
	lineLimit     = 192 << 20 // bytes before the newline
	depthLimit    = 64        // arrays and objects, the request object included
	maxGenerated  = 1 << 40   // bytes of a generated message (and never above physical memory)
	maxIterations = 1 << 40
	maxBatches    = 1 << 16
)

var errTooLong = errors.New("request line longer than 201326592 bytes")

// readRequest returns the next line without its newline (io.EOF at the end). A line over
// lineLimit is read to its end without being kept, and errTooLong returned.
func readRequest(in *bufio.Reader) ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := in.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > lineLimit+1 || (len(line)+len(chunk) == lineLimit+1 && chunk[len(chunk)-1] != '\n') {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && len(line) == 0 && !tooLong:
			return nil, io.EOF
		case err != nil && err != io.EOF:
			return nil, err
		case tooLong:
			return nil, errTooLong
		}
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
		}
		return line, nil
	}
}

// lineRefusal says why a line is refused before parsing (empty, not UTF-8, nested too
// deep), or "".
func lineRefusal(line []byte) string {
	depth, inString, blank := 0, false, true
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != ' ' && c != '\t' && c != '\r' {
			blank = false
		}
		switch {
		case inString && c == '\\':
			i++
		case inString:
			inString = c != '"'
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			if depth++; depth > depthLimit {
				return "JSON nested deeper than 64 levels"
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	if blank {
		return "empty request line"
	}
	if !utf8.Valid(line) {
		return "request line is not UTF-8"
	}
	return ""
}
