package main

import (
	"bytes"
	"crypto/rand"
	"fmt"

	"github.com/cloudflare/circl/sign/slhdsa"
)

// go/circl's SLH-DSA rows: circl/sign/slhdsa (FIPS 205), pure SLH-DSA with the empty context.
// The private key travels in seed form, SK.seed ‖ SK.prf ‖ PK.seed (3n bytes, the input of
// slh_keygen_internal): keygen and key parsing feed those bytes to circl's GenerateKey as its
// random source (it reads SK.seed, SK.prf, PK.seed in that order), which computes PK.root.
// sign is hedged (a fresh n-byte opt_rand) unless the request sends randomness (n bytes,
// FIPS 205's opt_rand; PK.seed as opt_rand gives the deterministic variant).

func init() {
	circlTable["slh-dsa-sha2-128s"] = primitive{ops: slhdsaOps(circlSLHDSA(slhdsa.SHA2_128s)), native: "circl/sign/slhdsa SHA2_128s"}
	circlTable["slh-dsa-sha2-128f"] = primitive{ops: slhdsaOps(circlSLHDSA(slhdsa.SHA2_128f)), native: "circl/sign/slhdsa SHA2_128f"}
	circlTable["slh-dsa-shake-128f"] = primitive{ops: slhdsaOps(circlSLHDSA(slhdsa.SHAKE_128f)), native: "circl/sign/slhdsa SHAKE_128f"}
}

// slhScheme is a signature scheme whose sign takes an optional randomness of randLen bytes
// and whose key_seed is seedLen bytes.
type slhScheme[K, P any] struct {
	sigScheme[K, P]
	seedLen, randLen int
	signR            signR[K]
}

func circlSLHDSA(id slhdsa.ID) slhScheme[slhdsa.PrivateKey, slhdsa.PublicKey] {
	n := id.Scheme().PublicKeySize() / 2
	derive := func(seed []byte) (slhdsa.PrivateKey, error) {
		if len(seed) != 3*n {
			return slhdsa.PrivateKey{}, fmt.Errorf("an %s private key (SK.seed‖SK.prf‖PK.seed) is %d bytes, not %d", id, 3*n, len(seed))
		}
		_, sk, err := slhdsa.GenerateKey(bytes.NewReader(seed), id)
		return sk, err
	}
	s := sigScheme[slhdsa.PrivateKey, slhdsa.PublicKey]{
		keygen: func(seed []byte) ([]byte, []byte, error) {
			s, err := freshSeed(seed, 3*n)
			if err != nil {
				return nil, nil, err
			}
			sk, err := derive(s)
			if err != nil {
				return nil, nil, err
			}
			public, err := sk.PublicKey().MarshalBinary()
			return public, s, err
		},
		loadPrivate: derive,
		loadPublic: func(raw []byte) (slhdsa.PublicKey, error) {
			pk := slhdsa.PublicKey{ID: id}
			if len(raw) != 2*n {
				return pk, fmt.Errorf("an %s public key is %d bytes, not %d", id, 2*n, len(raw))
			}
			return pk, pk.UnmarshalBinary(raw)
		},
		verify: func(pk slhdsa.PublicKey, msg, sig []byte) bool {
			return slhdsa.Verify(&pk, slhdsa.NewMessage(msg), sig, nil)
		},
	}
	sign := func(sk slhdsa.PrivateKey, msg, rnd []byte) ([]byte, error) {
		source := rand.Reader
		if rnd != nil {
			source = bytes.NewReader(rnd)
		}
		return slhdsa.SignRandomized(&sk, source, slhdsa.NewMessage(msg), nil)
	}
	return slhScheme[slhdsa.PrivateKey, slhdsa.PublicKey]{sigScheme: s, seedLen: 3 * n, randLen: n, signR: sign}
}

// slhdsaOps: randSignOps (sign taking the optional randLen-byte randomness) with keygen from
// a seedLen-byte key_seed.
func slhdsaOps[K, P any](s slhScheme[K, P]) map[string]builder {
	ops := randSignOps(s.sigScheme, s.signR, s.randLen)
	ops["keygen"] = seededKeygenOp(s.keygen, s.seedLen)
	return ops
}
