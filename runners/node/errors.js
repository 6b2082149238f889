// The protocol's error kinds (docs/protocol.md, "Errors"): what every other file throws.

export class ProtocolError extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

export const badRequest = (m) => new ProtocolError("bad_request", m);
export const unsupported = (m) => new ProtocolError("unsupported", m);
export const invalidParams = (m) => new ProtocolError("invalid_params", m);
export const authFailed = (m) => new ProtocolError("auth_failed", m);
export const internal = (m) => new ProtocolError("internal", m);
