//! Elo ratings with confidence intervals, from a tournament's pairwise results.
//!
//! **Model.** Bradley-Terry on the Elo scale: agent `i` scores against `j` with probability
//! `1 / (1 + 10^((R_j - R_i) / 400))`; a draw is half a point to each side. The ratings are
//! the maximum-likelihood fit (Hunter's MM iteration, "MM algorithms for generalized
//! Bradley-Terry models", Ann. Statist. 32(1), 2004), anchored so the ratings average 0.
//!
//! **Prior.** As in BayesElo, every pairing that played gets one virtual draw added, so an
//! agent that wins every game gets a large but finite rating (200 wins out of 200 put it
//! about 920 points above its opponent instead of infinitely far).
//!
//! **Intervals.** 95% parametric bootstrap, as Ordo does: `bootstrap` times, every pairing's
//! games are replayed by simulation from the fitted model (each pairing keeps its observed
//! share of draws; wins and losses split the rest so the expected score is the model's),
//! and the model is refitted; the interval runs from the 2.5th to the 97.5th percentile of
//! an agent's refitted ratings. Simulating from the model rather than resampling the games
//! keeps the interval honest after a clean sweep (resampling 20 wins out of 20 only ever
//! gives 20 wins). The RNG is seeded, so intervals are reproducible. Intervals are relative
//! to the pool's average, like the ratings.

use crate::rng::GameRng;

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
    /// Win 1, draw 1/2, loss 0.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }
    /// Share of the points available (NaN without games).
    pub fn score(&self) -> f64 {
        self.points() / self.games() as f64
    }
    /// The same games from the other side.
    pub fn flipped(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }
    pub(crate) fn add(&mut self, o: Wdl) {
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
    }
}

pub(crate) const WIN: Wdl = Wdl {
    wins: 1,
    draws: 0,
    losses: 0,
};
pub(crate) const DRAW: Wdl = Wdl {
    wins: 0,
    draws: 1,
    losses: 0,
};
pub(crate) const LOSS: Wdl = Wdl {
    wins: 0,
    draws: 0,
    losses: 1,
};

/// One agent's rating and its 95% interval, in Elo points relative to the pool average.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub elo: f64,
    pub lo: f64,
    pub hi: f64,
}

const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;
/// Virtual draws added to every pairing that played.
pub const PRIOR_DRAWS: f64 = 1.0;

/// The expected score of a player rated `diff` points above its opponent.
pub fn expected_score(diff: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-diff / 400.0))
}

/// The rating difference that makes `score` (in (0, 1)) the expected score.
pub fn elo_difference(score: f64) -> f64 {
    400.0 * (score / (1.0 - score)).log10()
}

/// Maximum-likelihood Bradley-Terry ratings from `points[i][j]`, the points agent `i` scored
/// against `j` (wins + draws / 2, priors included). Agents with no games rate 0.
pub fn fit(points: &[Vec<f64>]) -> Vec<f64> {
    let n = points.len();
    let mut gamma = vec![1.0f64; n];
    let total: Vec<f64> = (0..n).map(|i| points[i].iter().sum()).collect();
    for _ in 0..100_000 {
        let mut change = 0.0f64;
        for i in 0..n {
            if total[i] <= 0.0 {
                continue;
            }
            let mut denom = 0.0;
            for j in 0..n {
                let games = points[i][j] + points[j][i];
                if j != i && games > 0.0 {
                    denom += games / (gamma[i] + gamma[j]);
                }
            }
            if denom > 0.0 {
                let new = total[i] / denom;
                change = change.max((new / gamma[i]).ln().abs());
                gamma[i] = new;
            }
        }
        // Anchor: geometric mean 1, i.e. ratings average 0.
        let played: Vec<usize> = (0..n).filter(|&i| total[i] > 0.0).collect();
        if !played.is_empty() {
            let mean = played.iter().map(|&i| gamma[i].ln()).sum::<f64>() / played.len() as f64;
            for &i in &played {
                gamma[i] /= mean.exp();
            }
        }
        if change < 1e-10 {
            break;
        }
    }
    (0..n)
        .map(|i| {
            if total[i] > 0.0 {
                gamma[i].ln() * ELO_PER_NAT
            } else {
                0.0
            }
        })
        .collect()
}

