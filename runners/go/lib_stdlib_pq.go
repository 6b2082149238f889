package main

import (
	"crypto/ecdh"
	"crypto/mlkem"
	"crypto/mlkem/mlkemtest"
	"crypto/rand"
	"fmt"
)

// go/stdlib's post-quantum rows: crypto/mlkem (FIPS 203) ML-KEM-768 and ML-KEM-1024, and the
// TLS hybrid X25519MLKEM768 (below). The
// standard library does not offer ML-KEM-512 (crypto/mlkem has 768 and 1024 only). Keys
// travel in the seed form crypto/mlkem itself uses (d‖z, 64 bytes); encaps with a given
// randomness m goes through crypto/mlkem/mlkemtest.Encapsulate*, the package's own
// derandomised entry point for known-answer tests.

func init() {
	stdlibTable["ml-kem-768"] = primitive{ops: kemOps(stdMLKEM768), native: "crypto/mlkem DecapsulationKey768"}
	stdlibTable["ml-kem-1024"] = primitive{ops: kemOps(stdMLKEM1024), native: "crypto/mlkem DecapsulationKey1024"}
}

// freshSeed is seed, or 64 random bytes when it is nil.
func freshSeed(seed []byte, n int) ([]byte, error) {
	if seed != nil {
		return seed, nil
	}
	s := make([]byte, n)
	_, err := rand.Read(s)
	return s, err
}

var stdMLKEM768 = kemScheme[*mlkem.EncapsulationKey768, *mlkem.DecapsulationKey768]{
	seedSize: mlkem.SeedSize,
	ctSize:   mlkem.CiphertextSize768,
	keygen: func(seed []byte) ([]byte, []byte, error) {
		s, err := freshSeed(seed, mlkem.SeedSize)
		if err != nil {
			return nil, nil, err
		}
		dk, err := mlkem.NewDecapsulationKey768(s)
		if err != nil {
			return nil, nil, err
		}
		return dk.EncapsulationKey().Bytes(), dk.Bytes(), nil
	},
	loadPublic: mlkem.NewEncapsulationKey768,
	loadSeed:   mlkem.NewDecapsulationKey768,
	encaps: func(ek *mlkem.EncapsulationKey768, m []byte) ([]byte, error) {
		if m == nil {
			ss, ct := ek.Encapsulate()
			return concat(ct, ss), nil
		}
		ss, ct, err := mlkemtest.Encapsulate768(ek, m)
		return concat(ct, ss), err
	},
	decaps: func(dk *mlkem.DecapsulationKey768, ct []byte) ([]byte, error) { return dk.Decapsulate(ct) },
}

var stdMLKEM1024 = kemScheme[*mlkem.EncapsulationKey1024, *mlkem.DecapsulationKey1024]{
	seedSize: mlkem.SeedSize,
	ctSize:   mlkem.CiphertextSize1024,
	keygen: func(seed []byte) ([]byte, []byte, error) {
		s, err := freshSeed(seed, mlkem.SeedSize)
		if err != nil {
			return nil, nil, err
		}
		dk, err := mlkem.NewDecapsulationKey1024(s)
		if err != nil {
			return nil, nil, err
		}
		return dk.EncapsulationKey().Bytes(), dk.Bytes(), nil
	},
	loadPublic: mlkem.NewEncapsulationKey1024,
	loadSeed:   mlkem.NewDecapsulationKey1024,
	encaps: func(ek *mlkem.EncapsulationKey1024, m []byte) ([]byte, error) {
		if m == nil {
			ss, ct := ek.Encapsulate()
			return concat(ct, ss), nil
		}
		ss, ct, err := mlkemtest.Encapsulate1024(ek, m)
		return concat(ct, ss), err
	},
	decaps: func(dk *mlkem.DecapsulationKey1024, ct []byte) ([]byte, error) { return dk.Decapsulate(ct) },
}

