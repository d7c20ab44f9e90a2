//! The field-section engine shared by the request, response and field-block
//! parsers: field lines up to the empty line, resumable at any byte.
//!
//! ```text
//! field-line = field-name ":" OWS field-value OWS   ; RFC 9112 §5
//! field-name = token                                ; RFC 9110 §5.1
//! ```
//! The state is where the scan stopped (stage and offset) plus what the
//! current line has shown so far, so a resumed call examines only new bytes.

use crate::grammar::forbidden_in_trailers;
use crate::host::valid_host_port;
use crate::known::{classify, Known};
use crate::work::Work;
use crate::{front, Error, Field, KnownFields, Span};
use http_net_scan::class::OWS;
use http_net_scan::{field_value_run, token_run};

/// The rules that differ between the parsers using the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rules {
    /// Keep an obs-fold in the previous value (responses, RFC 9112 §5.2)
    /// instead of rejecting it.
    pub keep_fold: bool,
    /// Apply the request rules on `Host` (one line, valid value).
    pub host: bool,
    /// Take a bare LF as a line end (a client's opt-in leniency).
    pub bare_lf: bool,
    /// Take whitespace between a name and its colon as part of neither
    /// (a client's opt-in leniency).
    pub ws_before_colon: bool,
    /// Front-line profile, requests and responses: `Content-Length` only
    /// as one line of `[SP] 1*DIGIT` without leading zeros, never folded.
    pub canonical_length: bool,
    /// Front-line profile, trailers: no framing, routing or credential
    /// fields.
    pub forbid_trailers: bool,
}

impl Rules {
    /// Every rule strict: no fold kept, no leniency, no profile; each
    /// parser sets the few it differs in.
    pub(crate) const STRICT: Rules = Rules {
        keep_fold: false,
        host: false,
        bare_lf: false,
        ws_before_colon: false,
        canonical_length: false,
        forbid_trailers: false,
    };
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SectionState {
    /// At the first byte of a line.
    LineStart,
    /// CR at the start of a line: the empty line, if LF follows.
    EndCr,
    /// In a field name that started at `line`.
    Name,
    /// Whitespace after a name: an error either way, which one depends on
    /// whether a colon follows.
    NameWs,
    /// In a field value.
    Value,
    /// CR after a value; LF must follow.
    ValueCr,
}

/// Marks an unset value offset.
const UNSET: usize = usize::MAX;

/// Progress through a field section.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Section {
    stage: SectionState,
    /// The next byte to examine.
    pos: usize,
    /// Where the current line started.
    line: usize,
    /// One past the current field name.
    name_end: usize,
    /// The first non-OWS byte of the current value, or [`UNSET`].
    vstart: usize,
    /// One past the last non-OWS byte of the current value.
    vend: usize,
    /// What the current line's name is.
    kind: Known,
    /// The current line continues the previous field (a kept obs-fold).
    continuing: bool,
    /// Field lines stored.
    pub count: usize,
    /// The known fields gathered so far.
    pub known: KnownFields,
    /// Some value holds a kept obs-fold.
    pub folded: bool,
    /// Bytes examined.
    pub work: Work,
}

impl Section {
    /// A section whose first line starts at `pos`.
    pub(crate) const fn new(pos: usize) -> Section {
        Section {
            stage: SectionState::LineStart,
            pos,
            line: pos,
            name_end: pos,
            vstart: UNSET,
            vend: pos,
            kind: Known::Other,
            continuing: false,
            count: 0,
            known: KnownFields::EMPTY,
            folded: false,
            work: Work::new(),
        }
    }

