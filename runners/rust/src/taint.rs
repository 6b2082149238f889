//! The secret-taint check (docs/protocol.md, "leak", `taint`): under Valgrind's memcheck the
//! named inputs are marked undefined right after they are decoded, before the call is set up,
//! so every branch or memory index that depends on them is reported. The client requests are
//! the C macros of valgrind/memcheck.h, through src/memcheck.c (built by build.rs); not under
//! memcheck, nothing is marked and the answer has no `tainted`.
use crate::protocol::Inputs;
use serde_json::{Map, Value};
use std::ffi::{CStr, c_char, c_int, c_void};

/// What memcheck's XML shows before the first secret is marked (runtimes/memcheck.py MARK).
const MARK: &CStr = c"cryptobench-taint-start";

unsafe extern "C" {
    safe fn cb_running_on_valgrind() -> c_int;
    fn cb_memcheck_mark(text: *const c_char);
    fn cb_make_mem_undefined(p: *const c_void, n: usize);
    fn cb_make_mem_defined(p: *const c_void, n: usize);
}

/// The secret inputs the request names, and those marked so far (the answer's `tainted`).
pub struct Taint {
    names: Vec<String>,
    pub marked: Vec<String>,
}

impl Taint {
    /// The request's `taint` names; none when not running under Valgrind.
    pub fn from_request(req: &Map<String, Value>) -> Taint {
        let names = match req.get("taint") {
            Some(Value::Array(v)) if cb_running_on_valgrind() != 0 => v
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect(),
            _ => Vec::new(),
        };
        Taint {
            names,
            marked: Vec::new(),
        }
    }

    /// Marks the named inputs present in `inputs` undefined (each listed once in `marked`);
    /// the first time, memcheck's output gets the mark.
    pub fn mark(&mut self, inputs: &Inputs) {
        for name in &self.names {
            let Ok(bytes) = inputs.get(name) else {
                continue;
            };
            if bytes.is_empty() {
                continue;
            }
            if self.marked.is_empty() {
                // SAFETY: a NUL-terminated string that outlives the call.
                unsafe { cb_memcheck_mark(MARK.as_ptr()) };
            }
            // SAFETY: the client request only changes memcheck's shadow state of these bytes;
            // it neither reads nor writes them.
            unsafe { cb_make_mem_undefined(bytes.as_ptr().cast(), bytes.len()) };
            if !self.marked.contains(name) {
                self.marked.push(name.clone());
            }
        }
    }
}

/// The call's outcome (accepted or not, its output) is public: memcheck is told so before the
/// runner branches on it or encodes it, so what is reported is the library's, not ours.
pub fn declassify<T>(value: &T, bytes: &[u8]) {
    // SAFETY: as in `mark`: shadow state only, over memory the references cover.
    unsafe {
        cb_make_mem_defined((value as *const T).cast(), size_of::<T>());
        cb_make_mem_defined(bytes.as_ptr().cast(), bytes.len());
    }
}

#[cfg(test)]
mod tests {
    use super::Taint;
    use crate::protocol::parse_work;
    use serde_json::{Value, json};

    #[test]
    fn marks_nothing_when_not_running_under_valgrind() {
        let Value::Object(req) = json!({
            "primitive": "aes-128-gcm", "operation": "open",
            "inputs": {"key": "00112233445566778899aabbccddeeff"}, "taint": ["key"]
        }) else {
            unreachable!()
        };
        let work = parse_work(&req).unwrap();
        let mut taint = Taint::from_request(&req);
        taint.mark(&work.inputs);
        assert!(
            taint.marked.is_empty(),
            "cargo test does not run under memcheck"
        );
    }
}
