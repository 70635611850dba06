//! What an LLM answer holds around its JSON, as every reader of answers in
//! this crate knows it: the reasoning tags a model wraps its thinking in,
//! the fence languages and the tier each gives the JSON inside, and the
//! nesting limit. `find_json`, the repair parser and `StreamingJson` read
//! them here, so what the stream skips is what `find_json` skips.
//!
//! A leaf: it imports nothing of the crate.

/// The nesting limit of every JSON step (serde_json's own default).
pub(crate) const MAX_DEPTH: usize = 128;

/// The reasoning tags a model may wrap its thinking in, each with its
/// closing tag.
pub(crate) const REASONING_TAGS: [(&str, &str); 4] = [
    ("think", "</think>"),
    ("thinking", "</thinking>"),
    ("reasoning", "</reasoning>"),
    ("scratchpad", "</scratchpad>"),
];

/// What a fence's language (its info string's first word, lowercased)
/// says about the JSON in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FenceLang {
    /// `json`, `json5`, `jsonc`, `jsonl`, `ndjson`: JSON first of all.
    Json,
    /// No language, or JavaScript or TypeScript: JSON is likely.
    Code,
    /// Markdown (FlexMD included, which may quote whole answers with their
    /// fences) and plain text: prose, searched as the text around fences.
    Prose,
    /// Another language's code.
    Other,
}

/// The kind of fence whose language is `lang` (lowercased).
#[inline]
pub(crate) fn fence_lang(lang: &str) -> FenceLang {
    match lang {
        "json" | "json5" | "jsonc" | "jsonl" | "ndjson" => FenceLang::Json,
        "" | "javascript" | "js" | "typescript" | "ts" => FenceLang::Code,
        "markdown" | "md" | "flexmd" | "text" | "txt" | "plain" | "plaintext" => FenceLang::Prose,
        _ => FenceLang::Other,
    }
}

/// The offset of `needle` (ASCII, any case) in `bytes` from `from`.
#[inline]
pub(crate) fn find_ascii_ci(bytes: &[u8], from: usize, needle: &str) -> Option<usize> {
    let hay = bytes.get(from..)?;
    hay.windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
        .map(|i| from + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fence_languages_by_kind() {
        assert_eq!(fence_lang("json5"), FenceLang::Json);
        assert_eq!(fence_lang(""), FenceLang::Code);
        assert_eq!(fence_lang("ts"), FenceLang::Code);
        assert_eq!(fence_lang("flexmd"), FenceLang::Prose);
        assert_eq!(fence_lang("python"), FenceLang::Other);
    }

    #[test]
    fn ascii_search_ignores_case() {
        assert_eq!(find_ascii_ci(b"a </THINK> b", 0, "</think>"), Some(2));
        assert_eq!(find_ascii_ci(b"a </THINK> b", 3, "</think>"), None);
        assert_eq!(find_ascii_ci(b"ab", 5, "a"), None);
    }
}
