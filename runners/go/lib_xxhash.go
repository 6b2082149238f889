package main

import "github.com/cespare/xxhash/v2"

// go/xxhash: github.com/cespare/xxhash/v2 (XXH64 only). Seed 0 uses the one-shot Sum64;
// other seeds a reused Digest (ResetWithSeed per message), the package's only seeded API.

var xxhashTable = map[string]primitive{
	"xxh64": {ops: digest(withParams(xxh64Builder)), native: "github.com/cespare/xxhash/v2 Sum64"},
}

func xxhashLibrary() *library {
	v := moduleVersion("github.com/cespare/xxhash/v2")
	return &library{
		name:     "xxhash",
		version:  v,
		backend:  backend{Name: "github.com/cespare/xxhash/v2", Version: v},
		codePath: "amd64 assembly (scalar)",
		notes:    "XXH64; seeded calls reuse one Digest",
		table:    xxhashTable,
	}
}

// xxh64Builder: one-shot Sum64 for seed 0, else a Digest made once per case.
func xxh64Builder(p *params) (builder, error) {
	seed, err := p.seed()
	if err != nil || seed == 0 {
		return checksum64(xxhash.Sum64), err
	}
	d := xxhash.NewWithSeed(seed)
	return checksum64(func(msg []byte) uint64 {
		d.ResetWithSeed(seed)
		d.Write(msg)
		return d.Sum64()
	}), nil
}
