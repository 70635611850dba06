//! The report as one self-contained HTML page: styles, charts (inline
//! SVG) and the filters' one small script are all in the file, so it opens
//! from disk with no network and prints as it shows. Every text taken from
//! the answers is escaped, and the page's Content-Security-Policy lets
//! only its own script run (named by its hash), so a `<script>` in an
//! answer is shown, never run.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use sha2::{Digest, Sha256};

use crate::charts::{self, CodeBar, HeatPanel};
use crate::judged::Finding;
use crate::tally::{GroupSummary, Summary};
use crate::worst::Example;

/// The most groups the page shows (those with the most answers); the
/// others are in `--json`. With it, [`MAX_PAGE_EXAMPLES`] and each excerpt
/// bounded, the page's size is bounded whatever the input's (under 6 MB even
/// for answers made only of characters escaping lengthens; a few hundred
/// KB for a hundred groups of ordinary answers).
pub const MAX_PAGE_GROUPS: usize = 40;

/// The most worst answers the page shows, all groups together…
pub const MAX_PAGE_EXAMPLES: usize = 200;
/// …though each group shows at least this many of its own.
const MIN_PAGE_EXAMPLES: usize = 5;

/// The most findings a worst answer lists (and marks).
const MAX_LISTED_FINDINGS: usize = 12;

/// The most characters of a finding's message shown.
const MAX_MESSAGE_CHARS: usize = 300;

/// What the page says about where its numbers come from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct About {
    /// The input's name (a file name).
    pub input: String,
    /// What the answers were checked against (`spec examples/specs/answer.md`).
    pub checked_against: String,
}

/// `text` escaped for HTML text and attribute values.
///
/// ```
/// assert_eq!(flexmd_report::escape_html("<script>\"a\" & 'b'"), "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;");
/// ```
#[must_use]
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The filters: a group button hides or shows everything marked with that
/// group; a code button shows only the rows and answers that have it.
const SCRIPT: &str = r##"(() => {
  const off = new Set();
  let code = "";
  const apply = () => {
    for (const el of document.querySelectorAll("[data-group], [data-codes]")) {
      const group = el.dataset.group;
      const codes = el.dataset.codes;
      el.hidden = (group !== undefined && off.has(group)) ||
        (code !== "" && codes !== undefined && !codes.split(" ").includes(code));
    }
    for (const b of document.querySelectorAll("button[data-filter-group]")) {
      b.setAttribute("aria-pressed", String(!off.has(b.dataset.filterGroup)));
    }
    for (const b of document.querySelectorAll("button[data-filter-code]")) {
      b.setAttribute("aria-pressed", String(b.dataset.filterCode === code));
    }
    const shown = document.querySelectorAll("#worst article:not([hidden])").length;
    document.getElementById("worst-shown").textContent = String(shown);
  };
  document.addEventListener("click", (event) => {
    const b = event.target.closest("button");
    if (!b) return;
    if (b.dataset.filterGroup !== undefined) {
      const g = b.dataset.filterGroup;
      if (off.has(g)) off.delete(g); else off.add(g);
    } else if (b.dataset.filterCode !== undefined) {
      code = code === b.dataset.filterCode ? "" : b.dataset.filterCode;
    } else if (b.id === "show-all") {
      off.clear();
      code = "";
    } else {
      return;
    }
    apply();
  });
  apply();
})();"##;

