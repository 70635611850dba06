//! `Artifact`, one artifact of any kind, and `ArtifactKind`; `ReadAs`,
//! how a file is read as one.
//!
//! Must not import `tools/`: the tools read artifacts, not the other way.

use std::path::Path;
use std::str::FromStr;

use crate::artifact::SpooledArtifact;
use crate::error::ArtifactError;
use crate::json::{JsonFormat, SpooledJsonArtifact};
use crate::markdown::SpooledMarkdownArtifact;
use crate::reader::SpoolReader;

/// One artifact of any kind.
#[derive(Debug)]
pub enum Artifact {
    /// Plain text: the base tools only.
    Text(SpooledArtifact),
    /// JSON: the base tools and the `artifact_json_*` tools.
    Json(SpooledJsonArtifact),
    /// Markdown: the base tools and the `artifact_md_*` tools.
    Markdown(SpooledMarkdownArtifact),
}

/// The kinds of [`Artifact`], for saying which a tool works on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArtifactKind {
    /// Plain text.
    Text,
    /// JSON, JSON5 or JSON Lines.
    Json,
    /// Markdown.
    Markdown,
}

impl Artifact {
    /// The line operations every artifact has.
    pub fn base(&self) -> &SpooledArtifact {
        match self {
            Self::Text(a) => a,
            Self::Json(a) => a.base(),
            Self::Markdown(a) => a.base(),
        }
    }

    /// Which kind it is.
    pub fn kind(&self) -> ArtifactKind {
        match self {
            Self::Text(_) => ArtifactKind::Text,
            Self::Json(_) => ArtifactKind::Json,
            Self::Markdown(_) => ArtifactKind::Markdown,
        }
    }

    /// How it is read: the [`ReadAs`](crate::ReadAs) that reads it again
    /// this way (a JSON artifact's format as detected).
    pub fn read_as(&self) -> crate::ReadAs {
        use crate::{JsonFormat, ReadAs};
        match self {
            Self::Text(_) => ReadAs::Text,
            Self::Markdown(_) => ReadAs::Markdown,
            Self::Json(a) => match a.json_type() {
                JsonFormat::Json => ReadAs::Json,
                JsonFormat::Json5 => ReadAs::Json5,
                JsonFormat::Jsonl => ReadAs::Jsonl,
                JsonFormat::Ndjson => ReadAs::Ndjson,
            },
        }
    }
}

/// How a file is read as an artifact: the kinds of content the tools know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReadAs {
    /// JSON, JSON5 or JSON Lines, told apart by content.
    Json,
    /// JSON5 (comments, trailing commas, unquoted keys).
    Json5,
    /// JSON Lines: one value per line.
    Jsonl,
    /// The same as [`ReadAs::Jsonl`], under its other name.
    Ndjson,
    /// Markdown.
    Markdown,
    /// Plain text: the line tools only.
    Text,
}

impl ReadAs {
    /// The kind a file's extension gives: `.json`, `.json5`, `.jsonl`,
    /// `.ndjson` are JSON of that format, `.md` and `.markdown` Markdown,
    /// anything else text.
    ///
    /// ```
    /// use flexmd_artifact::ReadAs;
    /// assert_eq!(ReadAs::for_path("logs/run.JSONL".as_ref()), ReadAs::Jsonl);
    /// assert_eq!(ReadAs::for_path("notes.txt".as_ref()), ReadAs::Text);
    /// ```
    pub fn for_path(path: &Path) -> Self {
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match extension.as_deref() {
            Some("json") => Self::Json,
            Some("json5") => Self::Json5,
            Some("jsonl") => Self::Jsonl,
            Some("ndjson") => Self::Ndjson,
            Some("md" | "markdown") => Self::Markdown,
            _ => Self::Text,
        }
    }

    /// The kind's name, as `--as` and the bindings spell it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Json => "json",
            Self::Json5 => "json5",
            Self::Jsonl => "jsonl",
            Self::Ndjson => "ndjson",
            Self::Markdown => "markdown",
            Self::Text => "text",
        }
    }
}

impl FromStr for ReadAs {
    type Err = ArtifactError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "json" => Self::Json,
            "json5" => Self::Json5,
            "jsonl" => Self::Jsonl,
            "ndjson" => Self::Ndjson,
            "markdown" | "md" => Self::Markdown,
            "text" => Self::Text,
            other => {
                return Err(ArtifactError::Call(format!(
                    "unknown kind `{other}`: read as json, json5, jsonl, ndjson, markdown or text"
                )));
            }
        })
    }
}

impl Artifact {
    /// An artifact over `reader`, read as `kind`. JSON whose format is not
    /// given (`ReadAs::Json`) has it inferred from the content, and content
    /// that is no JSON in any format is an error.
    ///
    /// ```
    /// use flexmd_artifact::{Artifact, ArtifactKind, MemoryReader, ReadAs};
    /// let a = Artifact::read(MemoryReader::new("# Title\n"), ReadAs::Markdown).unwrap();
    /// assert_eq!(a.kind(), ArtifactKind::Markdown);
    /// assert!(Artifact::read(MemoryReader::new("not json"), ReadAs::Json).is_err());
    /// ```
    pub fn read(reader: impl SpoolReader + 'static, kind: ReadAs) -> Result<Self, ArtifactError> {
        let format = match kind {
            ReadAs::Json5 => Some(JsonFormat::Json5),
            ReadAs::Jsonl => Some(JsonFormat::Jsonl),
            ReadAs::Ndjson => Some(JsonFormat::Ndjson),
            ReadAs::Json => None,
            ReadAs::Markdown => return Ok(Self::Markdown(SpooledMarkdownArtifact::new(reader))),
            ReadAs::Text => return Ok(Self::Text(SpooledArtifact::new(reader))),
        };
        Ok(Self::Json(SpooledJsonArtifact::new(reader, format)?))
    }
}
