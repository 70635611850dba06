//! Token counts, offline.

use std::str::FromStr;

use crate::error::ArtifactError;

/// A tokenizer to count with.
///
/// The OpenAI encodings are exact (their ranks ship inside `bpe-openai` and
/// `tiktoken-rs`); `claude` is @nhtio/adk's estimate, `ceil(UTF-16 units /
/// 3.5)`. Encodings whose tokenizer files are not bundled (`gemini`,
/// `gemma`, `llama2`) are refused by [`Encoding::from_str`] rather than
/// guessed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// GPT-2 (the same ranks and pattern as `r50k_base`).
    Gpt2,
    /// GPT-3 (ada, babbage, curie, davinci).
    R50kBase,
    /// Codex, text-davinci-002/003.
    P50kBase,
    /// The edit models (as `p50k_base` for ordinary text).
    P50kEdit,
    /// GPT-3.5, GPT-4.
    Cl100kBase,
    /// GPT-4o, o1, o3, o4.
    O200kBase,
    /// Anthropic's models: an estimate, `ceil(UTF-16 units / 3.5)`.
    Claude,
}

impl Encoding {
    /// Every encoding, in the order of [`Encoding::name`]s above.
    pub const ALL: [Encoding; 7] = [
        Self::Gpt2,
        Self::R50kBase,
        Self::P50kBase,
        Self::P50kEdit,
        Self::Cl100kBase,
        Self::O200kBase,
        Self::Claude,
    ];

    /// The encoding's name (`cl100k_base`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Gpt2 => "gpt2",
            Self::R50kBase => "r50k_base",
            Self::P50kBase => "p50k_base",
            Self::P50kEdit => "p50k_edit",
            Self::Cl100kBase => "cl100k_base",
            Self::O200kBase => "o200k_base",
            Self::Claude => "claude",
        }
    }
}

impl FromStr for Encoding {
    type Err = ArtifactError;

    /// ```
    /// use flexmd_artifact::Encoding;
    /// assert_eq!("o200k_base".parse::<Encoding>().unwrap(), Encoding::O200kBase);
    /// let err = "gemini".parse::<Encoding>().unwrap_err().to_string();
    /// assert!(err.contains("not bundled"), "{err}");
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Some(e) = Self::ALL.iter().find(|e| e.name() == s) {
            return Ok(*e);
        }
        let names: Vec<&str> = Self::ALL.iter().map(|e| e.name()).collect();
        let why = match s {
            "gemini" | "gemma" | "llama2" => format!(
                "`{s}` needs its model's tokenizer file, which is not bundled (no count is better than a wrong one)"
            ),
            _ => format!("unknown encoding `{s}`"),
        };
        Err(ArtifactError::Call(format!(
            "{why}; use one of {}",
            names.join(", ")
        )))
    }
}

/// Content past this size is counted in chunks (bounded memory).
const CHUNK: usize = 1 << 20;

/// The smallest chunk [`count_tokens_chunk`] takes.
const MIN_CHUNK: usize = 4 << 10;

/// The number of tokens in `bytes` (decoded lossily) under `encoding`.
///
/// Large content is counted in chunks of about 1 MiB, each cut just before
/// a space that starts a word — a place where the encoders' pre-tokenizer
/// splits anyway, so the total is the whole text's count. For the tiktoken
/// encodings (`gpt2`, `r50k_base`, `p50k_*`), a run of one character class
/// (letters, digits, spaces) longer than 256 bytes is cut too — their merge
/// step is quadratic in a run's length — which may change the count by a
/// token or two per cut; ordinary text has no such runs.
///
/// ```
/// use flexmd_artifact::{Encoding, count_tokens};
/// assert_eq!(count_tokens(b"hello world", Encoding::Cl100kBase), 2);
/// assert_eq!(count_tokens(b"hello world", Encoding::Claude), 4);
/// assert_eq!(count_tokens(b"", Encoding::O200kBase), 0);
/// ```
pub fn count_tokens(bytes: &[u8], encoding: Encoding) -> usize {
    count_tokens_releasing(bytes, encoding, &|_| {})
}

/// [`count_tokens`], calling `release` with each byte range it is done
/// with (a mapped file's pages are then dropped behind the count).
pub(crate) fn count_tokens_releasing(
    bytes: &[u8],
    encoding: Encoding,
    release: &dyn Fn(std::ops::Range<usize>),
) -> usize {
    let mut total = 0;
    let mut at = Some(0);
    // A cancelled call (crate::cancellable) stops between chunks.
    while let Some(start) = at.filter(|_| !crate::cancel::cancelled()) {
        let chunk = count_tokens_chunk(bytes, start, CHUNK, encoding);
        total += chunk.tokens;
        release(start..chunk.next.unwrap_or(bytes.len()));
        at = chunk.next;
    }
    total
}

/// One chunk of a token count done a chunk at a time: its tokens, and
/// where the next chunk starts (`None` after the last).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct TokenChunk {
    /// The tokens of this chunk.
    pub tokens: usize,
    /// The byte offset to count from next; `None` when the text is done.
    pub next: Option<usize>,
}

