//! The documented fixed point of flexmd-frames: writing what was read, then
//! reading and writing that again, gives the same text. A difference is a
//! crash. Run: `cargo +nightly fuzz run frames_roundtrip` (from `fuzz/`).

#![no_main]

use flexmd_frames::{ParseOptions, StringifyOptions, parse, stringify};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let (read, write) = (ParseOptions::default(), StringifyOptions::default());
    let once = stringify(&parse(text, &read).value, &write);
    let twice = stringify(&parse(&once, &read).value, &write);
    assert_eq!(once, twice, "not a fixed point for {text:?}");
});
