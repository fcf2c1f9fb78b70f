//! Why a Battle Line agent loses (issue 14, ninth round): GAMES games of AGENT against
//! OPPONENT (`heuristic`, or any agent spec such as `greedy`), deals and seats as in the
//! `heuristic_strength` example, and counts of what the agent did in the games it won and
//! lost: claims it declined, tactics drawn and played, draws that differ from the rule-based
//! player's, cards played onto flags the opponent can already prove, how each game ended.
//!
//! ```sh
//! cargo run --release -p kingdoms-bench --example bl_losses -- ismcts:1000 heuristic 40 1 [LOG]
//! ```
//! With LOG, every lost game's moves are written there: each of the agent's decisions with
//! the rule-based player's choice beside it, the flags at the end.

mod common;

use kingdoms_core::arena::agent_salt;
use kingdoms_core::battleline::{Action, BattleLine, Deck, Phase};
use kingdoms_core::game::Game;
use kingdoms_core::rng::GameRng;
use kingdoms_core::search::AgentSpec;
use kingdoms_core::Knowledge;
use kingdoms_core::{Error, Result};
use std::fmt::Write as _;

const USAGE: &str = "usage: bl_losses AGENT OPPONENT GAMES [SEED [LOG]]";

/// What one side did in one game.
#[derive(Default, Clone, Copy, Debug)]
struct Tally {
    games: u32,
    declined_claims: u32,
    tactics_drawn: u32,
    draw_tactics_rule_troop: u32,
    draw_troop_rule_tactics: u32,
    tactics_played: u32,
    tactics_left: u32,
    passes: u32,
    into_lost_flag: u32,
    high_into_lost_flag: u32,
    plays: u32,
    plays_unlike_rule: u32,
    won_breakthrough: u32,
    won_five: u32,
    won_count: u32,
    lost_breakthrough: u32,
    lost_five: u32,
    lost_count: u32,
    flags_mine: u32,
    flags_theirs: u32,
    plies: u32,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        macro_rules! sum { ($($f:ident),*) => { $( self.$f += o.$f; )* } }
        sum!(
            games,
            declined_claims,
            tactics_drawn,
            draw_tactics_rule_troop,
            draw_troop_rule_tactics,
            tactics_played,
            tactics_left,
            passes,
            into_lost_flag,
            high_into_lost_flag,
            plays,
            plays_unlike_rule,
            won_breakthrough,
            won_five,
            won_count,
            lost_breakthrough,
            lost_five,
            lost_count,
            flags_mine,
            flags_theirs,
            plies
        );
    }
    fn line(&self, label: &str) -> String {
        let n = f64::from(self.games.max(1));
        let per = |x: u32| f64::from(x) / n;
        format!(
            "{label}: {} games; per game: declined claims {:.2}, tactics drawn {:.2} (rule said troop {:.2}, \
             said tactics but drew troop {:.2}), tactics played {:.2}, tactics left in hand {:.2}, passes {:.2}, \
             cards onto flags the opponent proves {:.2} (value >= 7: {:.2}), plays {:.1} ({:.1} unlike the rule), \
             flags {:.2}-{:.2}, plies {:.1}; ends: won by 3 adjacent {}, by 5 {}, by count {}; lost by 3 adjacent {}, by 5 {}, by count {}",
            self.games,
            per(self.declined_claims),
            per(self.tactics_drawn),
            per(self.draw_tactics_rule_troop),
            per(self.draw_troop_rule_tactics),
            per(self.tactics_played),
            per(self.tactics_left),
            per(self.passes),
            per(self.into_lost_flag),
            per(self.high_into_lost_flag),
            per(self.plays),
            per(self.plays_unlike_rule),
            per(self.flags_mine),
            per(self.flags_theirs),
            per(self.plies),
            self.won_breakthrough,
            self.won_five,
            self.won_count,
            self.lost_breakthrough,
            self.lost_five,
            self.lost_count,
        )
    }
}

fn three_adjacent(m: u16) -> bool {
    m & (m >> 1) & (m >> 2) != 0
}

/// The flags `p` holds.
fn held(g: &BattleLine, p: usize) -> u16 {
    let mut m = 0;
    for (f, fl) in g.flags().iter().enumerate() {
        if fl.claimed == Some(p as u8) {
            m |= 1 << f;
        }
    }
    m
}

