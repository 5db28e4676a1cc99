//! The one-line position string, in the spirit of chess FEN.
//!
//! ```text
//! 9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1 -
//! ```
//!
//! Six fields, separated by single spaces:
//!
//! 1. **Ranks**: the 32 spaces by depth, from Blue's reserve to Gray's, ranks
//!    separated by `/`: `BR / B3 / B2 / NWF NEF / B1 / WF EF / G1 / SWF SEF /
//!    G2 / G3 / GR`, west to east within a rank. On a board rank a unit is its
//!    letter and a digit counts empty squares. A reserve rank lists its units
//!    with an optional count before each (`9I3A4C`), or `-` when empty.
//!    Letters: `I` infantry, `A` artillery, `C` cavalry; upper case Blue,
//!    lower case Gray. After a letter: one `+` per consecutive own turn the
//!    unit moved (R6), one `>` per consecutive own turn it attacked, `_` when
//!    it rests after a retreat (R21), `~` when it retreated during its own
//!    side's current turn and will rest on the next.
//! 2. **Eliminated** units, as in a reserve rank (`2Ia`), or `-`.
//! 3. **Turn**: `b` or `g` for the side whose turn it is, followed by `1` or
//!    `2` in the first or second half of a double turn (R4).
//! 4. **Passes**: the sides whose latest own turn was a PASS (`b`, `g`, `bg`),
//!    or `-` (R3, R4).
//! 5. **Turn number**, from 1 (each PASS and each half of a double turn is a turn).
//! 6. **Attack** in progress: `-`, or `ATTACKERxTARGET[+SUPPORT]/STAGE` such as
//!    `G1CxB1C+G1CR/O`. Stages: `R` the defender's RETREAT or STAND, `O` the
//!    attacker's option, `S1` the supporting unit's retreat under option 1,
//!    `C` the defender's second chance, `A1` / `A4` the attacking unit's retreat
//!    under option 1 / 4, `S5` the supporting unit's retreat under option 5,
//!    `L` the unit a reserve loses, `V` ADVANCE or STAY.
//!
//! The Napoleonic variant (N35) writes a seventh field first, the header
//! `napoleonic`, then the six above with its letters `I` infantry, `G` guard,
//! `L` light infantry, `A` artillery, `H` horse battery, `C` cavalry, `K`
//! heavy cavalry (British upper case, French lower), `f` for the French in
//! the turn and passes fields, F codes for the French half, and the stages
//! `GS` GB1's support retreat, `GC` GB1's second chance, `HD` `HS` `HA` HB1's
//! defender, support and Horse Battery retreats (HA also after HB2):
//!
//! ```text
//! napoleonic 6IG2L2AH3CK/3/4/2/5/2/5/2/4/3/6ig2l2ah3ck - b - 1 -
//! ```

use std::fmt::{self, Write as _};
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::notation::Notation;
use crate::games::squares::core::attack::{AttackState, Stage};
use crate::games::squares::core::board::{board, Space};
use crate::games::squares::core::state::{Half, Squares, ELIMINATED};
use crate::games::squares::core::unit::{Side, UnitId, UnitKind, UnitState, ARMY_SIZE};
use crate::games::squares::core::variant::Variant;
use crate::games::squares::engine::retreat::RetreatCause;
use crate::games::squares::engine::rules::{Access, OptionList};
use crate::games::ParseError;