/// The tokens of the chunk of `bytes` that starts at byte `start` and
/// holds at most `max_bytes` (4 KiB to 1 MiB; outside, the nearest): for a
/// caller that must give control back between chunks (an event loop).
/// Starting at 0 and then at each chunk's `next`, the sum is
/// [`count_tokens`] of the whole: chunks are cut just before a space that
/// starts a word, as `count_tokens` cuts its own. A `start` past the end is
/// an empty last chunk.
///
/// ```
/// use flexmd_artifact::{Encoding, count_tokens, count_tokens_chunk};
/// let text = "word ".repeat(500_000);
/// let (mut total, mut at, mut chunks) = (0, Some(0), 0);
/// while let Some(start) = at {
///     let chunk = count_tokens_chunk(text.as_bytes(), start, 1 << 20, Encoding::O200kBase);
///     total += chunk.tokens;
///     at = chunk.next;
///     chunks += 1;
/// }
/// assert_eq!(chunks, 3);
/// assert_eq!(total, count_tokens(text.as_bytes(), Encoding::O200kBase));
/// ```
pub fn count_tokens_chunk(
    bytes: &[u8],
    start: usize,
    max_bytes: usize,
    encoding: Encoding,
) -> TokenChunk {
    let size = max_bytes.clamp(MIN_CHUNK, CHUNK);
    let rest = bytes.get(start..).unwrap_or_default();
    let cut = if rest.len() <= size {
        rest.len()
    } else {
        word_start_before(rest, size)
    };
    let chunk = rest.get(..cut).unwrap_or_default();
    let end = start.saturating_add(cut);
    TokenChunk {
        tokens: count_text(&String::from_utf8_lossy(chunk), encoding),
        next: (end < bytes.len()).then_some(end),
    }
}

/// The last offset at or before `limit` holding a space followed by a
/// non-space (`limit` itself when there is none in the window).
fn word_start_before(bytes: &[u8], limit: usize) -> usize {
    let window = bytes.get(..=limit).unwrap_or(bytes);
    window
        .windows(2)
        .rposition(|w| matches!(w, [b' ', next] if !next.is_ascii_whitespace()))
        .filter(|&p| p > 0)
        .unwrap_or_else(|| {
            // No word boundary: cut at a character boundary instead.
            let mut cut = limit.min(bytes.len());
            while cut > 0 && bytes.get(cut).is_some_and(|b| b & 0xC0 == 0x80) {
                cut -= 1;
            }
            cut.max(1)
        })
}

/// The longest run of one character class (letters, digits, spaces, other)
/// the tiktoken encodings are given whole: their merge step is quadratic in
/// a pre-token's length (100 KB of `a` took 7 s), and their pre-tokenizer
/// overflows its stack on a run of about 1 MB (a panic inside tiktoken-rs).
/// Longer runs are cut here; each cut may change the count by a token or two.
const MAX_RUN: usize = 256;

/// `text` cut into pieces whose same-class runs are at most [`MAX_RUN`]
/// bytes; runs that short are left whole, so ordinary text is one piece.
fn run_pieces(text: &str) -> Vec<&str> {
    fn class(c: char) -> u8 {
        if c.is_alphabetic() {
            0
        } else if c.is_numeric() {
            1
        } else if c.is_whitespace() {
            2
        } else {
            3
        }
    }
    let mut pieces = Vec::new();
    let (mut piece_start, mut run_start) = (0, 0);
    let mut previous = None;
    for (i, c) in text.char_indices() {
        let k = class(c);
        if previous != Some(k) {
            run_start = i;
            previous = Some(k);
        } else if i - run_start >= MAX_RUN {
            pieces.push(text.get(piece_start..i).unwrap_or_default());
            piece_start = i;
            run_start = i;
        }
    }
    pieces.push(text.get(piece_start..).unwrap_or_default());
    pieces
}

/// A tiktoken-rs count, its long runs cut ([`MAX_RUN`]), and a panic inside
/// the tokenizer contained: the piece is then counted in halves, and below
/// 64 bytes estimated at one token per byte.
fn count_tiktoken(
    text: &str,
    encode: &(dyn Fn(&str) -> usize + std::panic::RefUnwindSafe),
) -> usize {
    run_pieces(text)
        .into_iter()
        .map(|piece| count_contained(piece, encode))
        .sum()
}

fn count_contained(
    piece: &str,
    encode: &(dyn Fn(&str) -> usize + std::panic::RefUnwindSafe),
) -> usize {
    if let Ok(n) = std::panic::catch_unwind(|| encode(piece)) {
        return n;
    }
    if piece.len() < 64 {
        return piece.len();
    }
    let mut half = piece.len() / 2;
    while !piece.is_char_boundary(half) {
        half -= 1;
    }
    let (a, b) = piece.split_at(half);
    count_contained(a, encode) + count_contained(b, encode)
}

