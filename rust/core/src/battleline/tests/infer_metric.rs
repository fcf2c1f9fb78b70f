//! Round 27 (scratch): how well a redraw of the opponent's hand predicts its true troops.
//! `R27_GAMES=100 R27_OPP=greedy R27_OBS=greedy cargo test --release -p kingdoms-core
//! infer_metric -- --ignored --nocapture`

use super::*;
use crate::agents::AgentSpec;
use crate::battleline::infer::InferSettings;
use crate::game::Game;

fn env(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

struct Score {
    brier: f64,
    logloss: f64,
    captured: f64,
    n: u64,
}

#[test]
#[ignore]
fn infer_metric() {
    let games: u64 = env("R27_GAMES", "40").parse().unwrap();
    let seed: u64 = env("R27_SEED", "1").parse().unwrap();
    let reps: u64 = env("R27_REPS", "128").parse().unwrap();
    let opp_spec = AgentSpec::parse(&env("R27_OPP", "greedy")).unwrap();
    let obs_spec = AgentSpec::parse(&env("R27_OBS", "greedy")).unwrap();
    let mut variants: Vec<(String, Option<InferSettings>)> = vec![("uniform".into(), None)];
    // History variants "h:BETA:L" (L latest plays, 0 all): per-card product weights.
    let hist_variants: Vec<(String, f64, usize)> = env("R27_HIST", "h:3:1,h:3:2,h:3:4,h:3:0,h:1:0,h:2:0,h:5:0")
        .split(',')
        .filter(|v| !v.is_empty())
        .map(|v| {
            let f: Vec<&str> = v.split(':').collect();
            (v.to_string(), f[1].parse().unwrap(), f[2].parse().unwrap())
        })
        .collect();
    // Exact-ish variants "x:BETA:L:TAU": K=64 uniform hands, weighted by the product over the
    // L latest plays of the averaged likelihood (tempered by TAU).
    let exact_variants: Vec<(String, f64, usize, f64)> = env("R27_EXACT", "x:3:1:1,x:3:2:1,x:3:4:1,x:3:0:1,x:3:0:0.5")
        .split(',')
        .filter(|v| !v.is_empty())
        .map(|v| {
            let f: Vec<&str> = v.split(':').collect();
            (v.to_string(), f[1].parse().unwrap(), f[2].parse().unwrap(), f[3].parse().unwrap())
        })
        .collect();
    let betas: Vec<f64> = {
        let mut b: Vec<f64> = hist_variants.iter().map(|h| h.1).chain(exact_variants.iter().map(|h| h.1)).collect();
        b.sort_by(f64::total_cmp);
        b.dedup();
        b
    };
    for v in env("R27_VARIANTS", "3:8,3:32,3:64,1:64,2:64,5:64").split(',').filter(|v| !v.is_empty()) {
        let (b, k) = v.split_once(':').unwrap();
        variants.push((
            v.to_string(),
            Some(InferSettings { beta: b.parse().unwrap(), pool: k.parse().unwrap() }),
        ));
    }
    let n_all = variants.len() + hist_variants.len() + exact_variants.len();
    let mut scores: Vec<Score> = (0..n_all)
        .map(|_| Score { brier: 0.0, logloss: 0.0, captured: 0.0, n: 0 })
        .collect();
    let mut decisions = 0u64;
    for gi in 0..games {
        let deal = seed.wrapping_mul(1_000_003).wrapping_add(gi);
        let obs = (gi % 2) as usize;
        let mut g = BattleLine::new(deal, &Options::default()).unwrap();
        // Per recorded opponent play: a table per beta, and the opponent's troop draws
        // before it.
        let mut hist: Vec<(Vec<crate::battleline::infer::PlayTable>, u32)> = Vec::new();
        let mut opp_draws = 0u32;
        let mut pending = 0u32;
        let mut a_obs = obs_spec.build::<BattleLine>(deal ^ 0x55);
        let mut a_opp = opp_spec.build::<BattleLine>(deal ^ 0xaa);
        while let Some(p) = g.current_player() {
            if p == obs && g.phase == Phase::Play && crate::battleline::infer::play_table(&g, 1 - p, 3.0).is_some() {
                let o = 1 - p;
                let tables: Vec<_> = betas
                    .iter()
                    .map(|&b| crate::battleline::infer::play_table(&g, o, b).unwrap())
                    .collect();
                hist.push((tables, pending));
                let k = g.known[p];
                let mut pool: u64 = g.hands[o].troops() & !k.opp_hand.troops();
                for (i, c) in g.troop_deck.as_slice().iter().enumerate() {
                    if k.deck_pos[0] >> i & 1 == 0 {
                        pool |= 1u64 << c.0;
                    }
                }
                let truth = g.hands[o].troops() & !k.opp_hand.troops();
                let n = truth.count_ones();
                if n > 0 && pool.count_ones() > n {
                    decisions += 1;
                    for (vi, (_, s)) in variants.iter().enumerate() {
                        let mut count = [0u32; 64];
                        for r in 0..reps {
                            let d = g.resample_with(p, deal.wrapping_mul(7919) ^ (r << 20) ^ decisions, *s).unwrap();
                            let mut h = d.hands[o].troops() & !k.opp_hand.troops();
                            while h != 0 {
                                let i = h.trailing_zeros() as usize;
                                h &= h - 1;
                                count[i] += 1;
                            }
                        }
                        let sc = &mut scores[vi];
                        let mut bits = pool;
                        let m = f64::from(pool.count_ones());
                        let (mut b, mut l, mut cap) = (0.0, 0.0, 0.0);
                        while bits != 0 {
                            let i = bits.trailing_zeros() as usize;
                            bits &= bits - 1;
                            let q = f64::from(count[i]) / reps as f64;
                            let y = if truth >> i & 1 == 1 { 1.0 } else { 0.0 };
                            b += (q - y) * (q - y);
                            let qc = q.clamp(0.5 / reps as f64, 1.0 - 0.5 / reps as f64);
                            l -= if y == 1.0 { qc.ln() } else { (1.0 - qc).ln() };
                            cap += q * y;
                        }
                        sc.brier += b / m;
                        sc.logloss += l / m;
                        sc.captured += cap / f64::from(n);
                        sc.n += 1;
                    }
                    for (hi, (_, beta, depth)) in hist_variants.iter().enumerate() {
                        let bi = betas.iter().position(|b| b == beta).unwrap();
                        // Per-card log weight.
                        let mut logw = [0.0f64; 64];
                        let nn = f64::from(n);
                        let used = if *depth == 0 { hist.len() } else { (*depth).min(hist.len()) };
                        for (tables, at) in hist.iter().rev().take(used) {
                            let t = &tables[bi];
                            let d = opp_draws - at;
                            let rho = ((nn - 1.0) / nn).powi(d as i32);
                            // Mean mass of the pool's other cards.
                            let mut tot = 0.0;
                            let mut cnt = 0.0f64;
                            let mut bits = pool;
                            while bits != 0 {
                                let i = bits.trailing_zeros() as usize;
                                bits &= bits - 1;
                                tot += t.mass[i];
                                cnt += 1.0;
                            }
                            let z = t.mass[t.played.id()] + (nn - 1.0) * tot / cnt.max(1.0);
                            let mut bits = pool;
                            while bits != 0 {
                                let i = bits.trailing_zeros() as usize;
                                bits &= bits - 1;
                                logw[i] += rho * (z / (z + t.mass[i])).ln();
                            }
                        }
                        let mut count = [0u32; 64];
                        let mut rng = crate::rng::GameRng::seed(deal ^ decisions.wrapping_mul(31) ^ (hi as u64) << 40);
                        for _ in 0..reps {
                            let mut left = pool;
                            for _ in 0..n {
                                let mut tot = 0.0;
                                let mut bits = left;
                                while bits != 0 {
                                    let i = bits.trailing_zeros() as usize;
                                    bits &= bits - 1;
                                    tot += logw[i].exp();
                                }
                                let mut x = rng.unit() * tot;
                                let mut pick = 63 - left.leading_zeros() as usize;
                                let mut bits = left;
                                while bits != 0 {
                                    let i = bits.trailing_zeros() as usize;
                                    bits &= bits - 1;
                                    let w = logw[i].exp();
                                    if x < w {
                                        pick = i;
                                        break;
                                    }
                                    x -= w;
                                }
                                left &= !(1u64 << pick);
                                count[pick] += 1;
                            }
                        }
                        let sc = &mut scores[variants.len() + hi];
                        score_counts(sc, &count, pool, truth, n, reps);
                    }
                    for (xi, (_, beta, depth, tau)) in exact_variants.iter().enumerate() {
                        let bi = betas.iter().position(|b| b == beta).unwrap();
                        let used = if *depth == 0 { hist.len() } else { (*depth).min(hist.len()) };
                        let mut rng = crate::rng::GameRng::seed(deal ^ decisions.wrapping_mul(131) ^ (xi as u64) << 44);
                        let cards: Vec<usize> = (0..64).filter(|i| pool >> i & 1 == 1).collect();
                        let mut count = [0u32; 64];
                        for _ in 0..reps {
                            let kpool: usize = env("R27_K", "64").parse().unwrap();
                            let mut hands = [0u64; 64];
                            let mut logw = [0.0f64; 64];
                            for kk in 0..kpool {
                                let mut cs = cards.clone();
                                let mut h = 0u64;
                                for i in 0..n as usize {
                                    let j = i + rng.below(cs.len() - i);
                                    cs.swap(i, j);
                                    h |= 1u64 << cs[i];
                                }
                                hands[kk] = h;
                                // Later plays (known troops once in hand), newest first.
                                let mut later: Vec<usize> = Vec::new();
                                let mut lw = 0.0;
                                for (tables, at) in hist.iter().rev().take(used) {
                                    let t = &tables[bi];
                                    let d = (opp_draws - at) as usize;
                                    let mut held: Vec<usize> = (0..64).filter(|i| h >> i & 1 == 1).collect();
                                    held.extend(later.iter().copied());
                                    let d = d.min(held.len());
                                    // Mean over 4 random choices of the cards drawn since.
                                    let mut lik = 0.0;
                                    for _ in 0..4 {
                                        let mut hs = held.clone();
                                        for i in 0..d {
                                            let j = i + rng.below(hs.len() - i);
                                            hs.swap(i, j);
                                        }
                                        let z: f64 = t.mass[t.played.id()] + hs[d..].iter().map(|&c| t.mass[c]).sum::<f64>();
                                        lik += 1.0 / z;
                                    }
                                    lw += (lik / 4.0).ln();
                                    later.push(t.played.id());
                                }
                                logw[kk] = tau * lw;
                            }
                            let logw = &logw[..kpool];
                            let mx = logw.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                            let ws: Vec<f64> = logw.iter().map(|l| (l - mx).exp()).collect();
                            let tot: f64 = ws.iter().sum();
                            let mut x = rng.unit() * tot;
                            let mut pick = 63;
                            for (kk, w) in ws.iter().enumerate() {
                                if x < *w {
                                    pick = kk;
                                    break;
                                }
                                x -= w;
                            }
                            let mut h = hands[pick];
                            while h != 0 {
                                let i = h.trailing_zeros() as usize;
                                h &= h - 1;
                                count[i] += 1;
                            }
                        }
                        let sc = &mut scores[variants.len() + hist_variants.len() + xi];
                        score_counts(sc, &count, pool, truth, n, reps);
                    }
                    if false {
                        let count = [0u32; 64];
                        let sc = &mut scores[0];
                        let mut bits = pool;
                        let m = f64::from(pool.count_ones());
                        let (mut b, mut l, mut cap) = (0.0, 0.0, 0.0);
                        while bits != 0 {
                            let i = bits.trailing_zeros() as usize;
                            bits &= bits - 1;
                            let q = f64::from(count[i]) / reps as f64;
                            let y = if truth >> i & 1 == 1 { 1.0 } else { 0.0 };
                            b += (q - y) * (q - y);
                            let qc = q.clamp(0.5 / reps as f64, 1.0 - 0.5 / reps as f64);
                            l -= if y == 1.0 { qc.ln() } else { (1.0 - qc).ln() };
                            cap += q * y;
                        }
                        sc.brier += b / m;
                        sc.logloss += l / m;
                        sc.captured += cap / f64::from(n);
                        sc.n += 1;
                    }
                }
            }
            let a = if p == obs { a_obs.act(&g).unwrap() } else { a_opp.act(&g).unwrap() };
            if p != obs {
                match a {
                    Action::Draw(Deck::Troop) => opp_draws += 1,
                    Action::Play { card, .. } if card.is_troop() => pending = opp_draws,
                    _ => {}
                }
            }
            g.apply(a).unwrap();
        }
    }
    println!("decisions {decisions}");
    let base = scores[0].brier;
    let names: Vec<String> = variants.iter().map(|v| v.0.clone()).chain(hist_variants.iter().map(|h| h.0.clone())).chain(exact_variants.iter().map(|h| h.0.clone())).collect();
    for (name, s) in names.iter().zip(&scores) {
        let n = s.n.max(1) as f64;
        println!(
            "{name:>10}  brier {:.5}  skill {:+.4}  logloss {:.5}  captured {:.4}",
            s.brier / n,
            1.0 - s.brier / base,
            s.logloss / n,
            s.captured / n
        );
    }
}

fn score_counts(sc: &mut Score, count: &[u32; 64], pool: u64, truth: u64, n: u32, reps: u64) {
    let mut bits = pool;
    let m = f64::from(pool.count_ones());
    let (mut b, mut l, mut cap) = (0.0, 0.0, 0.0);
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let q = f64::from(count[i]) / reps as f64;
        let y = if truth >> i & 1 == 1 { 1.0 } else { 0.0 };
        b += (q - y) * (q - y);
        let qc = q.clamp(0.5 / reps as f64, 1.0 - 0.5 / reps as f64);
        l -= if y == 1.0 { qc.ln() } else { (1.0 - qc).ln() };
        cap += q * y;
    }
    sc.brier += b / m;
    sc.logloss += l / m;
    sc.captured += cap / f64::from(n);
    sc.n += 1;
}
