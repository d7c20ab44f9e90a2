//! A stand-in for criterion 0.5 that counts instead of timing.
//!
//! `cargo xtask bench-ab --instructions` builds each side's `benches/`
//! against this crate and runs every bench binary under callgrind with two
//! environment variables:
//!
//! - `BENCH_COUNT_ID`: the bench to run, `group/name` as criterion names it;
//! - `BENCH_COUNT_CALLS`: how many times to call its routine.
//!
//! Every call of the routine goes through [`counted_call`], which is never
//! inlined, so `valgrind --tool=callgrind --toggle-collect=*counted_call*`
//! counts the routine's own instructions and nothing else: not the setup of
//! `iter_batched_ref` (criterion does not time it either), not the process.
//! Two runs with different call counts give the instructions of one call as
//! their difference divided by the difference of the counts.
//!
//! `iter_custom` (the duplex rows of `compare/benches/compare.rs`, whose
//! routine runs `iters` exchanges on its runtime) is called once with the
//! number of calls asked, inside one [`counted_call`]: the difference of two
//! runs is then that many exchanges, the runtime's entry and exit cancelled
//! out.
//!
//! The binary exits with status 2 when the bench named is not in it, or its
//! routine did not run the number of times asked.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

use std::sync::atomic::{AtomicU64, Ordering};

pub use std::hint::black_box;

/// How many times the routine of the bench asked for was called.
static CALLED: AtomicU64 = AtomicU64::new(0);

/// The bench asked for and its call count, from the environment.
fn wanted() -> Option<(String, u64)> {
    let id = std::env::var("BENCH_COUNT_ID").ok()?;
    let calls = std::env::var("BENCH_COUNT_CALLS").ok()?.parse().ok()?;
    Some((id, calls))
}

/// Calls `routine` once. Never inlined: callgrind counts what runs inside.
#[inline(never)]
pub fn counted_call<O, F: FnMut() -> O>(routine: &mut F) -> O {
    routine()
}

/// Records `calls` calls, outside [`counted_call`] so that the record is
/// not counted.
fn record(calls: u64) {
    CALLED.fetch_add(calls, Ordering::Relaxed);
}

/// Runs `f` with a [`Bencher`] when `full_id` is the bench asked for.
fn run_if_wanted<F: FnMut(&mut Bencher)>(full_id: &str, mut f: F) {
    if let Some((id, calls)) = wanted() {
        if id == full_id {
            f(&mut Bencher { calls });
        }
    }
}

/// Ends the process: status 0 if the bench asked for ran its routine the
/// number of times asked, 2 otherwise. Called by [`criterion_main!`].
pub fn finish() {
    let Some((id, calls)) = wanted() else {
        eprintln!("criterion-counter: set BENCH_COUNT_ID=group/name and BENCH_COUNT_CALLS=N");
        std::process::exit(2);
    };
    let called = CALLED.load(Ordering::Relaxed);
    if called != calls {
        eprintln!("criterion-counter: {id}: the routine ran {called} times, not {calls}");
        std::process::exit(2);
    }
}

/// How criterion sizes the batches of `iter_batched`; ignored here (every
/// call gets its own input).
#[derive(Clone, Copy, Debug)]
pub enum BatchSize {
    /// A small input.
    SmallInput,
    /// A large input.
    LargeInput,
    /// One input per iteration.
    PerIteration,
}

/// What one call of a routine processes; ignored here.
#[derive(Clone, Copy, Debug)]
pub enum Throughput {
    /// Bytes per call.
    Bytes(u64),
    /// Elements per call.
    Elements(u64),
}

/// The benchmark manager.
#[derive(Debug, Default)]
pub struct Criterion;

impl Criterion {
    /// Ignored (the `config = ...` of `criterion_group!`).
    pub fn warm_up_time(self, _time: std::time::Duration) -> Self {
        self
    }

    /// Ignored.
    pub fn measurement_time(self, _time: std::time::Duration) -> Self {
        self
    }

    /// Ignored.
    pub fn sample_size(self, _samples: usize) -> Self {
        self
    }

