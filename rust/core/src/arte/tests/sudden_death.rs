//! AG-8: the end of the game and sudden death.

use super::*;

/// A finished round 3 with equal victory piles: sudden death.
fn tied_end(options: Options) -> Arte {
    let f0: &[(&str, &str)] = &[("a1", "U2")];
    let f1: &[(&str, &str)] = &[("a1", "U3")];
    // Round 3, P1 attacks first: P1's U3 (AA, Waste: attack 2) vs P0's U2 (G on Plain: 2):
    // a tie, P0 wins the combat; give P1 one more victory card so the piles tie.
    let mut g = combat(ROWS, [f0, f1], 1, 3, options);
    for (p, l) in [(0, "U1"), (1, "U9"), (1, "U10")] {
        let c = take(&mut g, l);
        g.sides[p].victory.push(c);
    }
    play(&mut g, "attack a1");
    play(&mut g, "defend a1");
    g
}

/// AG-8.1 to AG-8.3: a tie after round 3 is settled by sudden death: round 3's second player
/// attacks and picks first, in secret; the defender picks; the defence wins ties.
#[test]
fn ag_8_sudden_death() {
    let mut g = tied_end(opts());
    assert_eq!(g.phase, Phase::SuddenDeath);
    assert_eq!(g.sides[0].victory.len(), g.sides[1].victory.len());
    // Round 3's first attacker was P1, so P0 attacks in sudden death.
    assert_eq!((g.sd_attacker(), g.current()), (0, Some(0)));
    refuse(&mut g, "pick U9 1", "AG-8.2");
    refuse(&mut g, "pass", "AG-1.5");
    // P0 picks U1 (CCA) on row 1 (Plain C3): attack 2*(3+1) + 1 = 9.
    play(&mut g, "pick U1 1");
    assert_eq!(g.current(), Some(1));
    let v1 = g.view(1);
    assert_eq!(
        v1["players"][0]["pick"],
        serde_json::json!({"card": null, "row": null})
    );
    // A determinization for P1 redraws P0's pick among P0's victory cards.
    let picks: std::collections::HashSet<_> = (0..40)
        .map(|s| g.resample_hidden(1, s).sides[0].pick)
        .collect();
    assert!(picks.len() > 1);
    // P1's best: U10 (AAA) on row 3 of Waste... every P1 row is Waste: 3 < 9: P0 wins.
    play(&mut g, "pick U10 3");
    assert_eq!((g.phase, g.winner()), (Phase::Over, Some(0)));
    assert_eq!(g.returns(), vec![1.0, -1.0]);
    assert_eq!(g.view(1)["players"][0]["pick"]["card"], "U1");
    refuse(&mut g, "pass", "AG-8.5");
}

/// AG-8.3: the defence wins a tie in sudden death; `sudden_death_row = "front"` fights on
/// row 1 only.
#[test]
fn ag_8_3_sudden_death_tie_and_front_option() {
    let mut g = tied_end(opts());
    // P0: U2 (G) on row 2 (Forest G2): attack 2 + 1 = 3. P1: U10 (AAA) on Waste: 3.
    play(&mut g, "pick U2 2");
    play(&mut g, "pick U10 1");
    assert_eq!(g.winner(), Some(1));

    let mut g = tied_end(Options {
        sudden_death_row: SuddenDeathRow::Front,
        ..opts()
    });
    refuse(&mut g, "pick U1 2", "AG-8.2");
    assert!(legal(&g).iter().all(|a| a.ends(" 1")));
    play(&mut g, "pick U1 1");
    play(&mut g, "pick U9 1");
    assert_eq!(g.winner(), Some(0));
}

/// AG-8.1: more victory cards wins outright.
#[test]
fn ag_8_1_more_victory_cards_wins() {
    let mut g = combat(ROWS, [&[("a1", "U1")], &[("a1", "U2")]], 0, 3, opts());
    play(&mut g, "attack a1");
    play(&mut g, "defend a1");
    assert_eq!((g.phase, g.winner()), (Phase::Over, Some(0)));
    assert!(g.is_terminal() && g.current_player().is_none());
    assert_eq!(g.evaluate(0), 1.0);
    assert_eq!(g.evaluate(1), -1.0);
}

trait Ends {
    fn ends(&self, s: &str) -> bool;
}
impl Ends for String {
    fn ends(&self, s: &str) -> bool {
        self.ends_with(s)
    }
}

/// AG-8.2, AG-9.5: the sudden-death attacker's pick is secret from the defender; the
/// defender's pick ends the game, which shows both, so it reads whole.
#[test]
fn ag_8_2_the_attackers_pick_is_secret_and_the_defenders_is_not() {
    let mut g = tied_end(opts());
    let (pick0, pick1) = (act(&g, "pick U1 1"), act(&g, "pick U9 1"));
    assert_eq!(g.action_seen(0, pick0), "pick U1 1");
    assert_eq!(g.action_seen(1, pick0), "pick (secret)");
    play(&mut g, "pick U1 1");
    assert_eq!(g.action_seen(1, pick1), "pick U9 1");
    assert_eq!(g.action_seen(0, pick1), "pick U9 1");
}
