//! The batch reader on any bytes: the first byte sets the reader's buffer
//! (1–256 bytes), the second the longest line kept (0–255 bytes), the rest
//! is the input. Never a panic; line numbers only grow; every record is a
//! line of the input (its `\r` and, on line 1, a byte-order mark dropped);
//! every record's answer is found or refused without a panic.

#![no_main]

use flexmd_batch::{JsonLines, RecordError};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [capacity, max, input @ ..] = data else {
        return;
    };
    let reader = std::io::BufReader::with_capacity(usize::from(*capacity) + 1, input);
    let lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    let mut last = 0;
    for record in JsonLines::with_max_line_bytes(reader, usize::from(*max)) {
        let line = match &record {
            Ok(r) => r.line,
            Err(e) => e.line(),
        };
        assert!(line > last, "line numbers grow: {line} after {last}");
        last = line;
        if let Ok(r) = record {
            let raw = lines[line - 1];
            let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
            let raw = if line == 1 { raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(raw) } else { raw };
            assert_eq!(r.text.as_bytes(), raw);
            let _ = r.answer("response");
        } else if let Err(RecordError::TooLong { limit, .. }) = record {
            assert_eq!(limit, usize::from(*max));
        }
    }
});
