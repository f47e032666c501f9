//! Chooses the ranking parameters on the BFCL dev set, without Node.
//!
//! - `cargo run --release --no-default-features --example tuning -- report` prints the default
//!   parameters' figures on the whole dev set, its tuning part and its held-back part (the same
//!   figures as `pnpm eval`).
//! - `... --example tuning -- tune` searches the parameters by coordinate descent (about a
//!   minute), maximizing R@5 + NDCG@10 on the tuning part only, then reports both parts. The
//!   held-back part (30% of requests, picked by a hash of their id, the same split `pnpm eval`
//!   reports) never influences the choice.
//!
//! `--no-default-features` leaves out the Node-API boundary: a program cannot link its symbols,
//! which exist only inside Node.

/// Built with the boundary on (as `cargo test` and `cargo build --examples` do), the program only
/// says how to run it: using the crate would then need symbols only Node has.
#[cfg(feature = "node")]
fn main() {
    eprintln!("run it without the Node-API boundary: cargo run --release --no-default-features --example tuning -- report|tune");
    std::process::exit(2);
}

#[cfg(not(feature = "node"))]
fn main() {
    tool::main();
}

#[cfg(not(feature = "node"))]
mod tool {
    use dsh_tool_search::{Index, Json, Params, Searcher};

    struct Request {
        query: String,
        relevant: Vec<String>,
        held_back: bool,
    }

    pub fn main() {
        match std::env::args().nth(1).as_deref() {
            Some("report") => report_default_parameters(),
            Some("tune") => tune_ranking_parameters(),
            _ => {
                eprintln!("usage: cargo run --release --no-default-features --example tuning -- report|tune");
                std::process::exit(2);
            }
        }
    }

    fn tune_ranking_parameters() {
        let catalog = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/bench/data/bfcl/bfcl-catalog.json")).expect("dev catalog");
        let requests = read_requests(concat!(env!("CARGO_MANIFEST_DIR"), "/bench/data/bfcl/bfcl-dev-queries.jsonl"));
        let tuning: Vec<&Request> = requests.iter().filter(|r| !r.held_back).collect();
        let held_back: Vec<&Request> = requests.iter().filter(|r| r.held_back).collect();

        let mut best = Params::default();
        let mut best_score = objective(&catalog, &best, &tuning);
        println!("start   {best_score:.4}  {best:?}");
        let k1_values = [0.6, 0.8, 1.0, 1.2, 1.5, 2.0, 2.5];
        let weight_values = [0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0];
        let b_values = [0.0, 0.25, 0.5, 0.75, 0.9, 1.0];
        let prefix_weights = [0.0, 0.1, 0.2, 0.3, 0.5, 0.7];
        let prefix_mins = [3, 4, 5, 6];
        let fusion_ks = [0.0, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0];
        let fusion_wholes = [0.5, 1.0, 1.5, 2.0, 3.0];
        let fusion_depths = [5, 10, 20, 50];
        for round in 1..=4 {
            let before = best_score;
            let mut candidates: Vec<Params> = k1_values.iter().map(|&k1| Params { k1, ..best.clone() }).collect();
            candidates.extend(prefix_weights.iter().map(|&w| Params { prefix_weight: w, ..best.clone() }));
            candidates.extend(prefix_mins.iter().map(|&m| Params { prefix_min: m, ..best.clone() }));
            candidates.extend(fusion_ks.iter().map(|&k| Params { fusion_k: k, ..best.clone() }));
            candidates.extend(fusion_wholes.iter().map(|&w| Params { fusion_whole: w, ..best.clone() }));
            candidates.extend(fusion_depths.iter().map(|&d| Params { fusion_depth: d, ..best.clone() }));
            for f in 0..best.weights.len() {
                candidates.extend(weight_values.iter().map(|&w| with(&best, |p| p.weights[f] = w)));
                candidates.extend(b_values.iter().map(|&b| with(&best, |p| p.b[f] = b)));
            }
            for candidate in candidates {
                let score = objective(&catalog, &candidate, &tuning);
                if score > best_score + 1e-9 {
                    best_score = score;
                    best = candidate;
                    println!("round {round} {best_score:.4}  {best:?}");
                }
            }
            if best_score <= before + 1e-9 {
                break;
            }
        }
        println!("\nchosen: {best:?}");
        for (part, set) in [("tuning", &tuning), ("held-back", &held_back)] {
            let (r1, r5, r10, ndcg) = metrics(&catalog, &best, set);
            let (d1, d5, d10, dn) = metrics(&catalog, &Params::default(), set);
            println!("{part:<10} R@1 {r1:.3} R@5 {r5:.3} R@10 {r10:.3} NDCG@10 {ndcg:.3}   (defaults: {d1:.3} {d5:.3} {d10:.3} {dn:.3})");
        }
    }

