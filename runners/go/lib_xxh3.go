package main

import (
	"encoding/binary"

	"github.com/zeebo/xxh3"
)

// go/xxh3: github.com/zeebo/xxh3 (XXH3-64 and XXH3-128, SSE2/AVX2/AVX-512 paths chosen at run time).

var xxh3Table = map[string]primitive{
	"xxh3-64":  {ops: digest(seeded64(xxh3.HashSeed)), native: "github.com/zeebo/xxh3 HashSeed"},
	"xxh3-128": {ops: digest(withParams(xxh3128Builder)), native: "github.com/zeebo/xxh3 Hash128Seed"},
}

func xxh3Library() *library {
	v := moduleVersion("github.com/zeebo/xxh3")
	return &library{
		name:     "xxh3",
		version:  v,
		backend:  backend{Name: "github.com/zeebo/xxh3", Version: v},
		codePath: xxh3CodePath(),
		notes:    "one-shot HashSeed / Hash128Seed",
		table:    xxh3Table,
	}
}

// xxh3128Builder writes the canonical form: big-endian high64 then low64.
func xxh3128Builder(p *params) (builder, error) {
	seed, err := p.seed()
	return digestOp(16, func(dst, msg []byte) {
		h := xxh3.Hash128Seed(msg, seed)
		binary.BigEndian.PutUint64(dst, h.Hi)
		binary.BigEndian.PutUint64(dst[8:], h.Lo)
	}), err
}
