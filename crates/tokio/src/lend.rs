//! A `&mut` lent to one async step at a time, for the poll-based body
//! reader and writer ([`Body`](crate::Body), [`BodyWriter`](crate::BodyWriter)):
//! `poll_read` and `poll_write` cannot hold an `async fn`'s future across
//! calls while also holding what it borrows, so the borrow moves into the
//! step's future and comes back when the step is done.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use crate::error::Error;

/// The future of one step: it gives the borrow back with its outcome.
type Step<'b, T> = Pin<Box<dyn Future<Output = (&'b mut T, Result<(), Error>)> + Send + 'b>>;

/// A `&'b mut T` held here, or lent to a step in flight.
pub(crate) enum Lent<'b, T: ?Sized> {
    /// Held: ready for the next call.
    Here(&'b mut T),
    /// Lent to a step (one box per step that had to wait).
    Away(Step<'b, T>),
    /// Only while a step is being made.
    Gone,
}

impl<'b, T: ?Sized + Send> Lent<'b, T> {
    /// Finishes the step in flight, if any: the borrow, or the step's error
    /// (the borrow is back either way). `Err(BodyUnavailable)` only if a
    /// step was never made (`start` is given no borrow).
    pub(crate) fn poll_back(&mut self, cx: &mut Context<'_>) -> Poll<Result<&mut T, Error>> {
        if let Lent::Away(step) = self {
            match step.as_mut().poll(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready((t, r)) => {
                    *self = Lent::Here(t);
                    if let Err(e) = r {
                        return Poll::Ready(Err(e));
                    }
                }
            }
        }
        match self {
            Lent::Here(t) => Poll::Ready(Ok(&mut **t)),
            _ => Poll::Ready(Err(Error::BodyUnavailable)),
        }
    }

    /// Lends the borrow to the step `f` makes of it (a no-op when it is
    /// not held: a step is in flight).
    pub(crate) fn start<F>(&mut self, f: impl FnOnce(&'b mut T) -> F)
    where
        F: Future<Output = (&'b mut T, Result<(), Error>)> + Send + 'b,
    {
        match std::mem::replace(self, Lent::Gone) {
            Lent::Here(t) => *self = Lent::Away(Box::pin(f(t))),
            other => *self = other,
        }
    }
}

/// A [`Lent`] used by one handle alone, or shared by the two halves of a
/// pair (a reader and a writer over one exchange, polled by one task: the
/// lock is never contended, and a step in flight is finished by whichever
/// half is polled next).
pub(crate) enum Hold<'b, T: ?Sized> {
    /// One handle.
    Alone(Lent<'b, T>),
    /// One half of a pair.
    Paired(Arc<Mutex<Lent<'b, T>>>),
}

impl<'b, T: ?Sized> Hold<'b, T> {
    /// Both halves of a pair over `t`.
    pub(crate) fn pair(t: &'b mut T) -> (Hold<'b, T>, Hold<'b, T>) {
        let shared = Arc::new(Mutex::new(Lent::Here(t)));
        (Hold::Paired(Arc::clone(&shared)), Hold::Paired(shared))
    }

    /// Runs `f` on the lent borrow (a poisoned lock is taken as it is: a
    /// step interrupted by a panic left the borrow `Away` or `Here`, both
    /// usable, or `Gone`, which reads as unavailable).
    pub(crate) fn with<R>(&mut self, f: impl FnOnce(&mut Lent<'b, T>) -> R) -> R {
        match self {
            Hold::Alone(lent) => f(lent),
            Hold::Paired(shared) => {
                let mut lent = shared.lock().unwrap_or_else(|e| e.into_inner());
                f(&mut lent)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run<F: Future>(f: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(f)
    }

    #[test]
    fn a_step_gets_the_borrow_and_gives_it_back_with_its_outcome() {
        run(async {
            let mut n = 1u32;
            let mut lent = Lent::Here(&mut n);
            lent.start(|n| async move {
                tokio::task::yield_now().await;
                *n += 1;
                (n, Ok(()))
            });
            assert!(matches!(lent, Lent::Away(_)));
            // A second start while one is in flight changes nothing.
            lent.start(|n| async move { (n, Err(Error::NotSwitched)) });
            let got = std::future::poll_fn(|cx| lent.poll_back(cx).map(|r| r.map(|n| *n))).await;
            assert_eq!(got.unwrap(), 2);
            lent.start(|n| async move { (n, Err(Error::NotSwitched)) });
            let r = std::future::poll_fn(|cx| lent.poll_back(cx).map(|r| r.map(|n| *n))).await;
            assert!(matches!(r, Err(Error::NotSwitched)));
            // The borrow is back after a failed step.
            let r = std::future::poll_fn(|cx| lent.poll_back(cx).map(|r| r.map(|n| *n))).await;
            assert_eq!(r.unwrap(), 2);
        });
    }

    #[test]
    fn the_halves_of_a_pair_share_one_borrow() {
        run(async {
            let mut n = 0u32;
            let (mut a, mut b) = Hold::pair(&mut n);
            a.with(|l| l.start(|n| async move { (n, Ok(())) }));
            // `b` finishes the step `a` started.
            let r = std::future::poll_fn(|cx| b.with(|l| l.poll_back(cx).map(|r| r.map(|n| *n))));
            assert_eq!(r.await.unwrap(), 0);
            assert!(a.with(|l| matches!(l, Lent::Here(_))));
        });
    }
}
