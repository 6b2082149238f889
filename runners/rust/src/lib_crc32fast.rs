//! rust/crc32fast: CRC-32 (ISO-HDLC) with a PCLMULQDQ path chosen at run time.
use crate::protocol::Fail;
use crate::registry::{Call, DIGEST, Entry, Job, Library, NO_PARAMS, entry, plain, put};
use crate::{build_info, cpu};

pub const LIBRARY: Library = Library {
    name: "crc32fast",
    crates: &["crc32fast"],
    backend: || ("crc32fast".into(), build_info::version("crc32fast").into()),
    code_path,
    notes: "crc32fast::hash one-shot; output is the u32 big-endian",
    tables: &[TABLE],
};

pub const TABLE: &[Entry] = &[entry("crc32", DIGEST, NO_PARAMS, "crc32fast::hash", crc32)];

/// The crate's run-time choice (crc32fast's `specialized::pclmulqdq` detection order).
fn code_path() -> String {
    let kind = if !(cpu::has("pclmulqdq") && cpu::has("sse4_1")) {
        "slice-by-16 table"
    } else if cpu::has("vpclmulqdq") && cpu::has("avx512f") {
        "VPCLMULQDQ folding, 512-bit"
    } else if cpu::has("vpclmulqdq") && cpu::has("avx2") {
        "VPCLMULQDQ folding, 256-bit"
    } else {
        "PCLMULQDQ folding, 128-bit"
    };
    format!("{kind} (run-time detected)")
}

fn crc32(call: &Call) -> Result<Box<dyn Job>, Fail> {
    let msg = call.take("msg")?;
    Ok(plain(move |out| {
        put(out, &crc32fast::hash(&msg).to_be_bytes());
        Ok(())
    }))
}
