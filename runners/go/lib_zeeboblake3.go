package main

import "github.com/zeebo/blake3"

// go/zeebo-blake3: github.com/zeebo/blake3, the other Go BLAKE3 (beside go/blake3's
// lukechampine.com/blake3), with AVX2 and SSE4.1 assembly chosen at run time.
// Sum256 for the default 32 bytes; other out_len values read the XOF (Digest) of a reused hasher.

var zeeboBlake3Table = map[string]primitive{
	"blake3": {ops: digest(withParams(zeeboBlake3Builder)), native: "github.com/zeebo/blake3 Sum256"},
}

func zeeboBlake3Library() *library {
	v := moduleVersion("github.com/zeebo/blake3")
	return &library{
		name:     "zeebo-blake3",
		version:  v,
		backend:  backend{Name: "github.com/zeebo/blake3", Version: v},
		codePath: zeeboBlake3CodePath(),
		notes:    "unkeyed hash mode",
		table:    zeeboBlake3Table,
	}
}

func zeeboBlake3Builder(p *params) (builder, error) {
	n, err := xofLen(p, 32)
	if err != nil {
		return nil, err
	}
	if n == 32 {
		return sum32(blake3.Sum256), nil
	}
	h := blake3.New()
	return digestOp(n, func(dst, msg []byte) {
		h.Reset()
		h.Write(msg)
		h.Digest().Read(dst)
	}), nil
}
