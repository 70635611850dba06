//! `cargo xtask bench [--quick] [ROW...]`: flexmd beside the libraries its
//! users would otherwise use, on the same inputs, in the same run.
//!
//! Builds the release binaries once; generates the inputs with seeded
//! generators (under `target/bench-data/`, never in git); installs the
//! peers locally (a venv and an npm folder under `target/bench-peers/`,
//! never globally; a peer that cannot be installed is skipped with a
//! message, its rows marked so); runs each pair back to back, timing each
//! operation inside its own runtime (a timing loop in the Rust example, the
//! Node script and the Python script: the median of several rounds), or the
//! whole process where that is how people run the tool; writes
//! `target/bench/results.json` and the tables between the `xtask bench`
//! markers of docs/benchmarks.md (date, machine, versions, and per row the
//! two figures and their ratio, flexmd ÷ peer: below 1 is faster).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde_json::{Value, json};

use crate::workspace::{Result, cargo, root};

/// The rows, in the order they run and are written.
const ROWS: &[(&str, &str)] = &[
    (
        "outline",
        "answer → sections: validate + extract (`check`) and the outline beside a full Markdown parse, per input",
    ),
    (
        "json",
        "broken JSON → value: `find_json` beside the repairers, per case, on the llm-json conformance cases; and on a 1 MB valid document beside a bare `serde_json` parse",
    ),
    (
        "schema",
        "schema validation of 100 000 `review` instances, one in ten invalid, per instance",
    ),
    (
        "artifact",
        "artifacts: whole `flexmd artifact` runs beside the Unix tools on a large log, JSON Lines file (wall time and peak RSS, best of the runs)",
    ),
    (
        "batch",
        "batch throughput: generated answers checked, extracted and their JSON found, per answer (whole run)",
    ),
    (
        "report",
        "`flexmd report` (HTML and `--json`, 100 groups) beside `flexmd validate --jsonl`, the batch check it runs, on generated answers: per answer (whole run), with peak memory and the page's size",
    ),
    (
        "python",
        "the Python package per call beside the Python libraries it replaces, each call crossing into the extension and back: `loads`, `find_json` and the batch `find_json_many` (one call for every case) beside json_repair on the llm-json cases, `validate` (the outcome, no coercion) and the batch `validate_many` beside Python jsonschema on 100 000 `review` instances",
    ),
    (
        "npm",
        "the npm package (WebAssembly) per call beside the JavaScript libraries it replaces, each call crossing into the module and back: `findJson` and the batch `findJsonMany` (one call for every case) beside jsonrepair on the llm-json cases, `SchemaValidator.validate` (the outcome) and `isValidJson` (the verdict from JSON text) beside ajv on 100 000 `review` instances",
    ),
];

/// The Python packages the rows use, pinned.
const PYPI: &[&str] = &[
    "json_repair==0.64.6",
    "jsonschema==4.26.0",
    "markdown-it-py==3.0.0",
];
/// The npm packages the rows use, pinned.
const NPM: &[&str] = &[
    "jsonrepair@3.15.0",
    "ajv@8.17.1",
    "mdast-util-from-markdown@2.1.0",
    "mdast-util-gfm@3.1.0",
    "micromark-extension-gfm@3.0.0",
];

/// One figure beside its peer.
struct Measure {
    /// What is measured (`per case`, `values`, `text`, `1 core`…).
    what: String,
    /// flexmd's tool and its seconds per operation.
    ours: (String, f64),
    /// The peer's tool and its seconds per operation.
    peer: (String, f64),
    /// Anything else worth a column (cases right).
    note: String,
}

impl Measure {
    fn to_json(&self) -> Value {
        json!({
            "what": self.what,
            "flexmd": {"tool": self.ours.0, "seconds_per_op": self.ours.1},
            "peer": {"tool": self.peer.0, "seconds_per_op": self.peer.1},
            "ratio": self.ours.1 / self.peer.1,
            "note": self.note,
        })
    }
}

/// What a row gave: its measures and what was skipped.
struct RowResult {
    name: &'static str,
    title: &'static str,
    measures: Vec<Measure>,
    skipped: Vec<String>,
}

/// Where things live, and the run's settings.
struct Bench {
    root: PathBuf,
    data: PathBuf,
    quick: bool,
    /// Rounds per timing loop.
    runs: usize,
    python: Option<PathBuf>,
    node: Option<PathBuf>,
}

