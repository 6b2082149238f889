package main

import (
	"fmt"

	"github.com/cloudflare/circl/kem"
	"github.com/cloudflare/circl/kem/mlkem/mlkem1024"
	"github.com/cloudflare/circl/kem/mlkem/mlkem512"
	"github.com/cloudflare/circl/kem/mlkem/mlkem768"
	"github.com/cloudflare/circl/sign"
	"github.com/cloudflare/circl/sign/mldsa/mldsa44"
	"github.com/cloudflare/circl/sign/mldsa/mldsa65"
	"github.com/cloudflare/circl/sign/mldsa/mldsa87"
)

// go/circl's post-quantum rows: circl/kem/mlkem (FIPS 203; its own Kyber code, amd64
// assembly for the NTT), all three parameter sets, through circl's kem.Scheme interface, and
// circl/sign/mldsa (FIPS 204) below.
// circl packs private keys in the expanded FIPS 203 form: the seed form of the protocol is
// kept by deriving the key pair from the seed (DeriveKeyPair) when the key is parsed.

func init() {
	circlTable["ml-kem-512"] = primitive{ops: kemOps(circlMLKEM(mlkem512.Scheme())), native: "circl/kem/mlkem/mlkem512"}
	circlTable["ml-kem-768"] = primitive{ops: kemOps(circlMLKEM(mlkem768.Scheme())), native: "circl/kem/mlkem/mlkem768"}
	circlTable["ml-kem-1024"] = primitive{ops: kemOps(circlMLKEM(mlkem1024.Scheme())), native: "circl/kem/mlkem/mlkem1024"}
}

func circlMLKEM(sch kem.Scheme) kemScheme[kem.PublicKey, kem.PrivateKey] {
	return kemScheme[kem.PublicKey, kem.PrivateKey]{
		seedSize: sch.SeedSize(),
		ctSize:   sch.CiphertextSize(),
		keygen: func(seed []byte) ([]byte, []byte, error) {
			s, err := freshSeed(seed, sch.SeedSize())
			if err != nil {
				return nil, nil, err
			}
			pk, _ := sch.DeriveKeyPair(s)
			public, err := pk.MarshalBinary()
			return public, s, err
		},
		loadPublic: sch.UnmarshalBinaryPublicKey,
		loadSeed: func(seed []byte) (kem.PrivateKey, error) {
			if len(seed) != sch.SeedSize() {
				return nil, fmt.Errorf("an %s private key (seed) is %d bytes, not %d", sch.Name(), sch.SeedSize(), len(seed))
			}
			_, sk := sch.DeriveKeyPair(seed)
			return sk, nil
		},
		encaps: func(pk kem.PublicKey, m []byte) ([]byte, error) {
			var ct, ss []byte
			var err error
			if m == nil {
				ct, ss, err = sch.Encapsulate(pk)
			} else {
				ct, ss, err = sch.EncapsulateDeterministically(pk, m)
			}
			return concat(ct, ss), err
		},
		decaps: sch.Decapsulate,
	}
}

// circl/sign/mldsa (FIPS 204), pure ML-DSA with the empty context, through circl's
// sign.Scheme; hedged signing through each package's SignTo(randomized = true). circl takes
// no caller-chosen rnd other than zero (its deterministic Sign): another randomness →
// unsupported.
func init() {
	circlTable["ml-dsa-44"] = primitive{ops: mldsaOps(circlMLDSA(mldsa44.Scheme()), circlSign(mldsa44.Scheme(), func(sk sign.PrivateKey, msg, sig []byte) error {
		return mldsa44.SignTo(sk.(*mldsa44.PrivateKey), msg, nil, true, sig)
	})), native: "circl/sign/mldsa/mldsa44"}
	circlTable["ml-dsa-65"] = primitive{ops: mldsaOps(circlMLDSA(mldsa65.Scheme()), circlSign(mldsa65.Scheme(), func(sk sign.PrivateKey, msg, sig []byte) error {
		return mldsa65.SignTo(sk.(*mldsa65.PrivateKey), msg, nil, true, sig)
	})), native: "circl/sign/mldsa/mldsa65"}
	circlTable["ml-dsa-87"] = primitive{ops: mldsaOps(circlMLDSA(mldsa87.Scheme()), circlSign(mldsa87.Scheme(), func(sk sign.PrivateKey, msg, sig []byte) error {
		return mldsa87.SignTo(sk.(*mldsa87.PrivateKey), msg, nil, true, sig)
	})), native: "circl/sign/mldsa/mldsa87"}
}

func circlMLDSA(sch sign.Scheme) sigScheme[sign.PrivateKey, sign.PublicKey] {
	return sigScheme[sign.PrivateKey, sign.PublicKey]{
		keygen: func(seed []byte) ([]byte, []byte, error) {
			s, err := freshSeed(seed, sch.SeedSize())
			if err != nil {
				return nil, nil, err
			}
			pk, _ := sch.DeriveKey(s)
			public, err := pk.MarshalBinary()
			return public, s, err
		},
		loadPrivate: func(seed []byte) (sign.PrivateKey, error) {
			if len(seed) != sch.SeedSize() {
				return nil, fmt.Errorf("an %s private key (seed) is %d bytes, not %d", sch.Name(), sch.SeedSize(), len(seed))
			}
			_, sk := sch.DeriveKey(seed)
			return sk, nil
		},
		loadPublic: sch.UnmarshalBinaryPublicKey,
		verify:     func(pk sign.PublicKey, msg, sig []byte) bool { return sch.Verify(pk, msg, sig, nil) },
	}
}

// circlSign signs hedged (hedged writes a signature with fresh rnd) or, for 32 zero bytes
// of randomness, deterministically.
func circlSign(sch sign.Scheme, hedged func(sk sign.PrivateKey, msg, sig []byte) error) signR[sign.PrivateKey] {
	return func(sk sign.PrivateKey, msg, rnd []byte) ([]byte, error) {
		if rnd == nil {
			sig := make([]byte, sch.SignatureSize())
			return sig, hedged(sk, msg, sig)
		}
		if !zeroRandomness(rnd) {
			return nil, errorf(kindUnsupported, "circl signs with fresh or zero randomness only")
		}
		return sch.Sign(sk, msg, nil), nil
	}
}
