use crate::section::{lf_after_cr, Rules, Section};
use crate::target::{self, escaped_target_run};
use crate::work::Work;
use crate::{
    front, version, Error, Field, HeadLimits, KnownFields, Method, Parsed, Span, TargetForm,
    Version,
};
use http_net_scan::class::HEXDIG;
use http_net_scan::{target_run, token_run};

/// A parsed request head. Spans refer to the buffer given to
/// [`RequestParser::parse`]; fields are the first `field_count` entries of the
/// field storage given to it.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequestHead {
    /// The method, classified.
    pub method: Method,
    /// The method's bytes.
    pub method_span: Span,
    /// The request target, as received.
    pub target: Span,
    /// The form of the target.
    pub target_form: TargetForm,
    /// The version.
    pub version: Version,
    /// How many field lines were stored.
    pub field_count: usize,
    /// Bytes of the head, leading empty lines and the final empty line included.
    pub len: usize,
    /// What the fields say about framing and the connection (the known fields).
    pub known: KnownFields,
}

/// Empty lines (CR LF) skipped before a request line (RFC 9112 §2.2: a
/// server SHOULD ignore at least one). Four covers a client's stray CR LF
/// after a body; the fifth is [`Error::TooManyLeadingEmptyLines`]. They count
/// towards the head limit.
pub const MAX_LEADING_EMPTY_LINES: u8 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RequestLineState {
    /// At the start of a line before the request line.
    Leading,
    /// After a CR at the start of such a line.
    LeadingCr,
    /// In the method, which started at `mark`.
    Method,
    /// In the target, which started at `mark`.
    Target,
    /// In the version, which started at `mark`.
    Version,
    /// After the version: CR expected.
    VersionEnd,
    /// After that CR: LF expected.
    VersionCr,
    /// In the field lines.
    Fields,
    /// A result was returned; it is returned again until `reset`.
    Done,
}

/// A resumable request-head parser.
///
/// Call [`parse`](RequestParser::parse) with the bytes received so far; after
/// `Partial`, call it again with the same buffer extended (same prefix, same
/// field storage): the scan resumes where it stopped, so feeding a head one
/// byte at a time costs time linear in its size. After `Complete` or an error,
/// call [`reset`](RequestParser::reset) before the next head.
#[derive(Clone, Debug)]
pub struct RequestParser {
    limits: HeadLimits,
    stage: RequestLineState,
    pos: usize,
    mark: usize,
    leading: u8,
    method: Method,
    method_span: Span,
    target: Span,
    target_form: TargetForm,
    version: Version,
    section: Section,
    work: Work,
    /// After `Done`: the error, if the head was rejected.
    error: Option<Error>,
    /// After `Done` without error: the head's length.
    len: usize,
}

impl RequestParser {
    /// A parser with these limits.
    pub const fn new(limits: HeadLimits) -> RequestParser {
        RequestParser {
            limits,
            stage: RequestLineState::Leading,
            pos: 0,
            mark: 0,
            leading: 0,
            method: Method::Other,
            method_span: Span::EMPTY,
            target: Span::EMPTY,
            target_form: TargetForm::Origin,
            version: Version::Http11,
            section: Section::new(0),
            work: Work::new(),
            error: None,
            len: 0,
        }
    }

    /// The limits in force.
    pub const fn limits(&self) -> HeadLimits {
        self.limits
    }

    /// Forgets any partial progress.
    pub fn reset(&mut self) {
        *self = RequestParser::new(self.limits);
    }

    /// Bytes examined since the last reset (only with the `count-work`
    /// feature, for the linearity test).
    #[cfg(feature = "count-work")]
    #[doc(hidden)]
    pub fn work(&self) -> u64 {
        self.work.total() + self.section.work.total()
    }