pub(crate) fn run(args: &[String]) -> Result {
    let quick = args.iter().any(|a| a == "--quick");
    let wanted: Vec<&str> = args
        .iter()
        .filter(|a| !a.starts_with("--"))
        .map(String::as_str)
        .collect();
    for row in &wanted {
        if !ROWS.iter().any(|(name, _)| name == row) {
            let known: Vec<&str> = ROWS.iter().map(|(n, _)| *n).collect();
            return Err(format!("no row `{row}`; rows: {}", known.join(", ")));
        }
    }
    let rows: Vec<(&'static str, &'static str)> = ROWS
        .iter()
        .filter(|(name, _)| wanted.is_empty() || wanted.contains(name))
        .copied()
        .collect();
    let root = root();
    cargo(&[
        "build",
        "--release",
        "-p",
        "flexmd-cli",
        "-p",
        "flexmd-benches",
        "--examples",
        "--bins",
    ])?;
    let peers = crate::workspace::target_dir().join("bench-peers");
    let mut bench = Bench {
        data: crate::workspace::target_dir().join("bench-data"),
        quick,
        runs: if quick { 3 } else { 7 },
        python: None,
        node: None,
        root,
    };
    std::fs::create_dir_all(&bench.data).map_err(|e| format!("target/bench-data: {e}"))?;
    bench.python = install_python(&peers);
    bench.node = install_node(&peers);
    let mut results = Vec::new();
    for (name, title) in rows {
        println!("== {name}: {title}");
        let mut result = RowResult {
            name,
            title,
            measures: Vec::new(),
            skipped: Vec::new(),
        };
        match name {
            "outline" => bench.outline_row(&mut result)?,
            "json" => bench.json_row(&mut result)?,
            "schema" => bench.schema_row(&mut result)?,
            "artifact" => bench.artifact_row(&mut result)?,
            "batch" => bench.batch_row(&mut result)?,
            "report" => bench.report_row(&mut result)?,
            "python" => bench.python_row(&mut result)?,
            "npm" => bench.npm_row(&mut result)?,
            _ => {}
        }
        for m in &result.measures {
            println!(
                "  {:<10} {} {:.3} µs | {} {:.3} µs | {:.3}×  {}",
                m.what,
                m.ours.0,
                m.ours.1 * 1e6,
                m.peer.0,
                m.peer.1 * 1e6,
                m.ours.1 / m.peer.1,
                m.note
            );
        }
        for s in &result.skipped {
            println!("  skipped: {s}");
        }
        results.push(result);
    }
    bench.write(&results)
}

/// A venv under `peers` with the PyPI packages, or `None` (with a message)
/// when it cannot be made.
fn install_python(peers: &Path) -> Option<PathBuf> {
    let venv = peers.join("venv");
    let python = venv.join("bin/python");
    let made = python.exists()
        || Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .status()
            .is_ok_and(|s| s.success());
    let installed = made
        && Command::new(&python)
            .args(["-m", "pip", "install", "-q", "--disable-pip-version-check"])
            .args(PYPI)
            .status()
            .is_ok_and(|s| s.success());
    if installed {
        Some(python)
    } else {
        println!(
            "xtask bench: cannot install the Python peers ({}): their rows are skipped",
            PYPI.join(" ")
        );
        None
    }
}

/// An npm folder under `peers` with the npm packages, or `None` (with a
/// message) when they cannot be installed.
fn install_node(peers: &Path) -> Option<PathBuf> {
    let folder = peers.join("node");
    let _ = std::fs::create_dir_all(&folder);
    let manifest = folder.join("package.json");
    if !manifest.exists() {
        let _ = std::fs::write(&manifest, "{\"private\": true}\n");
    }
    let installed = Command::new("npm")
        .args(["install", "--silent", "--no-audit", "--no-fund", "--prefix"])
        .arg(&folder)
        .args(NPM)
        .status()
        .is_ok_and(|s| s.success());
    if installed {
        Some(folder)
    } else {
        println!(
            "xtask bench: cannot install the npm peers ({}): their rows are skipped",
            NPM.join(" ")
        );
        None
    }
}

/// Runs a command and parses each line of its stdout as JSON.
fn json_lines(command: &mut Command) -> Result<Vec<Value>> {
    let shown = format!("{command:?}");
    let out = command
        .output()
        .map_err(|e| format!("cannot run {shown}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{shown} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect())
}

/// A whole-process comparison: what is measured, flexmd's label and
/// arguments, the peer's label, program and arguments.
type ProcessPair = (
    &'static str,
    &'static str,
    &'static [&'static str],
    &'static str,
    &'static str,
    &'static [&'static str],
);

