//! What both connections surface the same way: received fields borrowed
//! from the input buffer (the request and response views and the trailers
//! share [`FieldList`]), and the plain-data step outcome that `poll_event`
//! turns into a borrowed event.

use core::ops::Range;

use alloc::vec;
use alloc::vec::Vec;

use http_net_framing::BodyKind;
use http_net_head::Field;

use crate::inbuf::InBuf;
use crate::Config;

/// Received fields: spans into `buf`, in received order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FieldList<'a> {
    pub(crate) buf: &'a [u8],
    pub(crate) fields: &'a [Field],
}

impl<'a> FieldList<'a> {
    /// The first `count` fields of `storage` (all of it if shorter).
    pub(crate) fn new(buf: &'a [u8], storage: &'a [Field], count: usize) -> FieldList<'a> {
        FieldList {
            buf,
            fields: storage.get(..count).unwrap_or(storage),
        }
    }

    /// The fields as (name, value) bytes, in received order.
    pub(crate) fn iter(self) -> impl Iterator<Item = (&'a [u8], &'a [u8])> + 'a {
        self.fields
            .iter()
            .map(move |f| (f.name.get(self.buf), f.value.get(self.buf)))
    }

    /// The value of the first field named `name` (ASCII case-insensitive).
    pub(crate) fn get(self, name: &[u8]) -> Option<&'a [u8]> {
        crate::owned_fields::first_named(self.iter(), name)
    }
}

/// The trailer fields that ended a chunked message (empty otherwise).
#[derive(Clone, Copy, Debug)]
pub struct Trailers<'a> {
    list: FieldList<'a>,
}

impl Trailers<'static> {
    /// No trailer fields.
    pub const EMPTY: Trailers<'static> = Trailers {
        list: FieldList {
            buf: &[],
            fields: &[],
        },
    };
}

impl<'a> Trailers<'a> {
    /// The value of the first trailer named `name` (ASCII case-insensitive).
    pub fn get(&self, name: &[u8]) -> Option<&'a [u8]> {
        self.list.get(name)
    }
    /// How many trailer fields there were.
    pub fn len(&self) -> usize {
        self.list.fields.len()
    }
    /// The trailer fields as (name, value) bytes, in received order.
    pub fn iter(&self) -> impl Iterator<Item = (&'a [u8], &'a [u8])> + 'a {
        self.list.iter()
    }
    /// Whether there were no trailer fields.
    pub fn is_empty(&self) -> bool {
        self.list.fields.is_empty()
    }
}

/// A received head as both views hold it: the parsed head, its fields, and
/// how its body is delimited.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Received<'a, H> {
    pub(crate) head: &'a H,
    pub(crate) list: FieldList<'a>,
    pub(crate) body: BodyKind,
}

/// A parsed head's size: its bytes and its field lines.
pub(crate) trait HeadSize {
    fn size(&self) -> (usize, usize);
}

impl HeadSize for http_net_head::RequestHead {
    fn size(&self) -> (usize, usize) {
        (self.len, self.field_count)
    }
}

impl HeadSize for http_net_head::ResponseHead {
    fn size(&self) -> (usize, usize) {
        (self.len, self.field_count)
    }
}

impl<'a, H: HeadSize> Received<'a, H> {
    /// The current head (if any) at input offset `at`, with its fields from
    /// `storage` (spans relative to the head's start).
    pub(crate) fn of(
        input: &'a [u8],
        at: usize,
        head: Option<&'a H>,
        storage: &'a [Field],
        body: BodyKind,
    ) -> Option<Received<'a, H>> {
        let head = head?;
        let (len, count) = head.size();
        let buf = input.get(at..at.checked_add(len)?)?;
        Some(Received {
            head,
            list: FieldList::new(buf, storage, count),
            body,
        })
    }
}