    /// Parses (or resumes parsing) a request head at the start of `buf`.
    /// Fields are stored in `fields`; more field lines than
    /// `min(limits.max_fields(), fields.len())` is [`Error::TooManyFields`].
    ///
    /// Incomplete input is `Partial`, never an error, unless a limit is
    /// already exceeded: more than `max_head_bytes` without the end of the
    /// head is [`Error::HeadTooLarge`], a target longer than
    /// `max_target_bytes` is [`Error::TargetTooLong`], a method longer than
    /// `max_method_bytes` is [`Error::MethodTooLong`]. Errors are reported as
    /// soon as the offending byte is in `buf`, and the first one in byte
    /// order wins however the input is split.
    ///
    /// ```
    /// use http_net_head::{Field, HeadLimits, Method, RequestParser, Parsed, Version};
    ///
    /// let buf = b"GET /index.html HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\n\r\nnext";
    /// let mut parser = RequestParser::new(HeadLimits::DEFAULT);
    /// let mut fields = [Field::default(); 16];
    ///
    /// // The first 20 bytes are not a whole head yet.
    /// assert_eq!(parser.parse(&buf[..20], &mut fields), Ok(Parsed::Partial));
    /// // The same buffer, extended: the parser resumes at byte 20.
    /// let Ok(Parsed::Complete(head)) = parser.parse(buf, &mut fields) else { panic!() };
    /// assert_eq!(head.method, Method::Get);
    /// assert_eq!(head.target.get(buf), b"/index.html");
    /// assert_eq!(head.version, Version::Http11);
    /// assert_eq!(head.field_count, 2);
    /// assert_eq!(fields[0].name.get(buf), b"Host");
    /// assert_eq!(fields[1].value.get(buf), b"*/*");
    /// assert_eq!(&buf[head.len..], b"next");
    /// parser.reset();
    /// ```
    pub fn parse(
        &mut self,
        buf: &[u8],
        fields: &mut [Field],
    ) -> Result<Parsed<RequestHead>, Error> {
        if self.stage != RequestLineState::Done {
            let max = self.limits.max_head_bytes();
            let view = buf.get(..max).unwrap_or(buf);
            match self.step(view, fields) {
                Ok(None) if buf.len() > max => self.error = Some(Error::HeadTooLarge),
                Ok(None) => return Ok(Parsed::Partial),
                Ok(Some(len)) => self.len = len,
                Err(e) => self.error = Some(e),
            }
            self.stage = RequestLineState::Done;
        }
        match self.error {
            Some(e) => Err(e),
            None => Ok(Parsed::Complete(self.head())),
        }
    }

    /// The head, once the stages are done.
    fn head(&self) -> RequestHead {
        RequestHead {
            method: self.method,
            method_span: self.method_span,
            target: self.target,
            target_form: self.target_form,
            version: self.version,
            field_count: self.section.count,
            len: self.len,
            known: self.section.known,
        }
    }

    /// Runs the stages on from where the last call stopped.
    fn step(&mut self, buf: &[u8], fields: &mut [Field]) -> Result<Option<usize>, Error> {
        loop {
            match self.stage {
                RequestLineState::Leading => match buf.get(self.pos) {
                    None => return Ok(None),
                    Some(b'\r') => {
                        self.work.add(1);
                        self.pos += 1;
                        self.stage = RequestLineState::LeadingCr;
                    }
                    Some(b'\n') => return Err(Error::BareLf),
                    Some(_) => {
                        #[cfg(not(http_net_general_path))]
                        if self.common_request_line(buf) {
                            continue;
                        }
                        self.mark = self.pos;
                        self.stage = RequestLineState::Method;
                    }
                },
                RequestLineState::LeadingCr => {
                    if !lf_after_cr(buf, self.pos, &mut self.work)? {
                        return Ok(None);
                    }
                    self.leading += 1;
                    if self.leading > MAX_LEADING_EMPTY_LINES {
                        return Err(Error::TooManyLeadingEmptyLines);
                    }
                    self.pos += 1;
                    self.stage = RequestLineState::Leading;
                }
                RequestLineState::Method => {
                    let limit = self.limit(self.limits.max_method_bytes());
                    self.bounded_run(buf, limit, token_run, Error::MethodTooLong)?;
                    match buf.get(self.pos) {
                        None => return Ok(None),
                        Some(b' ') if self.pos == self.mark => {
                            return Err(Error::InvalidStartLineSpacing)
                        }
                        Some(b' ') => {
                            self.method_span = Span::new(self.mark, self.pos);
                            let bytes = self.method_span.get(buf);
                            if self.limits.front_line() && !front::registered_method(bytes) {
                                return Err(Error::UnregisteredMethod);
                            }
                            self.method = Method::from_bytes(bytes);
                            self.pos += 1;
                            self.mark = self.pos;
                            self.stage = RequestLineState::Target;
                        }
                        Some(_) => return Err(Error::InvalidMethod),
                    }
                }
                RequestLineState::Target => {
                    if !self.target_step(buf)? {
                        return Ok(None);
                    }
                }
                RequestLineState::Version => {
                    if buf.get(self.mark) == Some(&b' ') {
                        return Err(Error::InvalidStartLineSpacing);
                    }
                    let v = buf.get(self.mark..).unwrap_or(&[]);
                    let seen = v.len().min(8);
                    self.work.add(seen.saturating_sub(self.pos - self.mark));
                    self.pos = self.mark + seen;
                    match version::check(v)? {
                        None => return Ok(None),
                        Some(version) => {
                            self.version = version;
                            // The form is checked once the version is known,
                            // so that the HTTP/2 preface `PRI * HTTP/2.0` is
                            // answered 505, not 400.
                            self.target_form = target::classify(self.method, self.target.get(buf))?;
                            self.stage = RequestLineState::VersionEnd;
                        }
                    }
                }
                RequestLineState::VersionEnd => {
                    self.work.add(1);
                    match buf.get(self.pos) {
                        None => return Ok(None),
                        Some(b'\r') => {
                            self.pos += 1;
                            self.stage = RequestLineState::VersionCr;
                        }
                        Some(b'\n') => return Err(Error::BareLf),
                        Some(b' ') => return Err(Error::InvalidStartLineSpacing),
                        Some(_) => return Err(Error::InvalidVersion),
                    }
                }
                RequestLineState::VersionCr => {
                    if !lf_after_cr(buf, self.pos, &mut self.work)? {
                        return Ok(None);
                    }
                    self.pos += 1;
                    self.section = Section::new(self.pos);
                    self.stage = RequestLineState::Fields;
                }
                RequestLineState::Fields => {
                    let cap = self.limits.max_fields().min(fields.len());
                    let rules = Rules {
                        host: true,
                        canonical_length: self.limits.front_line(),
                        ..Rules::STRICT
                    };
                    let Some(len) = self.section.run(buf, fields, cap, rules)? else {
                        return Ok(None);
                    };
                    // RFC 9112 §3.2: an HTTP/1.1 request has exactly one
                    // Host line; checked at the empty line ending the head.
                    if self.version == Version::Http11 && self.section.known.host.is_empty() {
                        return Err(Error::MissingHost);
                    }
                    if self.limits.front_line() {
                        self.front_line_head(buf, fields)?;
                    }
                    return Ok(Some(len));
                }
                RequestLineState::Done => return Ok(None),
            }
        }
    }