/// Whether `program` is on the PATH.
fn which(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Installs a Debian package (as root, or with sudo when there is one).
fn apt_install(package: &str) -> bool {
    println!("xtask bench: installing {package} with apt-get");
    let sudo = if which("sudo") { "sudo " } else { "" };
    Command::new("sh")
        .args([
            "-c",
            &format!("{sudo}apt-get install -y -qq {package} >/dev/null 2>&1 || ({sudo}apt-get update -qq >/dev/null 2>&1 && {sudo}apt-get install -y -qq {package} >/dev/null 2>&1)"),
        ])
        .status()
        .is_ok_and(|s| s.success())
        && which(package_binary(package))
}

/// The program a Debian package installs.
fn package_binary(package: &str) -> &str {
    if package == "ripgrep" { "rg" } else { package }
}

/// The best wall time (seconds) of `runs` whole runs of `program ARGS`
/// (each started through GNU time, which adds the same ~1 ms to every tool),
/// with `-` in ARGS replaced by `file` (or `file` last when there is none),
/// and the peak RSS (KiB) of that run, from GNU time. Output goes to `out`
/// (GNU grep stops at the first match when its output is /dev/null).
fn measure_process(
    program: &Path,
    args: &[&str],
    file: &Path,
    out: &Path,
    runs: usize,
) -> Result<(f64, u64)> {
    let file_arg = file.display().to_string();
    let mut argv: Vec<String> = args
        .iter()
        .map(|a| {
            if *a == "-" {
                file_arg.clone()
            } else {
                (*a).to_owned()
            }
        })
        .collect();
    if !args.contains(&"-") {
        argv.push(file_arg);
    }
    let report = out.with_extension("time");
    let mut best: Option<(f64, u64)> = None;
    for _ in 0..runs.max(1) {
        let output = std::fs::File::create(out).map_err(|e| e.to_string())?;
        // Wall time from here (GNU time's has 10 ms steps); the peak RSS
        // from GNU time.
        let started = Instant::now();
        let status = Command::new("/usr/bin/time")
            .args(["-f", "%e %M", "-o"])
            .arg(&report)
            .arg(program)
            .args(&argv)
            .stdout(output)
            .stderr(std::process::Stdio::null())
            .status()
            .map_err(|e| format!("cannot run /usr/bin/time {}: {e}", program.display()))?;
        // grep exits 1 when nothing matches: still a run.
        if status.code().is_none_or(|c| c > 1) {
            return Err(format!(
                "{} {} failed: {status}",
                program.display(),
                argv.join(" ")
            ));
        }
        let seconds = started.elapsed().as_secs_f64();
        let text = std::fs::read_to_string(&report).map_err(|e| e.to_string())?;
        // The last line: GNU time writes "Command exited with non-zero
        // status 1" first for a tool that exits 1.
        let rss: u64 = text
            .lines()
            .last()
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|f| f.parse().ok())
            .unwrap_or(0);
        if best.is_none_or(|(s, _)| seconds < s) {
            best = Some((seconds, rss));
        }
    }
    best.ok_or_else(|| "no run".to_owned())
}

/// The line of `lines` whose `key` is `value`.
fn find<'a>(lines: &'a [Value], key: &str, value: &str) -> Option<&'a Value> {
    lines.iter().find(|l| l[key] == value)
}

fn seconds(line: &Value, key: &str) -> f64 {
    line[key].as_f64().unwrap_or(f64::NAN)
}

fn tool(line: &Value) -> String {
    line["tool"]
        .as_str()
        .or_else(|| line["name"].as_str())
        .unwrap_or_default()
        .to_owned()
}

impl Bench {
    fn release(&self, name: &str) -> PathBuf {
        crate::workspace::target_dir().join("release").join(name)
    }

    fn script(&self, path: &str) -> PathBuf {
        self.root.join(path)
    }

    /// check and build_outline beside the pulldown-cmark floor, mdast (Node)
    /// and markdown-it-py (Python), on a 20 KB answer, a 1 MB and a 5 MB
    /// document.
    fn outline_row(&self, row: &mut RowResult) -> Result {
        let runs = self.runs.to_string();
        let ours = json_lines(
            Command::new(self.release("examples/outline_timing"))
                .arg(&runs)
                .arg(&self.data),
        )?;
        let mut peers = Vec::new();
        match &self.node {
            Some(node) => peers.extend(json_lines(
                Command::new("node")
                    .arg(self.script("benches/scripts/outline_peers.mjs"))
                    .arg(node)
                    .arg(&self.data)
                    .arg(&runs),
            )?),
            None => row
                .skipped
                .push("mdast-util-from-markdown (not installed)".to_owned()),
        }
        match &self.python {
            Some(python) => peers.extend(json_lines(
                Command::new(python)
                    .arg(self.script("benches/python/outline_peers.py"))
                    .arg(&self.data)
                    .arg(if self.quick { "1" } else { "3" }),
            )?),
            None => row
                .skipped
                .push("markdown-it-py (not installed)".to_owned()),
        }
        for input in ["20 KB answer", "1 MB document", "5 MB document"] {
            let ours_op = |op: &str| {
                ours.iter()
                    .find(|l| l["input"] == input && l["op"] == op)
                    .map(|l| (tool(l), seconds(l, "seconds_per_op")))
                    .ok_or_else(|| format!("outline_timing printed no `{op}` line for {input}"))
            };
            let (check, outline, floor) =
                (ours_op("check")?, ours_op("outline")?, ours_op("floor")?);
            for ours in [&check, &outline] {
                row.measures.push(Measure {
                    what: input.to_owned(),
                    ours: ours.clone(),
                    peer: floor.clone(),
                    note: "the floor: parsing alone, in Rust".to_owned(),
                });
            }
            for peer in peers.iter().filter(|l| l["input"] == input) {
                for ours in [&check, &outline] {
                    row.measures.push(Measure {
                        what: input.to_owned(),
                        ours: ours.clone(),
                        peer: (tool(peer), seconds(peer, "seconds_per_op")),
                        note: String::new(),
                    });
                }
            }
        }
        Ok(())
    }

