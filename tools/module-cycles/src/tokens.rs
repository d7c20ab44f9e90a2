//! Rust tokens: comments dropped, literals reduced to one token, lines kept.

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    /// An identifier or keyword (`r#` removed); `$crate` keeps its `$`.
    Ident(String),
    /// `::`.
    PathSep,
    /// Any other punctuation byte.
    Punct(u8),
    /// A literal (number, string, character), a lifetime.
    Lit,
}

#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub(crate) tok: Tok,
    pub(crate) line: usize,
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// Rust tokens of `src`, comments dropped, literals reduced to [`Tok::Lit`].
pub(crate) fn tokenize(src: &str) -> Vec<Token> {
    let s = src.as_bytes();
    let at = |i: usize| s.get(i).copied().unwrap_or(0);
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    // Skips a quoted string body from the byte after the opening quote;
    // returns the index after the closing one.
    let string_end = |mut i: usize, line: &mut usize| {
        while i < s.len() {
            match s[i] {
                b'\\' => {
                    if at(i + 1) == b'\n' {
                        *line += 1;
                    }
                    i += 2;
                }
                b'"' => return i + 1,
                b'\n' => {
                    *line += 1;
                    i += 1;
                }
                _ => i += 1,
            }
        }
        s.len()
    };
    // A raw string from its `#`s or quote; returns the index after it.
    let raw_end = |mut i: usize, line: &mut usize| {
        let mut hashes = 0;
        while at(i) == b'#' {
            hashes += 1;
            i += 1;
        }
        i += 1; // the quote
        while i < s.len() {
            if s[i] == b'\n' {
                *line += 1;
            }
            if s[i] == b'"' && (1..=hashes).all(|k| at(i + k) == b'#') {
                return i + 1 + hashes;
            }
            i += 1;
        }
        s.len()
    };
    while i < s.len() {
        let b = s[i];
        let start_line = line;
        match b {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b' ' | b'\t' | b'\r' => i += 1,
            b'/' if at(i + 1) == b'/' => {
                while i < s.len() && s[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if at(i + 1) == b'*' => {
                let mut depth = 0;
                while i < s.len() {
                    if s[i] == b'/' && at(i + 1) == b'*' {
                        depth += 1;
                        i += 2;
                    } else if s[i] == b'*' && at(i + 1) == b'/' {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        if s[i] == b'\n' {
                            line += 1;
                        }
                        i += 1;
                    }
                }
            }
            b'"' => {
                i = string_end(i + 1, &mut line);
                out.push(Token {
                    tok: Tok::Lit,
                    line: start_line,
                });
            }
            b'\'' => {
                // A character literal, or a lifetime / label.
                let rest = &src[i + 1..];
                let ch_len = rest.chars().next().map_or(1, char::len_utf8);
                if at(i + 1) == b'\\' {
                    let mut j = i + 2;
                    while j < s.len() && s[j] != b'\'' && s[j] != b'\n' {
                        j += 1;
                    }
                    i = j + 1;
                } else if at(i + 1 + ch_len) == b'\'' {
                    i += 2 + ch_len;
                } else {
                    i += 1;
                    while i < s.len() && is_ident_byte(s[i]) {
                        i += 1;
                    }
                }
                out.push(Token {
                    tok: Tok::Lit,
                    line: start_line,
                });
            }
            b'0'..=b'9' => {
                while i < s.len()
                    && (is_ident_byte(s[i]) || (s[i] == b'.' && at(i + 1).is_ascii_digit()))
                {
                    i += 1;
                }
                out.push(Token {
                    tok: Tok::Lit,
                    line: start_line,
                });
            }
            b':' if at(i + 1) == b':' => {
                out.push(Token {
                    tok: Tok::PathSep,
                    line,
                });
                i += 2;
            }
            b'$' if is_ident_byte(at(i + 1)) => {
                let start = i;
                i += 1;
                while i < s.len() && is_ident_byte(s[i]) {
                    i += 1;
                }
                out.push(Token {
                    tok: Tok::Ident(src[start..i].to_string()),
                    line,
                });
            }
            _ if is_ident_byte(b) => {
                let start = i;
                while i < s.len() && is_ident_byte(s[i]) {
                    i += 1;
                }
                let word = &src[start..i];
                let next = at(i);
                match (word, next) {
                    ("b" | "c" | "r" | "br" | "cr", b'"') | ("r" | "br" | "cr", b'#')
                        if !(next == b'#' && is_ident_byte(at(i + 1))) =>
                    {
                        i = if word.contains('r') {
                            raw_end(i, &mut line)
                        } else {
                            string_end(i + 1, &mut line)
                        };
                        out.push(Token {
                            tok: Tok::Lit,
                            line: start_line,
                        });
                    }
                    ("r", b'#') => {
                        // A raw identifier.
                        let start = i + 1;
                        i = start;
                        while i < s.len() && is_ident_byte(s[i]) {
                            i += 1;
                        }
                        out.push(Token {
                            tok: Tok::Ident(src[start..i].to_string()),
                            line,
                        });
                    }
                    ("b", b'\'') => {
                        i += 1;
                        if at(i) == b'\\' {
                            i += 1;
                        }
                        i += 1;
                        while i < s.len() && s[i] != b'\'' && s[i] != b'\n' {
                            i += 1;
                        }
                        i += 1;
                        out.push(Token {
                            tok: Tok::Lit,
                            line: start_line,
                        });
                    }
                    _ => out.push(Token {
                        tok: Tok::Ident(word.to_string()),
                        line,
                    }),
                }
            }
            _ => {
                out.push(Token {
                    tok: Tok::Punct(b),
                    line,
                });
                i += 1;
            }
        }
    }
    out
}