/// The input half of either connection: the buffer, the head parser (`P`),
/// field storage for the head and for trailers, and the current head (`H`).
#[derive(Debug)]
pub(crate) struct Input<P, H> {
    pub(crate) buf: InBuf,
    pub(crate) parser: P,
    pub(crate) fields: Vec<Field>,
    pub(crate) trailers: Vec<Field>,
    pub(crate) head: Option<H>,
    pub(crate) head_at: usize,
    pub(crate) body: BodyKind,
}

impl<P, H: HeadSize> Input<P, H> {
    /// Buffers allocated once: a whole head plus one read, and field
    /// storage for the head and for trailers (`max_fields` each).
    pub(crate) fn new(config: &Config, parser: P) -> Input<P, H> {
        let head = config.head_limits();
        Input {
            buf: InBuf::new(head.max_head_bytes(), config.read_chunk()),
            parser,
            fields: vec![Field::default(); head.max_fields()],
            trailers: vec![Field::default(); head.max_fields()],
            head: None,
            head_at: 0,
            body: BodyKind::None,
        }
    }

    /// Forgets every byte received and the current head, keeping the
    /// buffers (the parser is the caller's to reset).
    pub(crate) fn reset(&mut self) {
        self.buf.reset();
        self.head = None;
        self.head_at = 0;
        self.body = BodyKind::None;
    }

    /// Hands out the input buffer and both field arrays (zeroed first when
    /// wiping), forgetting the current head; only with nothing unread.
    pub(crate) fn lend(&mut self) -> (Vec<u8>, Vec<Field>, Vec<Field>) {
        if self.buf.wiping() {
            self.fields.fill(Field::default());
            self.trailers.fill(Field::default());
        }
        self.head = None;
        self.head_at = 0;
        self.body = BodyKind::None;
        (
            self.buf.lend(),
            core::mem::take(&mut self.fields),
            core::mem::take(&mut self.trailers),
        )
    }

    /// Takes lent buffers back, each resized to what `config` needs (a
    /// no-op for buffers of the right sizes).
    pub(crate) fn restore(
        &mut self,
        config: &Config,
        input: Vec<u8>,
        mut fields: Vec<Field>,
        mut trailers: Vec<Field>,
    ) {
        let head = config.head_limits();
        let len = InBuf::len_for(head.max_head_bytes(), config.read_chunk());
        self.buf.restore(input, len);
        fields.resize(head.max_fields(), Field::default());
        trailers.resize(head.max_fields(), Field::default());
        self.fields = fields;
        self.trailers = trailers;
    }

    /// The current head with its fields, if there is one.
    pub(crate) fn received(&self) -> Option<Received<'_, H>> {
        Received::of(
            self.buf.bytes(),
            self.head_at,
            self.head.as_ref(),
            &self.fields,
            self.body,
        )
    }
}

/// The input commands both connections have, written once: inside the
/// `impl` of a connection with `input: Input<_, _>`, `takes_input()` and
/// `spare_mut()`.
macro_rules! input_commands {
    ($conn:literal) => {
        #[doc = concat!("Reports `n` bytes written into [`spare_mut`](", $conn, "::spare_mut).")]
        pub fn commit(&mut self, n: usize) {
            if self.takes_input() {
                self.input.buf.commit(n);
            }
        }

        /// Copies as much of `bytes` as fits into the input buffer; returns how
        /// many. The rest did not go in: offer it again once events have
        /// freed room.
        #[must_use = "bytes that did not fit were not taken: offer the rest again"]
        pub fn recv(&mut self, bytes: &[u8]) -> usize {
            let n = crate::inbuf::copy_what_fits(self.spare_mut(), bytes);
            self.commit(n);
            n
        }

        /// The peer closed its sending side: this ends a close-delimited
        /// body; a message cut short by it is an error.
        pub fn recv_eof(&mut self) {
            self.input.buf.eof = true;
        }
    };
}
pub(crate) use input_commands;