impl Stage {
    /// The short code used in position strings.
    pub fn code(self) -> &'static str {
        match self {
            Stage::Response => "R",
            Stage::Option => "O",
            Stage::SupportRetreat1 => "S1",
            Stage::SecondChance => "C",
            Stage::AttackerRetreat1 => "A1",
            Stage::AttackerRetreat4 => "A4",
            Stage::SupportRetreat5 => "S5",
            Stage::GrandSupportRetreat => "GS",
            Stage::GrandSecondChance => "GC",
            Stage::HorseDefenderRetreat => "HD",
            Stage::HorseSupportRetreat => "HS",
            Stage::HorseBatteryRetreat => "HA",
            Stage::Lose => "L",
            Stage::Advance => "V",
        }
    }

    /// Reads a position-string stage code.
    pub fn from_code(code: &str) -> Option<Stage> {
        [
            Stage::Response,
            Stage::Option,
            Stage::SupportRetreat1,
            Stage::SecondChance,
            Stage::AttackerRetreat1,
            Stage::AttackerRetreat4,
            Stage::SupportRetreat5,
            Stage::GrandSupportRetreat,
            Stage::GrandSecondChance,
            Stage::HorseDefenderRetreat,
            Stage::HorseSupportRetreat,
            Stage::HorseBatteryRetreat,
            Stage::Lose,
            Stage::Advance,
        ]
        .into_iter()
        .find(|s| s.code() == code)
    }
}

impl UnitState {
    /// The status marks of the position string and the board: one `+` per
    /// turn of its move run and one `>` per turn of its attack run (R6),
    /// `_` while it rests and `~` when it retreated this turn (R21).
    pub fn marks(self) -> String {
        let mut out = String::with_capacity(4);
        out.extend(std::iter::repeat_n('+', self.move_run.into()));
        out.extend(std::iter::repeat_n('>', self.attack_run.into()));
        if self.inactive {
            out.push('_');
        }
        if self.retreated {
            out.push('~');
        }
        out
    }
}

/// The ranks of the board: the spaces grouped by depth, Blue's side first.
fn ranks() -> Vec<Vec<Space>> {
    let b = board();
    let mut ranks: Vec<Vec<Space>> = Vec::new();
    let mut last_depth = None;
    for s in Space::all() {
        let r = b.rect(s);
        let depth = r.y_from + r.y_to;
        if last_depth != Some(depth) {
            ranks.push(Vec::new());
            last_depth = Some(depth);
        }
        if let Some(rank) = ranks.last_mut() {
            rank.push(s);
        }
    }
    ranks
}

fn write_unit(out: &mut String, kind: UnitKind, side: Side, state: UnitState) {
    out.push(kind.letter(side));
    out.push_str(&state.marks());
}

/// Writes a group of units (a reserve or the eliminated), identical units
/// counted, in a fixed order so that equal groups print alike.
fn write_group(out: &mut String, mut units: Vec<(Side, UnitKind, UnitState)>) {
    if units.is_empty() {
        out.push('-');
        return;
    }
    let key = |&(side, kind, s): &(Side, UnitKind, UnitState)| {
        (
            side,
            kind,
            s.move_run,
            s.attack_run,
            s.inactive,
            s.retreated,
        )
    };
    units.sort_by_key(key);
    let mut i = 0;
    while i < units.len() {
        let mut j = i;
        while j < units.len() && key(&units[j]) == key(&units[i]) {
            j += 1;
        }
        if j - i > 1 {
            let _ = write!(out, "{}", j - i);
        }
        let (side, kind, state) = units[i];
        write_unit(out, kind, side, state);
        i = j;
    }
}

/// The position string, in the notation of the position's own game.
impl fmt::Display for Squares {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.position_text(self.variant.notation()))
    }
}

