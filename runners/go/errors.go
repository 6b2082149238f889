package main

import (
	"errors"
	"fmt"
)

// Error kinds of docs/protocol.md: what every other file returns.
const (
	kindBadRequest    = "bad_request"
	kindUnsupported   = "unsupported"
	kindInvalidParams = "invalid_params"
	kindAuthFailed    = "auth_failed"
	kindInternal      = "internal"
)

// protoError is an error that carries its protocol kind.
type protoError struct {
	kind, message string
}

func (e *protoError) Error() string { return e.kind + ": " + e.message }

func errorf(kind, format string, args ...any) error {
	return &protoError{kind: kind, message: fmt.Sprintf(format, args...)}
}

// errAuth is returned by the timed loop too, so it is built once.
var errAuth = &protoError{kind: kindAuthFailed, message: "authentication failed"}

// kindOf maps any error to a protocol kind; library errors are internal.
func kindOf(err error) (string, string) {
	var pe *protoError
	if errors.As(err, &pe) {
		return pe.kind, pe.message
	}
	return kindInternal, err.Error()
}

// firstError is the first non-nil error of a request's field reads.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