/// The accessors a request view and a response view share, written once:
/// inside `impl<'a> View<'a>` of a struct with `msg: Received<'a, H>`.
macro_rules! head_view_accessors {
    ($what:literal) => {
        /// The version.
        pub fn version(&self) -> http_net_head::Version {
            self.msg.head.version
        }
        /// The fields as (name, value) bytes, in received order.
        pub fn fields(&self) -> impl Iterator<Item = (&'a [u8], &'a [u8])> + 'a {
            self.msg.list.iter()
        }
        /// The value of the first field named `name` (ASCII case-insensitive).
        pub fn field(&self, name: &[u8]) -> Option<&'a [u8]> {
            self.msg.list.get(name)
        }
        #[doc = concat!("How the ", $what, " body is delimited.")]
        pub fn body_kind(&self) -> http_net_framing::BodyKind {
            self.msg.body
        }
    };
}
pub(crate) use head_view_accessors;

/// A connection's public event enum: its own variants, then those both
/// connections share (body data, end with trailers, switch, need input),
/// one of its own, and `Closed`.
macro_rules! connection_event {
    (
        $(#[$meta:meta])*
        pub enum $name:ident { $($own:tt)* }
        msg: $what:literal,
        $(#[$wait_meta:meta])* $wait:ident,
        $(#[$closed_meta:meta])* Closed
    ) => {
        $(#[$meta])*
        pub enum $name<'a> {
            $($own)*
            #[doc = concat!("Body bytes of the ", $what, ", borrowed from the input buffer.")]
            Data(&'a [u8]),
            #[doc = concat!("The ", $what, " is complete, with its trailers (often empty).")]
            End(crate::Trailers<'a>),
            /// HTTP is over on this connection (after a 101, or a 2xx to
            /// CONNECT): these bytes arrived after the head and belong to the
            /// new protocol.
            Switched(&'a [u8]),
            /// More input is needed.
            NeedInput,
            $(#[$wait_meta])* $wait,
            $(#[$closed_meta])* Closed,
        }
    };
}
pub(crate) use connection_event;

/// What one step of `poll_event` found, as plain data (the borrowed event is
/// built from it afterwards). Each connection uses the variants it has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ev {
    /// A request head (server) or final response head (client).
    Head,
    /// An informational response head (client).
    Informational,
    Data(Range<usize>),
    End {
        base: usize,
        count: usize,
    },
    Switched,
    NeedInput,
    /// The answer must be finished first (server).
    Paused,
    /// No request outstanding (client).
    Idle,
    Closed,
}

/// Builds a connection's borrowed event (enum `$event`) from a step outcome:
/// the connection's own arms, then the arms both connections share.
macro_rules! borrowed_event {
    ($event:ident, $ev:expr, $input:expr, { $($own:tt)* }) => {
        match $ev {
            $($own)*
            Ev::Data(range) => $event::Data(crate::fields::data_at($input.buf.bytes(), range)),
            Ev::End { base, count } => $event::End(crate::fields::trailers_at(
                $input.buf.bytes(),
                &$input.trailers,
                base,
                count,
            )),
            Ev::Switched => $event::Switched($input.buf.unread()),
            Ev::NeedInput => $event::NeedInput,
            Ev::Closed => $event::Closed,
        }
    };
}
pub(crate) use borrowed_event;

/// The bytes of a `Data` event.
pub(crate) fn data_at(input: &[u8], range: Range<usize>) -> &[u8] {
    input.get(range).unwrap_or(&[])
}

/// The trailers of an `End` event: `count` fields of `storage` with spans
/// relative to input offset `base`.
pub(crate) fn trailers_at<'a>(
    input: &'a [u8],
    storage: &'a [Field],
    base: usize,
    count: usize,
) -> Trailers<'a> {
    if count == 0 {
        return Trailers::EMPTY;
    }
    Trailers {
        list: FieldList::new(input.get(base..).unwrap_or(&[]), storage, count),
    }
}
