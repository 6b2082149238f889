package main

// buildCase type-checks the request fields and sets the case up.
func buildCase(libs []*library, req request) (string, prepared, error) {
	impl, err := stringField(req["impl"], "impl", false)
	prim, err2 := stringField(req["primitive"], "primitive", true)
	operation, err3 := stringField(req["operation"], "operation", true)
	rawIn, err4 := req.object("inputs")
	rawParams, err5 := req.object("params")
	if err := firstError(err, err2, err3, err4, err5); err != nil {
		return "", prepared{}, err
	}
	in, err := decodeInputs(rawIn)
	if err != nil {
		return "", prepared{}, err
	}
	row, build, err := find(libs, impl, prim, operation)
	if err != nil {
		return "", prepared{}, err
	}
	p := newParams(rawParams)
	fresh, err := p.fresh()
	if err != nil {
		return "", prepared{}, err
	}
	if row.noKeyReuse && !fresh {
		return "", prepared{}, errorf(kindUnsupported, "%s cannot reuse a key: only fresh_context", prim)
	}
	pc, err := build(in, p)
	if err != nil {
		return "", prepared{}, err
	}
	if names := p.unknown(); names != "" {
		return "", prepared{}, errorf(kindInvalidParams, "%s/%s does not take: %s", prim, operation, names)
	}
	return operation, pc, nil
}
