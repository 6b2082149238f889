//! Request limits (docs/protocol.md, "Limits"): what a line may hold before it is parsed, and
//! the largest sizes a request may ask for (refused before anything is allocated).
use std::io::{self, BufRead};

/// Bytes of a request line before its newline.
pub const LINE_LIMIT: usize = 192 << 20;
/// Arrays and objects, the request object included.
pub const DEPTH_LIMIT: usize = 64;
pub const MAX_GENERATED: u64 = 1 << 40;
pub const MAX_ITERATIONS: u64 = 1 << 40;
pub const MAX_BATCHES: u64 = 1 << 16;

/// A line, or `Err(())` for a line over `LINE_LIMIT`, read to its end without being kept.
pub type Line = Result<Vec<u8>, ()>;

/// The next line without its newline; `None` at EOF.
pub fn read_request(input: &mut impl BufRead) -> io::Result<Option<Line>> {
    let (mut line, mut any, mut too_long) = (Vec::new(), false, false);
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        any = true;
        let (take, done) = match buf.iter().position(|&c| c == b'\n') {
            Some(i) => (i, true),
            None => (buf.len(), false),
        };
        if !too_long && line.len() + take > LINE_LIMIT {
            too_long = true;
            line = Vec::new();
        }
        if !too_long {
            line.extend_from_slice(&buf[..take]);
        }
        input.consume(if done { take + 1 } else { take });
        if done {
            break;
        }
    }
    Ok(any.then_some(if too_long { Err(()) } else { Ok(line) }))
}

/// Why a line is refused before parsing (empty, not UTF-8, nested too deep), or `None`.
pub fn line_refusal(line: &[u8]) -> Option<&'static str> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    if line.iter().all(|c| matches!(c, b' ' | b'\t' | b'\r')) {
        return Some("empty request line");
    }
    for &c in line {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > DEPTH_LIMIT {
                    return Some("JSON nested deeper than 64 levels");
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    if std::str::from_utf8(line).is_err() {
        return Some("request line is not UTF-8");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{LINE_LIMIT, line_refusal, read_request};

    #[test]
    fn refuses_empty_deep_and_non_utf8_lines_only() {
        assert_eq!(line_refusal(b" \t\r"), Some("empty request line"));
        let deep = format!("{}{}", "[".repeat(65), "]".repeat(65));
        assert!(line_refusal(deep.as_bytes()).is_some());
        let ok = format!("{}{}", "[".repeat(64), "]".repeat(64));
        assert_eq!(line_refusal(ok.as_bytes()), None);
        assert_eq!(line_refusal(br#"{"x": "[[[[\"]]"}"#), None);
        assert!(line_refusal(b"{\"x\": \"\xff\"}").is_some());
    }

    #[test]
    fn skips_a_line_over_the_limit() {
        let mut data = vec![b'a'; LINE_LIMIT + 1];
        data.extend_from_slice(b"\nnext\nlast");
        let mut input = &data[..];
        assert_eq!(read_request(&mut input).unwrap(), Some(Err(())));
        assert_eq!(
            read_request(&mut input).unwrap(),
            Some(Ok(b"next".to_vec()))
        );
        assert_eq!(
            read_request(&mut input).unwrap(),
            Some(Ok(b"last".to_vec()))
        );
        assert_eq!(read_request(&mut input).unwrap(), None);
    }
}
