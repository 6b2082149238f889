package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
)

// request is one protocol request: its JSON object, each field type-checked when read.
type request map[string]json.RawMessage

type errorBody struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

type response struct {
	ID     any        `json:"id"`
	OK     bool       `json:"ok"`
	Result any        `json:"result,omitempty"`
	Error  *errorBody `json:"error,omitempty"`
}

// decodeRequest parses one line and its id (nil when the id could not be read).
func decodeRequest(line []byte) (request, any, error) {
	var req request
	if err := json.Unmarshal(line, &req); err != nil || req == nil {
		return nil, nil, errorf(kindBadRequest, "not a JSON object")
	}
	id, err := readID(req["id"])
	if err != nil {
		return nil, nil, err
	}
	return req, id, nil
}

// object decodes an optional JSON object field (inputs, params).
func (r request) object(name string) (map[string]json.RawMessage, error) {
	raw := r[name]
	if len(raw) == 0 {
		return map[string]json.RawMessage{}, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, errorf(kindBadRequest, "field %q must be an object", name)
	}
	return m, nil
}

// readID accepts an integer id only.
func readID(raw json.RawMessage) (any, error) {
	var n json.Number
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if len(raw) == 0 || raw[0] == '"' || dec.Decode(&n) != nil {
		return nil, errorf(kindBadRequest, "id must be an integer")
	}
	v, err := n.Int64()
	if err != nil {
		return nil, errorf(kindBadRequest, "id must be an integer")
	}
	return v, nil
}

// stringField decodes a required string field; optional ones may be absent.
func stringField(raw json.RawMessage, name string, required bool) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		if required {
			return "", errorf(kindBadRequest, "missing field %q", name)
		}
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", errorf(kindBadRequest, "field %q must be a string", name)
	}
	return s, nil
}

// positiveField decodes a required positive integer field (iterations, batches): above most
// is invalid_params.
func positiveField(raw json.RawMessage, name string, most int64) (int, error) {
	var n uint64
	if err := json.Unmarshal(raw, &n); err != nil || n < 1 {
		return 0, errorf(kindBadRequest, "field %q must be a positive integer", name)
	}
	if n > uint64(most) {
		return 0, errorf(kindInvalidParams, "field %q must be at most %d", name, most)
	}
	return int(n), nil
}

// inputs are the decoded byte-string inputs of a request, plus the encoded string.
type inputs struct {
	bytes   map[string][]byte
	encoded string
	present map[string]bool
}

func decodeInputs(raw map[string]json.RawMessage) (inputs, error) {
	in := inputs{bytes: map[string][]byte{}, present: map[string]bool{}}
	for name, value := range raw {
		if name == "msg" && isGenerated(value) {
			b, err := expandGenerated(value)
			if err != nil {
				return in, err
			}
			in.present[name], in.bytes[name] = true, b
			continue
		}
		var s string
		if err := json.Unmarshal(value, &s); err != nil || string(value) == "null" {
			return in, errorf(kindBadRequest, "input %q must be a string", name)
		}
		in.present[name] = true
		if name == "encoded" {
			in.encoded = s
			continue
		}
		b, err := hex.DecodeString(s)
		if err != nil {
			return in, errorf(kindBadRequest, "input %q is not hex", name)
		}
		in.bytes[name] = b
	}
	return in, nil
}

// get returns a copy of a required byte input, so a library can never alias the request.
func (in inputs) get(name string) ([]byte, error) {
	b, ok := in.bytes[name]
	if !ok {
		return nil, errorf(kindBadRequest, "missing input %q", name)
	}
	return append([]byte{}, b...), nil
}

func (in inputs) getEncoded() (string, error) {
	if !in.present["encoded"] {
		return "", errorf(kindBadRequest, "missing input \"encoded\"")
	}
	return in.encoded, nil
}
