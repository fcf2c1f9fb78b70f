//! Benchmarks (`benches/`, criterion: `cargo bench -p kingdoms-bench --bench GAME`) and
//! measurement programs (`examples/`: `cargo run --release -p kingdoms-bench --example NAME`)
//! of the kingdoms engines. Nothing here is published; the engine is `kingdoms-core`.
#![forbid(unsafe_code)]
