//! Running one fuzz case so that neither a panic nor a hang ends the run: the case runs on a
//! worker thread under `catch_unwind`, and the caller waits for it with a deadline. A case that
//! misses its deadline is reported as a hang and its thread abandoned (a thread cannot be
//! killed); the next case gets a fresh worker.

use std::any::Any;
use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Once;
use std::thread;
use std::time::Duration;

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

/// Runs cases one after another on a worker thread, each with a deadline.
pub struct Guard {
    timeout: Duration,
    worker: Option<(Sender<Job>, Receiver<Reply>)>,
}

impl Guard {
    /// A guard giving every case `timeout`.
    pub fn new(timeout: Duration) -> Self {
        quiet_workers();
        Guard { timeout, worker: None }
    }

    fn spawn() -> Option<(Sender<Job>, Receiver<Reply>)> {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let (outbox, replies) = mpsc::channel::<Reply>();
        let spawned = thread::Builder::new().name(WORKER.into()).stack_size(STACK).spawn(move || {
            for job in inbox {
                let reply = panic::catch_unwind(AssertUnwindSafe(job)).map_err(|payload| {
                    LAST_PANIC.with(|p| p.borrow_mut().take()).unwrap_or_else(|| payload_text(&*payload))
                });
                if outbox.send(reply).is_err() {
                    break;
                }
            }
        });
        spawned.ok().map(|_| (jobs, replies))
    }

    /// Runs `case` on the worker and waits for it at most the guard's timeout.
    pub fn run<T: Send + 'static>(&mut self, case: impl FnOnce() -> T + Send + 'static) -> Outcome<T> {
        if self.worker.is_none() {
            self.worker = Self::spawn();
        }
        let Some((jobs, replies)) = &self.worker else {
            return Outcome::Panicked("cannot start a worker thread".into());
        };
        if jobs.send(Box::new(move || Box::new(case()) as Box<dyn Any + Send>)).is_err() {
            self.worker = None;
            return Outcome::Panicked("the worker thread is gone".into());
        }
        match replies.recv_timeout(self.timeout) {
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