    /// The llm-json cases, or `None` (the row skipped, saying so).
    fn llm_json_cases(&self, row: &mut RowResult) -> Option<PathBuf> {
        let cases = self.root.join("../shared/conformance/llm-json/cases.jsonl");
        if cases.exists() {
            return Some(cases);
        }
        row.skipped.push(format!(
            "{} is missing (the conformance data): the row needs it",
            cases.display()
        ));
        None
    }

    /// The `review` instances and schema the `schema` row writes, written
    /// now when that row has not run.
    fn review_instances(&self) -> Result {
        if self.data.join("review_instances.json").exists() {
            return Ok(());
        }
        json_lines(
            Command::new(self.release("examples/schema_timing"))
                .arg("1")
                .arg(&self.data),
        )
        .map(drop)
    }

    /// Each package measure beside its peer: lines of `tool`, `op`,
    /// `seconds_per_op` (and `right` or `invalid`), flexmd's named by
    /// `ours_prefix`, paired with the peers of the same `op`.
    fn package_measures(row: &mut RowResult, lines: &[Value], ours_prefix: &str) {
        let (ours, peers): (Vec<&Value>, Vec<&Value>) =
            lines.iter().partition(|l| tool(l).starts_with(ours_prefix));
        for mine in &ours {
            for peer in peers.iter().filter(|p| p["op"] == mine["op"]) {
                let note = match (mine["right"].as_str(), peer["right"].as_str()) {
                    (Some(a), Some(b)) => format!("cases right: flexmd {a}, peer {b}"),
                    _ => format!(
                        "invalid found: flexmd {}, peer {}",
                        mine["invalid"], peer["invalid"]
                    ),
                };
                row.measures.push(Measure {
                    what: mine["op"].as_str().unwrap_or_default().to_owned(),
                    ours: (tool(mine), seconds(mine, "seconds_per_op")),
                    peer: (tool(peer), seconds(peer, "seconds_per_op")),
                    note,
                });
            }
        }
    }

    /// The Python package (built with the release profile into the peers'
    /// venv) beside json_repair and Python jsonschema.
    fn python_row(&self, row: &mut RowResult) -> Result {
        let Some(python) = &self.python else {
            row.skipped
                .push("the Python peers (not installed)".to_owned());
            return Ok(());
        };
        let Some(cases) = self.llm_json_cases(row) else {
            return Ok(());
        };
        self.review_instances()?;
        // pip builds the extension with maturin; the release profile
        // reuses what the other rows built.
        crate::workspace::run(
            Command::new(python)
                .args(["-m", "pip", "install", "-q", "--disable-pip-version-check"])
                .arg(self.root.join("crates/flexmd-py"))
                .env("MATURIN_PEP517_ARGS", "--profile release")
                .env("CARGO_TARGET_DIR", crate::workspace::target_dir()),
        )?;
        let lines = json_lines(
            Command::new(python)
                .arg(self.script("benches/python/package_calls.py"))
                .arg(&cases)
                .arg(&self.data)
                .arg(if self.quick { "1" } else { "3" }),
        )?;
        Self::package_measures(row, &lines, "flexmd");
        Ok(())
    }

    /// The npm package (the WebAssembly module built as `cargo xtask js`
    /// builds it) beside jsonrepair and ajv.
    fn npm_row(&self, row: &mut RowResult) -> Result {
        let Some(node) = &self.node else {
            row.skipped.push("the npm peers (not installed)".to_owned());
            return Ok(());
        };
        let Some(cases) = self.llm_json_cases(row) else {
            return Ok(());
        };
        self.review_instances()?;
        crate::js::build()?;
        let lines = json_lines(
            Command::new("node")
                .arg(self.script("benches/scripts/npm_calls.mjs"))
                .arg(node)
                .arg(&self.data)
                .arg(&cases)
                .arg(self.runs.to_string()),
        )?;
        Self::package_measures(row, &lines, "flexmd");
        Ok(())
    }