/// Points matrix with the prior: `pairwise[i][j]` is `i`'s record against `j`.
fn points(pairwise: &[Vec<Wdl>]) -> Vec<Vec<f64>> {
    let n = pairwise.len();
    let mut p = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            let r = pairwise[i][j];
            if i != j && r.games() > 0 {
                p[i][j] = r.wins as f64 + 0.5 * r.draws as f64 + 0.5 * PRIOR_DRAWS;
            }
        }
    }
    p
}

/// Ratings with bootstrap intervals (`bootstrap` = 0: the intervals are the point estimate).
pub fn ratings(pairwise: &[Vec<Wdl>], bootstrap: u32, seed: u64) -> Vec<Rating> {
    let n = pairwise.len();
    let est = fit(&points(pairwise));
    if bootstrap == 0 {
        return with_intervals(&est, None);
    }
    let mut rng = GameRng::stream(seed, 0xE10);
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(bootstrap as usize); n];
    let mut simulated = vec![vec![Wdl::default(); n]; n];
    // Per pairing: games and the model's probabilities of a win, a draw (the observed share).
    let mut model = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let r = pairwise[i][j];
            let games = r.games();
            if games == 0 {
                continue;
            }
            let draw = r.draws as f64 / games as f64;
            let score = expected_score(est[i] - est[j]);
            let win = (score - draw / 2.0).clamp(0.0, 1.0 - draw);
            model.push((i, j, games, win, draw));
        }
    }
    for _ in 0..bootstrap {
        for &(i, j, games, win, draw) in &model {
            let mut s = Wdl::default();
            for _ in 0..games {
                let u = rng.unit();
                if u < win {
                    s.wins += 1;
                } else if u < win + draw {
                    s.draws += 1;
                } else {
                    s.losses += 1;
                }
            }
            simulated[i][j] = s;
            simulated[j][i] = s.flipped();
        }
        for (k, e) in fit(&points(&simulated)).into_iter().enumerate() {
            samples[k].push(e);
        }
    }
    with_intervals(&est, Some(&mut samples))
}

/// Ratings of `n` agents from games of more than two seats or with teams: `games[g]` lists
/// the pairs game `g` scored (`(i, j, i's result against j)`). The point estimate is the
/// Bradley-Terry fit of all pairs, as [`ratings`] gives; but one game's pairs are not
/// independent (a winner of four seats beats three agents at once, partners win together),
/// so simulating pairs would make the intervals too narrow. Instead the bootstrap resamples
/// whole games with replacement (`bootstrap` times, seeded) and refits: the interval keeps
/// every correlation a game carries. A clean sweep resamples to itself, so its interval is
/// narrow; the virtual draws keep its rating finite.
pub fn ratings_by_game(
    n: usize,
    games: &[Vec<(usize, usize, Wdl)>],
    bootstrap: u32,
    seed: u64,
) -> Vec<Rating> {
    let table = |pick: &mut dyn FnMut() -> usize| -> Vec<Vec<Wdl>> {
        let mut t = vec![vec![Wdl::default(); n]; n];
        for _ in 0..games.len() {
            for &(i, j, r) in &games[pick()] {
                if i < n && j < n {
                    t[i][j].add(r);
                    t[j][i].add(r.flipped());
                }
            }
        }
        t
    };
    let mut k = 0;
    let all = table(&mut || {
        k += 1;
        k - 1
    });
    let est = fit(&points(&all));
    if bootstrap == 0 || games.is_empty() {
        return with_intervals(&est, None);
    }
    let mut rng = GameRng::stream(seed, 0xE11);
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(bootstrap as usize); n];
    for _ in 0..bootstrap {
        let t = table(&mut || rng.below(games.len()));
        for (k, e) in fit(&points(&t)).into_iter().enumerate() {
            samples[k].push(e);
        }
    }
    with_intervals(&est, Some(&mut samples))
}

/// Ratings from point estimates and, per agent, their bootstrap samples: the 95% interval
/// is the samples' 2.5th to 97.5th percentile (no samples: the interval is the estimate).
fn with_intervals(est: &[f64], samples: Option<&mut [Vec<f64>]>) -> Vec<Rating> {
    let Some(samples) = samples else {
        return est
            .iter()
            .map(|&e| Rating {
                elo: e,
                lo: e,
                hi: e,
            })
            .collect();
    };
    est.iter()
        .zip(samples.iter_mut())
        .map(|(&elo, s)| {
            s.sort_by(f64::total_cmp);
            Rating {
                elo,
                lo: percentile(s, 0.025),
                hi: percentile(s, 0.975),
            }
        })
        .collect()
}

