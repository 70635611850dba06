//! How every command prints: JSON pretty or on one line, colour in
//! diagnostics only where wanted, progress only on a terminal and only for
//! work that takes a while.

use std::io::{IsTerminal, Write};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};

use crate::error::CliError;

/// The output flags every command takes.
#[derive(Debug, Args)]
pub(crate) struct OutputArgs {
    /// Machine output: results and reports as JSON on stdout (validation
    /// reports, tool results) instead of text and diagnostics.
    #[arg(long, global = true)]
    pub(crate) json: bool,
    /// Print JSON on one line instead of indented.
    #[arg(long, global = true)]
    pub(crate) compact: bool,
    /// Colour in diagnostics: `auto` (only on a terminal, and not when
    /// NO_COLOR is set), `always` or `never`.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub(crate) color: ColorChoice,
}

/// `--color` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Whether JSON is printed on one line (set once, from `--compact`).
static COMPACT: OnceLock<bool> = OnceLock::new();

/// Applies the output flags for the rest of the run: JSON layout and the
/// diagnostics' colours.
pub(crate) fn configure(args: &OutputArgs) {
    let _ = COMPACT.set(args.compact);
    let color = match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stderr().is_terminal()
        }
    };
    // Fails only when a hook is already set (tests calling twice).
    let _ = miette::set_hook(Box::new(move |_| {
        Box::new(
            miette::MietteHandlerOpts::new()
                .color(color)
                .unicode(color)
                .build(),
        )
    }));
}

/// Writes `text` to stdout as is.
pub(crate) fn print(text: &str) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(CliError::Stdout)
}

/// Writes `value` to stdout as JSON (indented, or on one line with
/// `--compact`) and a final newline, streamed (a 100 MB value is not built
/// as a string first).
pub(crate) fn print_json<T: serde::Serialize + ?Sized>(value: &T) -> Result<(), CliError> {
    write_json(value, !COMPACT.get().copied().unwrap_or(false))
}

/// Writes `value` to stdout as JSON, indented or on one line, then a
/// newline, serialised straight to the output.
fn write_json<T: serde::Serialize + ?Sized>(value: &T, pretty: bool) -> Result<(), CliError> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = if pretty {
        serde_json::to_writer_pretty(&mut out, value)
    } else {
        serde_json::to_writer(&mut out, value)
    };
    written.map_err(json_error)?;
    out.write_all(b"\n")
        .and_then(|()| out.flush())
        .map_err(CliError::Stdout)
}

/// A command's result for one input, kept as a value until it is printed:
/// alone it is streamed to stdout ([`print_json`]), among several inputs it
/// is rendered as text to be placed in the array of results. (A pretty
/// result can be a hundred times its input: 128 levels of indentation.)
pub(crate) struct Rendered(Box<dyn ErasedJson>);

/// [`serde::Serialize`] behind a box (the trait itself is not object safe).
trait ErasedJson {
    fn write(&self, out: &mut dyn Write, compact: bool) -> serde_json::Result<()>;
}

impl<T: serde::Serialize> ErasedJson for T {
    fn write(&self, out: &mut dyn Write, compact: bool) -> serde_json::Result<()> {
        if compact {
            serde_json::to_writer(out, self)
        } else {
            serde_json::to_writer_pretty(out, self)
        }
    }
}

/// `value` as a result to print (indented, or on one line with
/// `--compact`).
pub(crate) fn rendered<T: serde::Serialize + 'static>(value: T) -> Rendered {
    Rendered(Box::new(value))
}

impl Rendered {
    /// Streams the result and a final newline to stdout.
    pub(crate) fn print(&self) -> Result<(), CliError> {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        self.0.write(&mut out, compact()).map_err(json_error)?;
        out.write_all(b"\n")
            .and_then(|()| out.flush())
            .map_err(CliError::Stdout)
    }

    /// The result as JSON text, without the final newline.
    pub(crate) fn text(&self) -> Result<String, CliError> {
        let mut out = Vec::new();
        self.0.write(&mut out, compact()).map_err(json_error)?;
        String::from_utf8(out).map_err(|e| CliError::Stdout(std::io::Error::other(e)))
    }
}

fn compact() -> bool {
    COMPACT.get().copied().unwrap_or(false)
}

fn json_error(e: serde_json::Error) -> CliError {
    if e.is_io() {
        CliError::Stdout(std::io::Error::from(e))
    } else {
        CliError::Serialize(e)
    }
}

/// The results of several inputs as one JSON array of `{"file": LABEL,
/// KEY: JSON}` objects, laid out like [`rendered`] output (each JSON is
/// already rendered: it is indented into place, not parsed again), with a
/// final newline.
pub(crate) fn labelled_array(entries: &[(&str, serde_json::Value, String)]) -> String {
    let compact = COMPACT.get().copied().unwrap_or(false);
    let mut out = String::from("[");
    for (i, (key, label, json)) in entries.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        if compact {
            out.push_str(&format!("{{\"file\":{label},\"{key}\":{json}}}"));
        } else {
            let nested = json.replace('\n', "\n    ");
            out.push_str(&format!(
                "\n  {{\n    \"file\": {label},\n    \"{key}\": {nested}\n  }}"
            ));
        }
    }
    out.push_str(if compact || entries.is_empty() {
        "]\n"
    } else {
        "\n]\n"
    });
    out
}

/// Writes `value` to stdout as one line of JSON, serialised straight to
/// the output (for a line that may be long: a stream's `finished` event
/// holds the whole result).
pub(crate) fn write_json_line<T: serde::Serialize>(value: &T) -> Result<(), CliError> {
    write_json(value, false)
}

/// Writes `value` as one flushed line of JSON (for JSON Lines output),
/// serialised straight to the output: a stream's `section_completed` event
/// can hold a whole section, and building it as a string first was the
/// stream's largest allocation.
pub(crate) fn print_json_line<T: serde::Serialize>(value: &T) -> Result<(), CliError> {
    write_json(value, false)
}

/// How long work runs before its progress is shown.
const SHOW_AFTER: Duration = Duration::from_millis(500);

/// A progress line on stderr for work that may take a while: shown only on
/// a terminal, only after [`SHOW_AFTER`], updated as the work reports, and
/// erased when the work ends (dropping the guard), so no line is left over.
pub(crate) struct Progress {
    state: Arc<Mutex<String>>,
    done: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Progress {
    /// Starts a progress line saying `what` (and, once set, a detail).
    pub(crate) fn start(what: &str) -> Self {
        let state = Arc::new(Mutex::new(String::new()));
        let done = Arc::new(AtomicBool::new(false));
        let thread = std::io::stderr().is_terminal().then(|| {
            let (state, done, what) = (Arc::clone(&state), Arc::clone(&done), what.to_owned());
            std::thread::spawn(move || {
                let started = Instant::now();
                let mut shown = false;
                while !done.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(100));
                    if started.elapsed() < SHOW_AFTER || done.load(Ordering::Relaxed) {
                        continue;
                    }
                    let detail = state.lock().map(|s| s.clone()).unwrap_or_default();
                    let secs = started.elapsed().as_secs();
                    eprint!("\r\x1b[2K{what}{detail} ({secs} s)");
                    shown = true;
                }
                if shown {
                    eprint!("\r\x1b[2K");
                }
            })
        });
        Self {
            state,
            done,
            thread,
        }
    }

    /// Sets the detail shown after the label (`: 120 of 300 MiB`).
    pub(crate) fn set(&self, detail: String) {
        if let Ok(mut state) = self.state.lock() {
            *state = detail;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