impl Squares {
    fn position_text(&self, notation: &Notation) -> String {
        let b = board();
        let mut out = String::with_capacity(108);
        if let Some(header) = notation.header {
            out.push_str(header);
            out.push(' ');
        }
        for (r, rank) in ranks().iter().enumerate() {
            if r > 0 {
                out.push('/');
            }
            if let [only] = rank.as_slice() {
                if b.reserve_owner(*only).is_some() {
                    let units = Side::BOTH
                        .iter()
                        .flat_map(|&side| self.units_of(side))
                        .filter(|u| self.loc[u.index()] as usize == only.index())
                        .map(|u| (u.side(), u.kind(), self.units[u.index()]))
                        .collect();
                    write_group(&mut out, units);
                    continue;
                }
            }
            let mut empty = 0;
            for &s in rank {
                match self.unit_at(s) {
                    None => empty += 1,
                    Some(u) => {
                        if empty > 0 {
                            let _ = write!(out, "{empty}");
                            empty = 0;
                        }
                        write_unit(&mut out, u.kind(), u.side(), self.units[u.index()]);
                    }
                }
            }
            if empty > 0 {
                let _ = write!(out, "{empty}");
            }
        }
        out.push(' ');
        let eliminated = Side::BOTH
            .iter()
            .flat_map(|&side| self.units_of(side))
            .filter(|u| self.loc[u.index()] == ELIMINATED)
            .map(|u| (u.side(), u.kind(), UnitState::default()))
            .collect();
        write_group(&mut out, eliminated);
        out.push(' ');
        out.push(notation.side_letter(self.to_move));
        match self.half {
            Half::Single => {}
            Half::First => out.push('1'),
            Half::Second => out.push('2'),
        }
        out.push(' ');
        let passes: String = Side::BOTH
            .iter()
            .filter(|s| self.passed[s.index()])
            .map(|&s| notation.side_letter(s))
            .collect();
        out.push_str(if passes.is_empty() { "-" } else { &passes });
        let _ = write!(out, " {} ", self.turn);
        match &self.attack {
            None => out.push('-'),
            Some(a) => {
                let _ = write!(
                    out,
                    "{}x{}",
                    a.attacker.display_in(notation),
                    a.target.display_in(notation)
                );
                if let Some(s) = &a.support {
                    let _ = write!(out, "+{}", s.display_in(notation));
                }
                let _ = write!(out, "/{}", a.stage.code());
            }
        }
        out
    }
}

fn err(message: impl Into<String>) -> ParseError {
    ParseError::new(message)
}

/// Reads units written as on a rank: `(count?)(letter)(modifiers)` tokens.
/// Board ranks have no counts; digits there are empty squares.
fn read_unit_tokens(text: &str, counts_allowed: bool) -> Result<Vec<Token>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut out = Vec::new();
    while i < chars.len() {
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        let number: Option<usize> = if i > start {
            let digits: String = chars[start..i].iter().collect();
            Some(
                digits
                    .parse()
                    .map_err(|_| err(format!("bad number {digits:?}")))?,
            )
        } else {
            None
        };
        if !counts_allowed {
            if let Some(n) = number {
                out.push(Token::Empty(n));
                continue;
            }
        }
        let Some(&letter) = chars.get(i) else {
            return Err(err(format!("{text:?} ends with a number and no unit")));
        };
        let (kind, side) = UnitKind::from_letter(letter).ok_or_else(|| {
            err(format!(
                "{letter:?} is not a unit letter (I, A, C, i, a, c)"
            ))
        })?;
        i += 1;
        let mut state = UnitState::default();
        while let Some(&c) = chars.get(i) {
            match c {
                '+' => state.move_run += 1,
                '>' => state.attack_run += 1,
                '_' => state.inactive = true,
                '~' => state.retreated = true,
                _ => break,
            }
            i += 1;
        }
        if state.move_run > 2 || state.attack_run > 2 {
            return Err(err(format!(
                "a run count is at most 2 (R6): {:?}",
                chars[start..i].iter().collect::<String>()
            )));
        }
        let count = number.unwrap_or(1);
        if count == 0 || count > ARMY_SIZE {
            return Err(err(format!("bad unit count {count}")));
        }
        out.push(Token::Units {
            count,
            kind,
            side,
            state,
        });
    }
    Ok(out)
}

enum Token {
    Empty(usize),
    Units {
        count: usize,
        kind: UnitKind,
        side: Side,
        state: UnitState,
    },
}

/// Hands out unit identities as a position is read.
struct Roster {
    variant: Variant,
    used: [bool; 2 * ARMY_SIZE],
}

