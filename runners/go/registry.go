package main

import "sort"

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

// operations lists a row's operations in a stable order.
func (r primitive) operations() []string {
	names := make([]string, 0, len(r.ops))
	for name := range r.ops {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
