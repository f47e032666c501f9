//! Times the sentence encoder on this machine: milliseconds per embedding for sequences of 12
//! (a query), 40 (a tool description) and 128 tokens, the median of several runs after a
//! warm-up, on one thread (as the background worker embeds tools) and on two (as a query is
//! read), and which loop the matrix products ran.
//!
//! `cargo run --release --no-default-features --example encoder_speed [path/to/encoder.bin]`
//!
//! `--no-default-features` leaves out the Node-API boundary: a program cannot link its symbols,
//! which exist only inside Node.

/// Built with the boundary on (as `cargo test` and `cargo build --examples` do), the program only
/// says how to run it: using the crate would then need symbols only Node has.
#[cfg(feature = "node")]
fn main() {
    eprintln!(
        "run it without the Node-API boundary: cargo run --release --no-default-features --example encoder_speed"
    );
    std::process::exit(2);
}

#[cfg(not(feature = "node"))]
fn main() {
    use dsh_tool_search::Encoder;
    use std::path::PathBuf;
    use std::time::Instant;

    const RUNS: usize = 21;
    let path = std::env::args()
        .nth(1)
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("model/encoder.bin"), PathBuf::from);
    let encoder = Encoder::from_file(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    println!("{encoder:?}, kernels: {}", encoder.kernels());
    for tokens in [12, 40, 128] {
        // [CLS], ordinary word pieces, [SEP]: the cost depends on the length only.
        let ids: Vec<u32> =
            std::iter::once(101).chain((0..tokens as u32 - 2).map(|i| 2000 + 37 * i)).chain([102]).collect();
        let median = |embed: &dyn Fn(&[u32]) -> Vec<f32>| {
            embed(&ids);
            let mut times: Vec<f64> = (0..RUNS)
                .map(|_| {
                    let start = Instant::now();
                    std::hint::black_box(embed(std::hint::black_box(&ids)));
                    start.elapsed().as_secs_f64() * 1e3
                })
                .collect();
            times.sort_by(f64::total_cmp);
            times[RUNS / 2]
        };
        let one = median(&|ids| encoder.embed_ids(ids));
        let two = median(&|ids| encoder.embed_ids_now(ids));
        println!("{tokens:>4} tokens: {one:.2} ms per embedding on one thread, {two:.2} ms on two (medians of {RUNS})");
    }
}
