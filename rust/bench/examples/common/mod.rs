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

/// Argument `i` parsed as a number, or `default` when it is absent; one that does not parse is
/// an error carrying the example's `usage`.
#[allow(dead_code)] // an example that reads no numbers includes this module too
pub fn number<T: std::str::FromStr>(
    args: &[String],
    i: usize,
    default: T,
    usage: &str,
) -> kingdoms_core::Result<T> {
    match args.get(i) {
        None => Ok(default),
        Some(text) => text
            .parse()
            .map_err(|_| kingdoms_core::Error::invalid(usage)),
    }
}

/// For the examples that study games between two agents (`A B [GAMES=100] [SEED=0]`): the
/// agents and games of the arguments, each game `0..GAMES` measured by `one(a, b, seed,
/// game)`, one row a game in order.
#[allow(dead_code)] // most examples include this module without it
pub fn duel_rows<R>(
    args: &[String],
    usage: &str,
    one: impl Fn(
        &kingdoms_core::search::AgentSpec,
        &kingdoms_core::search::AgentSpec,
        u64,
        u64,
    ) -> kingdoms_core::Result<R>,
) -> kingdoms_core::Result<Vec<R>> {
    use kingdoms_core::search::AgentSpec;
    let (Some(a), Some(b)) = (args.first(), args.get(1)) else {
        return Err(kingdoms_core::Error::invalid(usage));
    };
    let (a, b) = (AgentSpec::parse(a)?, AgentSpec::parse(b)?);
    let games: u64 = number(args, 2, 100, usage)?;
    let seed: u64 = number(args, 3, 0, usage)?;
    (0..games).map(|i| one(&a, &b, seed, i)).collect()
}
