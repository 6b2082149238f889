package main

import (
	"bytes"
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"
)

// params are a request's parameters; every one a builder reads is marked, and
// any left unread afterwards is a parameter this primitive does not understand.
type params struct {
	raw  map[string]json.RawMessage
	used map[string]bool
}

func newParams(raw map[string]json.RawMessage) *params {
	return &params{raw: raw, used: map[string]bool{}}
}

func (p *params) number(name string) (json.Number, bool, error) {
	raw, ok := p.raw[name]
	if !ok {
		return "", false, nil
	}
	p.used[name] = true
	var n json.Number
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&n); err != nil {
		return "", true, errorf(kindInvalidParams, "parameter %q must be a number", name)
	}
	return n, true, nil
}

// intIn reads a required integer parameter within [lo, hi].
func (p *params) intIn(name string, lo, hi int64) (int, error) {
	n, ok, err := p.number(name)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, errorf(kindInvalidParams, "missing parameter %q", name)
	}
	v, err := strconv.ParseInt(n.String(), 10, 64)
	if err != nil || v < lo || v > hi {
		return 0, errorf(kindInvalidParams, "parameter %q must be an integer in [%d, %d]", name, lo, hi)
	}
	return int(v), nil
}

// uint32In reads a required integer parameter that the library takes as uint32.
func (p *params) uint32In(name string, lo int64) (uint32, error) {
	v, err := p.intIn(name, lo, math.MaxUint32)
	return uint32(v), err
}

// seed reads an optional unsigned 64-bit seed (default 0).
func (p *params) seed() (uint64, error) {
	n, ok, err := p.number("seed")
	if err != nil || !ok {
		return 0, err
	}
	v, err := strconv.ParseUint(n.String(), 10, 64)
	if err != nil {
		return 0, errorf(kindInvalidParams, "parameter \"seed\" must be an integer in [0, 2^64-1]")
	}
	return v, nil
}

// fresh reads fresh_context (always accepted, default false).
func (p *params) fresh() (bool, error) {
	raw, ok := p.raw["fresh_context"]
	if !ok {
		return false, nil
	}
	var b bool
	if err := json.Unmarshal(raw, &b); err != nil {
		return false, errorf(kindInvalidParams, "parameter \"fresh_context\" must be a boolean")
	}
	return b, nil
}

// unknown names the parameters no builder read, sorted; fresh_context is always understood.
func (p *params) unknown() string {
	var names []string
	for name := range p.raw {
		if !p.used[name] && name != "fresh_context" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