    /// find_json beside llm_json (Rust), json_repair (Python) and
    /// jsonrepair (Node) on the llm-json cases: time per case, cases right.
    fn json_row(&self, row: &mut RowResult) -> Result {
        let cases = self.root.join("../shared/conformance/llm-json/cases.jsonl");
        if !cases.exists() {
            row.skipped.push(format!(
                "{} is missing (the conformance data): the row needs it",
                cases.display()
            ));
            return Ok(());
        }
        let mut lines =
            json_lines(Command::new(self.release("examples/llm_json_cases")).arg(&cases))?;
        match &self.python {
            Some(python) => lines.extend(json_lines(
                Command::new(python)
                    .arg(self.script("benches/python/llm_json_peers.py"))
                    .arg(&cases),
            )?),
            None => row
                .skipped
                .push("Python json_repair (not installed)".to_owned()),
        }
        match &self.node {
            Some(node) => lines.extend(json_lines(
                Command::new("node")
                    .arg(self.script("benches/scripts/llm_json_peers.mjs"))
                    .arg(&cases)
                    .current_dir(node),
            )?),
            None => row.skipped.push("JS jsonrepair (not installed)".to_owned()),
        }
        let ours = find(&lines, "name", "flexmd find_json")
            .ok_or("llm_json_cases printed no flexmd line")?
            .clone();
        let right = |l: &Value| format!("{}/{}", l["passed"], l["total"]);
        let (valid, cases): (Vec<&Value>, Vec<&Value>) = lines
            .iter()
            .partition(|l| l["valid_document"].as_bool().unwrap_or(false));
        for peer in cases.iter().filter(|l| l["name"] != "flexmd find_json") {
            row.measures.push(Measure {
                what: "per case".to_owned(),
                ours: (tool(&ours), seconds(&ours, "seconds_per_case")),
                peer: (tool(peer), seconds(peer, "seconds_per_case")),
                note: format!("cases right: flexmd {}, peer {}", right(&ours), right(peer)),
            });
        }
        for line in valid {
            row.measures.push(Measure {
                what: "1 MB valid JSON".to_owned(),
                ours: (tool(line), seconds(line, "seconds")),
                peer: (
                    "serde_json::from_str (a bare parse)".to_owned(),
                    seconds(line, "serde_json_seconds"),
                ),
                note: "what finding costs over parsing".to_owned(),
            });
        }
        Ok(())
    }

    /// Registry::validate and is_valid beside bare jsonschema, Python
    /// jsonschema and ajv, on values already parsed and on text.
    fn schema_row(&self, row: &mut RowResult) -> Result {
        let runs = self.runs.to_string();
        let ours = json_lines(
            Command::new(self.release("examples/schema_timing"))
                .arg(&runs)
                .arg(&self.data),
        )?;
        let mut peers = Vec::new();
        match &self.python {
            Some(python) => peers.extend(json_lines(
                Command::new(python)
                    .arg(self.script("benches/python/schema_bench.py"))
                    .arg(&self.data)
                    .arg(if self.quick { "1" } else { "3" }),
            )?),
            None => row
                .skipped
                .push("Python jsonschema (not installed)".to_owned()),
        }
        match &self.node {
            Some(node) => peers.extend(json_lines(
                Command::new("node")
                    .arg(self.script("benches/scripts/schema_peers.mjs"))
                    .arg(node)
                    .arg(&self.data)
                    .arg(&runs),
            )?),
            None => row.skipped.push("ajv (not installed)".to_owned()),
        }
        let ours_named = |name: &str| {
            find(&ours, "tool", name)
                .map(|l| (tool(l), seconds(l, "seconds_per_op")))
                .ok_or_else(|| format!("schema_timing printed no `{name}` line"))
        };
        let validate = ours_named("flexmd Registry::validate")?;
        let is_valid = ours_named("flexmd Registry::is_valid")?;
        let text = ours_named("flexmd Registry::is_valid_json")?;
        let bare = ours_named("bare jsonschema (is_valid, then iter_errors)")?;
        row.measures.push(Measure {
            what: "values".to_owned(),
            ours: validate.clone(),
            peer: bare,
            note: "the seed's outcome (data, errors) against the bare crate: a valid value is copied into it".to_owned(),
        });

        for peer in &peers {
            let op = peer["op"].as_str().unwrap_or_default();
            let peer_figure = (tool(peer), seconds(peer, "seconds_per_op"));
            if op == "text" {
                row.measures.push(Measure {
                    what: "text".to_owned(),
                    ours: text.clone(),
                    peer: peer_figure,
                    note: "JSON text in, verdict out (read without building a value)".to_owned(),
                });
            } else {
                for ours in [&validate, &is_valid] {
                    row.measures.push(Measure {
                        what: "values".to_owned(),
                        ours: ours.clone(),
                        peer: peer_figure.clone(),
                        note: String::new(),
                    });
                }
            }
        }
        Ok(())
    }

