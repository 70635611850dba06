//! The report as a short Markdown table, for a CI comment or a chat.

use std::fmt::Write as _;

use crate::tally::{GroupSummary, Summary};

/// How many codes a group's row names (the most frequent).
const TOP_CODES: usize = 3;

/// Text safe in a Markdown table cell: `|` escaped, line breaks as spaces.
fn cell(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ")
}

fn pct(share: f64) -> String {
    format!("{:.1}%", share * 100.0)
}

/// The group's most frequent errors, then leniencies and repairs.
fn top_codes(g: &GroupSummary) -> String {
    let mut all: Vec<(&str, u64)> = g
        .errors
        .iter()
        .chain(&g.warnings)
        .chain(&g.repairs)
        .map(|(c, n)| (c.as_str(), *n))
        .collect();
    all.sort_by_key(|(c, n)| (std::cmp::Reverse(*n), *c));
    let shown: Vec<String> = all
        .iter()
        .take(TOP_CODES)
        .map(|(c, n)| format!("`{}` ×{n}", c.replace('`', "'")))
        .collect();
    if shown.is_empty() {
        "–".to_owned()
    } else {
        cell(&shown.join(", "))
    }
}

/// The report as a Markdown summary: one row per group (answers, valid
/// share and its 95% interval, lenient share, the most frequent codes).
///
/// ```
/// let mut tally = flexmd_report::Tally::new(vec!["model".to_owned()]);
/// tally.add(vec!["a|b".to_owned()], &flexmd_report::Judged { valid: true, ..Default::default() });
/// let table = flexmd_report::render_markdown(&tally.summary());
/// assert!(table.contains("| a\\|b | 1 | 100.0% | 20.7% – 100.0% | 0.0% | – |"));
/// ```
#[must_use]
pub fn render_markdown(summary: &Summary) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "**{} answers**{}{}\n",
        summary.answers,
        if summary.group_by.is_empty() {
            String::new()
        } else {
            format!(", grouped by {}", cell(&summary.group_by.join(", ")))
        },
        if summary.invalid_lines.count > 0 {
            format!("; {} lines hold no answer", summary.invalid_lines.count)
        } else {
            String::new()
        }
    );
    out.push_str("| group | answers | valid | 95% interval | lenient | most frequent |\n");
    out.push_str("|---|---:|---:|---|---:|---|\n");
    for g in &summary.groups {
        let label = if g.group.is_empty() {
            "all answers".to_owned()
        } else {
            g.group.values().cloned().collect::<Vec<_>>().join(" · ")
        };
        let interval = g.valid_interval.as_ref().map_or("–".to_owned(), |v| {
            format!("{} – {}", pct(v.low), pct(v.high))
        });
        let _ = writeln!(
            out,
            "| {} | {} | {} | {interval} | {} | {} |",
            cell(&label),
            g.answers,
            pct(g.valid_share),
            pct(g.lenient_share),
            top_codes(g)
        );
    }
    out
}