    /// The one-pass path for a common request line complete in `buf`:
    /// `token SP target SP HTTP/1.x CR LF` with no bracket in the target
    /// (`%` escapes are checked in the same pass) and a target of an accepted
    /// form within the limit. It
    /// records the line and moves on to the fields (`true`); otherwise it
    /// changes nothing (`false`) and the staged path takes the line from its
    /// start, finding the first error in byte order.
    // Fast path; general twin: stages Method..VersionCr; request head 310 -> 284 ns (docs/PERFORMANCE.md).
    #[cfg(not(http_net_general_path))]
    #[inline(always)]
    fn common_request_line(&mut self, buf: &[u8]) -> bool {
        let start = self.pos;
        let Some(line) = buf.get(start..) else {
            return false;
        };
        let m = token_run(line);
        if m == 0 || m > self.limits.max_method_bytes() || line.get(m) != Some(&b' ') {
            self.work.add(m + 1);
            return false;
        }
        let t = m + 1;
        let window = line.get(
            t..t.saturating_add(self.limits.max_target_bytes())
                .min(line.len()),
        );
        let window = window.unwrap_or(&[]);
        let mut n = target_run(window);
        if n == 0 || line.get(t + n) != Some(&b' ') {
            // A `%` escape: checked in the same pass, the run goes on after
            // it.
            if n == 0 || window.get(n) != Some(&b'%') {
                self.work.add(t + n + 1);
                return false;
            }
            n = escaped_target_run(window, n);
            if line.get(t + n) != Some(&b' ') {
                self.work.add(t + n + 1);
                return false;
            }
        }
        let v = t + n + 1;
        self.work.add(v);
        let Some((version, crlf)) = line.get(v..).and_then(|r| r.split_first_chunk::<8>()) else {
            return false;
        };
        self.work.add(10);
        if crlf.get(..2) != Some(b"\r\n".as_slice()) {
            return false;
        }
        // The eight bytes as one word, two compares (the staged twin:
        // `version::check`): docs/DECISIONS.md, D-31.
        let version = match u64::from_le_bytes(*version) {
            w if w == u64::from_le_bytes(*b"HTTP/1.1") => Version::Http11,
            w if w == u64::from_le_bytes(*b"HTTP/1.0") => Version::Http10,
            _ => return false,
        };
        let method_bytes = line.get(..m).unwrap_or(&[]);
        // Front-line rules on the line: the staged path reports them.
        if self.limits.front_line()
            && (!front::registered_method(method_bytes)
                || front::has_encoded_control(line.get(t..t + n).unwrap_or(&[])))
        {
            return false;
        }
        let method = Method::from_bytes(method_bytes);
        let Ok(form) = target::classify(method, line.get(t..t + n).unwrap_or(&[])) else {
            return false;
        };
        self.method = method;
        self.method_span = Span::new(start, start + m);
        self.target = Span::new(start + t, start + t + n);
        self.target_form = form;
        self.version = version;
        self.pos = start + v + 10;
        self.section = Section::new(self.pos);
        self.stage = RequestLineState::Fields;
        true
    }