    /// The default parameters' figures on each part.
    fn report_default_parameters() {
        let catalog = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/bench/data/bfcl/bfcl-catalog.json")).expect("dev catalog");
        let requests = read_requests(concat!(env!("CARGO_MANIFEST_DIR"), "/bench/data/bfcl/bfcl-dev-queries.jsonl"));
        let all: Vec<&Request> = requests.iter().collect();
        let tuning: Vec<&Request> = requests.iter().filter(|r| !r.held_back).collect();
        let held_back: Vec<&Request> = requests.iter().filter(|r| r.held_back).collect();
        for (part, set) in [("all", &all), ("tuning", &tuning), ("held-back", &held_back)] {
            let (r1, r5, r10, ndcg) = metrics(&catalog, &Params::default(), set);
            println!("{part:<10} R@1 {r1:.4} R@5 {r5:.4} R@10 {r10:.4} NDCG@10 {ndcg:.4}");
        }
    }

    fn with(params: &Params, change: impl FnOnce(&mut Params)) -> Params {
        let mut next = params.clone();
        change(&mut next);
        next
    }

    fn objective(catalog: &str, params: &Params, requests: &[&Request]) -> f64 {
        let (_, r5, _, ndcg) = metrics(catalog, params, requests);
        r5 + ndcg
    }

    /// Mean R@1, R@5, R@10 and NDCG@10 (binary gain) over `requests`.
    fn metrics(catalog: &str, params: &Params, requests: &[&Request]) -> (f64, f64, f64, f64) {
        let index = Index::from_catalog_with(catalog, params.clone()).expect("catalog");
        let mut sums = (0.0, 0.0, 0.0, 0.0);
        for request in requests {
            let ranked: Vec<&str> = Searcher::new(&index).search(&request.query, 10, &[]).iter().map(|h| h.name).collect();
            let recall = |k: usize| {
                let found = request.relevant.iter().filter(|r| ranked.iter().take(k).any(|n| n == r)).count();
                found as f64 / request.relevant.len() as f64
            };
            let dcg: f64 = ranked
                .iter()
                .enumerate()
                .filter(|(_, name)| request.relevant.iter().any(|r| r == *name))
                .map(|(i, _)| 1.0 / ((i + 2) as f64).log2())
                .sum();
            let ideal: f64 = (0..request.relevant.len().min(10)).map(|i| 1.0 / ((i + 2) as f64).log2()).sum();
            sums = (sums.0 + recall(1), sums.1 + recall(5), sums.2 + recall(10), sums.3 + dcg / ideal);
        }
        let n = requests.len() as f64;
        (sums.0 / n, sums.1 / n, sums.2 / n, sums.3 / n)
    }

    fn read_requests(path: &str) -> Vec<Request> {
        let text = std::fs::read_to_string(path).expect("dev queries");
        text.lines().filter(|l| !l.trim().is_empty()).map(parse_request).collect()
    }

    /// Reads `{id, query, relevant}` from one JSON line.
    fn parse_request(line: &str) -> Request {
        let json = Json::parse(line).expect("a JSON line");
        let root = json.root();
        let text = |key: &str| json.get_str(root, key).unwrap_or_default().to_string();
        let relevant = json.get(root, "relevant").and_then(|r| json.items(r)).unwrap_or_default();
        let relevant = relevant.iter().filter_map(|&r| json.str_of(r)).map(String::from).collect();
        Request { held_back: is_held_back(&text("id")), query: text("query"), relevant }
    }

    /// The same 30% split as `scripts/lib/eval-metrics.mjs`: FNV-1a of the id, modulo 10, below 3.
    fn is_held_back(id: &str) -> bool {
        let mut hash: u32 = 0x811c9dc5;
        for byte in id.bytes() {
            hash ^= byte as u32;
            hash = hash.wrapping_mul(0x01000193);
        }
        hash % 10 < 3
    }
}
