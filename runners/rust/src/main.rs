//! cryptobench runner for Rust (protocol v1, docs/protocol.md): JSON Lines on stdin/stdout.
mod build_info;
mod cpu;
mod dispatch;
mod errors;
mod hello;
mod kem;
mod leak;
mod lib_awslc;
mod lib_awslc_pq;
mod lib_awslc_pubkey;
mod lib_bcrypt;
mod lib_blake3;
mod lib_crc32c;
mod lib_crc32fast;
mod lib_ring;
mod lib_ring_pubkey;
mod lib_rustcrypto;
mod lib_rustcrypto_aead;
mod lib_rustcrypto_hash;
mod lib_rustcrypto_kdf;
mod lib_rustcrypto_pq;
mod lib_rustcrypto_pubkey;
mod lib_rustcrypto_slhdsa;
mod lib_xxhash;
mod limits;
mod msggen;
mod prepare;
mod protocol;
mod pubkey;
mod registry;
mod taint;
mod threads;
mod timing;

use serde_json::Value;
use std::io::{self, Write};
use std::panic::{self, AssertUnwindSafe};

fn main() {
    let mut stdin = io::stdin().lock();
    let mut stdout = io::stdout().lock();
    while let Ok(Some(line)) = limits::read_request(&mut stdin) {
        let refused = match &line {
            Err(()) => Some("request line longer than 201326592 bytes"),
            Ok(raw) => limits::line_refusal(raw),
        };
        let response = match (
            refused,
            std::str::from_utf8(line.as_deref().unwrap_or_default()),
        ) {
            (None, Ok(text)) => answer(text),
            (Some(why), _) => protocol::error(&Value::Null, &protocol::bad_request(why)),
            (None, Err(_)) => protocol::error(&Value::Null, &protocol::bad_request("not UTF-8")),
        };
        let written = writeln!(stdout, "{response}").and_then(|()| stdout.flush());
        if written.is_err() {
            break;
        }
    }
}

/// One request line → one response object; never panics the runner on bad input.
fn answer(line: &str) -> Value {
    let request = match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(map)) => map,
        Ok(_) => return protocol::error(&Value::Null, &protocol::bad_request("not an object")),
        Err(e) => return protocol::error(&Value::Null, &protocol::bad_request(e.to_string())),
    };
    let id = match request.get("id") {
        Some(id @ Value::Number(n)) if n.is_i64() || n.is_u64() => id.clone(),
        _ => {
            return protocol::error(
                &Value::Null,
                &protocol::bad_request("id must be an integer"),
            );
        }
    };
    // A library that panics answers `internal` instead of taking the runner down.
    let handled = panic::catch_unwind(AssertUnwindSafe(|| dispatch::handle(&request)));
    match handled {
        Ok(Ok(result)) => protocol::ok(&id, result),
        Ok(Err(fail)) => protocol::error(&id, &fail),
        Err(_) => protocol::error(&id, &protocol::internal("the library panicked")),
    }
}

#[cfg(test)]
mod tests {
    use super::answer;
    use serde_json::json;

    fn kind(line: &str) -> serde_json::Value {
        answer(line)["error"]["kind"].clone()
    }

    #[test]
    fn bad_lines_are_bad_requests_with_a_null_id() {
        assert_eq!(kind("not json"), json!("bad_request"));
        assert_eq!(answer("[1]")["id"], json!(null));
        assert_eq!(kind(r#"{"id": 3, "op": "nope"}"#), json!("bad_request"));
    }

    #[test]
    fn noop_returns_the_length_through_any_library() {
        let line = r#"{"id": 1, "op": "compute", "impl": "ring", "primitive": "noop",
                       "operation": "digest", "inputs": {"msg": "0011"}, "params": {}}"#;
        let reply = answer(&line.replace('\n', " "));
        assert_eq!(reply["result"]["output"], json!("0000000000000002"));
    }

    #[test]
    fn every_library_lists_primitives() {
        let hello = answer(r#"{"id": 1, "op": "hello"}"#);
        let libs = hello["result"]["implementations"].as_array().unwrap();
        assert_eq!(libs.len(), 8);
        assert!(
            libs.iter()
                .all(|l| !l["primitives"].as_object().unwrap().is_empty())
        );
    }
}
