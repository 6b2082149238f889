// Command runner is cryptobench's Go runner: it speaks protocol v1 (docs/protocol.md)
// on stdin/stdout and hosts go/stdlib, go/x-crypto, go/blake3, go/xxhash and go/xxh3.
// The roles (docs/adding-a-runner.md): protocol.go, dispatch.go, registry.go, timing.go,
// hello.go; one lib_<library>.go per library.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

func main() {
	libs := libraries()
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := readRequest(in)
		switch {
		case err == errTooLong:
			writeResponse(out, failure(nil, errorf(kindBadRequest, "%v", err)))
		case err == io.EOF:
			return
		case err != nil:
			fmt.Fprintln(os.Stderr, "runner: reading stdin:", err)
			os.Exit(1)
		case lineRefusal(line) != "":
			writeResponse(out, failure(nil, errorf(kindBadRequest, "%s", lineRefusal(line))))
		default:
			writeResponse(out, serve(libs, line))
		}
	}
}

func writeResponse(w *bufio.Writer, resp response) {
	b, err := json.Marshal(resp)
	if err != nil {
		b, _ = json.Marshal(failure(resp.ID, errorf(kindInternal, "cannot encode response")))
	}
	w.Write(b)
	w.WriteByte('\n')
	w.Flush()
}
