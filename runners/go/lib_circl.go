package main

import "github.com/cloudflare/circl/xof"

// go/circl: Cloudflare's CIRCL. What it adds beside the standard library and x/crypto is its
// own Keccak code behind the xof package (SHAKE128/SHAKE256); its BLAKE2X wraps x/crypto and
// its KangarooTwelve and Ascon have no catalog id. One XOF reused per case (Reset per message).

var circlTable = map[string]primitive{
	"shake128": {ops: digest(xofOp(func() xofReader { return xof.SHAKE128.New() })), native: "circl/xof SHAKE128.New"},
	"shake256": {ops: digest(xofOp(func() xofReader { return xof.SHAKE256.New() })), native: "circl/xof SHAKE256.New"},
}

func circlLibrary() *library {
	v := moduleVersion("github.com/cloudflare/circl")
	return &library{
		name:     "circl",
		version:  v,
		backend:  backend{Name: "github.com/cloudflare/circl", Version: v},
		codePath: "pure Go Keccak-f[1600] (circl/internal/sha3)",
		notes:    "xof.SHAKE128/SHAKE256: one XOF reused per case, Reset per message",
		table:    circlTable,
	}
}
