package main

import (
	"crypto/rand"
	"fmt"

	"github.com/cloudflare/circl/dh/x25519"
	"github.com/cloudflare/circl/sign/ed25519"
)

// go/circl's public-key rows: circl/dh/x25519 (its own field arithmetic, amd64 assembly) and
// circl/sign/ed25519 (its own Edwards arithmetic), beside the standard library's.

func init() {
	circlTable["x25519"] = primitive{ops: kexOps(circlX25519), native: "circl/dh/x25519 KeyGen/Shared"}
	circlTable["ed25519"] = primitive{ops: sigOps(circlEd25519), native: "circl/sign/ed25519 Sign/Verify"}
}

var circlEd25519 = ed25519Scheme(ed25519.GenerateKey, ed25519.NewKeyFromSeed, ed25519.Sign, ed25519.Verify)

func x25519Key(b []byte) (*x25519.Key, error) {
	var k x25519.Key
	if len(b) != x25519.Size {
		return nil, fmt.Errorf("an X25519 key is %d bytes, not %d", x25519.Size, len(b))
	}
	copy(k[:], b)
	return &k, nil
}

var circlX25519 = kexScheme[*x25519.Key]{
	keygen: func(seed []byte) ([]byte, []byte, error) {
		var secret, public x25519.Key
		if seed == nil {
			if _, err := rand.Read(secret[:]); err != nil {
				return nil, nil, err
			}
		} else {
			copy(secret[:], seed)
		}
		x25519.KeyGen(&public, &secret)
		return public[:], secret[:], nil
	},
	load: x25519Key,
	agree: func(secret *x25519.Key, peer []byte) ([]byte, error) {
		public, err := x25519Key(peer)
		if err != nil {
			return nil, peerError(err)
		}
		var shared x25519.Key
		if !x25519.Shared(&shared, secret, public) {
			return nil, peerError(fmt.Errorf("a low-order point (all-zero shared secret)"))
		}
		return shared[:], nil
	},
}
