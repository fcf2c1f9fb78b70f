//! What the measuring examples share (not an example itself: Cargo builds only
//! `examples/*.rs` and `examples/*/main.rs`).

/// Runs an example's `run` on its command-line arguments: its text on stdout, or the error
/// on stderr and exit status 2 (a usage or argument error, as the CLI's).
pub fn main(run: impl FnOnce(&[String]) -> kingdoms_core::Result<String>) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(text) => println!("{text}"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    }
}
