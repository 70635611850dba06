//! The grammar dialects (`GrammarFormat`) and their names. A leaf: it knows
//! no rule and no schema.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A grammar dialect, by the engines that read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum GrammarFormat {
    /// Lark, as llguidance reads it (vLLM, SGLang, llama.cpp's
    /// `%llguidance`): rules in lowercase, regular pieces as `/regex/`
    /// terminals in uppercase; the start rule is `start`.
    Lark,
    /// GBNF, llama.cpp's grammar format (`--grammar-file`, the server's
    /// `grammar`): `name ::= …`, rule names of letters, digits and `-`;
    /// the start rule is `root`.
    Gbnf,
    /// XGrammar's EBNF (vLLM, SGLang, MLC): GBNF's syntax with `_` in rule
    /// names; the start rule is `root`.
    Ebnf,
    /// One regular expression, anchored (`^…$`), for Outlines and other
    /// regex-constrained decoders; a recursive schema has none.
    Regex,
}

impl GrammarFormat {
    /// Every format, in the order the CLI lists them.
    pub const ALL: [GrammarFormat; 4] = [
        GrammarFormat::Lark,
        GrammarFormat::Gbnf,
        GrammarFormat::Ebnf,
        GrammarFormat::Regex,
    ];

    /// The name the CLI and the bindings use.
    pub fn name(self) -> &'static str {
        match self {
            GrammarFormat::Lark => "lark",
            GrammarFormat::Gbnf => "gbnf",
            GrammarFormat::Ebnf => "ebnf",
            GrammarFormat::Regex => "regex",
        }
    }
}

impl fmt::Display for GrammarFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of [`GrammarFormat::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[error("unknown grammar format `{0}`: use lark, gbnf, ebnf or regex")]
#[diagnostic(code(constrain::unknown_format))]
pub struct UnknownFormat(pub String);

impl FromStr for GrammarFormat {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GrammarFormat::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| UnknownFormat(s.to_owned()))
    }
}
