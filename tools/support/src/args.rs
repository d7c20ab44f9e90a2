//! The commands' arguments: `--name value` options and flags.

use std::collections::BTreeMap;

use crate::process::Result;

/// Options common to the commands: `--name value` pairs and bare words.
#[derive(Debug, Default)]
pub struct Args {
    /// Positional words, in order.
    pub words: Vec<String>,
    /// `--flag` and `--key value` options (a flag maps to an empty string).
    pub options: BTreeMap<String, String>,
}

impl Args {
    /// Splits `args`; `valued` lists the options that take a value.
    pub fn parse(args: &[String], valued: &[&str]) -> Result<Args> {
        let mut out = Args::default();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if let Some(name) = a.strip_prefix("--") {
                if let Some((k, v)) = name.split_once('=') {
                    out.options.insert(k.to_string(), v.to_string());
                } else if valued.contains(&name) {
                    let v = it.next().ok_or(format!("--{name} needs a value"))?;
                    out.options.insert(name.to_string(), v.clone());
                } else {
                    out.options.insert(name.to_string(), String::new());
                }
            } else {
                out.words.push(a.clone());
            }
        }
        Ok(out)
    }

    /// Whether `--name` was given.
    pub fn flag(&self, name: &str) -> bool {
        self.options.contains_key(name)
    }

    /// The value of `--name`, parsed, or `default`.
    pub fn value<T: std::str::FromStr>(&self, name: &str, default: T) -> Result<T> {
        match self.options.get(name) {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| format!("--{name}: cannot read {v:?}")),
        }
    }
}