    /// A group of benches named `group/...`.
    pub fn benchmark_group<S: Into<String>>(&mut self, name: S) -> BenchmarkGroup {
        BenchmarkGroup { name: name.into() }
    }

    /// One bench outside a group.
    pub fn bench_function<F: FnMut(&mut Bencher)>(&mut self, id: &str, f: F) -> &mut Self {
        run_if_wanted(id, f);
        self
    }
}

/// A group of benches.
#[derive(Debug)]
pub struct BenchmarkGroup {
    name: String,
}

impl BenchmarkGroup {
    /// Ignored.
    pub fn throughput(&mut self, _throughput: Throughput) -> &mut Self {
        self
    }

    /// Ignored.
    pub fn sample_size(&mut self, _samples: usize) -> &mut Self {
        self
    }

    /// Ignored.
    pub fn measurement_time(&mut self, _time: std::time::Duration) -> &mut Self {
        self
    }

    /// Ignored.
    pub fn warm_up_time(&mut self, _time: std::time::Duration) -> &mut Self {
        self
    }

    /// The bench `group/id`.
    pub fn bench_function<S: AsRef<str>, F: FnMut(&mut Bencher)>(
        &mut self,
        id: S,
        f: F,
    ) -> &mut Self {
        run_if_wanted(&format!("{}/{}", self.name, id.as_ref()), f);
        self
    }

    /// Ends the group.
    pub fn finish(self) {}
}

/// Runs a routine the number of times asked.
#[derive(Debug)]
pub struct Bencher {
    calls: u64,
}

impl Bencher {
    /// Calls `routine` the number of times asked.
    pub fn iter<O, R: FnMut() -> O>(&mut self, mut routine: R) {
        for _ in 0..self.calls {
            black_box(counted_call(&mut routine));
        }
        record(self.calls);
    }

    /// Calls `routine` the number of times asked, each on a fresh input
    /// from `setup`, which is not counted.
    pub fn iter_batched<I, O, S: FnMut() -> I, R: FnMut(I) -> O>(
        &mut self,
        mut setup: S,
        mut routine: R,
        _size: BatchSize,
    ) {
        for _ in 0..self.calls {
            let mut input = Some(setup());
            black_box(counted_call(&mut || {
                routine(input.take().expect("one input a call"))
            }));
        }
        record(self.calls);
    }

    /// Calls `routine` once with the number of calls asked as its `iters`,
    /// inside one [`counted_call`]: what it returns (criterion's measured
    /// time) is ignored.
    pub fn iter_custom<R: FnMut(u64) -> std::time::Duration>(&mut self, mut routine: R) {
        let calls = self.calls;
        black_box(counted_call(&mut || routine(calls)));
        record(calls);
    }

    /// Calls `routine` the number of times asked, each on a fresh input
    /// from `setup` (not counted), by reference.
    pub fn iter_batched_ref<I, O, S: FnMut() -> I, R: FnMut(&mut I) -> O>(
        &mut self,
        mut setup: S,
        mut routine: R,
        _size: BatchSize,
    ) {
        for _ in 0..self.calls {
            let mut input = setup();
            black_box(counted_call(&mut || routine(&mut input)));
        }
        record(self.calls);
    }
}

/// Defines a function `$name` that runs the bench functions given, in
/// either of criterion's two forms.
#[macro_export]
macro_rules! criterion_group {
    (name = $name:ident; config = $config:expr; targets = $($f:path),+ $(,)?) => {
        /// The benches of this group.
        pub fn $name() {
            let mut c: $crate::Criterion = $config;
            $($f(&mut c);)+
        }
    };
    ($name:ident, $($f:path),+ $(,)?) => {
        /// The benches of this group.
        pub fn $name() {
            let mut c = $crate::Criterion::default();
            $($f(&mut c);)+
        }
    };
}

/// Defines `main`: runs the groups given, then [`finish`].
#[macro_export]
macro_rules! criterion_main {
    ($($group:path),+ $(,)?) => {
        fn main() {
            $($group();)+
            $crate::finish();
        }
    };
}
