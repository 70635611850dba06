//! Running one checked call: the base tools (head, tail, cat, grep,
//! counts) on any artifact, the `artifact_json_*` tools on a JSON one and
//! the `artifact_md_*` tools on a Markdown one, each result written within
//! the caps by `tools/result.rs`.

use serde_json::Value;

use crate::artifact::SpooledArtifact;
use crate::error::ArtifactError;
use crate::json::SpooledJsonArtifact;
use crate::kind::Artifact;
use crate::markdown::SpooledMarkdownArtifact;
use crate::tokens::Encoding;
use crate::tools::ToolSet;
use crate::tools::args::Args;
use crate::tools::catalogue::{Family, Spec};
use crate::tools::result::Caps;
use crate::tools::result::{
    BoundedList, ErasedList, capped_text, erased, lines_result, list_result, value_result,
};

impl ToolSet<'_> {
    /// Runs a checked call of `spec` on `artifact` (the one its `callId`
    /// names), within this set's caps.
    pub(super) fn run(
        &self,
        spec: &Spec,
        args: &Args<'_>,
        artifact: &Artifact,
    ) -> Result<String, ArtifactError> {
        match (spec.family, artifact) {
            (Family::Base, _) => run_base(spec, args, artifact.base(), self.caps),
            (Family::Json, Artifact::Json(a)) => run_json(spec, args, a, self.caps),
            (Family::Markdown, Artifact::Markdown(a)) => run_markdown(spec, args, a, self.caps),
            _ => Err(wrong_kind(spec)),
        }
    }
}

/// The base tools, on the lines of any artifact.
fn run_base(
    spec: &Spec,
    args: &Args<'_>,
    base: &SpooledArtifact,
    caps: Caps,
) -> Result<String, ArtifactError> {
    let lines = |list: Vec<String>, total: Option<usize>| lines_result(list, total, caps);
    Ok(match spec.name {
        "artifact_head" | "artifact_tail" => {
            let n = args.int("n").unwrap_or(10);
            let shown = n.min(caps.lines);
            let got = if spec.name == "artifact_head" {
                base.head(shown)
            } else {
                base.tail(shown)
            };
            // Fewer than asked: that is all there is. Only a request
            // over the cap needs the count (and so the line index).
            let total = if got.len() < shown || n == shown {
                got.len()
            } else {
                n.min(base.line_count())
            };
            lines(got, Some(total))
        }
        "artifact_cat" => {
            let range = crate::artifact::slice_range(
                base.line_count(),
                args.signed("start"),
                args.signed("end"),
            );
            let shown = range.start..range.end.min(range.start.saturating_add(caps.lines));
            lines(base.lines(shown), Some(range.len()))
        }
        "artifact_grep" => {
            let flags = args.str("flags").unwrap_or("");
            let pattern = crate::grep::GrepPattern::new(
                args.str("pattern").unwrap_or_default(),
                crate::grep::GrepFlags::parse(flags)?,
            )?;
            let numbered = args.values.get("lineNumbers") == Some(&Value::Bool(true));
            let hits =
                base.grep_hits_until(&pattern, 0, None, caps.lines.saturating_add(1), &|| false)?;
            let more = hits.len() > caps.lines;
            let shown: Vec<String> = hits
                .into_iter()
                .take(caps.lines)
                .map(|hit| {
                    let line = String::from_utf8_lossy(base.reader().byte_range(hit.range));
                    if numbered {
                        format!("{}:{line}", hit.line + 1)
                    } else {
                        line.into_owned()
                    }
                })
                .collect();
            let mut text = lines(shown, None);
            if more {
                text.push_str(&format!(
                    "\n[truncated: more than {} matching lines; make the pattern more specific]",
                    caps.lines
                ));
            }
            text
        }
        "artifact_byte_length" => base.byte_length().to_string(),
        "artifact_line_count" => base.line_count().to_string(),
        "artifact_estimate_tokens" => {
            let encoding: Encoding = args.str("encoding").unwrap_or("o200k_base").parse()?;
            base.estimate_tokens(encoding).to_string()
        }
        _ => return Err(wrong_kind(spec)),
    })
}