    /// Scans on from where the last call stopped. `Ok(Some(end))`: the empty
    /// line ends at `end`; `Ok(None)`: more bytes are needed. `cap` is the
    /// number of field lines that may be stored.
    pub(crate) fn run(
        &mut self,
        buf: &[u8],
        fields: &mut [Field],
        cap: usize,
        rules: Rules,
    ) -> Result<Option<usize>, Error> {
        loop {
            match self.stage {
                SectionState::LineStart => {
                    // Common lines in a tight loop; the general path below
                    // takes whatever line stops it.
                    #[cfg(not(http_net_general_path))]
                    self.common_lines(buf, fields, cap, rules);
                    // The empty line ending the head, whole: done here
                    // rather than through `EndCr`.
                    if let Some(b"\r\n") = buf.get(self.pos..self.pos + 2) {
                        self.work.add(2);
                        return Ok(Some(self.pos + 2));
                    }
                    let Some(&b) = buf.get(self.pos) else {
                        return Ok(None);
                    };
                    self.work.add(1);
                    match b {
                        b'\r' => {
                            self.pos += 1;
                            self.stage = SectionState::EndCr;
                        }
                        // The empty line, ended by a bare LF (lenient only).
                        b'\n' if rules.bare_lf => return Ok(Some(self.pos + 1)),
                        b'\n' => return Err(Error::BareLf),
                        b' ' | b'\t' => {
                            // An obs-fold; before the first field line it is
                            // whitespace after the start line (RFC 9112 §2.2).
                            if !rules.keep_fold || self.count == 0 {
                                return Err(Error::ObsFold);
                            }
                            // A folded `Content-Length` is whitespace inside
                            // its value: not one plain number.
                            if rules.canonical_length && self.kind == Known::ContentLength {
                                return Err(Error::NonCanonicalContentLength);
                            }
                            self.folded = true;
                            self.continuing = true;
                            self.stage = SectionState::Value;
                        }
                        _ => {
                            if self.count >= cap {
                                return Err(Error::TooManyFields);
                            }
                            self.line = self.pos;
                            self.stage = SectionState::Name;
                        }
                    }
                }
                SectionState::EndCr => {
                    if !lf_after_cr(buf, self.pos, &mut self.work)? {
                        return Ok(None);
                    }
                    return Ok(Some(self.pos + 1));
                }
                SectionState::Name => {
                    let n = token_run(buf.get(self.pos..).unwrap_or(&[]));
                    self.work.add(n + 1);
                    self.pos += n;
                    let Some(&b) = buf.get(self.pos) else {
                        return Ok(None);
                    };
                    let empty = self.pos == self.line;
                    match b {
                        b':' if empty => return Err(Error::EmptyFieldName),
                        b':' => {
                            self.name_end = self.pos;
                            self.colon(buf, rules)?;
                        }
                        b' ' | b'\t' if !empty => {
                            self.name_end = self.pos;
                            self.stage = SectionState::NameWs;
                        }
                        _ => return Err(Error::InvalidFieldName),
                    }
                }
                SectionState::NameWs => {
                    let rest = buf.get(self.pos..).unwrap_or(&[]);
                    let n = rest
                        .iter()
                        .position(|&b| !OWS[b as usize])
                        .unwrap_or(rest.len());
                    self.work.add(n + 1);
                    self.pos += n;
                    match buf.get(self.pos) {
                        None => return Ok(None),
                        // The name ends before the whitespace (lenient only).
                        Some(b':') if rules.ws_before_colon => self.colon(buf, rules)?,
                        Some(b':') => return Err(Error::WhitespaceBeforeColon),
                        Some(_) => return Err(Error::InvalidFieldName),
                    }
                }
                SectionState::Value => {
                    let start = self.pos;
                    let seg = buf.get(start..).unwrap_or(&[]);
                    let n = field_value_run(seg);
                    self.work.add(n + 1);
                    self.note_value(seg.get(..n).unwrap_or(&[]), start);
                    self.pos = start + n;
                    match buf.get(self.pos) {
                        None => return Ok(None),
                        Some(b'\r') => {
                            self.pos += 1;
                            self.stage = SectionState::ValueCr;
                        }
                        // A line ended by a bare LF (lenient only).
                        Some(b'\n') if rules.bare_lf => {
                            let lf = self.pos;
                            self.pos += 1;
                            self.end_line(buf, fields, lf, rules)?;
                            self.stage = SectionState::LineStart;
                        }
                        Some(b'\n') => return Err(Error::BareLf),
                        Some(_) => return Err(Error::InvalidFieldValue),
                    }
                }
                SectionState::ValueCr => {
                    if !lf_after_cr(buf, self.pos, &mut self.work)? {
                        return Ok(None);
                    }
                    let cr = self.pos - 1;
                    self.pos += 1;
                    self.end_line(buf, fields, cr, rules)?;
                    self.stage = SectionState::LineStart;
                }
            }
        }
    }

