package main

// Builders for password hashes and KDFs. Their outputs: derive → raw bytes (hex on the
// wire); hash → the encoded string; verify → "ok" (see encodeOutput).

// memoryCap bounds what one KDF call may allocate: an out-of-memory in Go is fatal,
// not an error, and the runner must never die on a request.
const memoryCap = 16 << 30

// deriveFunc computes one key from a password and a salt.
type deriveFunc func(password, salt []byte) ([]byte, error)

// deriveOp reads the cost params with costs, then derives from the inputs. A library
// error here can only come from the parameters, so it is invalid_params.
func deriveOp(costs func(p *params) (deriveFunc, error)) builder {
	return func(in inputs, p *params) (prepared, error) {
		kdf, err := costs(p)
		pw, err2 := in.get("password")
		salt, err3 := in.get("salt")
		if err := firstError(err, err2, err3); err != nil {
			return prepared{}, err
		}
		return prepared{run: func() ([]byte, error) {
			key, err := kdf(pw, salt)
			if err != nil {
				return nil, errorf(kindInvalidParams, "%v", err)
			}
			return key, nil
		}}, nil
	}
}

// outLen reads the out_len every KDF takes.
func outLen(p *params) (int, error) {
	return p.intIn("out_len", 1, 1<<20)
}

// okOutput is verify's output.
var okOutput = []byte("ok")

// isPasswordOutput says which operations answer with a string instead of hex.
func isPasswordOutput(operation string) bool {
	return operation == "hash" || operation == "verify"
}