// x25519-mlkem768 (draft-ietf-tls-ecdhe-mlkem, TLS's X25519MLKEM768) composed as crypto/tls
// composes it: every share is ML-KEM-768's part followed by X25519's, the shared secret the
// ML-KEM secret followed by the X25519 secret (64 bytes, no KDF). Keys: ek ‖ X25519 public
// (1216 B); the private key is the ML-KEM seed d‖z ‖ the X25519 scalar (96 B); randomness is
// m ‖ the ephemeral X25519 scalar (64 B).
func init() {
	stdlibTable["x25519-mlkem768"] = primitive{ops: kemOps(stdHybrid), native: "crypto/mlkem + crypto/ecdh X25519 (as crypto/tls composes X25519MLKEM768)"}
}

type hybridPublic struct {
	ek *mlkem.EncapsulationKey768
	x  *ecdh.PublicKey
}

type hybridPrivate struct {
	dk *mlkem.DecapsulationKey768
	x  *ecdh.PrivateKey
}

var stdHybrid = kemScheme[hybridPublic, hybridPrivate]{
	seedSize: mlkem.SeedSize + 32,
	ctSize:   mlkem.CiphertextSize768 + 32,
	randSize: 64,
	keygen: func(seed []byte) ([]byte, []byte, error) {
		s, err := freshSeed(seed, mlkem.SeedSize+32)
		if err != nil {
			return nil, nil, err
		}
		key, err := loadHybridPrivate(s)
		if err != nil {
			return nil, nil, err
		}
		return concat(key.dk.EncapsulationKey().Bytes(), key.x.PublicKey().Bytes()), s, nil
	},
	loadPublic: func(b []byte) (hybridPublic, error) {
		if len(b) != mlkem.EncapsulationKeySize768+32 {
			return hybridPublic{}, fmt.Errorf("an X25519MLKEM768 share is %d bytes, not %d", mlkem.EncapsulationKeySize768+32, len(b))
		}
		ek, err := mlkem.NewEncapsulationKey768(b[:mlkem.EncapsulationKeySize768])
		if err != nil {
			return hybridPublic{}, err
		}
		x, err := ecdh.X25519().NewPublicKey(b[mlkem.EncapsulationKeySize768:])
		return hybridPublic{ek, x}, err
	},
	loadSeed: loadHybridPrivate,
	encaps: func(pub hybridPublic, m []byte) ([]byte, error) {
		var ss, ct []byte
		var eph *ecdh.PrivateKey
		var err error
		if m == nil {
			ss, ct = pub.ek.Encapsulate()
			eph, err = ecdh.X25519().GenerateKey(rand.Reader)
		} else {
			if ss, ct, err = mlkemtest.Encapsulate768(pub.ek, m[:32]); err == nil {
				eph, err = ecdh.X25519().NewPrivateKey(m[32:])
			}
		}
		if err != nil {
			return nil, err
		}
		xs, err := eph.ECDH(pub.x)
		if err != nil {
			return nil, errorf(kindInvalidParams, "public_key: %v", err)
		}
		return concat(concat(ct, eph.PublicKey().Bytes()), concat(ss, xs)), nil
	},
	decaps: func(key hybridPrivate, ct []byte) ([]byte, error) {
		ss, err := key.dk.Decapsulate(ct[:mlkem.CiphertextSize768])
		if err != nil {
			return nil, err
		}
		peer, err := ecdh.X25519().NewPublicKey(ct[mlkem.CiphertextSize768:])
		if err != nil {
			return nil, errorf(kindInvalidParams, "ciphertext: %v", err)
		}
		xs, err := key.x.ECDH(peer)
		if err != nil {
			return nil, errorf(kindInvalidParams, "ciphertext: %v", err)
		}
		return concat(ss, xs), nil
	},
}

func loadHybridPrivate(seed []byte) (hybridPrivate, error) {
	if len(seed) != mlkem.SeedSize+32 {
		return hybridPrivate{}, fmt.Errorf("an X25519MLKEM768 private key is %d bytes, not %d", mlkem.SeedSize+32, len(seed))
	}
	dk, err := mlkem.NewDecapsulationKey768(seed[:mlkem.SeedSize])
	if err != nil {
		return hybridPrivate{}, err
	}
	x, err := ecdh.X25519().NewPrivateKey(seed[mlkem.SeedSize:])
	return hybridPrivate{dk, x}, err
}