    /// Whole runs of `flexmd artifact` (and the library's full pluck)
    /// beside wc, GNU grep, ripgrep, head, tail and jq on generated files.
    fn artifact_row(&self, row: &mut RowResult) -> Result {
        let size_mb = if self.quick { 64 } else { 1024 };
        let dir = self.data.join(format!("artifact-{size_mb}"));
        let (log, events) = (dir.join("log.txt"), dir.join("events.jsonl"));
        if !log.exists() || !events.exists() {
            let status = Command::new(self.release("examples/artifact_data"))
                .arg(&dir)
                .arg(size_mb.to_string())
                .status()
                .map_err(|e| format!("cannot run artifact_data: {e}"))?;
            if !status.success() {
                return Err("artifact_data failed".to_owned());
            }
        }
        let ripgrep = which("rg") || apt_install("ripgrep");
        if !ripgrep {
            row.skipped
                .push("ripgrep (`rg`: not installed, and apt-get could not install it)".to_owned());
        }
        let jq = which("jq") || apt_install("jq");
        if !jq {
            row.skipped
                .push("jq (not installed, and apt-get could not install it)".to_owned());
        }
        let runs = if self.quick { 1 } else { 3 };
        let flexmd = self.release("flexmd");
        let out = dir.join("out.txt");
        let time = |program: &Path, args: &[&str], file: &Path| -> Result<(f64, u64)> {
            measure_process(program, args, file, &out, runs)
        };
        let mut pair = |what: &str,
                        ours: (&str, &Path, Vec<&str>, &Path),
                        peer: (&str, &str, Vec<&str>, &Path)|
         -> Result {
            let (ours_time, ours_rss) = time(ours.1, &ours.2, ours.3)?;
            let (peer_time, peer_rss) = time(Path::new(peer.1), &peer.2, peer.3)?;
            row.measures.push(Measure {
                what: what.to_owned(),
                ours: (ours.0.to_owned(), ours_time),
                peer: (peer.0.to_owned(), peer_time),
                note: format!(
                    "peak RSS {:.0} MiB vs {:.1} MiB; {size_mb} MiB file",
                    ours_rss as f64 / 1024.0,
                    peer_rss as f64 / 1024.0
                ),
            });
            Ok(())
        };
        // (what, flexmd's label and arguments, the peer's label, program
        // and arguments), all on the log; `-` stands for the file.
        let on_log: &[ProcessPair] = &[
            (
                "line count",
                "flexmd artifact line-count",
                &["artifact", "line-count"],
                "wc -l",
                "wc",
                &["-l"],
            ),
            (
                "head 10",
                "flexmd artifact head n=10",
                &["artifact", "head", "-", "n=10"],
                "head -n 10",
                "head",
                &["-n", "10"],
            ),
            (
                "tail 10",
                "flexmd artifact tail n=10",
                &["artifact", "tail", "-", "n=10"],
                "tail -n 10",
                "tail",
                &["-n", "10"],
            ),
            (
                "grep literal",
                "flexmd artifact grep FATAL",
                &["artifact", "grep", "-", "FATAL"],
                "GNU grep FATAL",
                "grep",
                &["FATAL"],
            ),
            (
                "grep -i regex",
                "flexmd artifact grep 'fatal.*served' i",
                &["artifact", "grep", "-", "fatal.*served", "i"],
                "GNU grep -i 'fatal.*served'",
                "grep",
                &["-i", "fatal.*served"],
            ),
        ];
        for (what, ours, ours_args, peer, program, peer_args) in on_log {
            pair(
                what,
                (ours, &flexmd, ours_args.to_vec(), &log),
                (peer, program, peer_args.to_vec(), &log),
            )?;
        }
        if ripgrep {
            pair(
                "grep literal",
                (
                    "flexmd artifact grep FATAL",
                    &flexmd,
                    vec!["artifact", "grep", "-", "FATAL"],
                    &log,
                ),
                ("rg FATAL", "rg", vec!["--no-config", "FATAL"], &log),
            )?;
        }
        if jq {
            let pluck = self.release("examples/json_pluck");
            pair(
                "`$.id` of every record",
                (
                    "flexmd json_get_each (library; each value printed, as jq does)",
                    &pluck,
                    vec!["-", "$.id"],
                    &events,
                ),
                ("jq -c .id", "jq", vec!["-c", ".id"], &events),
            )?;
        }
        Ok(())
    }

    /// The CLI's `--jsonl` on one and on all cores beside the Python
    /// baseline in a multiprocessing pool, on the same answers.
    /// `flexmd report` over generated answers (100 groups) beside the
    /// batch check alone, at two sizes: the time per answer, and the peak
    /// memory, which must not grow with the answers.
    fn report_row(&self, row: &mut RowResult) -> Result {
        let counts: &[usize] = if self.quick {
            &[100_000]
        } else {
            &[100_000, 1_000_000]
        };
        let spec = self.root.join("examples/specs/answer.md");
        let spec = spec.display().to_string();
        let flexmd = self.release("flexmd");
        let page = self.data.join("report.html");
        let page_arg = page.display().to_string();
        let out = self.data.join("report-out.txt");
        for &count in counts {
            let answers = self.data.join(format!("report-{count}.jsonl"));
            if !answers.exists() {
                let status = Command::new(self.python.as_deref().unwrap_or(Path::new("python3")))
                    .arg(self.script("benches/python/report_answers.py"))
                    .arg(count.to_string())
                    .arg(&answers)
                    .status()
                    .map_err(|e| format!("cannot generate the answers: {e}"))?;
                if !status.success() {
                    return Err("benches/python/report_answers.py failed".to_owned());
                }
            }
            let runs = if count >= 1_000_000 { 1 } else { 3 };
            let (ours, ours_rss) = measure_process(
                &flexmd,
                &[
                    "report",
                    "--spec",
                    &spec,
                    "--field",
                    "answer",
                    "--group-by",
                    "model,prompt",
                    "-o",
                    &page_arg,
                    "--json",
                ],
                &answers,
                &out,
                runs,
            )?;
            let page_size = std::fs::metadata(&page).map_or(0, |m| m.len());
            let (peer, peer_rss) = measure_process(
                &flexmd,
                &["validate", "--spec", &spec, "--field", "answer", "--jsonl"],
                &answers,
                &out,
                runs,
            )?;
            let input_size = std::fs::metadata(&answers).map_or(0, |m| m.len());
            row.measures.push(Measure {
                what: format!("{count} answers"),
                ours: ("flexmd report -o page --json".to_owned(), ours / count as f64),
                peer: ("flexmd validate --jsonl".to_owned(), peer / count as f64),
                note: format!(
                    "whole run {ours:.1} s vs {peer:.1} s; peak RSS {:.0} MiB vs {:.0} MiB; page {:.0} KiB; input {:.0} MiB",
                    ours_rss as f64 / 1024.0,
                    peer_rss as f64 / 1024.0,
                    page_size as f64 / 1024.0,
                    input_size as f64 / (1024.0 * 1024.0)
                ),
            });
        }
        Ok(())
    }

