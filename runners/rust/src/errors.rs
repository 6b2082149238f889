//! The protocol's error kinds and the failure every request can end in (docs/protocol.md).

/// The error kinds of the protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    BadRequest,
    Unsupported,
    InvalidParams,
    AuthFailed,
    Internal,
}

/// A failed request: its kind and a one-line message.
#[derive(Debug)]
pub struct Fail {
    pub kind: Kind,
    pub message: String,
}

impl Fail {
    pub fn new(kind: Kind, message: impl Into<String>) -> Fail {
        Fail {
            kind,
            message: message.into(),
        }
    }
}

pub fn bad_request(message: impl Into<String>) -> Fail {
    Fail::new(Kind::BadRequest, message)
}
pub fn unsupported(message: impl Into<String>) -> Fail {
    Fail::new(Kind::Unsupported, message)
}
pub fn invalid(message: impl Into<String>) -> Fail {
    Fail::new(Kind::InvalidParams, message)
}
pub fn auth_failed(message: impl Into<String>) -> Fail {
    Fail::new(Kind::AuthFailed, message)
}
pub fn internal(message: impl Into<String>) -> Fail {
    Fail::new(Kind::Internal, message)
}

pub(crate) fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::BadRequest => "bad_request",
        Kind::Unsupported => "unsupported",
        Kind::InvalidParams => "invalid_params",
        Kind::AuthFailed => "auth_failed",
        Kind::Internal => "internal",
    }
}
