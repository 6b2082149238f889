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

var circlEd25519 = sigScheme[ed25519.PrivateKey, ed25519.PublicKey]{
	keygen: func(seed []byte) ([]byte, []byte, error) {
		if seed == nil {
			pub, priv, err := ed25519.GenerateKey(rand.Reader)
			if err != nil {
				return nil, nil, err
			}
			return pub, priv.Seed(), nil
		}
		priv := ed25519.NewKeyFromSeed(seed)
		return priv.Public().(ed25519.PublicKey), priv.Seed(), nil
	},
	loadPrivate: func(b []byte) (ed25519.PrivateKey, error) {
		if len(b) != ed25519.SeedSize {
			return nil, fmt.Errorf("an Ed25519 private key is 32 bytes, not %d", len(b))
		}
		return ed25519.NewKeyFromSeed(b), nil
	},
	loadPublic: func(b []byte) (ed25519.PublicKey, error) {
		if len(b) != ed25519.PublicKeySize {
			return nil, fmt.Errorf("an Ed25519 public key is 32 bytes, not %d", len(b))
		}
		return ed25519.PublicKey(b), nil
	},
	sign:   func(key ed25519.PrivateKey, msg []byte) ([]byte, error) { return ed25519.Sign(key, msg), nil },
	verify: ed25519.Verify,
}
