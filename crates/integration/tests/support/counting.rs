//! The one counting global allocator of the allocation tests. Each test file
//! that includes this module (`#[path = "support/counting.rs"] mod
//! counting;`) is a test binary of its own, with this as its global
//! allocator. The only `unsafe` of the crate (the `GlobalAlloc` contract):
//! every call is forwarded unchanged to the system allocator.
//!
//! Every allocation counts twice over: in its thread's own count
//! ([`thread_count`], [`allocations`]), so that tests running in parallel do
//! not disturb each other, and, on the threads marked with [`count_here`],
//! in one count shared by all of them ([`marked_count`]), for a test whose
//! work spans threads (a server's and its client's).
#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

thread_local! {
    // Const-initialised and without a destructor: using them never allocates.
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
    static MARKED: Cell<bool> = const { Cell::new(false) };
}

/// The allocations of the marked threads.
static MARKED_ALLOCS: AtomicU64 = AtomicU64::new(0);

fn count() {
    // `try_with`: the allocator may run while the thread-locals are torn down.
    let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
    if MARKED.try_with(Cell::get).unwrap_or(false) {
        MARKED_ALLOCS.fetch_add(1, Ordering::Relaxed);
    }
}

struct Counting;

// SAFETY: every method forwards to `System` with the same arguments, so the
// `GlobalAlloc` contract is the system allocator's; counting touches only a
// const-initialised thread-local and an atomic, and never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwarded unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwarded unchanged.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: forwarded unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The allocations made on this thread so far.
pub fn thread_count() -> u64 {
    ALLOCS.with(Cell::get)
}

/// The allocations made by `f` on this thread.
pub fn allocations(f: impl FnOnce()) -> u64 {
    let before = thread_count();
    f();
    thread_count() - before
}

/// Counts this thread's allocations in [`marked_count`] from now on (`on`),
/// or no longer (`!on`).
pub fn count_here(on: bool) {
    MARKED.with(|m| m.set(on));
}

/// The allocations made so far on the threads while [`count_here`] marked
/// them.
pub fn marked_count() -> u64 {
    MARKED_ALLOCS.load(Ordering::SeqCst)
}
