//! Running a library call without the GIL: short texts on the calling
//! thread, long ones with the GIL released, calls over artifacts on a
//! thread of their own that Ctrl-C can stop.
//!
//! Imports `errors` only (of the binding); no Python class lives here.

use std::sync::Arc;

use pyo3::prelude::*;

use crate::errors::artifact_error;

/// Inputs from this many bytes on are parsed with the GIL released: below
/// it, releasing and taking it back costs more than it frees.
pub(crate) const DETACH_FROM: usize = 4096;

/// Runs `work` on `text`, without the GIL when the text is long enough for
/// other Python threads to gain from it.
pub(crate) fn parse<T: Send>(py: Python<'_>, text: &str, work: impl FnOnce(&str) -> T + Send) -> T {
    if text.len() >= DETACH_FROM {
        py.detach(|| work(text))
    } else {
        work(text)
    }
}

/// How often a long call looks for a pending signal (Ctrl-C).
pub(crate) const SIGNAL_TICK: std::time::Duration = std::time::Duration::from_millis(50);

/// Calls over fewer bytes than this run on the calling thread: they end
/// within milliseconds, and a thread of their own would cost more than the
/// call (about 90 µs against a few on a small file).
pub(crate) const THREAD_FROM: usize = 1 << 20;

/// Runs `work` without the GIL on a thread of its own while this thread
/// checks for signals every [`SIGNAL_TICK`]: Ctrl-C raises
/// `KeyboardInterrupt` within that tick, whatever the work is doing, and
/// sets the flag the library's long loops look at
/// ([`flexmd_artifact::cancellable`]) so the thread stops within a chunk
/// of work (building an index or parsing a document runs to its end, and
/// is kept for the next call); its result is dropped. For calls over
/// artifacts, whose size has no bound: `bytes` is the size of what the call
/// reads, and below [`THREAD_FROM`] the work runs here, without the GIL.
pub(crate) fn interruptible<T: Send + 'static>(
    py: Python<'_>,
    bytes: usize,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::mpsc::RecvTimeoutError;
    if bytes < THREAD_FROM {
        return Ok(py.detach(work));
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let (sender, receiver) = std::sync::mpsc::sync_channel(1);
    let flag = Arc::clone(&cancel);
    std::thread::Builder::new()
        .name("flexmd call".to_owned())
        // The size of a main thread's stack: the parsers' guards are
        // measured against it.
        .stack_size(8 << 20)
        .spawn(move || {
            let _ = sender.send(flexmd_artifact::cancellable(flag, work));
        })
        .map_err(|e| {
            pyo3::exceptions::PyRuntimeError::new_err(format!("cannot start a thread: {e}"))
        })?;
    let outcome = py.detach(move || {
        loop {
            match receiver.recv_timeout(SIGNAL_TICK) {
                Ok(done) => return Ok(done),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(interrupt) = Python::attach(|py| py.check_signals()) {
                        cancel.store(true, Ordering::Relaxed);
                        return Err(interrupt);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(pyo3::panic::PanicException::new_err(
                        "flexmd panicked in a call over an artifact (a bug: please report it)",
                    ));
                }
            }
        }
    });
    outcome?.map_err(|e| artifact_error(py, e))
}
