package main

import (
	"encoding/binary"
	"sort"
)

// op computes one output. Its setup (keys, contexts, buffers) was done by the builder,
// unless fresh_context asked for it inside the op.
type op func() ([]byte, error)

// prepared is a case ready to run: step, when set, moves the nonce on before each timed call.
type prepared struct {
	run  op
	step func()
}

// builder sets a case up from its inputs and params.
type builder func(in inputs, p *params) (prepared, error)

// primitive is one row of a library's dispatch table.
type primitive struct {
	ops        map[string]builder
	noKeyReuse bool   // reuses_key: false
	noSalt     bool   // takes_salt: false (password hashes that draw their own salt)
	native     string // the library's own name
}

// backend is the code that actually runs.
type backend struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// library is one implementation: its metadata and its dispatch table.
type library struct {
	name     string
	version  string
	backend  backend
	codePath string
	notes    string
	table    map[string]primitive
}

// libraries returns every library this runner hosts, in a fixed order.
func libraries() []*library {
	return []*library{stdlibLibrary(), xcryptoLibrary(), blake3Library(), xxhashLibrary(), xxh3Library(),
		circlLibrary(), zeeboBlake3Library()}
}

// noopPrimitive measures dispatch, decoding and loop overhead: it outputs len(msg).
var noopPrimitive = primitive{ops: map[string]builder{
	"digest": digestOp(8, func(dst, msg []byte) { binary.BigEndian.PutUint64(dst, uint64(len(msg))) }),
}}

// find resolves impl/primitive/operation to a builder; impl may be empty only for noop.
func find(libs []*library, impl, prim, operation string) (*primitive, builder, error) {
	var lib *library
	for _, l := range libs {
		if l.name == impl {
			lib = l
		}
	}
	if impl == "" && prim != "noop" {
		return nil, nil, errorf(kindBadRequest, "missing field \"impl\"")
	}
	if lib == nil && impl != "" {
		return nil, nil, errorf(kindUnsupported, "implementation %q is not offered", impl)
	}
	row := noopPrimitive
	if prim != "noop" {
		r, ok := lib.table[prim]
		if !ok {
			return nil, nil, errorf(kindUnsupported, "%s does not offer %q", impl, prim)
		}
		row = r
	}
	b, ok := row.ops[operation]
	if !ok {
		return nil, nil, errorf(kindUnsupported, "%s/%s is not offered", prim, operation)
	}
	return &row, b, nil
}

// operations lists a row's operations in a stable order.
func (r primitive) operations() []string {
	names := make([]string, 0, len(r.ops))
	for name := range r.ops {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