/// The `artifact_json_*` tools.
fn run_json(
    spec: &Spec,
    args: &Args<'_>,
    a: &SpooledJsonArtifact,
    caps: Caps,
) -> Result<String, ArtifactError> {
    let lines = |list: Vec<String>, total: Option<usize>| lines_result(list, total, caps);
    Ok(match spec.name {
        "artifact_json_type" => a.json_type().name().to_owned(),
        "artifact_json_keys" => match a.json_keys()? {
            Some(keys) => lines(keys, None),
            None => "(undefined)".to_owned(),
        },
        "artifact_json_length" => a.json_length()?.to_string(),
        "artifact_json_get" | "artifact_json_pluck" => {
            let path = args.str("path").unwrap_or("$");
            let mut out = BoundedList::new(caps);
            a.json_get_each(path, &mut |v| out.push(v))?;
            out.finish()
        }
        "artifact_json_filter" => {
            let path = args.str("path").unwrap_or("$");
            let mut out = BoundedList::new(caps);
            for v in &a.json_filter_limited(path, caps.lines.saturating_add(1))? {
                out.push(v);
            }
            out.finish()
        }
        "artifact_json_slice" => {
            let range = a.record_range(args.signed("start"), args.signed("end"))?;
            // One more than the cap, to know whether to say so.
            let end = range
                .end
                .min(range.start.saturating_add(caps.lines.saturating_add(1)));
            let mut out = BoundedList::new(caps);
            for v in &a.records(range.start..end)? {
                out.push(v);
            }
            out.finish()
        }
        _ => return Err(wrong_kind(spec)),
    })
}

/// The `artifact_md_*` tools.
fn run_markdown(
    spec: &Spec,
    args: &Args<'_>,
    a: &SpooledMarkdownArtifact,
    caps: Caps,
) -> Result<String, ArtifactError> {
    let value = |v: &dyn erased::Serialize| value_result(v, caps);
    let list = |items: &dyn ErasedList, total: Option<usize>| list_result(items, total, caps);
    let (start, end) = (args.int("startLine"), args.int("endLine"));
    let depth = args.int("depth").and_then(|d| u8::try_from(d).ok());
    Ok(match spec.name {
        "artifact_md_frontmatter" => match a.md_frontmatter()? {
            Some(fm) => value(&fm),
            None => "(undefined)".to_owned(),
        },
        // Only what can be shown is built: 1 GB of Markdown
        // has hundreds of thousands of sections.
        "artifact_md_headings" => {
            let shown: Vec<_> = a
                .headings(depth)
                .take(caps.lines.saturating_add(1))
                .collect();
            list(&shown, Some(a.heading_count(depth)))
        }
        "artifact_md_sections" => {
            let shown: Vec<_> = a
                .sections(depth)
                .take(caps.lines.saturating_add(1))
                .collect();
            list(&shown, Some(a.heading_count(depth)))
        }
        "artifact_md_code_blocks" => {
            let all = a.md_code_blocks(args.str("lang"));
            list(&all, Some(all.len()))
        }
        // Parsed only as far as can be shown.
        "artifact_md_links" => {
            let shown = a.inline_limited(start, end, false, caps.lines.saturating_add(1));
            list(&shown, None)
        }
        "artifact_md_images" => {
            let shown: Vec<_> = a
                .inline_limited(start, end, true, caps.lines.saturating_add(1))
                .into_iter()
                .map(crate::markdown::Image::from_link)
                .collect();
            list(&shown, None)
        }
        "artifact_md_text" => capped_text(
            a.md_text_limited(start, end, caps.bytes.saturating_add(1)),
            caps,
        ),
        "artifact_md_ast" => value(&a.md_ast(start, end)?),
        _ => return Err(wrong_kind(spec)),
    })
}

fn wrong_kind(spec: &Spec) -> ArtifactError {
    ArtifactError::Call(format!(
        "{}: this artifact is not of the kind the tool reads",
        spec.name
    ))
}