    /// The one-pass path for common field lines, complete in `buf`:
    /// `token ":" OWS value CR LF` with nothing to report, line after line.
    /// Each such line is stored; at the first other line (an error, an
    /// obs-fold, the end of the head, an incomplete line, a Host line it
    /// cannot accept) it stops with the state at that line's start, and the
    /// general path takes the line from there. So the two paths cannot
    /// disagree on an error. Progress is kept in locals and written back
    /// once.
    // Fast path; general twin: stages Name..ValueCr; 310 -> 284 ns, 3844 -> 3734 Ir (docs/PERFORMANCE.md).
    #[cfg(not(http_net_general_path))]
    #[inline(always)]
    fn common_lines(&mut self, buf: &[u8], fields: &mut [Field], cap: usize, rules: Rules) {
        let mut pos = self.pos;
        let mut count = self.count;
        // The storage a line may take: one bounds test a line.
        let fields = fields.get_mut(..cap).unwrap_or(&mut []);
        // The kind of the last line stored; its spans are in its field.
        let mut last: Option<Known> = None;
        let front_line = rules.canonical_length | rules.forbid_trailers;
        while let Some(line) = buf.get(pos..) {
            let n = token_run(line);
            let Some((&b':', after)) = line.get(n..).and_then(<[u8]>::split_first) else {
                break;
            };
            let (true, Some(slot)) = (n > 0, fields.get_mut(count)) else {
                break;
            };
            // The value run from just after the colon (OWS is in the class),
            // then OWS trimmed off both ends of it.
            let m = field_value_run(after);
            let Some((raw, [b'\r', b'\n', ..])) = after.split_at_checked(m) else {
                // Counted: a failed attempt is work too (at most once a line).
                self.work.add(n + 1 + m + 1);
                break;
            };
            // In the run (HTAB, SP, VCHAR, obs-text) every byte but SP and
            // HTAB is above SP, so `c > b' '` means "not OWS": the common
            // value, one SP and then a non-OWS byte, and one with no
            // trailing OWS, take one test each; the loops are their twins.
            // (`raw.get(1..)` rather than a `[b' ', rest @ ..]` pattern: the
            // pattern form costs 15 more instructions a response head.)
            let mut value = match raw {
                [b' ', c, ..] if *c > b' ' => raw.get(1..).unwrap_or(raw),
                [c, ..] if *c > b' ' => raw,
                _ => {
                    let mut value = raw;
                    while let [b' ' | b'\t', r @ ..] = value {
                        value = r;
                    }
                    value
                }
            };
            // Offsets in `line`: value from `v` to `end`, CR at `cr`.
            let v = n + 1 + (m - value.len());
            if !matches!(value.last(), Some(&c) if c > b' ') {
                while let [r @ .., b' ' | b'\t'] = value {
                    value = r;
                }
            }
            let end = v + value.len();
            let cr = n + 1 + m;
            let kind = classify(line.get(..n).unwrap_or(&[]));
            // Front-line rules: the general path checks these lines.
            if front_line
                && ((rules.canonical_length && kind == Known::ContentLength)
                    || (rules.forbid_trailers
                        && forbidden_in_trailers(line.get(..n).unwrap_or(&[]))))
            {
                break;
            }
            if kind != Known::Other {
                if rules.host
                    && kind == Known::Host
                    && (!self.known.host.is_empty() || !valid_host_port(value, false))
                {
                    break;
                }
                self.known.record(kind, count, value);
            }
            // An empty value (all OWS, or none) has `v == end == cr`: the
            // span is the empty one at the CR either way.
            *slot = Field {
                name: Span::ordered(pos, pos + n),
                value: Span::ordered(pos + v, pos + end),
            };
            count += 1;
            last = Some(kind);
            self.work.add(cr + 2 + (cr - end));
            pos += cr + 2;
        }
        // What the general path needs of the last line stored, if an
        // obs-fold continues it, from the field written for it above.
        if let Some(kind) = last {
            self.kind = kind;
            self.count = count;
            self.pos = pos;
            if let Some(f) = count.checked_sub(1).and_then(|i| fields.get(i)) {
                self.vstart = if f.value.is_empty() {
                    UNSET
                } else {
                    f.value.start()
                };
                self.vend = f.value.end();
                self.line = f.name.start();
                self.name_end = f.name.end();
            }
        }
    }

    /// The colon after a name that ends at `name_end`, at `pos`: classify
    /// the name and go on to the value.
    fn colon(&mut self, buf: &[u8], rules: Rules) -> Result<(), Error> {
        let name = buf.get(self.line..self.name_end).unwrap_or(&[]);
        if rules.forbid_trailers && forbidden_in_trailers(name) {
            return Err(Error::ForbiddenTrailer);
        }
        self.kind = classify(name);
        if rules.host && self.kind == Known::Host && !self.known.host.is_empty() {
            return Err(Error::DuplicateHost);
        }
        self.pos += 1;
        self.vstart = UNSET;
        self.vend = self.pos;
        self.continuing = false;
        self.stage = SectionState::Value;
        Ok(())
    }