impl Roster {
    fn take(&mut self, side: Side, kind: UnitKind) -> Result<UnitId, ParseError> {
        if !self.variant.kinds().contains(&kind) {
            return Err(err(format!(
                "this game has no {kind} (letters: {})",
                army_letters(self.variant)
            )));
        }
        for u in UnitId::of_side(self.variant, side) {
            if u.kind() == kind && !self.used[u.index()] {
                self.used[u.index()] = true;
                return Ok(u);
            }
        }
        Err(err(format!(
            "{} has only {} {kind} units (N2, the army: {})",
            side.display_in(self.variant.notation()),
            self.variant.army_count(kind),
            army_description(self.variant)
        )))
    }
}

/// The unit letters of a game, for messages ("I, A, C").
fn army_letters(variant: Variant) -> String {
    variant
        .kinds()
        .iter()
        .map(|k| k.letter(Side::Blue).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A game's army in words ("9 infantry, 3 artillery, 4 cavalry").
fn army_description(variant: Variant) -> String {
    variant
        .kinds()
        .iter()
        .map(|&k| format!("{} {k}", variant.army_count(k)))
        .collect::<Vec<_>>()
        .join(", ")
}

impl FromStr for Squares {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Squares, ParseError> {
        let text = text.trim();
        let (variant, rest) = match text.split_once(char::is_whitespace) {
            Some((head, rest)) if head.eq_ignore_ascii_case("napoleonic") => {
                (Variant::Napoleonic, rest)
            }
            _ => (Variant::CivilWar, text),
        };
        Squares::read_position(variant, rest)
    }
}

impl Squares {
    fn read_position(variant: Variant, text: &str) -> Result<Squares, ParseError> {
        let b = board();
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [ranks_text, eliminated_text, turn_text, passes_text, number_text, attack_text] =
            fields.as_slice()
        else {
            return Err(err(match variant {
                Variant::CivilWar => {
                    "a position has six fields: ranks, eliminated, turn, passes, turn number, attack"
                }
                Variant::Napoleonic => {
                    "a Napoleonic position has seven fields: napoleonic, ranks, eliminated, \
                     turn, passes, turn number, attack"
                }
            }));
        };
        let mut game = Squares::opening_of(variant, Side::Blue);
        game.clear_all();
        let mut roster = Roster {
            variant,
            used: [false; 2 * ARMY_SIZE],
        };
        let rank_texts: Vec<&str> = ranks_text.split('/').collect();
        let ranks = ranks();
        if rank_texts.len() != ranks.len() {
            return Err(err(format!(
                "the board has {} ranks separated by '/', found {}",
                ranks.len(),
                rank_texts.len()
            )));
        }
        for (rank, rank_text) in ranks.iter().zip(&rank_texts) {
            if let [reserve] = rank.as_slice() {
                if b.reserve_owner(*reserve).is_some() {
                    if *rank_text == "-" {
                        continue;
                    }
                    for token in read_unit_tokens(rank_text, true)? {
                        if let Token::Units {
                            count,
                            kind,
                            side,
                            state,
                        } = token
                        {
                            for _ in 0..count {
                                let u = roster.take(side, kind)?;
                                game.units[u.index()] = state;
                                game.place(u, *reserve);
                            }
                        }
                    }
                    continue;
                }
            }
            let mut squares = rank.iter();
            for token in read_unit_tokens(rank_text, false)? {
                match token {
                    Token::Empty(n) => {
                        for _ in 0..n {
                            squares.next().ok_or_else(|| {
                                err(format!("rank {rank_text:?} has too many squares"))
                            })?;
                        }
                    }
                    Token::Units {
                        kind, side, state, ..
                    } => {
                        let s = squares.next().ok_or_else(|| {
                            err(format!("rank {rank_text:?} has too many squares"))
                        })?;
                        let u = roster.take(side, kind)?;
                        game.units[u.index()] = state;
                        game.place(u, *s);
                    }
                }
            }
            if squares.next().is_some() {
                return Err(err(format!(
                    "rank {rank_text:?} covers fewer than its {} squares",
                    rank.len()
                )));
            }
        }
        if *eliminated_text != "-" {
            for token in read_unit_tokens(eliminated_text, true)? {
                if let Token::Units {
                    count, kind, side, ..
                } = token
                {
                    for _ in 0..count {
                        roster.take(side, kind)?;
                    }
                }
            }
        }
        for side in Side::BOTH {
            for &kind in variant.kinds() {
                let missing = UnitId::of_side(variant, side)
                    .filter(|u| u.kind() == kind && !roster.used[u.index()])
                    .count();
                if missing > 0 {
                    return Err(err(format!(
                        "{missing} {} {kind} unit(s) are neither on the board, \
                         in a reserve nor eliminated (each side has {})",
                        side.display_in(variant.notation()),
                        army_description(variant)
                    )));
                }
            }
        }
        let letters = variant.notation().side_letters;
        let side_of = |c: char| Side::BOTH.into_iter().find(|s| letters[s.index()] == c);
        let mut turn_chars = turn_text.chars();
        game.to_move = turn_chars.next().and_then(side_of).ok_or_else(|| {
            err(format!(
                "the turn field starts with {} or {}",
                letters[0], letters[1]
            ))
        })?;
        game.half = match turn_chars.as_str() {
            "" => Half::Single,
            "1" => Half::First,
            "2" => Half::Second,
            other => {
                return Err(err(format!(
                    "{other:?} after the side: expected 1, 2 or nothing"
                )))
            }
        };
        game.passed = [false; 2];
        if *passes_text != "-" {
            for c in passes_text.chars() {
                match side_of(c) {
                    Some(side) => game.passed[side.index()] = true,
                    None => {
                        return Err(err(format!(
                            "the passes field is -, {0}, {1} or {0}{1}",
                            letters[0], letters[1]
                        )))
                    }
                }
            }
        }
        let mover_passed = game.passed[game.to_move.index()];
        match game.half {
            Half::First if !mover_passed => {
                return Err(err(
                    "a first half of a double turn follows a PASS of the same side",
                ))
            }
            Half::Single | Half::Second if mover_passed => return Err(err(
                "a side whose last turn was a PASS now has a double turn: write 1 after its letter",
            )),
            _ => {}
        }
        game.turn = number_text
            .parse()
            .ok()
            .filter(|&n: &u32| n >= 1)
            .ok_or_else(|| err("the turn number is a whole number from 1"))?;
        for u in game.units_of(game.to_move.opponent()) {
            if game.units[u.index()].retreated {
                return Err(err("'~' marks only units of the side whose turn it is"));
            }
        }
        game.attack = if *attack_text == "-" {
            None
        } else {
            Some(game.read_attack(attack_text)?)
        };
        for side in Side::BOTH {
            game.recount_marks(side);
        }
        game.check_runs()?;
        game.settle_outcome();
        if let Some(attack) = game.attack {
            let mut orders = Vec::new();
            game.decision_orders(&attack, &mut orders);
            if orders.is_empty() && game.outcome.is_none() {
                return Err(err(format!(
                    "the attack {attack_text} waits for a decision that has no legal choice"
                )));
            }
        }
        Ok(game)
    }
}

impl Squares {
    /// R6 with R3, R4: a PASS breaks every run, so a side whose latest own
    /// turn was a PASS has none, and a side in the second half of a double
    /// turn has runs of at most the one turn since; an attack in progress
    /// has already added its turn to its attacker's run.
    fn check_runs(&self) -> Result<(), ParseError> {
        // R2, R6: runs are extended only by the one action of a side's
        // latest own turn, which moved one unit, or two cavalry (R11), or
        // attacked with one unit; every other unit's run was broken then.
        for side in Side::BOTH {
            let movers: Vec<UnitId> = self
                .units_of(side)
                .filter(|u| self.units[u.index()].move_run > 0)
                .collect();
            let attackers = self
                .units_of(side)
                .filter(|u| self.units[u.index()].attack_run > 0)
                .count();
            let one_action = match (movers.as_slice(), attackers) {
                ([], 0 | 1) | ([_], 0) => true,
                ([a, b], 0) => {
                    self.variant.unit(a.kind()).pairs && self.variant.unit(b.kind()).pairs
                }
                _ => false,
            };
            if !one_action {
                return Err(err(format!(
                    "{} has runs from more than one action on its latest turn \
                     (R2, R6: a turn moves one unit or two cavalry, or attacks with one unit)",
                    side.display_in(self.variant.notation())
                )));
            }
        }
        let attacker = self.attack.and_then(|a| self.unit_at(a.attacker));
        for side in Side::BOTH {
            let limit = if self.passed[side.index()] {
                0
            } else if side == self.to_move && self.half == Half::Second {
                1
            } else {
                continue;
            };
            for u in self.units_of(side) {
                let s = self.units[u.index()];
                // The attack in progress has already counted for its attacker.
                let attack_limit = if Some(u) == attacker && side == self.to_move {
                    limit + 1
                } else {
                    limit
                };
                if s.move_run > limit || s.attack_run > attack_limit {
                    return Err(err(format!(
                        "{} has a run longer than {limit} although {} (R6: a PASS breaks every run)",
                        side.display_in(self.variant.notation()),
                        if limit == 0 {
                            "its latest turn was a PASS"
                        } else {
                            "it is in the second half of a double turn"
                        }
                    )));
                }
            }
        }
        Ok(())
    }

    fn read_attack(&self, text: &str) -> Result<AttackState, ParseError> {
        let b = board();
        let bad = || err(format!("{text:?} is not an attack such as G1CxB1C+G1CR/O"));
        let (squares, stage) = text.split_once('/').ok_or_else(bad)?;
        let stage = Stage::from_code(stage).ok_or_else(bad)?;
        let (attacker, rest) = squares.split_once('x').ok_or_else(bad)?;
        let (target, support) = match rest.split_once('+') {
            Some((t, s)) => (t, Some(s)),
            None => (rest, None),
        };
        let notation = self.variant.notation();
        let space = |code: &str| Space::read(code, notation).ok_or_else(bad);
        let attack = AttackState {
            attacker: space(attacker)?,
            target: space(target)?,
            support: support.map(space).transpose()?,
            stage,
        };
        let side = self.to_move;
        let own = |s: Space| self.unit_at(s).filter(|u| u.side() == side);
        let enemy_on_target = self.unit_at(attack.target).filter(|u| u.side() != side);
        let target_empty =
            self.unit_at(attack.target).is_none() && b.reserve_owner(attack.target).is_none();
        let a = own(attack.attacker).ok_or_else(|| {
            err(format!(
                "no {} attacking unit in {}",
                side.display_in(notation),
                attack.attacker.display_in(notation)
            ))
        })?;
        if !b.edge(attack.attacker).contains(attack.target) {
            return Err(err(
                "the attacking unit must share an edge with the target (R14)",
            ));
        }
        let support_unit = attack.support.and_then(own);
        let need_support = || {
            support_unit.ok_or_else(|| err("this stage needs the supporting unit on its square"))
        };
        let need_enemy = || {
            enemy_on_target.ok_or_else(|| err("this stage needs the defender on the target square"))
        };
        let need_empty = || {
            if target_empty {
                Ok(())
            } else {
                Err(err("at this stage the target square is empty"))
            }
        };
        match stage {
            Stage::Response => {
                need_enemy()?;
                if attack.support.is_some() {
                    need_support()?;
                }
            }
            Stage::Option | Stage::AttackerRetreat4 | Stage::SupportRetreat5 => {
                need_enemy()?;
                need_support()?;
            }
            Stage::SupportRetreat1 | Stage::GrandSupportRetreat => {
                let s = need_support()?;
                if self.variant.unit(s.kind()).second_chance_as_support {
                    need_enemy()?;
                } else {
                    need_empty()?;
                }
            }
            Stage::SecondChance | Stage::GrandSecondChance => {
                need_enemy()?;
            }
            Stage::HorseDefenderRetreat => {
                need_enemy()?;
                need_support()?;
            }
            Stage::HorseSupportRetreat => {
                need_empty()?;
                need_support()?;
            }
            Stage::AttackerRetreat1 | Stage::HorseBatteryRetreat => need_empty()?,
            Stage::Lose => {
                if b.reserve_owner(attack.target) != Some(side.opponent())
                    || self.reserve_count(side.opponent()) == 0
                {
                    return Err(err("a reserve loss needs the enemy reserve holding units"));
                }
            }
            Stage::Advance => {
                let rules = self.variant.unit(a.kind());
                if !rules.advances {
                    return Err(err("artillery never advances (R19)"));
                }
                if rules.forest == Access::Never && b.is_forest(attack.target) {
                    return Err(err("the heavy cavalry never enters a forest (N6)"));
                }
                let enemy_reserve_empty = attack.target == b.reserve(side.opponent())
                    && self.reserve_count(side.opponent()) == 0;
                if !(target_empty || enemy_reserve_empty) {
                    return Err(err("an advance needs the target square empty"));
                }
            }
        }
        if matches!(stage, Stage::Response | Stage::Lose) && attack.target == b.reserve(side) {
            return Err(err("a side never attacks its own reserve"));
        }
        // Options 1 and 4 retreat the attacking unit, which only some types
        // do (R19, N17); option 1 is offered only while that retreat exists,
        // so at the second chance the attacker still has it once the
        // defender is gone (S6).
        let a_rules = self.variant.unit(a.kind());
        if matches!(
            stage,
            Stage::SupportRetreat1
                | Stage::SecondChance
                | Stage::AttackerRetreat1
                | Stage::AttackerRetreat4
        ) && !a_rules.attacker_retreats
        {
            return Err(err(
                "this attacking unit never retreats under options 1 and 4 (R19)",
            ));
        }
        let horse_battery = a_rules.options == OptionList::HorseBattery;
        let grand_stage = matches!(stage, Stage::GrandSupportRetreat | Stage::GrandSecondChance);
        let horse_stage = matches!(
            stage,
            Stage::HorseDefenderRetreat | Stage::HorseSupportRetreat | Stage::HorseBatteryRetreat
        );
        if (grand_stage && !a_rules.grand_battery) || (horse_stage && !horse_battery) {
            return Err(err(
                "the Grand Battery stages follow an attacking artillery, the HB stages \
                 an attacking horse battery (N18, N19)",
            ));
        }
        if horse_battery
            && matches!(
                stage,
                Stage::SupportRetreat1 | Stage::SecondChance | Stage::AttackerRetreat1
            )
        {
            return Err(err(
                "an attacking horse battery has the options HB1-HB5 (N19)",
            ));
        }
        // N30, N31: HB1 is taken only when, after the defender's retreat,
        // the supporting unit has a retreat that leaves the horse battery one.
        if stage == Stage::HorseDefenderRetreat
            && self.option1_support_retreats(&attack, true).is_empty()
        {
            return Err(err(
                "at HB1 the supporting unit must have a retreat that leaves the horse \
                 battery a retreat (N19, N30)",
            ));
        }
        if stage == Stage::SecondChance {
            let mut after = self.clone();
            if let Some(d) = enemy_on_target {
                after.eliminate(d, &mut Vec::new());
            }
            if !after.can_retreat(attack.attacker, RetreatCause::Other) {
                return Err(err(
                    "at the second chance the attacking unit must still have a retreat (R19, S6)",
                ));
            }
        }
        if attack.support == Some(attack.attacker) {
            return Err(err(
                "the attacking and the supporting unit are two units (R14)",
            ));
        }
        // The options (R19) exist only for supported attacks that are not
        // flank attacks (R18): neither unit strictly closer to the
        // defender's reserve than the target.
        if !matches!(stage, Stage::Response | Stage::Lose | Stage::Advance) {
            let Some(support) = attack.support else {
                return Err(err("the attacker's options follow a supported attack only"));
            };
            let closer = b.closer(side.opponent(), attack.target);
            if closer.contains(attack.attacker) || closer.contains(support) {
                return Err(err("a flank attack has no options (R18)"));
            }
        }
        if matches!(stage, Stage::Response | Stage::Option) {
            if let Some(s) = attack.support {
                if !b.adjacent(s).contains(attack.target) || s == attack.attacker {
                    return Err(err("the supporting unit must touch the target (R14)"));
                }
            }
        }
        Ok(attack)
    }
}

impl From<Squares> for String {
    fn from(game: Squares) -> String {
        game.to_string()
    }
}

impl Serialize for Squares {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Squares {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Squares, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::{Side, Squares};
    use crate::games::squares::Order;

    #[test]
    fn the_opening_reads_and_writes() {
        let text = "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1 -";
        let game: Squares = text.parse().unwrap();
        assert_eq!(game, Squares::opening(Side::Blue));
        assert_eq!(game.to_string(), text);
    }

    #[test]
    fn units_with_runs_and_rest_round_trip() {
        let text = "6I2A2C2C+/I+1i/4/1c/2A_2/2/5/2/4/3/8i2a3c 2Ia b - 9 -";
        assert!(
            text.parse::<Squares>().is_err(),
            "an infantry and a cavalry cannot both have moved on one turn (R11)"
        );
        let text = "6I2A4C/I>1i/4/1c/2A_2/2/5/2/4/3/8i2a3c 2Ia b - 9 -";
        let game: Squares = text.parse().unwrap();
        assert_eq!(game.to_string(), text);
    }

    #[test]
    fn a_game_won_in_a_first_half_leaves_a_readable_position() {
        use crate::games::Game;
        let mut game: Squares = "9I3A3C/iii/iiaa/2/acccc/2/5/2/4/1C1/- 4i b1 b 20 -"
            .parse()
            .unwrap();
        let order = game.parse_order("MOVE G3C GR").unwrap();
        game.apply(&order).unwrap();
        assert!(game.outcome().is_some());
        let text = game.to_string();
        assert_eq!(text.parse::<Squares>().unwrap().to_string(), text);
    }

    #[test]
    fn the_turn_number_saturates() {
        use crate::games::Game;
        let mut game: Squares = "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 4294967295 -"
            .parse()
            .unwrap();
        game.apply(&Order::Pass).unwrap();
        assert_eq!(game.turn(), u32::MAX);
        assert!(game.to_string().parse::<Squares>().is_ok());
    }

    #[test]
    fn states_play_cannot_reach_are_refused() {
        for text in [
            // Runs on a side whose latest turn was a PASS (R6).
            "8I3A4C/3/3I+/2/5/2/5/2/4/3/9i3a4c - b1 b 5 -",
            // The attacking unit's retreat under option 1, with none possible.
            "8I3A4C/3/4/2/5/2/5/2/1ii1/1I1/7i3a4c - b - 10 G3CxG3L/A1",
            "8I3A4C/3/4/2/5/2/5/2/1ii1/1I1/7i3a4c - b - 10 G3CxG3L+G3C/A1",
            // Options after a flank attack (R18).
            "8I3A3C/3/4/2/2I2/2/1C3/2/4/3/8i3a4c i b - 10 B1CxB1CR+G1CL/S1",
        ] {
            assert!(text.parse::<Squares>().is_err(), "{text}");
        }
    }

    #[test]
    fn inconsistent_positions_are_refused() {
        for text in [
            "",
            "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1",
            "9I3A4C/3/4/2/5/2/5/2/4/3/8i3a4c - b - 1 -",
            "9I3A4C/4/4/2/5/2/5/2/4/3/9i3a4c - b - 1 -",
            "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b1 - 1 -",
            "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b b 1 -",
            "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 0 -",
            "9I3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1 B3CxB2C/R",
            "9I+++3A4C/3/4/2/5/2/5/2/4/3/9i3a4c - b - 1 -",
        ] {
            assert!(text.parse::<Squares>().is_err(), "{text:?}");
        }
    }
}
