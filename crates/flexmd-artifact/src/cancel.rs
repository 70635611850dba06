//! Giving up on long work from another thread: a binding runs a call on a
//! worker thread inside [`cancellable`] and sets the flag when its user
//! interrupts (Ctrl-C in Python); the long loops (token counts, grep,
//! paging, Markdown text) look at it between chunks and stop early.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::ArtifactError;

thread_local! {
    /// The flag of the [`cancellable`] call running on this thread.
    static FLAG: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Runs `work` on this thread so that the long loops inside it stop early
/// once `cancel` is set (from another thread); its result is then
/// [`ArtifactError::Cancelled`], never the partial result the loops left.
///
/// The loops look at the flag between chunks (1 MiB of token counting, a
/// window of grep, a line of a page), so a call stops within milliseconds
/// of the flag. Building a file's line index or parsing a JSON document is
/// not cut short: their results are kept for the next call.
///
/// ```
/// use std::sync::Arc;
/// use std::sync::atomic::AtomicBool;
/// use flexmd_artifact::{ArtifactError, Encoding, cancellable, count_tokens};
///
/// let cancel = Arc::new(AtomicBool::new(false));
/// let n = cancellable(cancel.clone(), || count_tokens(b"hello world", Encoding::O200kBase));
/// assert_eq!(n.unwrap(), 2);
///
/// cancel.store(true, std::sync::atomic::Ordering::Relaxed);
/// let n = cancellable(cancel, || count_tokens(b"hello world", Encoding::O200kBase));
/// assert!(matches!(n, Err(ArtifactError::Cancelled)));
/// ```
pub fn cancellable<T>(
    cancel: Arc<AtomicBool>,
    work: impl FnOnce() -> T,
) -> Result<T, ArtifactError> {
    /// Puts the previous flag back, also when `work` panics.
    struct Restore(Option<Arc<AtomicBool>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            FLAG.with(|flag| *flag.borrow_mut() = previous);
        }
    }
    let previous = FLAG.with(|flag| flag.borrow_mut().replace(cancel.clone()));
    let restore = Restore(previous);
    let result = work();
    drop(restore);
    if cancel.load(Ordering::Relaxed) {
        Err(ArtifactError::Cancelled)
    } else {
        Ok(result)
    }
}

/// Whether the [`cancellable`] call running on this thread was given up
/// (long loops of other crates look at it between steps, as this crate's
/// do).
///
/// ```
/// assert!(!flexmd_artifact::cancelled());
/// ```
pub fn cancelled() -> bool {
    FLAG.with(|flag| {
        flag.borrow()
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_is_seen_inside_and_forgotten_after() {
        let cancel = Arc::new(AtomicBool::new(true));
        let inside = cancellable(cancel, cancelled);
        assert!(matches!(inside, Err(ArtifactError::Cancelled)));
        assert!(!cancelled());
    }

    #[test]
    fn nested_calls_restore_the_outer_flag() {
        let outer = Arc::new(AtomicBool::new(false));
        let inner = Arc::new(AtomicBool::new(true));
        let seen = cancellable(outer, || {
            let _ = cancellable(inner, || ());
            cancelled()
        });
        assert!(!seen.unwrap());
    }

    #[test]
    fn a_token_count_stops_at_the_flag() {
        let text = "word ".repeat(4 << 20);
        let full = crate::count_tokens(text.as_bytes(), crate::Encoding::O200kBase);
        let cancel = Arc::new(AtomicBool::new(true));
        let mut counted = 0;
        let result = cancellable(cancel, || {
            counted = crate::count_tokens(text.as_bytes(), crate::Encoding::O200kBase);
        });
        assert!(matches!(result, Err(ArtifactError::Cancelled)));
        // The loop stopped before its first chunk of 1 MiB.
        assert_eq!((full, counted), (4_194_305, 0));
    }
}
