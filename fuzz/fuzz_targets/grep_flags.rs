//! A fuzzed grep: the first byte picks the flags (i, m, s, u by bit), the
//! line up to the first newline is the pattern, the rest the text (any
//! bytes). Never a panic; every line returned is a line of the text; the
//! same grep a window at a time (windows of 1 to 16 bytes, from the flag
//! byte's high bits) returns the same lines.

#![no_main]

use flexmd_artifact::{GrepFlags, GrepPattern, MemoryReader, SpooledArtifact};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&bits, rest)) = data.split_first() else {
        return;
    };
    let split = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
    let (pattern, text) = rest.split_at(split);
    let Ok(pattern) = std::str::from_utf8(pattern) else {
        return;
    };
    let flags: String = ["i", "m", "s", "u"]
        .iter()
        .enumerate()
        .filter(|(i, _)| bits & (1 << i) != 0)
        .map(|(_, f)| *f)
        .collect();
    let Ok(flags) = flags.parse::<GrepFlags>() else {
        return;
    };
    let artifact = SpooledArtifact::new(MemoryReader::new(text.to_vec()));
    let lines = artifact.cat(None, None);
    if let Ok(found) = artifact.grep(pattern, flags) {
        assert!(
            found.len() <= lines.len(),
            "grep found more lines than there are"
        );
        for line in &found {
            assert!(
                lines.contains(line),
                "grep returned a line the text lacks: {line:?}"
            );
        }
        let pattern = GrepPattern::new(pattern, flags).unwrap();
        let window = usize::from(bits >> 4) + 1;
        let (mut windows, mut at) = (Vec::new(), Some(0));
        while let Some(start) = at {
            let chunk = artifact.grep_chunk(&pattern, start, window).unwrap();
            assert!(
                chunk.next.is_none_or(|next| next > start),
                "a window went back"
            );
            windows.extend(chunk.lines);
            at = chunk.next;
        }
        assert_eq!(
            windows, found,
            "grep by windows differs from the whole grep"
        );
    }
});
