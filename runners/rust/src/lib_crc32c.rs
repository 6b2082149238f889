//! rust/crc32c: CRC-32C (Castagnoli) with the SSE4.2 crc32 instruction chosen at run time.
use crate::protocol::Fail;
use crate::registry::{Call, DIGEST, Entry, Job, Library, NO_PARAMS, entry, plain, put};
use crate::{build_info, cpu};

pub const LIBRARY: Library = Library {
    name: "crc32c",
    crates: &["crc32c"],
    backend: || ("crc32c".into(), build_info::version("crc32c").into()),
    code_path: || {
        if cpu::has("sse4_2") {
            "SSE4.2 crc32 instruction (run-time detected)".into()
        } else {
            "software tables".into()
        }
    },
    notes: "crc32c::crc32c one-shot; output is the u32 big-endian",
    tables: &[TABLE],
};

pub const TABLE: &[Entry] = &[entry("crc32c", DIGEST, NO_PARAMS, "crc32c::crc32c", crc32c)];

fn crc32c(call: &Call) -> Result<Box<dyn Job>, Fail> {
    let msg = call.take("msg")?;
    Ok(plain(move |out| {
        put(out, &crc32c::crc32c(&msg).to_be_bytes());
        Ok(())
    }))
}
