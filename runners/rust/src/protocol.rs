//! Protocol v1 framing (docs/protocol.md): requests in, responses out, error kinds.
use serde_json::{Map, Value, json};
use std::collections::HashMap;

use crate::errors::kind_name;
pub use crate::errors::{Fail, Kind, auth_failed, bad_request, internal, invalid, unsupported};

pub fn ok(id: &Value, result: Value) -> Value {
    json!({"id": id, "ok": true, "result": result})
}

pub fn error(id: &Value, fail: &Fail) -> Value {
    json!({"id": id, "ok": false,
           "error": {"kind": kind_name(fail.kind), "message": fail.message}})
}

/// The decoded byte-string inputs of a compute/bench request (`encoded` stays a string).
#[derive(Default)]
pub struct Inputs {
    bytes: HashMap<String, Vec<u8>>,
    pub encoded: Option<String>,
}

impl Inputs {
    /// The named input; absent → `bad_request`.
    pub fn get(&self, name: &str) -> Result<&[u8], Fail> {
        self.bytes
            .get(name)
            .map(Vec::as_slice)
            .ok_or_else(|| bad_request(format!("missing input {name}")))
    }

    /// The named input as an owned buffer the job keeps.
    pub fn take(&self, name: &str) -> Result<Vec<u8>, Fail> {
        self.get(name).map(<[u8]>::to_vec)
    }

    pub fn encoded(&self) -> Result<&str, Fail> {
        self.encoded
            .as_deref()
            .ok_or_else(|| bad_request("missing input encoded"))
    }
}

/// A compute or bench request, fields checked and hex decoded.
pub struct Work {
    pub implementation: Option<String>,
    pub primitive: String,
    pub operation: String,
    pub inputs: Inputs,
    pub params: Map<String, Value>,
}

pub fn field_str(req: &Map<String, Value>, name: &str) -> Result<String, Fail> {
    match req.get(name) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(bad_request(format!("{name} must be a string"))),
        None => Err(bad_request(format!("missing field {name}"))),
    }
}

/// An integer field in `min..=max`: below `min` (or not an integer) is a bad request, above
/// `max` invalid_params (docs/protocol.md, "Limits").
pub fn field_count(req: &Map<String, Value>, name: &str, min: u64, max: u64) -> Result<u64, Fail> {
    match req.get(name).and_then(Value::as_u64) {
        Some(n) if n > max => Err(invalid(format!("{name} must be at most {max}"))),
        Some(n) if n >= min => Ok(n),
        _ => Err(bad_request(format!("{name} must be an integer >= {min}"))),
    }
}

pub fn parse_work(req: &Map<String, Value>) -> Result<Work, Fail> {
    let implementation = match req.get("impl") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return Err(bad_request("impl must be a string")),
    };
    let params = match req.get("params") {
        None => Map::new(),
        Some(Value::Object(m)) => m.clone(),
        Some(_) => return Err(bad_request("params must be an object")),
    };
    Ok(Work {
        implementation,
        primitive: field_str(req, "primitive")?,
        operation: field_str(req, "operation")?,
        inputs: parse_inputs(req.get("inputs"))?,
        params,
    })
}

fn parse_inputs(value: Option<&Value>) -> Result<Inputs, Fail> {
    let mut inputs = Inputs::default();
    let map = match value {
        None => return Ok(inputs),
        Some(Value::Object(m)) => m,
        Some(_) => return Err(bad_request("inputs must be an object")),
    };
    for (name, value) in map {
        if let (true, Value::Object(spec)) = (name == "msg", value) {
            inputs
                .bytes
                .insert(name.clone(), crate::msggen::expand(spec)?);
            continue;
        }
        let Value::String(text) = value else {
            return Err(bad_request(format!("input {name} must be a string")));
        };
        if name == "encoded" {
            inputs.encoded = Some(text.clone());
            continue;
        }
        let bytes = hex::decode(text).map_err(|e| bad_request(format!("input {name}: {e}")))?;
        inputs.bytes.insert(name.clone(), bytes);
    }
    Ok(inputs)
}