const STYLE: &str = r#"
:root { color-scheme: light; --ink: #222; --muted: #666; --line: #ddd; --valid: #2e7d32; --lenient: #e6a014; --error: #c62828; --repair: #2860a8; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); margin: 0 auto; padding: 1.5rem; max-width: 1280px; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; }
h3 { font-size: 1rem; margin: 1rem 0 .25rem; }
p.lead, .muted { color: var(--muted); }
nav#filters { position: sticky; top: 0; background: #fff; border-bottom: 1px solid var(--line); padding: .5rem 0; z-index: 1; display: flex; flex-wrap: wrap; gap: .35rem; align-items: center; }
nav#filters span { font-weight: 600; margin: 0 .25rem 0 .75rem; }
button { font: inherit; font-size: .85rem; border: 1px solid #bbb; background: #f6f6f6; border-radius: 1rem; padding: .1rem .65rem; cursor: pointer; }
button[aria-pressed="true"] { background: #263238; color: #fff; border-color: #263238; }
button .swatch { display: inline-block; width: .7rem; height: .7rem; border-radius: 50%; margin-right: .3rem; vertical-align: -1px; }
table { border-collapse: collapse; margin: .5rem 0; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid var(--line); padding: .25rem .6rem; text-align: right; vertical-align: top; }
th:first-child, td:first-child { text-align: left; }
thead th { background: #fafafa; }
figure { margin: .5rem 0; }
figure svg { max-width: 100%; height: auto; }
figcaption { color: var(--muted); font-size: .85rem; }
.small-multiples { display: grid; grid-template-columns: repeat(auto-fill, minmax(520px, 1fr)); gap: 1rem; }
.legend i { display: inline-block; width: .8rem; height: .8rem; margin: 0 .25rem 0 .75rem; vertical-align: -1px; }
article { border: 1px solid var(--line); border-radius: .4rem; padding: .5rem .75rem; margin: .75rem 0; display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: .75rem; break-inside: avoid; }
article header { grid-column: 1 / -1; font-weight: 600; }
article ul { margin: 0; padding-left: 1.1rem; font-size: .9rem; }
article li { margin-bottom: .3rem; }
code { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.answer { font: 12.5px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #fbfbfb; border: 1px solid #eee; overflow-x: auto; margin: 0; }
.answer td { border: 0; padding: 0 .5rem; text-align: left; white-space: pre-wrap; word-break: break-word; }
.answer td.n { color: #999; text-align: right; user-select: none; width: 3rem; border-right: 1px solid #eee; }
mark { border-radius: 2px; }
mark.error { background: #ffcdd2; outline: 1px solid var(--error); }
mark.warning { background: #ffe9b3; }
mark.repair { background: #d4e3f7; }
mark.at { display: inline-block; width: 3px; height: 1.1em; vertical-align: text-bottom; padding: 0; }
mark.at.error { background: var(--error); } mark.at.warning { background: var(--lenient); } mark.at.repair { background: var(--repair); }
.kind-error { color: var(--error); } .kind-warning { color: #9a6700; } .kind-repair { color: var(--repair); }
.note { color: var(--muted); font-size: .85rem; }
@media print { nav#filters { display: none; } body { padding: 0; } h2 { break-after: avoid; } }
[hidden] { display: none !important; }
"#;

/// `bytes` in standard base64 (for the script's hash).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                let at = usize::try_from((n >> shift) & 63).unwrap_or(0);
                out.push(char::from(ALPHABET.get(at).copied().unwrap_or(b'A')));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A group's name on the page: its values, joined.
fn group_label(g: &GroupSummary) -> String {
    if g.group.is_empty() {
        "all answers".to_owned()
    } else {
        g.group.values().cloned().collect::<Vec<_>>().join(" · ")
    }
}

/// A share as the page prints it (`75.0%`).
fn pct(share: f64) -> String {
    format!("{:.1}%", share * 100.0)
}

/// The report as one self-contained HTML page.
///
/// ```
/// let spec = flexmd_ofs::parse_spec("- Short answer — prose\n").value;
/// let mut tally = flexmd_report::Tally::new(vec!["model".to_owned()]);
/// let answer = "## Long answer\n<script>alert(1)</script>\n";
/// let judged = flexmd_report::Judged::from_report(&flexmd_ofs::validate(answer, &spec), Some(12));
/// tally.add_answer(vec!["m".to_owned()], judged, 1, Some(answer));
/// let page = flexmd_report::render_html(&tally.summary(), &flexmd_report::About::default());
/// assert!(page.starts_with("<!doctype html>"));
/// assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
/// assert!(!page.contains("<script>alert"));
/// ```
#[must_use]
pub fn render_html(summary: &Summary, about: &About) -> String {
    let mut shown: Vec<(usize, &GroupSummary)> = summary.groups.iter().enumerate().collect();
    if shown.len() > MAX_PAGE_GROUPS {
        shown.sort_by_key(|(i, g)| (std::cmp::Reverse(g.answers), *i));
        shown.truncate(MAX_PAGE_GROUPS);
        shown.sort_by_key(|(i, _)| *i);
    }
    let groups: Vec<&GroupSummary> = shown.iter().map(|(_, g)| *g).collect();
    let labels: Vec<String> = groups.iter().map(|g| group_label(g)).collect();
    let hash = base64(&Sha256::digest(SCRIPT.as_bytes()));
    let mut page = String::with_capacity(256 << 10);
    let title = if about.input.is_empty() {
        "flexmd report".to_owned()
    } else {
        format!("flexmd report: {}", about.input)
    };
    let _ = write!(
        page,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-{hash}'\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        escape_html(&title)
    );
    headline(&mut page, summary, about, &groups, &labels);
    filters(&mut page, &groups, &labels);
    valid_section(&mut page, &groups, &labels);
    codes_section(&mut page, &groups, &labels);
    sections_section(&mut page, &groups, &labels);
    repairs_section(&mut page, &groups, &labels);
    lengths_section(&mut page, &groups, &labels);
    worst_section(&mut page, &groups, &labels);
    invalid_section(&mut page, summary);
    let _ = write!(
        page,
        "<footer><p class=\"note\">Made by flexmd report {} — the same figures as JSON: <code>flexmd report --json</code>.</p></footer>\n\
         <script>{SCRIPT}</script>\n</body>\n</html>\n",
        env!("CARGO_PKG_VERSION")
    );
    page
}

fn headline(
    page: &mut String,
    summary: &Summary,
    about: &About,
    groups: &[&GroupSummary],
    labels: &[String],
) {
    let _ = write!(
        page,
        "<header><h1>How well the answers follow the format</h1>\n<p class=\"lead\">{} answers",
        summary.answers
    );
    if !about.input.is_empty() {
        let _ = write!(page, " from <code>{}</code>", escape_html(&about.input));
    }
    if !about.checked_against.is_empty() {
        let _ = write!(
            page,
            ", checked against {}",
            escape_html(&about.checked_against)
        );
    }
    if !summary.group_by.is_empty() {
        let _ = write!(
            page,
            ", grouped by {}",
            escape_html(&summary.group_by.join(", "))
        );
    }
    let _ = write!(page, ".");
    if summary.invalid_lines.count > 0 {
        let _ = write!(
            page,
            " <a href=\"#invalid\">{} lines</a> hold no answer.",
            summary.invalid_lines.count
        );
    }
    if summary.groups.len() > groups.len() {
        let _ = write!(
            page,
            " The {} groups with the most answers are shown, of {}; all are in <code>--json</code>.",
            groups.len(),
            summary.groups.len()
        );
    }
    page.push_str("</p></header>\n<table id=\"headline\">\n<thead><tr><th>group</th><th>answers</th><th>valid</th><th>valid share</th><th>95% interval</th><th>lenient</th><th>lenient share</th></tr></thead>\n<tbody>\n");
    for (i, (g, label)) in groups.iter().zip(labels).enumerate() {
        let interval = g.valid_interval.as_ref().map_or("–".to_owned(), |v| {
            format!("{} – {}", pct(v.low), pct(v.high))
        });
        let _ = writeln!(
            page,
            "<tr data-group=\"g{i}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{interval}</td><td>{}</td><td>{}</td></tr>",
            escape_html(label),
            g.answers,
            g.valid,
            pct(g.valid_share),
            g.lenient,
            pct(g.lenient_share)
        );
    }
    page.push_str("</tbody></table>\n");
}

/// Every code met, in the order the charts show them: errors, then
/// leniencies, then repairs, each most frequent first.
fn all_codes(groups: &[&GroupSummary]) -> Vec<(String, &'static str)> {
    let mut codes = Vec::new();
    for (kind, pick) in [
        (
            "error",
            (|g: &GroupSummary| &g.errors) as fn(&GroupSummary) -> &BTreeMap<String, u64>,
        ),
        ("warning", |g: &GroupSummary| &g.warnings),
        ("repair", |g: &GroupSummary| &g.repairs),
    ] {
        let mut totals: BTreeMap<&str, u64> = BTreeMap::new();
        for g in groups {
            for (code, n) in pick(g) {
                *totals.entry(code).or_default() += n;
            }
        }
        let mut sorted: Vec<(&str, u64)> = totals.into_iter().collect();
        sorted.sort_by_key(|(c, n)| (std::cmp::Reverse(*n), *c));
        codes.extend(sorted.into_iter().map(|(c, _)| (c.to_owned(), kind)));
    }
    codes
}

fn filters(page: &mut String, groups: &[&GroupSummary], labels: &[String]) {
    page.push_str("<nav id=\"filters\" aria-label=\"filters\"><span>Groups</span>");
    for (i, label) in labels.iter().enumerate() {
        let color = charts::group_color(i);
        let _ = write!(
            page,
            "<button type=\"button\" data-filter-group=\"g{i}\" aria-pressed=\"true\"><i class=\"swatch\" style=\"background: rgb({}, {}, {})\"></i>{}</button>",
            color.0,
            color.1,
            color.2,
            escape_html(&charts::short(label, 40))
        );
    }
    let codes = all_codes(groups);
    if !codes.is_empty() {
        page.push_str("<span>Codes</span>");
        for (code, kind) in &codes {
            let _ = write!(
                page,
                "<button type=\"button\" class=\"kind-{kind}\" data-filter-code=\"{}\" aria-pressed=\"false\">{}</button>",
                escape_html(code),
                escape_html(code)
            );
        }
    }
    page.push_str("<button type=\"button\" id=\"show-all\">Show all</button></nav>\n");
}

/// A chart, or a note saying why it is missing.
fn figure(page: &mut String, drawn: charts::Drawn, caption: &str) {
    match drawn {
        Ok(svg) => {
            let _ = writeln!(
                page,
                "<figure>{svg}<figcaption>{}</figcaption></figure>",
                escape_html(caption)
            );
        }
        Err(why) => {
            let _ = writeln!(
                page,
                "<p class=\"note\">This chart could not be drawn: {}</p>",
                escape_html(&why)
            );
        }
    }
}

fn valid_section(page: &mut String, groups: &[&GroupSummary], labels: &[String]) {
    page.push_str("<section id=\"valid\"><h2>Valid answers</h2>\n<p class=\"legend\"><i style=\"background: var(--valid)\"></i>valid <i style=\"background: var(--lenient)\"></i>valid only leniently (a label for a heading, <code>*</code> bullets, a JSON repair…) — the whisker is the 95% Wilson interval of the valid share.</p>\n");
    figure(
        page,
        charts::valid_shares(labels, groups),
        "Valid share per group, with its 95% interval.",
    );
    page.push_str("</section>\n");
}

fn codes_section(page: &mut String, groups: &[&GroupSummary], labels: &[String]) {
    let codes = all_codes(groups);
    page.push_str("<section id=\"codes\"><h2>Violations, leniencies and repairs by code</h2>\n");
    if codes.is_empty() {
        page.push_str("<p>No answer has a problem.</p></section>\n");
        return;
    }
    page.push_str("<p class=\"legend\"><i style=\"background: var(--error)\"></i>error <i style=\"background: var(--lenient)\"></i>lenient reading <i style=\"background: var(--repair)\"></i>JSON repair</p>\n<div class=\"small-multiples\">\n");
    for (i, (g, label)) in groups.iter().zip(labels).enumerate() {
        let bars: Vec<CodeBar> = codes
            .iter()
            .map(|(code, kind)| {
                let color = match *kind {
                    "error" => charts::ERROR,
                    "warning" => charts::LENIENT,
                    _ => charts::REPAIR,
                };
                let map = counts_of(g, kind);
                CodeBar {
                    code: code.clone(),
                    color,
                    count: map.get(code).copied().unwrap_or(0),
                }
            })
            .collect();
        let _ = writeln!(
            page,
            "<div data-group=\"g{i}\"><h3>{}</h3>",
            escape_html(label)
        );
        figure(
            page,
            charts::codes(&bars, g.answers),
            "Answers with each code, as a share of the group's answers.",
        );
        page.push_str("</div>\n");
    }
    page.push_str("</div>\n");
    let rows: Vec<(&str, Option<&str>)> =
        codes.iter().map(|(c, k)| (c.as_str(), Some(*k))).collect();
    codes_table(page, "codes-table", &rows, groups, labels);
    page.push_str("</section>\n");
}

/// A group's map of the codes of `kind` (`error`, `warning`, `repair`).
fn counts_of<'g>(g: &'g GroupSummary, kind: &str) -> &'g BTreeMap<String, u64> {
    match kind {
        "error" => &g.errors,
        "warning" => &g.warnings,
        _ => &g.repairs,
    }
}

/// A table of codes (rows, each `(code, kind)`; a kind of `None` is a
/// repair and gets no column) × groups (columns), each cell the count;
/// rows and columns marked for the filters.
fn codes_table(
    page: &mut String,
    id: &str,
    rows: &[(&str, Option<&str>)],
    groups: &[&GroupSummary],
    labels: &[String],
) {
    let with_kind = rows.iter().any(|(_, k)| k.is_some());
    let _ = write!(page, "<table id=\"{id}\"><thead><tr><th>code</th>");
    if with_kind {
        page.push_str("<th>kind</th>");
    }
    for (i, label) in labels.iter().enumerate() {
        let _ = write!(page, "<th data-group=\"g{i}\">{}</th>", escape_html(label));
    }
    page.push_str("</tr></thead><tbody>\n");
    for (code, kind) in rows {
        let _ = write!(
            page,
            "<tr data-codes=\"{}\"><td><code>{}</code></td>",
            escape_html(code),
            escape_html(code)
        );
        if let Some(kind) = kind {
            let _ = write!(page, "<td class=\"kind-{kind}\">{kind}</td>");
        }
        for (i, g) in groups.iter().enumerate() {
            let count = counts_of(g, kind.unwrap_or("repair"));
            let _ = write!(
                page,
                "<td data-group=\"g{i}\">{}</td>",
                count.get(*code).copied().unwrap_or(0)
            );
        }
        page.push_str("</tr>\n");
    }
    page.push_str("</tbody></table>\n");
}

fn sections_section(page: &mut String, groups: &[&GroupSummary], labels: &[String]) {
    let mut sections: Vec<String> = groups
        .iter()
        .flat_map(|g| g.sections.keys().cloned())
        .collect();
    sections.sort();
    sections.dedup();
    page.push_str("<section id=\"sections\"><h2>Sections × groups</h2>\n");
    if sections.is_empty() {
        page.push_str(
            "<p>No section is missing, empty or of the wrong kind in any answer.</p></section>\n",
        );
        return;
    }
    let answers: Vec<u64> = groups.iter().map(|g| g.answers).collect();
    let cells = |pick: fn(&crate::SectionCounts) -> u64| -> Vec<Vec<u64>> {
        groups
            .iter()
            .map(|g| {
                sections
                    .iter()
                    .map(|s| g.sections.get(s).map_or(0, pick))
                    .collect()
            })
            .collect()
    };
    let panels = [
        HeatPanel {
            title: "missing",
            color: charts::ERROR,
            cells: cells(|c| c.missing),
        },
        HeatPanel {
            title: "empty",
            color: charts::LENIENT,
            cells: cells(|c| c.empty),
        },
        HeatPanel {
            title: "wrong kind",
            color: plotters::style::RGBColor(123, 31, 162),
            cells: cells(|c| c.wrong_kind),
        },
    ];
    figure(
        page,
        charts::heat_map(labels, &sections, &answers, &panels),
        "Answers whose section is missing, empty or of the wrong kind (a bulleted list for a numbered one, no table, a JSON value of another type); the darker, the larger the share of the group.",
    );
    page.push_str("<table id=\"sections-table\"><thead><tr><th>group</th>");
    for s in &sections {
        let _ = write!(page, "<th>{}</th>", escape_html(s));
    }
    page.push_str("</tr></thead><tbody>\n");
    for (i, (g, label)) in groups.iter().zip(labels).enumerate() {
        let _ = write!(
            page,
            "<tr data-group=\"g{i}\"><td>{}</td>",
            escape_html(label)
        );
        for s in &sections {
            let c = g.sections.get(s).cloned().unwrap_or_default();
            let _ = write!(
                page,
                "<td>{} / {} / {} / {}</td>",
                c.missing, c.empty, c.wrong_kind, c.other
            );
        }
        page.push_str("</tr>\n");
    }
    page.push_str("</tbody></table>\n<p class=\"note\">Each cell: missing / empty / wrong kind / other.</p></section>\n");
}

fn repairs_section(page: &mut String, groups: &[&GroupSummary], labels: &[String]) {
    let mut totals: BTreeMap<&str, u64> = BTreeMap::new();
    for g in groups {
        for (kind, n) in &g.repairs {
            *totals.entry(kind).or_default() += n;
        }
    }
    page.push_str("<section id=\"repairs\"><h2>JSON repairs</h2>\n");
    if totals.is_empty() {
        page.push_str(
            "<p>No answer's JSON needed a repair (or no answer was JSON).</p></section>\n",
        );
        return;
    }
    let mut kinds: Vec<(String, u64)> =
        totals.into_iter().map(|(k, n)| (k.to_owned(), n)).collect();
    kinds.sort_by_key(|(k, n)| (std::cmp::Reverse(*n), k.clone()));
    figure(
        page,
        charts::totals(&kinds, charts::REPAIR, "repairs made"),
        "The repairs made to read the answers' JSON, most frequent first.",
    );
    let rows: Vec<(&str, Option<&str>)> = kinds.iter().map(|(k, _)| (k.as_str(), None)).collect();
    codes_table(page, "repairs-table", &rows, groups, labels);
    page.push_str("</section>\n");
}

fn lengths_section(page: &mut String, groups: &[&GroupSummary], labels: &[String]) {
    page.push_str("<section id=\"lengths\"><h2>Answer length</h2>\n");
    figure(
        page,
        charts::lengths(labels, groups),
        "How long the answers are, in tokens (o200k), as a share of each group's answers.",
    );
    page.push_str("</section>\n");
}

fn worst_section(page: &mut String, groups: &[&GroupSummary], labels: &[String]) {
    // Each group shows as many as the page's share allows, at least a few.
    let per_group = (MAX_PAGE_EXAMPLES / groups.len().max(1)).max(MIN_PAGE_EXAMPLES);
    let kept: usize = groups.iter().map(|g| g.worst.len()).sum();
    let total: usize = groups.iter().map(|g| g.worst.len().min(per_group)).sum();
    let more = if kept > total {
        format!(" ({per_group} a group of the {kept} kept; all are in <code>--json</code>)")
    } else {
        String::new()
    };
    let _ = writeln!(
        page,
        "<section id=\"worst\"><h2>The worst answers</h2>\n<p class=\"note\">Per group, the answers with the most errors (then the most leniencies and repairs); <span id=\"worst-shown\">{total}</span> of {total} shown{more}. The problem's place is marked in the answer.</p>"
    );
    for (i, (g, label)) in groups.iter().zip(labels).enumerate() {
        for example in g.worst.iter().take(per_group) {
            worst_answer(page, i, label, example);
        }
    }
    page.push_str("</section>\n");
}

/// How a finding is marked: its kind and its severity (higher wins where
/// two overlap).
fn kinds(example: &Example) -> Vec<(&Finding, &'static str, u8)> {
    let mut all = Vec::new();
    for (findings, kind, rank) in [
        (&example.errors, "error", 3),
        (&example.warnings, "warning", 2),
        (&example.repairs, "repair", 1),
    ] {
        all.extend(findings.iter().map(|f| (f, kind, rank)));
    }
    all
}

fn worst_answer(page: &mut String, group: usize, label: &str, example: &Example) {
    let findings = kinds(example);
    let mut codes: Vec<&str> = findings.iter().map(|(f, _, _)| f.code.as_str()).collect();
    codes.sort_unstable();
    codes.dedup();
    let verdict = if example.valid {
        "valid, leniently"
    } else {
        "invalid"
    };
    let _ = write!(
        page,
        "<article data-group=\"g{group}\" data-codes=\"{}\"><header>{} — line {} of the input — {verdict}</header>\n<div>",
        escape_html(&codes.join(" ")),
        escape_html(label),
        example.line
    );
    match &example.excerpt {
        Some(excerpt) => excerpt_table(page, excerpt, &findings),
        None => page.push_str("<p class=\"note\">The answer's text is not in the input (read back from results: give the answers with <code>--answers</code> to see it).</p>"),
    }
    page.push_str("</div>\n<ul>");
    for (f, kind, _) in findings.iter().take(MAX_LISTED_FINDINGS) {
        let _ = write!(
            page,
            "<li><code class=\"kind-{kind}\">{}</code>",
            escape_html(&f.code)
        );
        if let Some(section) = &f.section {
            let _ = write!(page, " <b>{}</b>", escape_html(section));
        }
        if !f.message.is_empty() {
            let _ = write!(
                page,
                " — {}",
                escape_html(&charts::short(&f.message, MAX_MESSAGE_CHARS))
            );
        }
        page.push_str("</li>");
    }
    if findings.len() > MAX_LISTED_FINDINGS {
        let _ = write!(
            page,
            "<li class=\"note\">… and {} more</li>",
            findings.len() - MAX_LISTED_FINDINGS
        );
    }
    page.push_str("</ul></article>\n");
}

/// The excerpt as numbered lines, each finding's span marked.
fn excerpt_table(
    page: &mut String,
    excerpt: &crate::Excerpt,
    findings: &[(&Finding, &'static str, u8)],
) {
    let start = excerpt.start;
    let marks: Vec<(usize, usize, &'static str, u8, &str)> = findings
        .iter()
        .take(MAX_LISTED_FINDINGS)
        .filter_map(|(f, kind, rank)| {
            let span = f.span.as_ref()?;
            Some((
                span.start,
                span.end.max(span.start),
                *kind,
                *rank,
                f.code.as_str(),
            ))
        })
        .collect();
    if excerpt.start > 0 {
        let _ = write!(
            page,
            "<p class=\"note\">… {} lines above</p>",
            excerpt.first_line - 1
        );
    }
    page.push_str("<table class=\"answer\"><tbody>");
    let mut at = start;
    for (n, line) in excerpt.text.split_inclusive('\n').enumerate() {
        let (line_start, line_end) = (at, at + line.len());
        at = line_end;
        let body = line.strip_suffix('\n').unwrap_or(line);
        let body = body.strip_suffix('\r').unwrap_or(body);
        let _ = write!(
            page,
            "<tr><td class=\"n\">{}</td><td>",
            excerpt.first_line + n
        );
        marked_line(page, body, line_start, &marks);
        page.push_str("</td></tr>");
    }
    page.push_str("</tbody></table>");
    let end = start + excerpt.text.len();
    if end < excerpt.answer_length {
        let _ = write!(
            page,
            "<p class=\"note\">… {} more bytes below</p>",
            excerpt.answer_length - end
        );
    }
}

/// One line's text (starting at byte `from` of the answer), the marks'
/// overlaps with it wrapped in `<mark>`, empty marks drawn as a bar.
fn marked_line(
    page: &mut String,
    body: &str,
    from: usize,
    marks: &[(usize, usize, &'static str, u8, &str)],
) {
    let to = from + body.len();
    let mut cuts: Vec<usize> = vec![0, body.len()];
    for &(s, e, ..) in marks {
        for p in [s, e] {
            if (from..=to).contains(&p) {
                cuts.push(p - from);
            }
        }
    }
    cuts.retain(|&c| body.is_char_boundary(c));
    cuts.sort_unstable();
    cuts.dedup();
    for (i, &cut) in cuts.iter().enumerate() {
        // Point marks (an empty span) at this cut.
        for &(s, e, kind, _, code) in marks {
            if s == e && s == from + cut {
                let _ = write!(
                    page,
                    "<mark class=\"at {kind}\" title=\"{}\"></mark>",
                    escape_html(code)
                );
            }
        }
        let Some(&next) = cuts.get(i + 1) else { break };
        let text = body.get(cut..next).unwrap_or_default();
        let (a, b) = (from + cut, from + next);
        let cover = marks
            .iter()
            .filter(|&&(s, e, ..)| s < e && s < b && a < e)
            .max_by_key(|m| m.3);
        match cover {
            Some(&(_, _, kind, _, code)) => {
                let _ = write!(
                    page,
                    "<mark class=\"{kind}\" title=\"{}\">{}</mark>",
                    escape_html(code),
                    escape_html(text)
                );
            }
            None => page.push_str(&escape_html(text)),
        }
    }
}

fn invalid_section(page: &mut String, summary: &Summary) {
    let invalid = &summary.invalid_lines;
    let _ = write!(
        page,
        "<section id=\"invalid\"><h2>Lines that hold no answer</h2>\n<p><span id=\"invalid-count\">{}</span> lines of the input hold no answer (not JSON, no answer field, not text); they are counted here and nowhere else.</p>\n",
        invalid.count
    );
    if !invalid.listed.is_empty() {
        page.push_str("<table id=\"invalid-table\"><thead><tr><th>line</th><th>code</th><th>why</th></tr></thead><tbody>\n");
        for l in &invalid.listed {
            let _ = writeln!(
                page,
                "<tr><td>{}</td><td><code>{}</code></td><td style=\"text-align: left\">{}</td></tr>",
                l.line,
                escape_html(&l.code),
                escape_html(&charts::short(&l.message, MAX_MESSAGE_CHARS))
            );
        }
        page.push_str("</tbody></table>\n");
        if invalid.count > invalid.listed.len() as u64 {
            let _ = writeln!(
                page,
                "<p class=\"note\">The first {} are listed.</p>",
                invalid.listed.len()
            );
        }
    }
    page.push_str("</section>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_standard() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    #[test]
    fn marks_wrap_their_span_and_points_are_bars() {
        let mut page = String::new();
        let marks = [
            (12, 16, "error", 3, "bad"),
            (20, 20, "repair", 1, "missing_comma"),
        ];
        marked_line(&mut page, "say <b>&</b> x", 10, &marks);
        assert_eq!(
            page,
            "sa<mark class=\"error\" title=\"bad\">y &lt;b</mark>&gt;&amp;&lt;/<mark class=\"at repair\" title=\"missing_comma\"></mark>b&gt; x"
        );
    }
}
