//! The leak request (docs/protocol.md): two classes of inputs prepared before timing, one
//! timed call per measurement (`timing::single`) in the order the orchestrator sends; with
//! `taint`, the named secret inputs are marked for memcheck first (src/taint.rs).
use crate::prepare::prepare;
use crate::protocol::{Fail, Kind, Work, bad_request, field_str, parse_work};
use crate::registry::{Job, plain, put};
use crate::taint::{Taint, declassify};
use crate::timing;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Map, Value, json};
use subtle::ConstantTimeEq;

/// The language's equality (`==` on slices: an early-exit memcmp) and its constant-time
/// counterpart (`subtle::ConstantTimeEq`); output 01 equal, 00 differ.
fn control(primitive: &str, work: &Work) -> Result<Option<Box<dyn Job>>, Fail> {
    if primitive != "equal" && primitive != "equal-ct" {
        return Ok(None);
    }
    let a = work.inputs.take("a")?;
    let b = work.inputs.take("b")?;
    Ok(Some(if primitive == "equal" {
        plain(move |out| {
            put(out, &[u8::from(a == b)]);
            Ok(())
        })
    } else {
        plain(move |out| {
            put(out, &[a.ct_eq(&b).unwrap_u8()]);
            Ok(())
        })
    }))
}

/// One class's call, prepared (its secret inputs marked first when `taint` names them) and
/// made once: the job and its outcome ("ok", the output in hex, or "auth_failed").
fn prepared(
    primitive: &str,
    sub: &Map<String, Value>,
    taint: &mut Taint,
) -> Result<(Box<dyn Job>, String), Fail> {
    let work = parse_work(sub)?;
    taint.mark(&work.inputs);
    let mut job = match control(primitive, &work)? {
        Some(job) => job,
        None => prepare(&work)?,
    };
    let got = timing::once(job.as_mut());
    declassify(&got, got.as_ref().map_or(&[][..], Vec::as_slice));
    let outcome = match got {
        Ok(out) if out == b"ok" => "ok".to_string(),
        Ok(out) => hex::encode(out),
        Err(f) if f.kind == Kind::AuthFailed => "auth_failed".to_string(),
        Err(f) => return Err(f),
    };
    Ok((job, outcome))
}

pub fn leak(req: &Map<String, Value>) -> Result<Value, Fail> {
    let order = STANDARD
        .decode(field_str(req, "order")?)
        .map_err(|_| bad_request("order is not base64"))?;
    if order.is_empty() || order.iter().any(|&c| c > 1) {
        return Err(bad_request("order must hold classes 0 and 1"));
    }
    let classes = match req.get("classes") {
        Some(Value::Array(v)) if v.len() == 2 && v.iter().all(Value::is_object) => v,
        _ => return Err(bad_request("classes must be a list of two objects")),
    };
    let shared = match req.get("inputs") {
        None => Map::new(),
        Some(Value::Object(m)) => m.clone(),
        Some(_) => return Err(bad_request("inputs must be an object")),
    };
    let primitive = field_str(req, "primitive")?;
    let mut jobs: Vec<Box<dyn Job>> = Vec::with_capacity(2);
    let mut outcomes = Vec::with_capacity(2);
    let mut taint = Taint::from_request(req);
    for over in classes {
        let mut merged = shared.clone();
        if let Value::Object(o) = over {
            merged.extend(o.clone());
        }
        let mut sub = req.clone();
        sub.insert("inputs".into(), Value::Object(merged));
        let (job, outcome) = prepared(&primitive, &sub, &mut taint)?;
        outcomes.push(outcome);
        jobs.push(job);
    }
    let mut ns = Vec::with_capacity(4 * order.len());
    let mut out = Vec::new();
    for &c in &order {
        let t = timing::single(jobs[usize::from(c)].as_mut(), &mut out);
        ns.extend_from_slice(&u32::try_from(t).unwrap_or(u32::MAX).to_le_bytes());
    }
    let mut answer =
        json!({"outcomes": outcomes, "ns": STANDARD.encode(ns), "clock": "std::time::Instant"});
    if !taint.marked.is_empty() {
        answer["tainted"] = json!(taint.marked);
    }
    Ok(answer)
}
