package main

import "lukechampine.com/blake3"

// go/blake3: lukechampine.com/blake3 (assembly for AVX-512 and AVX2, detected at run time).
// Sum256 for the default 32 bytes; other out_len values read the XOF of a reused hasher.

var blake3Table = map[string]primitive{
	"blake3": {ops: digest(withParams(blake3Builder)), native: "lukechampine.com/blake3 Sum256"},
}

func blake3Library() *library {
	v := moduleVersion("lukechampine.com/blake3")
	return &library{
		name:     "blake3",
		version:  v,
		backend:  backend{Name: "lukechampine.com/blake3", Version: v},
		codePath: blake3CodePath(),
		notes:    "unkeyed hash mode",
		table:    blake3Table,
	}
}

// blake3Builder takes out_len when the catalog sends one (default 32).
func blake3Builder(p *params) (builder, error) {
	n, err := xofLen(p, 32)
	if err != nil {
		return nil, err
	}
	if n == 32 {
		return sum32(blake3.Sum256), nil
	}
	h := blake3.New(n, nil)
	return digestOp(n, func(dst, msg []byte) {
		h.Reset()
		h.Write(msg)
		h.Sum(dst[:0])
	}), nil
}

// xofLen is the out_len a BLAKE3 XOF was asked for (def when the catalog sends none).
func xofLen(p *params, def int) (int, error) {
	if _, sent := p.raw["out_len"]; !sent {
		return def, nil
	}
	return p.intIn("out_len", 1, 1<<24)
}