fn table(g: &BattleLine, seat: usize) -> String {
    let mut s = String::new();
    for (f, fl) in g.flags().iter().enumerate() {
        let side = |p: usize| {
            fl.side(p)
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let who = match fl.claimed {
            Some(p) if p as usize == seat => "AGENT",
            Some(_) => "opp",
            None => "-",
        };
        let _ = writeln!(
            s,
            "    flag {f} [{who}] agent: {} | opp: {}",
            side(seat),
            side(1 - seat)
        );
    }
    s
}

/// Game `index`: deal `index / 2`, the agent in seat `index % 2`.
fn one(
    spec: &AgentSpec,
    opponent: Option<&AgentSpec>,
    seed: u64,
    index: u64,
) -> Result<(Tally, Tally, bool, String)> {
    let deal = seed.wrapping_mul(1_000_003).wrapping_add(index / 2);
    let seat = (index % 2) as usize;
    let mut g = BattleLine::new(deal, &Default::default())?;
    let mut agent = spec.build::<BattleLine>(agent_salt(seed, index, seat));
    let mut opp = opponent.map(|s| s.build::<BattleLine>(agent_salt(seed, index, 1 - seat)));
    let mut rng = GameRng::seed(agent_salt(seed, index, 1 - seat));
    let mut rule_rng = GameRng::seed(index);
    let mut t = [Tally::default(), Tally::default()];
    let mut log = String::new();
    while let Some(p) = g.current_player() {
        let a = if p == seat {
            agent.act(&g)?
        } else if let Some(o) = opp.as_mut() {
            o.act(&g)?
        } else {
            let view = g.resample_hidden(p, rng.next_u64());
            view.heuristic_action(&mut rng)
                .ok_or_else(|| Error::invalid("no heuristic player"))?
        };
        // The rule-based player's choice from the mover's own sight.
        let rule = g
            .resample_hidden(p, rule_rng.next_u64())
            .heuristic_action(&mut rule_rng);
        let who = usize::from(p != seat);
        let tl = &mut t[who];
        tl.plies += 1;
        let mut note = String::new();
        match (g.phase(), a) {
            (Phase::Claim, Action::Done) => {
                tl.declined_claims += 1;
                note.push_str(" DECLINED-CLAIM");
            }
            (Phase::Draw, Action::Draw(d)) => {
                if d == Deck::Tactics {
                    tl.tactics_drawn += 1;
                }
                match (d, rule) {
                    (Deck::Tactics, Some(Action::Draw(Deck::Troop))) => {
                        tl.draw_tactics_rule_troop += 1;
                        note.push_str(" DRAW-TACTICS(rule: troop)");
                    }
                    (Deck::Troop, Some(Action::Draw(Deck::Tactics))) => {
                        tl.draw_troop_rule_tactics += 1;
                        note.push_str(" DRAW-TROOP(rule: tactics)");
                    }
                    _ => {}
                }
            }
            (Phase::Play, a) => {
                tl.plays += 1;
                if Some(a) != rule {
                    tl.plays_unlike_rule += 1;
                }
                match a {
                    Action::Pass => tl.passes += 1,
                    Action::Play { card, flag } => {
                        if !card.is_troop() {
                            tl.tactics_played += 1;
                        }
                        if g.claim_proof(flag as usize, 1 - p)
                            .is_some_and(|pr| pr.holds())
                        {
                            tl.into_lost_flag += 1;
                            if card.max_value() >= 7 {
                                tl.high_into_lost_flag += 1;
                            }
                            note.push_str(" INTO-PROVEN-LOST");
                        }
                    }
                    _ => tl.tactics_played += 1,
                }
            }
            _ => {}
        }
        if p == seat {
            let rule_s = rule.map_or("-".into(), |r| r.to_string());
            let _ = writeln!(
                log,
                "  agent {:>3} {:?}: {a}  (rule: {rule_s}; eval {:+.2}){note}",
                t[0].plies,
                g.phase(),
                g.evaluate(seat)
            );
        } else {
            let _ = writeln!(log, "  opp       {:?}: {a}{note}", g.phase());
        }
        g.apply(a)?;
    }
    let winner = g.winner();
    for (who, tl) in t.iter_mut().enumerate() {
        let p = if who == 0 { seat } else { 1 - seat };
        tl.games = 1;
        tl.tactics_left = g.hand(p).map_or(0, |h| h.tactics().len() as u32);
        let (mine, theirs) = (held(&g, p), held(&g, 1 - p));
        tl.flags_mine = mine.count_ones();
        tl.flags_theirs = theirs.count_ones();
        match winner {
            Some(w) if w == p => {
                if three_adjacent(mine) {
                    tl.won_breakthrough += 1
                } else if mine.count_ones() >= 5 {
                    tl.won_five += 1
                } else {
                    tl.won_count += 1
                }
            }
            Some(_) => {
                if three_adjacent(theirs) {
                    tl.lost_breakthrough += 1
                } else if theirs.count_ones() >= 5 {
                    tl.lost_five += 1
                } else {
                    tl.lost_count += 1
                }
            }
            None => {}
        }
    }
    let won = winner == Some(seat);
    let mut text = String::new();
    if !won {
        let _ = writeln!(
            text,
            "game {index} (deal {deal}, agent seat {seat}) LOST\n{log}{}",
            table(&g, seat)
        );
    }
    Ok((t[0], t[1], won, text))
}

fn run(args: &[String]) -> Result<String> {
    let (Some(a), Some(b)) = (args.first(), args.get(1)) else {
        return Err(Error::invalid(USAGE));
    };
    let spec = AgentSpec::parse(a)?;
    let opponent = match b.as_str() {
        "heuristic" => None,
        other => Some(AgentSpec::parse(other)?),
    };
    let num = |i: usize, d: u64| common::number(args, i, d, USAGE);
    let games = num(2, 40)?;
    let seed = num(3, 1)?;
    let mut sums = [[Tally::default(); 2]; 2]; // [won?][agent, opponent]
    let mut logs = String::new();
    for i in 0..games {
        let (mine, theirs, won, text) = one(&spec, opponent.as_ref(), seed, i)?;
        let k = usize::from(won);
        sums[k][0].add(&mine);
        sums[k][1].add(&theirs);
        logs.push_str(&text);
    }
    if let Some(path) = args.get(4) {
        std::fs::write(path, logs).map_err(|e| Error::invalid(e.to_string()))?;
    }
    Ok([
        sums[1][0].line(&format!("{a} in games it won")),
        sums[1][1].line(&format!("{b} in those games")),
        sums[0][0].line(&format!("{a} in games it lost")),
        sums[0][1].line(&format!("{b} in those games")),
    ]
    .join("\n"))
}

fn main() {
    common::main(run);
}