    fn batch_row(&self, row: &mut RowResult) -> Result {
        let count = if self.quick { 5_000 } else { 20_000 };
        let answers = self.data.join(format!("answers-{count}.jsonl"));
        if !answers.exists() {
            let out = Command::new(self.python.as_deref().unwrap_or(Path::new("python3")))
                .arg(self.script("examples/python/spark_extract.py"))
                .args(["generate", &count.to_string()])
                .arg(&answers)
                .status()
                .map_err(|e| format!("cannot generate the answers: {e}"))?;
            if !out.success() {
                return Err("spark_extract.py generate failed".to_owned());
            }
        }
        let spec = self.root.join("examples/specs/answer.md");
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let flexmd = self.release("flexmd");
        // Check and extract, then find the JSON: what the baseline does.
        let whole_run = |jobs: usize| -> Result<f64> {
            let mut times = Vec::new();
            for _ in 0..self.runs.min(5) {
                let start = Instant::now();
                for step in ["extract", "json"] {
                    let mut command = Command::new(&flexmd);
                    command.arg(step);
                    if step == "extract" {
                        command.arg("--spec").arg(&spec).arg("--as-json");
                    }
                    let status = command
                        .args(["--jsonl", "--field", "answer", "--jobs", &jobs.to_string()])
                        .arg(&answers)
                        .stdout(std::process::Stdio::null())
                        .stderr(std::process::Stdio::null())
                        .status()
                        .map_err(|e| format!("cannot run flexmd: {e}"))?;
                    // 1: some answers break the spec, as generated.
                    if status.code().is_none_or(|c| c > 1) {
                        return Err(format!("flexmd {step} --jsonl failed: {status}"));
                    }
                }
                times.push(start.elapsed().as_secs_f64());
            }
            times.sort_by(f64::total_cmp);
            Ok(times.get(times.len() / 2).copied().unwrap_or(f64::NAN) / count as f64)
        };
        for jobs in [1, cores] {
            let ours = (
                format!("flexmd extract + json --jsonl --jobs {jobs}"),
                whole_run(jobs)?,
            );
            let Some(python) = &self.python else {
                row.skipped
                    .push("the Python baseline (not installed)".to_owned());
                break;
            };
            let lines = json_lines(
                Command::new(python)
                    .arg(self.script("benches/python/batch_baseline.py"))
                    .arg(&answers)
                    .arg(&spec)
                    .arg(jobs.to_string())
                    .arg(if self.quick { "1" } else { "3" }),
            )?;
            let peer = lines.first().ok_or("batch_baseline.py printed nothing")?;
            row.measures.push(Measure {
                what: format!("{jobs} core{}", if jobs == 1 { "" } else { "s" }),
                ours: ours.clone(),
                peer: (
                    format!("{} ({jobs} processes)", tool(peer)),
                    seconds(peer, "seconds") / count as f64,
                ),
                note: format!(
                    "{count} answers; {:.0} vs {:.0} answers/s",
                    1.0 / ours.1,
                    seconds(peer, "answers_per_second")
                ),
            });
        }
        Ok(())
    }

    /// target/bench/results.json and the tables in docs/benchmarks.md.
    fn write(&self, results: &[RowResult]) -> Result {
        let machine = machine();
        let date = today();
        let versions = versions();
        let json_rows: Vec<Value> = results
            .iter()
            .map(|r| {
                json!({
                    "row": r.name,
                    "title": r.title,
                    "measures": r.measures.iter().map(Measure::to_json).collect::<Vec<_>>(),
                    "skipped": r.skipped,
                })
            })
            .collect();
        let out = crate::workspace::target_dir().join("bench");
        std::fs::create_dir_all(&out).map_err(|e| format!("target/bench: {e}"))?;
        let report = json!({
            "date": date,
            "quick": self.quick,
            "machine": machine,
            "versions": versions,
            "rows": json_rows,
        });
        let text = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        std::fs::write(out.join("results.json"), text).map_err(|e| e.to_string())?;
        println!("wrote target/bench/results.json");
        let doc_path = self.root.join("docs/benchmarks.md");
        let mut doc = std::fs::read_to_string(&doc_path).map_err(|e| e.to_string())?;
        for r in results {
            let table = render(r, &date, &machine, &versions, self.quick);
            doc = replace_block(&doc, r.name, &table)?;
        }
        std::fs::write(&doc_path, doc).map_err(|e| e.to_string())?;
        println!("wrote docs/benchmarks.md");
        Ok(())
    }
}

