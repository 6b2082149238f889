package main

import "encoding/binary"

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