    /// Moves the value bounds over `seg`, value bytes starting at `start`:
    /// OWS is trimmed at both ends without scanning any byte twice.
    #[inline(always)]
    fn note_value(&mut self, seg: &[u8], start: usize) {
        let Some(last) = seg.iter().rposition(|&b| !OWS[b as usize]) else {
            self.work.add(seg.len());
            return;
        };
        self.work.add(seg.len() - last);
        if self.vstart == UNSET {
            let first = seg.iter().position(|&b| !OWS[b as usize]).unwrap_or(last);
            self.work.add(first + 1);
            self.vstart = start + first;
        }
        self.vend = start + last + 1;
    }

    /// A field line ended with the CR at `cr`: store it (or extend the
    /// previous field, for a kept fold) and record it in the known fields.
    fn end_line(
        &mut self,
        buf: &[u8],
        fields: &mut [Field],
        cr: usize,
        rules: Rules,
    ) -> Result<(), Error> {
        let value = if self.vstart == UNSET {
            Span::new(cr, cr)
        } else {
            Span::new(self.vstart, self.vend)
        };
        let bytes = value.get(buf);
        if self.continuing {
            // Only responses keep folds, and no fact of theirs depends on
            // the whole value but the Connection options (which only add).
            if let Some(field) = self.count.checked_sub(1).and_then(|i| fields.get_mut(i)) {
                field.value = value;
            }
            if self.kind == Known::Connection {
                self.known.connection.add_tokens(bytes);
            }
            self.continuing = false;
            return Ok(());
        }
        if let Some(slot) = fields.get_mut(self.count) {
            *slot = Field {
                name: Span::new(self.line, self.name_end),
                value,
            };
        }
        if rules.host && self.kind == Known::Host && !valid_host_port(bytes, false) {
            return Err(Error::InvalidHost);
        }
        // The raw bytes between the colon and the line end: the value span
        // has its OWS trimmed.
        if rules.canonical_length
            && self.kind == Known::ContentLength
            && (!self.known.content_length.is_empty()
                || !front::canonical_content_length(buf.get(self.name_end + 1..cr).unwrap_or(&[])))
        {
            return Err(Error::NonCanonicalContentLength);
        }
        self.known.record(self.kind, self.count, bytes);
        self.count += 1;
        Ok(())
    }
}

/// Whether `buf[pos]` is the LF that must follow the CR just read
/// (RFC 9112 §2.2): `Ok(false)` when `buf` ends first, [`Error::BareCr`] for
/// any other byte. The general stages' one line-end rule.
#[inline(always)]
pub(crate) fn lf_after_cr(buf: &[u8], pos: usize, work: &mut Work) -> Result<bool, Error> {
    let Some(&b) = buf.get(pos) else {
        return Ok(false);
    };
    work.add(1);
    if b != b'\n' {
        return Err(Error::BareCr);
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use crate::{Field, HeadLimits, Parsed, ResponseOptions, ResponseParser};

    /// OWS around a value, in every shape the fast loop's one-test cases
    /// and its trimming loops tell apart (no OWS, one SP, more, HTAB, on
    /// either side, around a value that starts and ends with VCHAR,
    /// obs-text or inner SP, or around nothing): the span is the value
    /// without it (RFC 9112 §5.1), whichever path takes the line.
    #[test]
    fn values_are_trimmed_of_ows_in_every_shape() {
        let ows: [&[u8]; 5] = [b"", b" ", b"  ", b"\t", b" \t"];
        let cores: [&[u8]; 5] = [b"a", b"!", b"a b", b"\x80", b""];
        for lead in ows {
            for core in cores {
                for trail in ows {
                    let mut buf = b"HTTP/1.1 200 OK\r\nX:".to_vec();
                    for part in [lead, core, trail, b"\r\nY: b\r\n\r\n"] {
                        buf.extend_from_slice(part);
                    }
                    let mut fields = [Field::default(); 4];
                    let mut parser =
                        ResponseParser::new(HeadLimits::DEFAULT, ResponseOptions::DEFAULT);
                    let Ok(Parsed::Complete(head)) = parser.parse(&buf, &mut fields) else {
                        panic!("{buf:?}");
                    };
                    assert_eq!(head.field_count, 2, "{buf:?}");
                    assert_eq!(fields[0].value.get(&buf), core, "{buf:?}");
                    assert_eq!(fields[1].value.get(&buf), b"b", "{buf:?}");
                }
            }
        }
    }
}
