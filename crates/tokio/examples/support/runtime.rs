//! What `hello_tokio` and `echo_tokio` share: their `main` runs on a
//! current-thread runtime.

use std::future::Future;
use std::process::exit;

/// Runs `main` to its end on a current-thread runtime and exits with the
/// status it returns; exits 1, the note on stderr prefixed with `name`,
/// when no runtime can be made.
pub fn run(name: &str, main: impl Future<Output = i32>) -> ! {
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("{name}: no runtime: {e}");
            exit(1);
        }
    };
    exit(rt.block_on(main));
}
