//! Properties of the JSON Lines reader and the ordered parallel map.

use flexmd_batch::{JsonLines, ParallelMap, RecordError};
use proptest::prelude::*;

/// What the reader should give, computed the obvious way on the whole text.
fn expected(text: &str, max: usize) -> Vec<Result<(usize, String), RecordError>> {
    let mut out = Vec::new();
    for (i, raw) in text.split('\n').enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let line = if i == 0 {
            line.strip_prefix('\u{feff}').unwrap_or(line)
        } else {
            line
        };
        if line.len() > max {
            out.push(Err(RecordError::TooLong {
                line: i + 1,
                limit: max,
            }));
        } else if !line
            .trim_matches(|c: char| c.is_ascii_whitespace())
            .is_empty()
        {
            out.push(Ok((i + 1, line.to_owned())));
        }
    }
    out
}

fn line_strategy() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("  ".to_owned()),
        "[a-z\"{}:, é😀]{1,12}",
        "[a-z]{1,30}\r",
    ]
}

proptest! {
    #[test]
    fn the_reader_gives_every_non_blank_line_whatever_the_reads(
        lines in prop::collection::vec(line_strategy(), 0..20),
        capacity in 1usize..40,
        trailing_break in any::<bool>(),
    ) {
        let mut text = lines.join("\n");
        if trailing_break {
            text.push('\n');
        }
        let max = 1 << 20;
        let reader = std::io::BufReader::with_capacity(capacity, text.as_bytes());
        let got: Vec<_> = JsonLines::with_max_line_bytes(reader, max)
            .map(|r| r.map(|r| (r.line, r.text)))
            .collect();
        prop_assert_eq!(got, expected(&text, max));
    }

    #[test]
    fn the_parallel_map_equals_the_plain_map(
        inputs in prop::collection::vec(any::<u32>(), 0..300),
        jobs in 0usize..6,
    ) {
        let f = |n: u32| u64::from(n).wrapping_mul(2_654_435_761) % 1009;
        let plain: Vec<u64> = inputs.iter().copied().map(f).collect();
        let parallel: Vec<u64> = ParallelMap::new(inputs.into_iter(), jobs, f).collect();
        prop_assert_eq!(parallel, plain);
    }
}

#[test]
fn lines_over_the_limit_are_errors_in_their_place() {
    let text = "\"short\"\n\"a much longer line\"\n\"ok\"\n";
    let got: Vec<_> = JsonLines::with_max_line_bytes(text.as_bytes(), 10)
        .map(|r| r.map(|r| r.line).map_err(|e| e.code()))
        .collect();
    assert_eq!(got, [Ok(1), Err("line_too_long"), Ok(3)]);
}
