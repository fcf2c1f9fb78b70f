//! The draft decisions of Arte da Guerra's agents compared on the same positions (issue 14,
//! round 12): A against B on GAMES duplicate deals from SEED (seats swapped); at each of A's
//! draft decisions (hide, take, keep; terrain and unit drafts) and terrain placements, what
//! Greedy and the heuristic player would do from the same position (the mover's view), and,
//! once the rows are placed, what each choice's unit card is worth there (its best row of
//! A's final rows, in mean cards). Also A's hand after the draft against B's and the result.
//!
//! ```sh
//! nice cargo run --release -p kingdoms-bench --example arte_choices -- ismcts:1000 greedy 100 103
//! ```

mod common;

use kingdoms_core::arena::agent_salt;
use kingdoms_core::arte::{Action, Arte, Card};
use kingdoms_core::game::Game;
use kingdoms_core::rng::GameRng;
use kingdoms_core::search::AgentSpec;
use kingdoms_core::Knowledge;
use kingdoms_core::Result;

const USAGE: &str = "usage: arte_choices A B GAMES [SEED]";

/// One of A's decisions: its class (0..6: terrain hide/take/keep, unit hide/take/keep; 6
/// placement), the slots, and the cards (or actions) chosen by A, Greedy and Heuristic.
struct Decision {
    class: usize,
    slots: [Option<Card>; 3],
    hidden: Option<u8>,
    chosen: [Action; 3],
}

struct GameRow {
    decisions: Vec<Decision>,
    rows_worth: Vec<[f64; 3]>,
    best_worth: Vec<f64>,
    hand: f64,
    result: f64,
}

fn card_of(a: Action, slots: &[Option<Card>; 3], hidden: Option<u8>) -> Option<Card> {
    match a {
        Action::Hide(c) | Action::Take(c) => Some(c),
        Action::TakeHidden => hidden.and_then(|h| slots[h as usize]),
        _ => None,
    }
}

fn one(a: &AgentSpec, b: &AgentSpec, seed: u64, index: u64) -> Result<GameRow> {
    let deal = seed.wrapping_mul(1_000_003).wrapping_add(index / 2);
    let seat = (index % 2) as usize;
    let mut g = Arte::new(deal, &Default::default())?;
    let mut agents = [
        a.build::<Arte>(agent_salt(seed, index, seat)),
        b.build::<Arte>(agent_salt(seed, index, 1 - seat)),
    ];
    let mut greedy = AgentSpec::parse("greedy")?.build::<Arte>(agent_salt(seed ^ 7, index, seat));
    let mut rng = GameRng::seed(agent_salt(seed ^ 11, index, seat));
    let mut decisions = Vec::new();
    let mut hand = None;
    while let Some(p) = g.current_player() {
        let (_, _, round, deploying) = g.strength_picture(0);
        if hand.is_none() && round == 1 && deploying {
            hand = Some(g.strength_picture(seat).0[0] - g.strength_picture(1 - seat).0[0]);
        }
        let who = usize::from(p != seat);
        let action = agents[who].act(&g)?;
        if who == 0 {
            let draft = g.draft_picture();
            let class = match (draft, action) {
                (Some((units, stage, _, _)), _) => Some(3 * usize::from(units) + stage as usize),
                (None, Action::Place(..)) => Some(6),
                _ => None,
            };
            if let Some(class) = class {
                let gr = greedy.act(&g)?;
                let he = g.heuristic_action(&mut rng).unwrap_or(action);
                let (slots, hidden) = draft.map_or(([None; 3], None), |d| (d.2, d.3));
                decisions.push(Decision {
                    class,
                    slots,
                    hidden,
                    chosen: [action, gr, he],
                });
            }
        }
        g.apply(action)?;
    }
    // Worths on A's final rows (the rows stay placed to the end).
    let set = g.card_set();
    let worth = |c: Option<Card>| match c {
        Some(c) if set.is_unit(c) => g.card_worth(seat, c),
        _ => f64::NAN,
    };
    let rows_worth = decisions
        .iter()
        .map(|d| d.chosen.map(|x| worth(card_of(x, &d.slots, d.hidden))))
        .collect();
    let best_worth = decisions
        .iter()
        .map(|d| {
            d.slots
                .iter()
                .map(|&c| worth(c))
                .fold(f64::NEG_INFINITY, f64::max)
        })
        .collect();
    Ok(GameRow {
        decisions,
        rows_worth,
        best_worth,
        hand: hand.unwrap_or(0.0),
        result: g.returns()[seat],
    })
}

fn run(args: &[String]) -> Result<String> {
    let rows = common::duel_rows(args, USAGE, one)?;
    let wins = rows.iter().filter(|r| r.result > 0.0).count();
    let ahead = rows.iter().filter(|r| r.hand > 0.0).count();
    let mut out = format!(
        "A wins {wins} of {}; A's hand after the draft ahead in {ahead}, mean A-B {:+.3}\n",
        rows.len(),
        rows.iter().map(|r| r.hand).sum::<f64>() / rows.len().max(1) as f64
    );
    const NAMES: [&str; 7] = [
        "terrain hide",
        "terrain take",
        "terrain keep",
        "unit hide",
        "unit take",
        "unit keep",
        "placement",
    ];
    out += "class: decisions | A=greedy A=heur greedy=heur | unit worth on A's final rows: A, greedy, heur, best of the three drawn (hide: the card hidden) | A's worth minus greedy's where they differ: all games / games A's hand ended behind\n";
    for (class, name) in NAMES.iter().enumerate() {
        let (mut n, mut ag, mut ah, mut gh) = (0, 0, 0, 0);
        let mut sums = [0.0; 4];
        let mut wn = 0;
        let (mut dn, mut ds, mut bn, mut bs) = (0, 0.0, 0, 0.0);
        for r in &rows {
            for (i, d) in r.decisions.iter().enumerate() {
                if d.class != class {
                    continue;
                }
                n += 1;
                ag += usize::from(d.chosen[0] == d.chosen[1]);
                ah += usize::from(d.chosen[0] == d.chosen[2]);
                gh += usize::from(d.chosen[1] == d.chosen[2]);
                let w = r.rows_worth[i];
                if w.iter().all(|x| x.is_finite()) {
                    wn += 1;
                    for k in 0..3 {
                        sums[k] += w[k];
                    }
                    sums[3] += r.best_worth[i];
                    if d.chosen[0] != d.chosen[1] {
                        dn += 1;
                        ds += w[0] - w[1];
                        if r.hand < 0.0 {
                            bn += 1;
                            bs += w[0] - w[1];
                        }
                    }
                }
            }
        }
        let m = |x: f64, k: usize| if k > 0 { x / k as f64 } else { f64::NAN };
        out += &format!(
            "{name}: {n} | {ag} {ah} {gh} | {:.3} {:.3} {:.3} {:.3} | {dn}: {:+.3} / {bn}: {:+.3}\n",
            m(sums[0], wn),
            m(sums[1], wn),
            m(sums[2], wn),
            m(sums[3], wn),
            m(ds, dn),
            m(bs, bn)
        );
    }
    Ok(out)
}

fn main() {
    common::main(run);
}
