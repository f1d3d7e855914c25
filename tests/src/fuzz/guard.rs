//! Running one fuzz case so that neither a panic nor a hang ends the run: the case runs on a
//! worker thread under `catch_unwind`, and the caller waits for it with a deadline. A case that
//! misses its deadline is reported as a hang and its thread abandoned (a thread cannot be
//! killed); the next case gets a fresh worker.
//!
//! The deadline is the worker's CPU time, not the clock's: a full run shares a loaded machine
//! at low priority, where a case can wait for the processor far longer than it computes (a run
//! at load 11 counted 13 vc4 cases of 0.1 s CPU as hangs against a 20 s wall-clock deadline).
//! On Linux the worker's CPU time is read from `/proc/<pid>/task/<tid>/stat`; elsewhere, and
//! for a case that blocks without computing, a wall-clock bound of [`WALL_FACTOR`] times the
//! deadline still ends the wait.

use std::any::Any;
use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Once;
use std::thread;
use std::time::{Duration, Instant};

/// How a guarded case ended.
#[derive(Debug)]
pub enum Outcome<T> {
    /// It returned.
    Done(T),
    /// It panicked: the message and where.
    Panicked(String),
    /// It did not return before the deadline.
    Hung,
}

type Job = Box<dyn FnOnce() -> Box<dyn Any + Send> + Send>;
type Reply = Result<Box<dyn Any + Send>, String>;

/// The name of worker threads: the panic hook stays quiet for them and keeps the message.
const WORKER: &str = "fuzz-worker";

/// The main thread's stack size, so recursion that overflows in the `isa` command overflows
/// here too.
const STACK: usize = 8 << 20;

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs (once) a panic hook that records a worker's panic instead of printing it; other
/// threads' panics (the test harness's) go to the hook that was there before.
fn quiet_workers() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if thread::current().name() == Some(WORKER) {
                LAST_PANIC.with(|p| *p.borrow_mut() = Some(info.to_string()));
            } else {
                previous(info);
            }
        }));
    });
}

/// A case that neither returns nor computes (blocked) is a hang after this many times its
/// CPU deadline on the clock.
pub const WALL_FACTOR: u32 = 30;

/// How often the waiting thread looks at the worker's CPU time.
const POLL: Duration = Duration::from_millis(250);

/// Clock ticks per second of `/proc`'s CPU times (Linux's `USER_HZ`, 100 on every
/// architecture Rust supports).
const TICKS_PER_SECOND: u64 = 100;

/// A worker thread: where its jobs go, where its replies come from, and the `/proc` file with
/// its CPU time (if the system has one).
struct Worker {
    jobs: Sender<Job>,
    replies: Receiver<Reply>,
    stat: Option<PathBuf>,
}

/// The CPU time (user and system) of the thread whose `/proc` stat file is `stat`.
fn cpu_time(stat: &PathBuf) -> Option<Duration> {
    let text = std::fs::read_to_string(stat).ok()?;
    // The command name (field 2) is in parentheses and may hold blanks: fields after it start
    // with the state (field 3); utime and stime are fields 14 and 15.
    let rest = text.get(text.rfind(')')? + 1..)?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let user: u64 = fields.get(11)?.parse().ok()?;
    let system: u64 = fields.get(12)?.parse().ok()?;
    Some(Duration::from_millis((user + system) * 1000 / TICKS_PER_SECOND))
}

/// Runs cases one after another on a worker thread, each with a deadline of CPU time.
pub struct Guard {
    timeout: Duration,
    worker: Option<Worker>,
}

impl Guard {
    /// A guard giving every case `timeout`.
    pub fn new(timeout: Duration) -> Self {
        quiet_workers();
        Guard { timeout, worker: None }
    }

    fn spawn() -> Option<Worker> {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let (outbox, replies) = mpsc::channel::<Reply>();
        let (here, there) = mpsc::channel::<Option<PathBuf>>();
        let spawned = thread::Builder::new().name(WORKER.into()).stack_size(STACK).spawn(move || {
            // `/proc/thread-self` names this thread's directory as `<pid>/task/<tid>`.
            let stat = std::fs::read_link("/proc/thread-self")
                .ok()
                .map(|p| PathBuf::from("/proc").join(p).join("stat"))
                .filter(|p| cpu_time(p).is_some());
            let _ = here.send(stat);
            for job in inbox {
                let reply = panic::catch_unwind(AssertUnwindSafe(job)).map_err(|payload| {
                    LAST_PANIC.with(|p| p.borrow_mut().take()).unwrap_or_else(|| payload_text(&*payload))
                });
                if outbox.send(reply).is_err() {
                    break;
                }
            }
        });
        spawned.ok()?;
        let stat = there.recv().ok()?;
        Some(Worker { jobs, replies, stat })
    }

    /// Runs `case` on the worker and waits until it returns, or until it has used the guard's
    /// timeout of CPU time (or [`WALL_FACTOR`] times it on the clock).
    pub fn run<T: Send + 'static>(&mut self, case: impl FnOnce() -> T + Send + 'static) -> Outcome<T> {
        if self.worker.is_none() {
            self.worker = Self::spawn();
        }
        let Some(worker) = &self.worker else {
            return Outcome::Panicked("cannot start a worker thread".into());
        };
        let start = Instant::now();
        let cpu_start = worker.stat.as_ref().and_then(cpu_time);
        if worker.jobs.send(Box::new(move || Box::new(case()) as Box<dyn Any + Send>)).is_err() {
            self.worker = None;
            return Outcome::Panicked("the worker thread is gone".into());
        }
        let wall = self.timeout * if cpu_start.is_some() { WALL_FACTOR } else { 1 };
        let reply = loop {
            match worker.replies.recv_timeout(POLL.min(self.timeout)) {
                Err(RecvTimeoutError::Timeout) => {
                    let used = worker.stat.as_ref().and_then(cpu_time).zip(cpu_start).map(|(now, s)| now - s);
                    if used.is_some_and(|u| u > self.timeout) || start.elapsed() > wall {
                        break Err(RecvTimeoutError::Timeout);
                    }
                }
                other => break other,
            }
        };
        match reply {
            Ok(Ok(value)) => match value.downcast::<T>() {
                Ok(v) => Outcome::Done(*v),
                Err(_) => Outcome::Panicked("a case returned another type".into()),
            },
            Ok(Err(message)) => Outcome::Panicked(message),
            Err(RecvTimeoutError::Timeout) => {
                // The thread may run forever: leave it, and start a new one for the next case.
                self.worker = None;
                Outcome::Hung
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.worker = None;
                Outcome::Panicked("the worker thread died".into())
            }
        }
    }
}

fn payload_text(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".into()
    }
}