    /// The front-line rules on the whole head, at its end: the `Host` of
    /// an absolute-form target, the `Upgrade` lists.
    fn front_line_head(&self, buf: &[u8], fields: &[Field]) -> Result<(), Error> {
        let known = &self.section.known;
        if self.target_form == TargetForm::Absolute {
            let host = known.host.first().and_then(|i| fields.get(i));
            if let Some(host) = host {
                if !front::same_authority(self.target.get(buf), host.value.get(buf)) {
                    return Err(Error::HostMismatch);
                }
            }
        }
        for value in known.upgrade.values(b"upgrade", fields, buf) {
            if !front::valid_upgrade(value.get(buf)) {
                return Err(Error::InvalidUpgrade);
            }
        }
        Ok(())
    }

    /// Where a start-line part that began at `mark` and may hold `max`
    /// bytes is known to be too long: one byte past the limit is enough, so
    /// a scan never looks further (the same outcome for any split).
    #[inline(always)]
    fn limit(&self, max: usize) -> usize {
        self.mark.saturating_add(max).saturating_add(1)
    }

    /// Moves `pos` over the bytes `run` accepts, up to `limit`: `too_long`
    /// if it reaches it.
    #[inline(always)]
    fn bounded_run(
        &mut self,
        buf: &[u8],
        limit: usize,
        run: impl Fn(&[u8]) -> usize,
        too_long: Error,
    ) -> Result<(), Error> {
        let window = buf.get(self.pos..limit.min(buf.len())).unwrap_or(&[]);
        let n = run(window);
        self.work.add(n + 1);
        self.pos += n;
        if self.pos >= limit {
            return Err(too_long);
        }
        Ok(())
    }

    /// Scans target bytes; `Ok(true)` once the SP after the target is met,
    /// `Ok(false)` if more bytes are
    /// needed.
    fn target_step(&mut self, buf: &[u8]) -> Result<bool, Error> {
        let limit = self.limit(self.limits.max_target_bytes());
        loop {
            self.bounded_run(buf, limit, target_run, Error::TargetTooLong)?;
            match buf.get(self.pos) {
                None => return Ok(false),
                Some(b' ') if self.pos == self.mark => return Err(Error::InvalidStartLineSpacing),
                Some(b' ') => {
                    self.target = Span::new(self.mark, self.pos);
                    self.pos += 1;
                    self.mark = self.pos;
                    self.stage = RequestLineState::Version;
                    return Ok(true);
                }
                // pct-encoded = "%" HEXDIG HEXDIG (RFC 3986 §2.1).
                // The byte at `limit - 1` is the first one over the limit: a
                // `%` or an escape's hex digit there makes the target too
                // long, known when that byte arrives, whatever follows.
                Some(b'%') => {
                    if self.pos + 1 >= limit {
                        return Err(Error::TargetTooLong);
                    }
                    for i in 1..3 {
                        match buf.get(self.pos + i) {
                            None => return Ok(false),
                            Some(&h) if HEXDIG[h as usize] => {
                                if self.pos + i + 1 >= limit {
                                    return Err(Error::TargetTooLong);
                                }
                            }
                            Some(_) => return Err(Error::InvalidTargetByte),
                        }
                    }
                    if self.limits.front_line() {
                        let (h, l) = (buf.get(self.pos + 1), buf.get(self.pos + 2));
                        if let (Some(&h), Some(&l)) = (h, l) {
                            if front::encoded_control(h, l) {
                                return Err(Error::EncodedControlInTarget);
                            }
                        }
                    }
                    self.work.add(2);
                    self.pos += 3;
                }
                // IP-literal brackets: only in an authority, never in an
                // origin-form target; `target::classify` checks where.
                Some(b'[' | b']') if buf.get(self.mark) != Some(&b'/') => self.pos += 1,
                Some(_) => return Err(Error::InvalidTargetByte),
            }
        }
    }
}
