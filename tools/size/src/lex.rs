//! Rust source as tokens, and which lines hold code.
//!
//! One pass over the bytes: comments (`//`, `///`, `//!`, nested `/* */`
//! blocks, doc blocks included) are dropped; every other byte that is not
//! whitespace marks its line as holding code, string contents included. The
//! tokens are what the module walk needs: identifiers, punctuation, and
//! string literals with their text (for `#[path = ".."]` and `include!`).

/// One token.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    /// An identifier or keyword (`r#` removed).
    Ident(String),
    /// A punctuation byte.
    Punct(u8),
    /// A string literal (plain, raw or byte string), its text with the
    /// escapes `\\` and `\"` undone.
    Str(String),
    /// Any other literal (number, character) or a lifetime.
    Lit,
}

/// A token and the line (0-based) it starts on.
#[derive(Clone, Debug)]
pub(crate) struct Token {
    /// The token.
    pub tok: Tok,
    /// Its line, counted from 0.
    pub line: usize,
}

/// A lexed file.
#[derive(Debug, Default)]
pub(crate) struct Lexed {
    /// The tokens, comments dropped.
    pub tokens: Vec<Token>,
    /// For each line (0-based), whether it holds a byte of code: not
    /// whitespace and not inside a comment.
    pub code: Vec<bool>,
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// The lexer's cursor: the text, where it is, and what it found.
struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
    line: usize,
    out: Lexed,
}

impl Cursor<'_> {
    fn at(&self, k: usize) -> u8 {
        self.s.get(self.i + k).copied().unwrap_or(0)
    }

    /// Steps over one byte of code (or of a literal).
    fn code_byte(&mut self) {
        let b = self.s[self.i];
        if b == b'\n' {
            self.line += 1;
        } else if !b.is_ascii_whitespace() {
            self.out.code[self.line] = true;
        }
        self.i += 1;
    }

    /// Steps over one byte of a comment.
    fn comment_byte(&mut self) {
        if self.s[self.i] == b'\n' {
            self.line += 1;
        }
        self.i += 1;
    }

    fn push(&mut self, tok: Tok, line: usize) {
        self.out.tokens.push(Token { tok, line });
    }

    /// A quoted string from its opening quote; returns its text.
    fn string(&mut self) -> String {
        let mut text = Vec::new();
        self.code_byte();
        while self.i < self.s.len() {
            match self.s[self.i] {
                b'\\' => {
                    self.code_byte();
                    if self.i < self.s.len() {
                        let escaped = self.s[self.i];
                        if !matches!(escaped, b'\\' | b'"') {
                            text.push(b'\\');
                        }
                        text.push(escaped);
                        self.code_byte();
                    }
                }
                b'"' => {
                    self.code_byte();
                    break;
                }
                b => {
                    text.push(b);
                    self.code_byte();
                }
            }
        }
        String::from_utf8_lossy(&text).into_owned()
    }

    /// A raw string from its first `#` or quote; returns its text.
    fn raw_string(&mut self) -> String {
        let mut hashes = 0;
        while self.at(0) == b'#' {
            hashes += 1;
            self.code_byte();
        }
        if self.at(0) != b'"' {
            return String::new();
        }
        self.code_byte();
        let start = self.i;
        while self.i < self.s.len() {
            if self.s[self.i] == b'"' && (1..=hashes).all(|k| self.at(k) == b'#') {
                let text = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
                for _ in 0..=hashes {
                    self.code_byte();
                }
                return text;
            }
            self.code_byte();
        }
        String::from_utf8_lossy(&self.s[start..]).into_owned()
    }

    /// A character literal or a lifetime, from its quote.
    fn quote(&mut self) {
        let rest = std::str::from_utf8(&self.s[self.i + 1..]).unwrap_or("");
        let ch_len = rest.chars().next().map_or(1, char::len_utf8);
        if self.at(1) == b'\\' {
            // An escaped character: up to the closing quote.
            self.code_byte();
            self.code_byte();
            self.code_byte();
            while self.i < self.s.len() && !matches!(self.s[self.i], b'\'' | b'\n') {
                self.code_byte();
            }
            if self.at(0) == b'\'' {
                self.code_byte();
            }
        } else if self.at(1 + ch_len) == b'\'' {
            for _ in 0..2 + ch_len {
                self.code_byte();
            }
        } else {
            // A lifetime or a label.
            self.code_byte();
            while self.i < self.s.len() && is_ident_byte(self.s[self.i]) {
                self.code_byte();
            }
        }
    }

    /// A block comment from its `/*`, nested ones included.
    fn block_comment(&mut self) {
        let mut depth = 0usize;
        while self.i < self.s.len() {
            if self.at(0) == b'/' && self.at(1) == b'*' {
                depth += 1;
                self.i += 2;
            } else if self.at(0) == b'*' && self.at(1) == b'/' {
                depth -= 1;
                self.i += 2;
                if depth == 0 {
                    return;
                }
            } else {
                self.comment_byte();
            }
        }
    }

    /// A word: an identifier, a raw identifier, or the prefix of a string.
    fn word(&mut self) {
        let line = self.line;
        let start = self.i;
        while self.i < self.s.len() && is_ident_byte(self.s[self.i]) {
            self.code_byte();
        }
        let word = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
        let next = self.at(0);
        let raw_prefix = matches!(word.as_str(), "r" | "br" | "cr");
        if raw_prefix && (next == b'"' || (next == b'#' && !is_ident_byte(self.at(1)))) {
            let text = self.raw_string();
            self.push(Tok::Str(text), line);
        } else if matches!(word.as_str(), "b" | "c") && next == b'"' {
            let text = self.string();
            self.push(Tok::Str(text), line);
        } else if word == "b" && next == b'\'' {
            self.quote();
            self.push(Tok::Lit, line);
        } else if word == "r" && next == b'#' {
            self.code_byte();
            let start = self.i;
            while self.i < self.s.len() && is_ident_byte(self.s[self.i]) {
                self.code_byte();
            }
            let name = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
            self.push(Tok::Ident(name), line);
        } else {
            self.push(Tok::Ident(word), line);
        }
    }
}

/// Lexes `src`.
pub(crate) fn lex(src: &str) -> Lexed {
    let s = src.as_bytes();
    let lines = src.split('\n').count();
    let mut c = Cursor {
        s,
        i: 0,
        line: 0,
        out: Lexed {
            tokens: Vec::new(),
            code: vec![false; lines],
        },
    };
    while c.i < s.len() {
        let b = s[c.i];
        let line = c.line;
        match b {
            b'/' if c.at(1) == b'/' => {
                while c.i < s.len() && s[c.i] != b'\n' {
                    c.comment_byte();
                }
            }
            b'/' if c.at(1) == b'*' => c.block_comment(),
            b'"' => {
                let text = c.string();
                c.push(Tok::Str(text), line);
            }
            b'\'' => {
                c.quote();
                c.push(Tok::Lit, line);
            }
            b'0'..=b'9' => {
                while c.i < s.len()
                    && (is_ident_byte(s[c.i]) || (s[c.i] == b'.' && c.at(1).is_ascii_digit()))
                {
                    c.code_byte();
                }
                c.push(Tok::Lit, line);
            }
            _ if is_ident_byte(b) => c.word(),
            _ if b.is_ascii_whitespace() => c.code_byte(),
            _ => {
                c.code_byte();
                c.push(Tok::Punct(b), line);
            }
        }
    }
    c.out
}
