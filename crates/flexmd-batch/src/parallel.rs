//! A `map` run on worker threads that gives its results in input order.

use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// How many inputs each worker may have waiting or in hand: enough to keep
/// every core busy while one slow input holds the order up, and few enough
/// that memory stays at a handful of inputs per core.
const IN_FLIGHT_PER_JOB: usize = 4;

type Job<T> = (usize, T);
type Done<R> = (usize, std::thread::Result<R>);

/// An iterator adaptor: `f` applied to every input on `jobs` worker
/// threads, the results given in input order.
///
/// Inputs are pulled from the source only as results are taken, at most
/// `4 × jobs` ahead of the last result given, so memory stays flat however
/// long the source is (a 10 GB JSON Lines file streams through). The
/// source itself is read on the thread that iterates, so it need not be
/// [`Send`]. With one job, or where threads cannot be started (WebAssembly),
/// the work runs on the calling thread. A panic in `f` is resumed on the
/// thread that iterates, when its result's turn comes, as a plain `map`
/// would panic there.
///
/// ```
/// use flexmd_batch::ParallelMap;
/// let squares: Vec<u64> = ParallelMap::new(1..=1000u64, 4, |n| n * n).collect();
/// assert_eq!(squares.len(), 1000);
/// assert_eq!(squares[..4], [1, 4, 9, 16]);
/// assert_eq!(squares[999], 1_000_000);
/// ```
pub struct ParallelMap<I: Iterator, R, F> {
    inputs: std::iter::Fuse<I>,
    f: Arc<F>,
    work: Option<Sender<Job<I::Item>>>,
    done: Receiver<Done<R>>,
    workers: Vec<JoinHandle<()>>,
    /// Results not yet given, from the next one on (`None`: not back yet).
    waiting: VecDeque<Option<R>>,
    /// The index of the next result to give.
    given: usize,
    window: usize,
}

impl<I, R, F> ParallelMap<I, R, F>
where
    I: Iterator,
    I::Item: Send + 'static,
    R: Send + 'static,
    F: Fn(I::Item) -> R + Send + Sync + 'static,
{
    /// `f` over `inputs` on `jobs` threads (0: one per core).
    pub fn new(inputs: I, jobs: usize, f: F) -> Self {
        let jobs = if jobs == 0 { available_jobs() } else { jobs };
        let f = Arc::new(f);
        let (work_tx, work_rx) = channel::<Job<I::Item>>();
        let (done_tx, done) = channel::<Done<R>>();
        let work_rx = Arc::new(Mutex::new(work_rx));
        let mut workers = Vec::new();
        if jobs > 1 {
            for n in 0..jobs {
                let (f, work_rx, done_tx) = (Arc::clone(&f), Arc::clone(&work_rx), done_tx.clone());
                let spawned = std::thread::Builder::new()
                    .name(format!("flexmd-batch-{n}"))
                    .spawn(move || work(&*f, &work_rx, &done_tx));
                match spawned {
                    Ok(handle) => workers.push(handle),
                    // No threads here (WebAssembly) or no more: go on with
                    // what started, or on the calling thread.
                    Err(_) => break,
                }
            }
        }
        let window = workers.len().max(1) * IN_FLIGHT_PER_JOB;
        Self {
            inputs: inputs.fuse(),
            f,
            work: (!workers.is_empty()).then_some(work_tx),
            done,
            workers,
            waiting: VecDeque::new(),
            given: 0,
            window,
        }
    }

    /// How many worker threads run (0: the work runs on the calling thread).
    #[must_use]
    pub fn workers(&self) -> usize {
        self.workers.len()
    }
}

/// One worker: take an input, map it, send the result back, until the
/// inputs end or nobody wants results.
fn work<T, R>(
    f: &(impl Fn(T) -> R + ?Sized),
    inputs: &Mutex<Receiver<Job<T>>>,
    results: &Sender<Done<R>>,
) {
    loop {
        // The lock is held only to take one input.
        let job = match inputs.lock() {
            Ok(inputs) => inputs.recv(),
            Err(_) => return,
        };
        let Ok((index, input)) = job else { return };
        let result = catch_unwind(AssertUnwindSafe(|| f(input)));
        if results.send((index, result)).is_err() {
            return;
        }
    }
}

/// One job per core the process may use.
fn available_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

impl<I, R, F> Iterator for ParallelMap<I, R, F>
where
    I: Iterator,
    F: Fn(I::Item) -> R,
{
    type Item = R;

    fn next(&mut self) -> Option<R> {
        let Some(work) = &self.work else {
            return self.inputs.next().map(|input| (self.f)(input));
        };
        // Keep the workers fed up to the window.
        while self.waiting.len() < self.window {
            let Some(input) = self.inputs.next() else {
                break;
            };
            let index = self.given + self.waiting.len();
            match work.send((index, input)) {
                Ok(()) => self.waiting.push_back(None),
                // Every worker is gone (they end only when nobody listens,
                // so this is not expected): map it here.
                Err(std::sync::mpsc::SendError((_, input))) => {
                    self.waiting.push_back(Some((self.f)(input)));
                }
            }
        }
        loop {
            match self.waiting.front_mut() {
                None => return None,
                Some(slot @ Some(_)) => {
                    let result = slot.take();
                    self.waiting.pop_front();
                    self.given += 1;
                    return result;
                }
                Some(None) => {}
            }
            // The next result is not back yet: wait for any.
            let (index, result) = self.done.recv().ok()?;
            let result = match result {
                Ok(result) => result,
                Err(panic) => resume_unwind(panic),
            };
            if let Some(slot) = index
                .checked_sub(self.given)
                .and_then(|i| self.waiting.get_mut(i))
            {
                *slot = Some(result);
            }
        }
    }
}