/// Linear-interpolated percentile of sorted data.
fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wdl(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    fn head_to_head(r: Wdl) -> Vec<Vec<Wdl>> {
        vec![vec![Wdl::default(), r], vec![r.flipped(), Wdl::default()]]
    }

    #[test]
    fn two_agents_match_the_logistic_formula() {
        // 150 points of 200 (plus one virtual draw): difference = 400 log10(s / (1 - s)).
        let r = ratings(&head_to_head(wdl(140, 20, 40)), 0, 1);
        let s = (150.0 + 0.5) / 201.0;
        let want = elo_difference(s);
        assert!((r[0].elo - r[1].elo - want).abs() < 1e-6, "{r:?} vs {want}");
        assert!((r[0].elo + r[1].elo).abs() < 1e-9, "ratings average 0");
        assert!((expected_score(want) - s).abs() < 1e-12);
    }

    #[test]
    fn a_clean_sweep_stays_finite_with_a_real_interval() {
        let r = ratings(&head_to_head(wdl(200, 0, 0)), 200, 3);
        let d = r[0].elo - r[1].elo;
        assert!(d.is_finite() && d > 800.0 && d < 1100.0, "{d}");
        // Resampling a 20-0 sweep would give 20-0 every time; simulating from the model
        // gives the losses a finite rating allows. (Nothing beats a sweep, so the upper end
        // is the estimate itself.)
        let r = ratings(&head_to_head(wdl(20, 0, 0)), 500, 3);
        assert!(r[0].lo < r[0].elo - 100.0 && r[0].hi >= r[0].elo, "{r:?}");
    }

    #[test]
    fn transitive_pool_orders_and_fits_consistently() {
        // A beats B 70%, B beats C 70%, A beats C 84.5% (what 0.7/0.7 implies under BT).
        let mut p = vec![vec![Wdl::default(); 3]; 3];
        let mut set = |i: usize, j: usize, w: u64, l: u64| {
            p[i][j] = wdl(w, 0, l);
            p[j][i] = wdl(l, 0, w);
        };
        set(0, 1, 700, 300);
        set(1, 2, 700, 300);
        set(0, 2, 845, 155);
        let r = ratings(&p, 0, 0);
        let d01 = r[0].elo - r[1].elo;
        let d12 = r[1].elo - r[2].elo;
        let want = elo_difference(0.7);
        assert!(
            (d01 - want).abs() < 8.0 && (d12 - want).abs() < 8.0,
            "{r:?}"
        );
    }

    #[test]
    fn bootstrap_intervals_cover_the_estimate_shrink_with_games_and_are_seeded() {
        let small = ratings(&head_to_head(wdl(30, 0, 20)), 500, 9);
        let big = ratings(&head_to_head(wdl(3000, 0, 2000)), 500, 9);
        for r in small.iter().chain(&big) {
            assert!(r.lo <= r.elo && r.elo <= r.hi, "{r:?}");
        }
        let width = |r: &[Rating]| r[0].hi - r[0].lo;
        assert!(width(&big) * 5.0 < width(&small), "{small:?} {big:?}");
        // 60% over 5000 games: 70 Elo apart, so +35 above the average, known to about +-5.
        assert!(big[0].lo > 20.0 && big[0].hi < 60.0, "{big:?}");
        assert_eq!(small, ratings(&head_to_head(wdl(30, 0, 20)), 500, 9));
        assert_ne!(small, ratings(&head_to_head(wdl(30, 0, 20)), 500, 10));
    }

    #[test]
    fn agents_without_games_rate_zero() {
        let mut p = vec![vec![Wdl::default(); 3]; 3];
        p[0][1] = wdl(5, 0, 5);
        p[1][0] = wdl(5, 0, 5);
        let r = ratings(&p, 50, 1);
        assert_eq!(r[2].elo, 0.0);
        assert!(r[0].elo.abs() < 1e-9);
    }
}