/// One row's table, as it stands between its markers.
fn render(r: &RowResult, date: &str, machine: &Value, versions: &Value, quick: bool) -> String {
    let mut out = format!(
        "{}. Run on {date}{}, {} ({} cores), {}.\n\n",
        r.title,
        if quick { " with --quick" } else { "" },
        machine["cpu"].as_str().unwrap_or("unknown CPU"),
        machine["cores"],
        versions_line(versions),
    );
    out.push_str(
        "| measure | flexmd | peer | ratio (flexmd ÷ peer) | note |\n|---|---|---|---|---|\n",
    );
    for m in &r.measures {
        out.push_str(&format!(
            "| {} | {}: {} | {}: {} | **{}** | {} |\n",
            m.what,
            m.ours.0,
            human(m.ours.1),
            m.peer.0,
            human(m.peer.1),
            ratio(m.ours.1 / m.peer.1),
            m.note
        ));
    }
    for s in &r.skipped {
        out.push_str(&format!("\nSkipped: {s}.\n"));
    }
    out
}

fn versions_line(versions: &Value) -> String {
    versions
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| format!("{k} {}", v.as_str().unwrap_or("?")))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default()
}

/// Seconds per operation in a readable unit.
fn human(seconds: f64) -> String {
    if !seconds.is_finite() {
        "—".to_owned()
    } else if seconds >= 1.0 {
        format!("{seconds:.2} s")
    } else if seconds >= 1e-3 {
        format!("{:.2} ms", seconds * 1e3)
    } else if seconds >= 1e-6 {
        format!("{:.2} µs", seconds * 1e6)
    } else {
        format!("{:.0} ns", seconds * 1e9)
    }
}

/// A ratio with the digits that matter.
fn ratio(r: f64) -> String {
    if !r.is_finite() {
        "—".to_owned()
    } else if r >= 10.0 {
        format!("{r:.0}×")
    } else if r >= 0.1 {
        format!("{r:.2}×")
    } else {
        format!("{r:.4}×")
    }
}

/// `doc` with the text between `<!-- xtask bench: NAME -->` and
/// `<!-- /xtask bench: NAME -->` replaced by `table`.
fn replace_block(doc: &str, name: &str, table: &str) -> Result<String> {
    let open = format!("<!-- xtask bench: {name} -->");
    let close = format!("<!-- /xtask bench: {name} -->");
    let (Some(start), Some(end)) = (doc.find(&open), doc.find(&close)) else {
        return Err(format!(
            "docs/benchmarks.md has no `{open}` … `{close}` block for the row"
        ));
    };
    let body_start = start + open.len();
    if end < body_start {
        return Err(format!(
            "docs/benchmarks.md: `{close}` comes before `{open}`"
        ));
    }
    let before = doc.get(..body_start).unwrap_or_default();
    let after = doc.get(end..).unwrap_or_default();
    Ok(format!("{before}\n{table}{after}"))
}

/// Cores and CPU model of this machine.
fn machine() -> Value {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".to_owned());
    json!({
        "cores": std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
        "cpu": cpu,
    })
}

/// The versions of the runtimes the rows ran in.
fn versions() -> Value {
    let first_line = |program: &str, arg: &str| {
        Command::new(program)
            .arg(arg)
            .output()
            .ok()
            .map(|o| {
                let text = if o.stdout.is_empty() {
                    o.stderr
                } else {
                    o.stdout
                };
                String::from_utf8_lossy(&text)
                    .lines()
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_owned()
            })
            .unwrap_or_else(|| "not found".to_owned())
    };
    json!({
        "rustc": first_line("rustc", "--version").trim_start_matches("rustc ").to_owned(),
        "node": first_line("node", "--version"),
        "python": first_line("python3", "--version").trim_start_matches("Python ").to_owned(),
    })
}

/// Today as YYYY-MM-DD (from `date`, which knows the time zone).
fn today() -> String {
    Command::new("date")
        .arg("+%Y-%m-%d")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_is_replaced_between_its_markers_only() {
        let doc = "a\n<!-- xtask bench: json -->\nold\n<!-- /xtask bench: json -->\nb\n";
        assert_eq!(
            replace_block(doc, "json", "new\n").unwrap(),
            "a\n<!-- xtask bench: json -->\nnew\n<!-- /xtask bench: json -->\nb\n"
        );
        assert!(replace_block(doc, "schema", "x").is_err());
    }

    #[test]
    fn figures_read_well() {
        assert_eq!(human(2.5e-6), "2.50 µs");
        assert_eq!(human(0.25), "250.00 ms");
        assert_eq!(human(7.5e-8), "75 ns");
        assert_eq!(ratio(0.0123), "0.0123×");
        assert_eq!(ratio(1.77), "1.77×");
        assert_eq!(ratio(25.2), "25×");
    }
}