impl<I: Iterator, R, F> Drop for ParallelMap<I, R, F> {
    fn drop(&mut self) {
        // Closing the inputs' channel ends each worker after its current input.
        self.work = None;
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
    }
}

impl<I: Iterator, R, F> std::fmt::Debug for ParallelMap<I, R, F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParallelMap")
            .field("workers", &self.workers.len())
            .field("given", &self.given)
            .field("in_flight", &self.waiting.len())
            .finish_non_exhaustive()
    }
}

/// An iterator adaptor: the inputs in groups of at most `max_items` inputs
/// and `max_weight` in all (by `weight`; a group holds at least one input
/// however heavy). Handing work to threads costs microseconds per hand-off:
/// [`ParallelMap`] over groups of small inputs spends it once per group.
///
/// ```
/// use flexmd_batch::Chunks;
/// let words = ["a", "bb", "cccc", "dd", "e"];
/// let groups: Vec<Vec<&str>> = Chunks::new(words.into_iter(), 3, 4, |w| w.len()).collect();
/// assert_eq!(groups, [vec!["a", "bb"], vec!["cccc"], vec!["dd", "e"]]);
/// ```
pub struct Chunks<I: Iterator, W> {
    inputs: std::iter::Peekable<I>,
    max_items: usize,
    max_weight: usize,
    weight: W,
}

impl<I: Iterator, W: Fn(&I::Item) -> usize> Chunks<I, W> {
    /// Groups of `inputs` of at most `max_items` and `max_weight`.
    pub fn new(inputs: I, max_items: usize, max_weight: usize, weight: W) -> Self {
        Self {
            inputs: inputs.peekable(),
            max_items: max_items.max(1),
            max_weight,
            weight,
        }
    }
}

impl<I: Iterator, W: Fn(&I::Item) -> usize> Iterator for Chunks<I, W> {
    type Item = Vec<I::Item>;

    fn next(&mut self) -> Option<Vec<I::Item>> {
        let first = self.inputs.next()?;
        let mut total = (self.weight)(&first);
        let mut group = vec![first];
        while group.len() < self.max_items {
            let Some(next) = self.inputs.peek() else {
                break;
            };
            total = total.saturating_add((self.weight)(next));
            if total > self.max_weight {
                break;
            }
            group.extend(self.inputs.next());
        }
        Some(group)
    }
}

impl<I: Iterator, W> std::fmt::Debug for Chunks<I, W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Chunks")
            .field("max_items", &self.max_items)
            .field("max_weight", &self.max_weight)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[test]
    fn results_come_in_input_order_however_long_each_takes() {
        // Early inputs take longest, so they finish last.
        let out: Vec<usize> = ParallelMap::new(0..64usize, 4, |n| {
            std::thread::sleep(Duration::from_micros(((64 - n) * 50) as u64));
            n * 10
        })
        .collect();
        assert_eq!(out, (0..64).map(|n| n * 10).collect::<Vec<_>>());
    }

    #[test]
    fn inputs_are_pulled_only_a_window_ahead() {
        static PULLED: AtomicUsize = AtomicUsize::new(0);
        let source = (0..1_000_000usize).inspect(|_| {
            PULLED.fetch_add(1, Ordering::SeqCst);
        });
        let mut map = ParallelMap::new(source, 2, |n| n + 1);
        assert_eq!(map.workers(), 2);
        assert_eq!(map.next(), Some(1));
        assert_eq!(map.next(), Some(2));
        // Two results taken, at most the window of 8 beyond them pulled.
        assert!(PULLED.load(Ordering::SeqCst) <= 2 + 8, "{PULLED:?}");
    }

    #[test]
    fn one_job_runs_on_the_calling_thread() {
        let caller = std::thread::current().id();
        let map = ParallelMap::new(0..3, 1, move |n: i32| {
            (n, std::thread::current().id() == caller)
        });
        assert_eq!(map.workers(), 0);
        assert_eq!(map.collect::<Vec<_>>(), [(0, true), (1, true), (2, true)]);
    }

    #[test]
    fn a_source_that_is_not_send_is_read_on_the_calling_thread() {
        let shared = std::rc::Rc::new(5);
        let source = (0..3).map(move |n| n + *shared);
        let out: Vec<i32> = ParallelMap::new(source, 3, |n| n * 2).collect();
        assert_eq!(out, [10, 12, 14]);
    }

    #[test]
    fn a_panic_in_f_reaches_the_caller_at_its_turn() {
        let mut map = ParallelMap::new(0..10, 2, |n: i32| {
            assert!(n != 3, "three");
            n
        });
        assert_eq!(map.by_ref().take(3).collect::<Vec<_>>(), [0, 1, 2]);
        let caught = catch_unwind(AssertUnwindSafe(|| map.next()));
        assert!(caught.is_err());
    }

    #[test]
    fn chunks_keep_every_input_in_order() {
        let groups: Vec<Vec<u32>> = Chunks::new(1..=10u32, 4, 12, |&n| n as usize).collect();
        assert_eq!(
            groups,
            [
                vec![1, 2, 3, 4],
                vec![5, 6],
                vec![7],
                vec![8],
                vec![9],
                vec![10]
            ]
        );
        assert_eq!(Chunks::new(0..0, 4, 4, |_: &i32| 1).count(), 0);
    }

    #[test]
    fn dropping_early_stops_the_workers() {
        let mut map = ParallelMap::new(0.., 2, |n: u64| n);
        assert_eq!(map.next(), Some(0));
        drop(map);
    }
}
