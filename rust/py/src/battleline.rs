//! Battle Line's extras: claim proofs and formations as Python values, `claim_proof` on a
//! game, and match scoring. Cards travel as notation strings (`"R10"`, `"Alexander"`).
#![deny(clippy::indexing_slicing)]

use kingdoms_core::battleline::{self as bl, BattleLine, Card};
use kingdoms_core::Session;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::args::Text;
use crate::classes::PyBattleLine;
use crate::errors::IntoPy;
use crate::json;

fn parse_cards(items: &[Text]) -> PyResult<Vec<Card>> {
    items.iter().map(|s| Card::parse(s).py()).collect()
}

fn names(cards: &[Card]) -> Vec<String> {
    cards.iter().map(ToString::to_string).collect()
}

/// A formation with every card resolved: `cards` as given (then any completing cards),
/// `resolved` the troop each stands for (a wild card's chosen colour and value).
#[pyclass(frozen, module = "kingdoms._kingdoms", name = "Formation")]
pub struct PyFormation {
    inner: bl::Formation,
}

#[pymethods]
impl PyFormation {
    /// `"wedge"`, `"phalanx"`, `"battalion"`, `"skirmish"` or `"host"` (always `"host"`
    /// under Fog, where only the total counts).
    #[getter]
    fn kind(&self) -> &'static str {
        self.inner.kind.name()
    }
    /// Sum of the values.
    #[getter]
    fn total(&self) -> u8 {
        self.inner.total
    }
    /// Whether Fog applies.
    #[getter]
    fn fog(&self) -> bool {
        self.inner.fog
    }
    /// Comparable strength: higher is stronger (kind first, then total; total under Fog).
    #[getter]
    fn strength(&self) -> u16 {
        self.inner.strength()
    }
    /// The cards: those given, then the completing cards.
    #[getter]
    fn cards(&self) -> Vec<String> {
        names(self.inner.cards())
    }
    /// The troop each card stands for (wild cards resolved in their owner's favour).
    #[getter]
    fn resolved(&self) -> Vec<String> {
        names(self.inner.resolved())
    }
    /// The cards taken from the unseen pool to complete the side (empty if it was complete).
    #[getter]
    fn completion(&self) -> Vec<String> {
        names(self.inner.completion())
    }
    fn __str__(&self) -> String {
        self.inner.to_string()
    }
    fn __repr__(&self) -> String {
        format!(
            "<Formation {} {} [{}]>",
            self.inner.kind.name(),
            self.inner.total,
            self.inner
                .cards()
                .iter()
                .zip(self.inner.resolved())
                .map(|(c, r)| if c.is_morale() {
                    format!("{c}={r}")
                } else {
                    c.to_string()
                })
                .collect::<Vec<_>>()
                .join(" ")
        )
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyFormation>()
            .is_ok_and(|o| o.get().inner == self.inner)
    }
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.inner.hash(&mut h);
        h.finish()
    }
}

/// The result of a claim proof: truthy exactly when the claim holds. `str()` explains it.
#[pyclass(frozen, module = "kingdoms._kingdoms", name = "ClaimProof")]
pub struct PyClaimProof {
    inner: bl::ClaimProof,
}

#[pymethods]
impl PyClaimProof {
    /// Whether the claim holds.
    #[getter]
    fn holds(&self) -> bool {
        self.inner.holds()
    }
    fn __bool__(&self) -> bool {
        self.inner.holds()
    }
    /// Why: `"stronger"`, `"wins_tie"`, `"unbeatable"`, `"cannot_complete"` (holds);
    /// `"weaker"`, `"loses_tie"`, `"beatable"` (fails).
    #[getter]
    fn verdict(&self) -> &'static str {
        self.inner.verdict.name()
    }
    /// The claimant's best formation.
    #[getter]
    fn mine(&self) -> PyFormation {
        PyFormation {
            inner: self.inner.mine,
        }
    }
    /// The opponent's complete formation, or the counterexample completion; None when the
    /// opponent's side is incomplete and the claim holds.
    #[getter]
    fn theirs(&self) -> Option<PyFormation> {
        self.inner.theirs.map(|inner| PyFormation { inner })
    }
    /// When the claim fails: the opponent's formation (complete, or completed with unseen
    /// troops) that beats or ties the claimant's. None when it holds.
    #[getter]
    fn counterexample(&self) -> Option<PyFormation> {
        self.inner
            .counterexample()
            .map(|f| PyFormation { inner: *f })
    }
    /// Formation size on the flag: 3, or 4 under Mud.
    #[getter]
    fn size(&self) -> u8 {
        self.inner.size
    }
    fn __str__(&self) -> String {
        self.inner.to_string()
    }
    fn __repr__(&self) -> String {
        format!(
            "<ClaimProof {} ({})>",
            if self.inner.holds() { "holds" } else { "fails" },
            self.inner.verdict.name()
        )
    }
}

/// The best formation of 1-4 cards, wild cards resolved in their owner's favour.
#[pyfunction]
#[pyo3(signature = (cards, fog=false))]
pub fn battleline_best_formation(cards: Vec<Text>, fog: bool) -> PyResult<PyFormation> {
    let cards = parse_cards(&cards)?;
    Ok(PyFormation {
        inner: bl::best_formation_checked(&cards, fog).py()?,
    })
}

