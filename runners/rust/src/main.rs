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

    /// RFC 4231, test case 2: HMAC-SHA-256 of "what do ya want for nothing?" under "Jefe".
    const RFC4231_2: [&str; 3] = [
        "4a656665",
        "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    ];

    fn hmac_verify(lib: &str, op: &str, tag: &str, fresh: bool) -> serde_json::Value {
        let [key, msg, _] = RFC4231_2;
        let req = json!({"id": 1, "op": op, "impl": lib, "primitive": "hmac-sha256",
            "operation": "verify", "inputs": {"key": key, "msg": msg, "tag": tag},
            "params": {"fresh_context": fresh}, "iterations": 3, "batches": 2});
        answer(&req.to_string())
    }

    /// Every library offering hmac-sha256 offers `verify`: "ok" for the RFC's tag in compute
    /// and in bench (reused and fresh key); a flipped first or last byte, a truncated, an
    /// empty or a longer tag is auth_failed; a tag that is not hex is a bad request.
    #[test]
    fn hmac_verify_accepts_only_the_full_tag() {
        let tag = RFC4231_2[2];
        let flip = |i: usize| {
            let mut b = hex::decode(tag).unwrap();
            b[i] ^= 1;
            hex::encode(b)
        };
        let refused = [
            flip(0),
            flip(31),
            tag[..32].to_string(),
            String::new(),
            format!("{tag}00"),
        ];
        for lib in ["rustcrypto", "ring", "aws-lc-rs"] {
            for fresh in [false, true] {
                assert_eq!(
                    hmac_verify(lib, "compute", tag, fresh)["result"]["output"],
                    json!("ok")
                );
                let bench = hmac_verify(lib, "bench", tag, fresh);
                assert_eq!(bench["result"]["output"], json!("ok"), "{lib}: {bench}");
                assert_eq!(bench["result"]["samples"].as_array().unwrap().len(), 2);
                for bad in &refused {
                    let got = hmac_verify(lib, "compute", bad, fresh);
                    assert_eq!(
                        got["error"]["kind"],
                        json!("auth_failed"),
                        "{lib} {bad}: {got}"
                    );
                }
            }
            for bad in ["abc", "zz"] {
                let got = hmac_verify(lib, "compute", bad, false);
                assert_eq!(
                    got["error"]["kind"],
                    json!("bad_request"),
                    "{lib} {bad}: {got}"
                );
            }
        }
    }

    /// A leak request over two verify classes (tags wrong at either end): both auth_failed.
    #[test]
    fn hmac_verify_leak_classes_fail_authentication() {
        let [key, msg, tag] = RFC4231_2;
        let last = format!("{}42", &tag[..62]);
        let req = json!({"id": 1, "op": "leak", "impl": "ring", "primitive": "hmac-sha256",
            "operation": "verify", "inputs": {"key": key, "msg": msg},
            "classes": [{"tag": format!("00{}", &tag[2..])}, {"tag": last}],
            "params": {"fresh_context": false}, "order": "AAEBAA==", "taint": ["key"]});
        let got = answer(&req.to_string());
        assert_eq!(
            got["result"]["outcomes"],
            json!(["auth_failed", "auth_failed"]),
            "{got}"
        );
        assert!(got["result"].get("tainted").is_none(), "not under memcheck");
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
