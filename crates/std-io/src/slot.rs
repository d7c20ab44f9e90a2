//! One open connection as the accept loop and a graceful stop see it: the
//! core's [`SlotCell`] (what it does, since when, whether it was evicted),
//! its flows, and how another thread ends its blocked I/O. The endpoint
//! reads it through [`Published`] only at the connection limit.

use std::net::{Shutdown, TcpStream};
use std::sync::RwLock;

use http_net_conn::driver::{Flow, Published, SlotCell, SlotState};
use http_net_conn::{Stage, Timestamp};

use crate::lock::read;
use crate::transport::Interrupter;
use crate::wire::{self, Gauge};
use http_net_conn::driver::FlowGauge;

/// One open connection, as the accept loop and the shutdown see it.
pub(crate) struct Slot {
    /// Its key in the endpoint.
    pub(crate) id: u64,
    pub(crate) cell: SlotCell,
    /// The request body's progress while the handler reads it.
    pub(crate) body: FlowGauge,
    /// The responses' progress.
    pub(crate) write: FlowGauge,
    /// How another thread ends the connection's blocked I/O: a TCP
    /// connection's own socket, shared here (one descriptor per
    /// connection), or the interrupter of another stream type.
    pub(crate) tcp: RwLock<Option<TcpStream>>,
    pub(crate) interrupter: Option<Interrupter>,
}

/// The handle a connection registers with (see [`Slot::tcp`]).
pub(crate) enum Handle {
    Tcp(TcpStream),
    Interrupter(Option<Interrupter>),
}

impl Published for Slot {
    fn cell(&self) -> &SlotCell {
        &self.cell
    }
    fn flows(&self, now: Timestamp) -> (Flow, Flow) {
        (self.body.flow(now), self.write.flow(now))
    }
}

impl Slot {
    pub(crate) fn new() -> Slot {
        let epoch = wire::epoch();
        Slot {
            id: 0,
            cell: SlotCell::new(wire::stamp(epoch)),
            body: FlowGauge::new(),
            write: FlowGauge::new(),
            tcp: RwLock::new(None),
            interrupter: None,
        }
    }

    /// Enters `state` at `now`, a stamp from [`crate::wire::stamp`] (a
    /// state it is in already keeps its start).
    pub(crate) fn enter(&self, state: SlotState, now: Timestamp) {
        self.cell.enter(state, Some(now));
    }

    /// The stage the endpoint evicted the connection in.
    pub(crate) fn evicted(&self) -> Option<Stage> {
        self.cell.evicted()
    }

    /// The request body's gauge, with this slot's cell.
    pub(crate) fn body_gauge(&self) -> Gauge<'_> {
        Gauge {
            flow: &self.body,
            cell: &self.cell,
        }
    }

    /// The responses' gauge, with this slot's cell.
    pub(crate) fn write_gauge(&self) -> Gauge<'_> {
        Gauge {
            flow: &self.write,
            cell: &self.cell,
        }
    }

    /// Carries out the endpoint's eviction (marked in the cell, so that a
    /// timeout is final): the blocked read ends (the connection's thread answers a head `503`, a
    /// body `408`), or all I/O for a response (cut).
    pub(crate) fn evict(&self, stage: Stage) {
        self.interrupt(stage == Stage::Write);
    }

    /// Ends the connection's blocked read, or all its I/O (`all`).
    pub(crate) fn interrupt(&self, all: bool) {
        if let Some(i) = &self.interrupter {
            if all {
                i.interrupt();
            } else {
                i.interrupt_read();
            }
        } else if let Some(tcp) = read(&self.tcp).as_ref() {
            let _ = tcp.shutdown(if all { Shutdown::Both } else { Shutdown::Read });
        }
    }
}