/// Whether a complete side `mine` may claim a flag against `theirs`, given the troop cards
/// still unseen (not on the table nor discarded; the claimant's hand counts as unseen).
#[pyfunction]
#[pyo3(signature = (mine, theirs, unseen, *, fog=false, mud=false, mine_completed_first=None))]
pub fn battleline_prove_claim(
    py: Python<'_>,
    mine: Vec<Text>,
    theirs: Vec<Text>,
    unseen: Vec<Text>,
    fog: bool,
    mud: bool,
    mine_completed_first: Option<bool>,
) -> PyResult<PyClaimProof> {
    let (mine, theirs, unseen) = (
        parse_cards(&mine)?,
        parse_cards(&theirs)?,
        parse_cards(&unseen)?,
    );
    let proof = py
        .detach(|| bl::prove_claim(&mine, &theirs, &unseen, fog, mud, mine_completed_first))
        .py()?;
    Ok(PyClaimProof { inner: proof })
}

fn game<'a>(slf: &'a PyRef<'_, PyBattleLine>) -> PyResult<&'a BattleLine> {
    slf.as_super()
        .inner
        .as_any()
        .downcast_ref::<Session<BattleLine>>()
        .map(|s| &s.game)
        .ok_or_else(|| PyValueError::new_err("not a Battle Line game"))
}

#[pymethods]
impl PyBattleLine {
    /// The claim proof for `player` at `flag` in this position, or None when there is
    /// nothing to prove (the flag is claimed, or the player's formation is incomplete).
    fn claim_proof(
        slf: PyRef<'_, Self>,
        flag: crate::args::Whole,
        player: crate::args::Whole,
    ) -> PyResult<Option<PyClaimProof>> {
        let flag = flag.index(9, "flag")?;
        let player = player.index(2, "player")?;
        Ok(game(&slf)?
            .claim_proof(flag, player)
            .map(|inner| PyClaimProof { inner }))
    }
    /// Flags won by each player.
    #[getter]
    fn flags_won(slf: PyRef<'_, Self>) -> PyResult<(u8, u8)> {
        let w = game(&slf)?.flags_won();
        Ok((w[0], w[1]))
    }
    /// Troop cards not on the table nor in the discard (the pool claim proofs use).
    fn unseen_troops(slf: PyRef<'_, Self>) -> PyResult<Vec<String>> {
        let u = game(&slf)?.unseen_troops();
        Ok(bl::cards::troops_of(u).map(|c| c.to_string()).collect())
    }
    /// Match play scoring of a finished game (BL-12.1): the winner 5, the loser 1 per flag
    /// won; a drawn game scores each player's flags. None while the game runs.
    fn match_points(slf: PyRef<'_, Self>) -> PyResult<Option<(u32, u32)>> {
        Ok(game(&slf)?.match_points().map(|p| (p[0], p[1])))
    }
    /// Rules options for the next game of a match (BL-12.2: the winner starts), as keyword
    /// arguments for `BattleLine(seed, **options)`. None while the game runs.
    fn next_game_options<'py>(
        slf: PyRef<'_, Self>,
        py: Python<'py>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        match game(&slf)?.next_game_options() {
            None => Ok(None),
            Some(o) => {
                let v =
                    serde_json::to_value(o).map_err(|e| PyValueError::new_err(e.to_string()))?;
                Ok(Some(json::to_py(py, &v)?))
            }
        }
    }
}

/// Claim proofs per second in Rust (one thread, GIL released) on a fixed position:
/// `case="typical"` (the opponent one card short, a mid-game pool) or `"worst"` (the
/// opponent's side empty, Mud, every other troop unseen). For `kingdoms bench`.
#[pyfunction]
#[pyo3(signature = (case, seconds=0.5))]
pub fn battleline_proof_rate(py: Python<'_>, case: &str, seconds: f64) -> PyResult<f64> {
    let cards = |s: &str| -> Vec<Card> {
        s.split_whitespace()
            .filter_map(|c| Card::parse(c).ok())
            .collect()
    };
    let bits = |cs: &[Card]| cs.iter().fold(0u64, |a, c| a | 1u64 << c.0);
    let (mine, theirs, visible, mud) = match case {
        "typical" => (
            "R7 O7 Y7",
            "B9 B8",
            "G1 G2 P5 P6 R1 O4 Y10 B2 G9 P10",
            false,
        ),
        "worst" => ("R1 O3 Y5 G9", "", "", true),
        _ => return Err(PyValueError::new_err("case is \"typical\" or \"worst\"")),
    };
    let (mine, theirs) = (cards(mine), cards(theirs));
    let unseen = ((1u64 << 60) - 1) & !bits(&mine) & !bits(&theirs) & !bits(&cards(visible));
    Ok(py.detach(|| {
        let start = std::time::Instant::now();
        let mut n = 0u64;
        while start.elapsed().as_secs_f64() < seconds {
            for _ in 0..10_000 {
                std::hint::black_box(bl::proof::prove_unchecked(
                    std::hint::black_box(&mine),
                    std::hint::black_box(&theirs),
                    std::hint::black_box(unseen),
                    false,
                    mud,
                    true,
                ));
            }
            n += 10_000;
        }
        n as f64 / start.elapsed().as_secs_f64()
    }))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyFormation>()?;
    m.add_class::<PyClaimProof>()?;
    m.add_function(wrap_pyfunction!(battleline_best_formation, m)?)?;
    m.add_function(wrap_pyfunction!(battleline_prove_claim, m)?)?;
    m.add_function(wrap_pyfunction!(battleline_proof_rate, m)?)?;
    Ok(())
}