fn count_text(text: &str, encoding: Encoding) -> usize {
    match encoding {
        Encoding::Cl100kBase => count_cl100k(text),
        Encoding::O200kBase => count_o200k(text),
        Encoding::Gpt2 | Encoding::R50kBase => count_tiktoken(text, &|t| {
            tiktoken_rs::r50k_base_singleton().encode_ordinary(t).len()
        }),
        Encoding::P50kBase => count_tiktoken(text, &|t| {
            tiktoken_rs::p50k_base_singleton().encode_ordinary(t).len()
        }),
        Encoding::P50kEdit => count_tiktoken(text, &|t| {
            tiktoken_rs::p50k_edit_singleton().encode_ordinary(t).len()
        }),
        Encoding::Claude => {
            let units = text.encode_utf16().count();
            // ceil(units / 3.5) in integers.
            (units * 2).div_ceil(7)
        }
    }
}

// bpe-openai counts fastest, from tables built at compile time (47 MB for
// the two encodings). In WebAssembly the module's size is what a page
// downloads, so there the same encodings are counted by tiktoken-rs from
// its ranks (5 MB): the same tokens (a property test compares them), more
// slowly, runs past `MAX_RUN` bytes cut as for the other encodings.

#[cfg(not(target_family = "wasm"))]
fn count_cl100k(text: &str) -> usize {
    bpe_openai::cl100k_base().count(text)
}

#[cfg(not(target_family = "wasm"))]
fn count_o200k(text: &str) -> usize {
    bpe_openai::o200k_base().count(text)
}

#[cfg(target_family = "wasm")]
fn count_cl100k(text: &str) -> usize {
    count_tiktoken(text, &|t| {
        tiktoken_rs::cl100k_base_singleton()
            .encode_ordinary(t)
            .len()
    })
}

#[cfg(target_family = "wasm")]
fn count_o200k(text: &str) -> usize {
    count_tiktoken(text, &|t| {
        tiktoken_rs::o200k_base_singleton().encode_ordinary(t).len()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        // What WebAssembly builds count with (tiktoken-rs) gives the same
        // tokens as what native builds count with (bpe-openai).
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn tiktoken_and_bpe_openai_agree(text in "(\\PC|[ \n\t]){0,200}") {
            let o200k = tiktoken_rs::o200k_base_singleton().encode_ordinary(&text).len();
            prop_assert_eq!(o200k, bpe_openai::o200k_base().count(&text));
            let cl100k = tiktoken_rs::cl100k_base_singleton().encode_ordinary(&text).len();
            prop_assert_eq!(cl100k, bpe_openai::cl100k_base().count(&text));
        }
    }

    #[test]
    fn known_counts() {
        let text = b"The quick brown fox jumps over the lazy dog.";
        let counts: Vec<(Encoding, usize)> = Encoding::ALL
            .iter()
            .map(|&e| (e, count_tokens(text, e)))
            .collect();
        assert_eq!(
            counts,
            [
                (Encoding::Gpt2, 10),
                (Encoding::R50kBase, 10),
                (Encoding::P50kBase, 10),
                (Encoding::P50kEdit, 10),
                (Encoding::Cl100kBase, 10),
                (Encoding::O200kBase, 10),
                (Encoding::Claude, 13),
            ]
        );
        assert_eq!(count_tokens("日本語".as_bytes(), Encoding::Claude), 1);
    }

    #[test]
    fn long_runs_are_cut_and_counted_close() {
        // Regression (issue 20): 1 MB of one letter, digit or space panicked
        // inside tiktoken-rs, and 100 KB took seconds.
        for unit in ["a", "7", " "] {
            let text = unit.repeat(1_000_000);
            let n = count_tokens(text.as_bytes(), Encoding::Gpt2);
            assert!(n > 0, "{unit:?}");
        }
        // Runs at the limit are whole; longer ones cut at most every 256 bytes,
        // which moves the count by a token or so per cut.
        let run = "a".repeat(MAX_RUN);
        assert_eq!(run_pieces(&run), [run.as_str()]);
        let long = "a".repeat(10 * MAX_RUN);
        assert_eq!(run_pieces(&long).len(), 10);
        let exact = tiktoken_rs::r50k_base_singleton()
            .encode_ordinary(&long)
            .len();
        let cut = count_tokens(long.as_bytes(), Encoding::Gpt2);
        assert!(cut.abs_diff(exact) <= 10, "{cut} vs {exact}");
        // Ordinary text is one piece, so its count is exact.
        let text = "The quick brown fox, 1234 times.\n".repeat(100);
        assert_eq!(run_pieces(&text).len(), 1);
    }

    #[test]
    fn chunked_counts_equal_whole_counts() {
        let text = "word, another word; some more text here.\n".repeat(60_000);
        assert!(text.len() > 2 * CHUNK);
        let whole = bpe_openai::cl100k_base().count(text.as_str());
        assert_eq!(count_tokens(text.as_bytes(), Encoding::Cl100kBase), whole);
    }
}
