//! What the SQUARES tests know without the engine, for the Civil War game
//! and (through a [`GameSpec`]) its Napoleonic variant: an independent
//! reader of position strings (counts only), the armies and points written
//! out from the rules, a builder of random positions in canonical form, and
//! seeded play from the opening.
//!
//! Written apart from the engine on purpose: a property that compares the
//! engine with itself proves nothing.

use orderly::games::squares::{
    board, NapEvent, Napoleonic, Side, Space, Squares, UnitKind, Variant,
};
use orderly::games::{Game, GameOptions, Seat};
use proptest::prelude::*;

use super::rng::XorShift;

/// The ranks of the board by depth, as the position string lists them:
/// BR, B3 (3), B2 (4), NWF NEF, B1 (5), WF EF, G1 (5), SWF SEF, G2 (4), G3 (3), GR.
pub const RANK_SIZES: [usize; 11] = [1, 3, 4, 2, 5, 2, 5, 2, 4, 3, 1];

pub fn kind_index(k: UnitKind) -> usize {
    match k {
        UnitKind::Infantry => 0,
        UnitKind::Artillery => 1,
        UnitKind::Cavalry => 2,
        other => panic!("{other:?} is not a unit type of the Civil War game"),
    }
}

/// The Civil War game's unit types, in army order.
pub const CIVIL_WAR_KINDS: [UnitKind; 3] =
    [UnitKind::Infantry, UnitKind::Artillery, UnitKind::Cavalry];

/// The Civil War army by unit number (squares-board.md: 9 infantry, 3
/// artillery, 4 cavalry), written out here rather than taken from the engine.
pub const ARMY: [UnitKind; 16] = [
    UnitKind::Infantry,
    UnitKind::Infantry,
    UnitKind::Infantry,
    UnitKind::Infantry,
    UnitKind::Infantry,
    UnitKind::Infantry,
    UnitKind::Infantry,
    UnitKind::Infantry,
    UnitKind::Infantry,
    UnitKind::Artillery,
    UnitKind::Artillery,
    UnitKind::Artillery,
    UnitKind::Cavalry,
    UnitKind::Cavalry,
    UnitKind::Cavalry,
    UnitKind::Cavalry,
];

/// Units per side and kind as an army has them: 9 infantry, 3 artillery, 4 cavalry.
pub const ARMY_COUNTS: [u32; 3] = [9, 3, 4];

/// What a position string says, read without the engine: unit counts by
/// [side][kind] on the board, in each reserve, and eliminated.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub board: [[u32; 3]; 2],
    /// In Blue's reserve (index 0) and Gray's reserve (index 1), by [side][kind].
    pub reserve: [[[u32; 3]; 2]; 2],
    pub eliminated: [[u32; 3]; 2],
}

fn letter(c: char) -> Option<(usize, usize)> {
    let side = if c.is_ascii_uppercase() { 0 } else { 1 };
    let kind = match c.to_ascii_uppercase() {
        'I' => 0,
        'A' => 1,
        'C' => 2,
        _ => return None,
    };
    Some((side, kind))
}

fn is_modifier(c: char) -> bool {
    matches!(c, '+' | '>' | '_' | '~')
}

/// Reads a group (reserve or eliminated): `[count]letter[modifiers]...` or `-`.
fn read_group(text: &str, into: &mut [[u32; 3]; 2]) -> Result<(), String> {
    read_group_by(text, into, letter)
}

/// As [`read_group`], counting by [side][slot] as `letter` reads each
/// position letter.
fn read_group_by<const N: usize>(
    text: &str,
    into: &mut [[u32; N]; 2],
    letter: impl Fn(char) -> Option<(usize, usize)>,
) -> Result<(), String> {
    if text == "-" {
        return Ok(());
    }
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let mut n = 0u32;
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            n = n * 10 + chars[i].to_digit(10).unwrap_or(0);
            i += 1;
        }
        let count = if i > start { n } else { 1 };
        let c = *chars
            .get(i)
            .ok_or(format!("group {text:?} ends in a number"))?;
        let (side, kind) = letter(c).ok_or(format!("bad letter {c:?} in {text:?}"))?;
        into[side][kind] += count;
        i += 1;
        while i < chars.len() && is_modifier(chars[i]) {
            i += 1;
        }
    }
    Ok(())
}

/// Counts the units of a (canonical) position string, independently of the
/// engine's reader. Checks that each board rank covers exactly its squares.
pub fn count_units(position: &str) -> Result<Counts, String> {
    let fields: Vec<&str> = position.split(' ').collect();
    if fields.len() != 6 {
        return Err(format!("{position:?} does not have six fields"));
    }
    let mut counts = Counts::default();
    count_ranks_by(
        position,
        fields[0],
        &mut counts.board,
        &mut counts.reserve,
        letter,
    )?;
    read_group(fields[1], &mut counts.eliminated)?;
    Ok(counts)
}

/// Counts the units of `position`'s ranks field `ranks` by [side][slot], as
/// `letter` reads each position letter: on the board and in the north
/// (index 0) and south (index 1) reserves. Checks that there are 11 ranks
/// and that each board rank covers exactly its squares.
fn count_ranks_by<const N: usize>(
    position: &str,
    ranks: &str,
    board: &mut [[u32; N]; 2],
    reserve: &mut [[[u32; N]; 2]; 2],
    letter: impl Fn(char) -> Option<(usize, usize)> + Copy,
) -> Result<(), String> {
    let ranks: Vec<&str> = ranks.split('/').collect();
    if ranks.len() != RANK_SIZES.len() {
        return Err(format!("{position:?} does not have 11 ranks"));
    }
    for (r, text) in ranks.iter().enumerate() {
        if r == 0 || r == RANK_SIZES.len() - 1 {
            let which = if r == 0 { 0 } else { 1 };
            read_group_by(text, &mut reserve[which], letter)?;
            continue;
        }
        let mut covered = 0;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                covered += d as usize;
            } else if let Some((side, slot)) = letter(c) {
                board[side][slot] += 1;
                covered += 1;
            } else if !is_modifier(c) {
                return Err(format!("bad character {c:?} in rank {text:?}"));
            }
        }
        if covered != RANK_SIZES[r] {
            return Err(format!(
                "rank {r} {text:?} covers {covered} squares, not {}",
                RANK_SIZES[r]
            ));
        }
    }
    Ok(())
}

/// Whether each side's whole army is somewhere: on the board, in a reserve
/// or eliminated, 9 infantry, 3 artillery and 4 cavalry.
pub fn army_complete(counts: &Counts) -> Result<(), String> {
    for side in 0..2 {
        for (kind, &army) in ARMY_COUNTS.iter().enumerate() {
            let total = counts.board[side][kind]
                + counts.reserve[0][side][kind]
                + counts.reserve[1][side][kind]
                + counts.eliminated[side][kind];
            if total != army {
                return Err(format!(
                    "side {side} has {total} units of kind {kind}, not {army}"
                ));
            }
        }
    }
    Ok(())
}

/// R26, computed from eliminated counts: `side` scores for the enemy units
/// it eliminated. `eliminated[side][kind]`.
pub fn r26_points(eliminated: &[[u32; 3]; 2], side: usize) -> u32 {
    let enemy = &eliminated[1 - side];
    let cavalry_each = if enemy[2] >= 3 { 2 } else { 1 };
    enemy[0] + 2 * enemy[1] + cavalry_each * enemy[2]
}

// ----- both games -------------------------------------------------------------

/// The Napoleonic unit types in army order (N2, N35): infantry, guard,
/// light infantry, artillery, horse battery, cavalry, heavy cavalry.
pub const NAPOLEONIC_KINDS: [UnitKind; 7] = [
    UnitKind::Infantry,
    UnitKind::Guard,
    UnitKind::Light,
    UnitKind::Artillery,
    UnitKind::HorseBattery,
    UnitKind::Cavalry,
    UnitKind::HeavyCavalry,
];

/// The Napoleonic army by unit number (N2: 6 INF, 1 GUA, 2 LI, 2 ART, 1 HB,
/// 3 CAV, 1 HC), written out here rather than taken from the engine.
pub const NAPOLEONIC_ARMY: [UnitKind; 16] = [
    UnitKind::Infantry,
    UnitKind::Infantry,
    UnitKind::Infantry,
    UnitKind::Infantry,
    UnitKind::Infantry,
    UnitKind::Infantry,
    UnitKind::Guard,
    UnitKind::Light,
    UnitKind::Light,
    UnitKind::Artillery,
    UnitKind::Artillery,
    UnitKind::HorseBattery,
    UnitKind::Cavalry,
    UnitKind::Cavalry,
    UnitKind::Cavalry,
    UnitKind::HeavyCavalry,
];

/// Units per side and type in the Napoleonic army, in army order.
pub const NAPOLEONIC_ARMY_COUNTS: [u32; 7] = [6, 1, 2, 2, 1, 3, 1];

/// The most unit types a game has (the variant's seven).
pub const MAX_KINDS: usize = 7;

/// What the tests know of one game's army and position notation, written
/// out from squares-board.md, napoleonic-rulings.md (N1, N2) and
/// docs/napoleonic-design.md (N35), not taken from the engine. A unit
/// type's *slot* is its index in `kinds`.
#[derive(Debug)]
pub struct GameSpec {
    /// The game.
    pub variant: Variant,
    /// The unit types in army order, the order position strings group them in.
    pub kinds: &'static [UnitKind],
    /// The upper-case position letter of each type, by slot.
    pub letters: &'static [char],
    /// Units of each type per army, by slot.
    pub counts: &'static [u32],
    /// The army by unit number.
    pub army: &'static [UnitKind; 16],
    /// The position string's first field, if the game writes one.
    pub header: Option<&'static str>,
    /// The letters of the turn and passes fields, North first.
    pub side_letters: [char; 2],
    /// The attack stage codes a position string may hold.
    pub stages: &'static [&'static str],
}

/// SQUARES - The Civil War Battle Game.
pub static CIVIL_WAR_SPEC: GameSpec = GameSpec {
    variant: Variant::CivilWar,
    kinds: &CIVIL_WAR_KINDS,
    letters: &['I', 'A', 'C'],
    counts: &ARMY_COUNTS,
    army: &ARMY,
    header: None,
    side_letters: ['b', 'g'],
    stages: &STAGES,
};

/// SQUARES - The Napoleonic War Variant.
pub static NAPOLEONIC_SPEC: GameSpec = GameSpec {
    variant: Variant::Napoleonic,
    kinds: &NAPOLEONIC_KINDS,
    letters: &['I', 'G', 'L', 'A', 'H', 'C', 'K'],
    counts: &NAPOLEONIC_ARMY_COUNTS,
    army: &NAPOLEONIC_ARMY,
    header: Some("napoleonic"),
    side_letters: ['b', 'f'],
    stages: &[
        "R", "O", "S1", "C", "A1", "A4", "S5", "GS", "GC", "HD", "HS", "HA", "L", "V",
    ],
};

/// The spec of `variant`.
pub fn spec(variant: Variant) -> &'static GameSpec {
    match variant {
        Variant::CivilWar => &CIVIL_WAR_SPEC,
        Variant::Napoleonic => &NAPOLEONIC_SPEC,
    }
}

impl GameSpec {
    /// The slot of `kind`; panics for a type outside this army.
    pub fn slot(&self, kind: UnitKind) -> usize {
        self.kinds
            .iter()
            .position(|&k| k == kind)
            .unwrap_or_else(|| panic!("{kind:?} is not a unit type of {:?}", self.variant))
    }

    /// Whether `kind` is in this game's army.
    pub fn has(&self, kind: UnitKind) -> bool {
        self.kinds.contains(&kind)
    }

    /// The side and slot of a position letter.
    fn letter(&self, c: char) -> Option<(usize, usize)> {
        let side = if c.is_ascii_uppercase() { 0 } else { 1 };
        let slot = self
            .letters
            .iter()
            .position(|&l| l == c.to_ascii_uppercase())?;
        Some((side, slot))
    }

    fn kind_letter(&self, side: usize, slot: usize) -> char {
        let c = self.letters[slot];
        if side == 0 {
            c
        } else {
            c.to_ascii_lowercase()
        }
    }
}

/// As [`Counts`], for either game: by [side][slot].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KindCounts {
    pub board: [[u32; MAX_KINDS]; 2],
    /// In the north reserve (index 0) and the south reserve (index 1), by [side][slot].
    pub reserve: [[[u32; MAX_KINDS]; 2]; 2],
    pub eliminated: [[u32; MAX_KINDS]; 2],
}

fn read_group_in(
    spec: &GameSpec,
    text: &str,
    into: &mut [[u32; MAX_KINDS]; 2],
) -> Result<(), String> {
    read_group_by(text, into, |c| spec.letter(c))
}

/// Counts the units of a canonical position string of `spec`'s game,
/// independently of the engine's reader; checks the header and that each
/// board rank covers exactly its squares.
pub fn count_units_in(spec: &GameSpec, position: &str) -> Result<KindCounts, String> {
    let mut fields: Vec<&str> = position.split(' ').collect();
    if let Some(header) = spec.header {
        if fields.first() != Some(&header) {
            return Err(format!("{position:?} does not start with {header:?}"));
        }
        fields.remove(0);
    }
    if fields.len() != 6 {
        return Err(format!(
            "{position:?} does not have six fields after its header"
        ));
    }
    let mut counts = KindCounts::default();
    count_ranks_by(
        position,
        fields[0],
        &mut counts.board,
        &mut counts.reserve,
        |c| spec.letter(c),
    )?;
    read_group_in(spec, fields[1], &mut counts.eliminated)?;
    Ok(counts)
}

/// Whether each side's whole army of `spec`'s game is somewhere: on the
/// board, in a reserve or eliminated.
pub fn army_complete_in(spec: &GameSpec, counts: &KindCounts) -> Result<(), String> {
    for side in 0..2 {
        for (slot, &army) in spec.counts.iter().enumerate() {
            let total = counts.board[side][slot]
                + counts.reserve[0][side][slot]
                + counts.reserve[1][side][slot]
                + counts.eliminated[side][slot];
            if total != army {
                return Err(format!(
                    "side {side} has {total} units of {:?}, not {army}",
                    spec.kinds[slot]
                ));
            }
        }
    }
    Ok(())
}

/// N22, computed from eliminated counts by Napoleonic slot (I G L A H C K):
/// `side` scores for the enemy units it eliminated: infantry and light
/// infantry 1, the guard 2, artillery and the horse battery 2, cavalry and
/// heavy cavalry 1 each, or 2 each once 3 or more of the four are lost.
pub fn n22_points(eliminated: &[[u32; MAX_KINDS]; 2], side: usize) -> u32 {
    let [infantry, guard, light, artillery, horse_battery, cavalry, heavy, ..] =
        eliminated[1 - side];
    let horse = cavalry + heavy;
    let horse_each = if horse >= 3 { 2 } else { 1 };
    infantry + light + 2 * guard + 2 * (artillery + horse_battery) + horse_each * horse
}

/// The points of `side` in `spec`'s game: R26 or N22.
pub fn points_in(spec: &GameSpec, eliminated: &[[u32; MAX_KINDS]; 2], side: usize) -> u32 {
    match spec.variant {
        Variant::CivilWar => {
            let three = |s: usize| [eliminated[s][0], eliminated[s][1], eliminated[s][2]];
            r26_points(&[three(0), three(1)], side)
        }
        Variant::Napoleonic => n22_points(eliminated, side),
    }
}

// ----- random positions -----------------------------------------------------

/// Where a unit of a generated position goes.
#[derive(Clone, Debug)]
pub struct UnitSpec {
    /// 0..100: board, own reserve or eliminated, by the layout's rates.
    pub place: u8,
    /// A board square index hint (0..30), probed to the next free one.
    pub square: u8,
    /// 0..10, mapped to run 0, 1 or 2.
    pub move_run: u8,
    pub attack_run: u8,
    /// 0..100
    pub inactive: u8,
    pub retreated: u8,
}

/// The random choices behind one generated position.
#[derive(Clone, Debug)]
pub struct Layout {
    pub units: Vec<UnitSpec>,
    /// Percent of units on the board / eliminated (the rest in reserves).
    pub board_rate: u8,
    pub elim_rate: u8,
    pub gray_to_move: bool,
    /// 0 single turn, 1 first half, 2 second half of a double turn.
    pub half: u8,
    pub other_passed: bool,
    pub turn: u32,
    /// A unit that stands in the enemy reserve (a won game), rarely.
    pub invader: Option<u8>,
    /// Choices for an attack in progress: attacker, target, support, stage.
    pub attack: Option<(u8, u8, u8, u8)>,
}

fn unit_spec() -> impl Strategy<Value = UnitSpec> {
    (0u8..100, 0u8..30, 0u8..10, 0u8..10, 0u8..100, 0u8..100).prop_map(
        |(place, square, move_run, attack_run, inactive, retreated)| UnitSpec {
            place,
            square,
            move_run,
            attack_run,
            inactive,
            retreated,
        },
    )
}

pub fn layout() -> impl Strategy<Value = Layout> {
    (
        prop::collection::vec(unit_spec(), 32),
        10u8..90,
        0u8..40,
        any::<bool>(),
        0u8..3,
        any::<bool>(),
        1u32..300,
        prop::option::weighted(0.04, 0u8..32),
        prop::option::weighted(0.5, (any::<u8>(), any::<u8>(), any::<u8>(), any::<u8>())),
    )
        .prop_map(
            |(
                units,
                board_rate,
                elim_rate,
                gray_to_move,
                half,
                other_passed,
                turn,
                invader,
                attack,
            )| Layout {
                units,
                board_rate,
                elim_rate,
                gray_to_move,
                half,
                other_passed,
                turn,
                invader,
                attack,
            },
        )
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Written {
    side: usize,
    /// The type's slot in the game's army order.
    kind: usize,
    move_run: u8,
    attack_run: u8,
    inactive: bool,
    retreated: bool,
}

fn write_written(spec: &GameSpec, out: &mut String, w: &Written) {
    out.push(spec.kind_letter(w.side, w.kind));
    for _ in 0..w.move_run {
        out.push('+');
    }
    for _ in 0..w.attack_run {
        out.push('>');
    }
    if w.inactive {
        out.push('_');
    }
    if w.retreated {
        out.push('~');
    }
}

/// A group in the engine's canonical order (side, kind, runs, flags), equal
/// units counted.
fn write_canonical_group(spec: &GameSpec, out: &mut String, mut units: Vec<Written>) {
    if units.is_empty() {
        out.push('-');
        return;
    }
    units.sort();
    let mut i = 0;
    while i < units.len() {
        let mut j = i;
        while j < units.len() && units[j] == units[i] {
            j += 1;
        }
        if j - i > 1 {
            out.push_str(&(j - i).to_string());
        }
        write_written(spec, out, &units[i]);
        i = j;
    }
}

fn run(v: u8) -> u8 {
    match v {
        0..=5 => 0,
        6..=8 => 1,
        _ => 2,
    }
}

/// The position a layout describes, in canonical form, with no attack in
/// progress.
pub fn layout_position(l: &Layout) -> String {
    layout_position_with(l, false)
}

/// As [`layout_position`]; always with no runs for a side whose latest turn
/// was a PASS and runs of at most 1 in a second half (R6); with `consistent`,
/// in the shape play leaves a position between turns: no unit carries `~` (it marks a
/// retreat during the current turn, which only an attack in progress has),
/// and no cavalry rests (R21 does not restrict it).
pub fn layout_position_with(l: &Layout, consistent: bool) -> String {
    layout_position_in(&CIVIL_WAR_SPEC, l, consistent)
}

/// As [`layout_position_with`], for `spec`'s game. In the variant only the
/// cavalry (CAV) never rests (N16), the two-unit move pairs cavalry and
/// heavy cavalry (N6), and with `consistent` the heavy cavalry is never put
/// on a forest (N6).
pub fn layout_position_in(spec: &GameSpec, l: &Layout, consistent: bool) -> String {
    let b = board();
    let mover = usize::from(l.gray_to_move);
    let pairs =
        |slot: usize| matches!(spec.kinds[slot], UnitKind::Cavalry | UnitKind::HeavyCavalry);
    let never_rests = |slot: usize| spec.kinds[slot] == UnitKind::Cavalry;
    let never_forest = |slot: usize| consistent && spec.kinds[slot] == UnitKind::HeavyCavalry;
    // 0 = BR, 1..=30 board squares, 31 = GR.
    let mut on_square: [Option<Written>; 32] = [None; 32];
    let mut reserves: [Vec<Written>; 2] = [Vec::new(), Vec::new()];
    let mut eliminated = Vec::new();
    // R2, R6: only the one action of a side's latest turn carries runs:
    // one mover, two cavalry, or one attacker. Per side: movers so far (and
    // whether they are all cavalry), or that an attacker has been seen.
    let mut actors: [(usize, bool, bool); 2] = [(0, true, false); 2];
    for (i, spec_unit) in l.units.iter().enumerate() {
        let side = i / 16;
        let kind = spec.slot(spec.army[i % 16]);
        // R6 with R3, R4: a side whose latest turn was a PASS has no runs;
        // in the second half of a double turn the mover's runs are at most 1.
        let half = l.half % 3;
        let side_passed = if side == mover {
            half == 1
        } else {
            l.other_passed
        };
        let cap = if side_passed {
            0
        } else if side == mover && half == 2 {
            1
        } else {
            2
        };
        let mut w = Written {
            side,
            kind,
            move_run: run(spec_unit.move_run).min(cap),
            attack_run: run(spec_unit.attack_run).min(cap),
            // In play cavalry never rests after a retreat (R21, N16).
            inactive: spec_unit.inactive < 10 && !(consistent && never_rests(kind)),
            retreated: !consistent && side == mover && spec_unit.retreated < 8,
        };
        let (movers, all_cavalry, attacked) = &mut actors[side];
        if w.attack_run > 0 && *movers == 0 && !*attacked {
            w.move_run = 0;
            *attacked = true;
        } else if w.move_run > 0
            && !*attacked
            && (*movers == 0 || (*movers == 1 && *all_cavalry && pairs(kind)))
        {
            w.attack_run = 0;
            *movers += 1;
            *all_cavalry &= pairs(kind);
        } else {
            w.move_run = 0;
            w.attack_run = 0;
        }
        if l.invader == Some(i as u8) {
            reserves[1 - side].push(w);
            continue;
        }
        let place = spec_unit.place;
        if place < l.board_rate {
            let free = |sq: usize, on_square: &[Option<Written>; 32]| {
                on_square[sq + 1].is_none()
                    && !(never_forest(kind) && b.is_forest(Space::new(sq + 1)))
            };
            let mut sq = spec_unit.square as usize % 30;
            for _ in 0..30 {
                if free(sq, &on_square) {
                    break;
                }
                sq = (sq + 1) % 30;
            }
            if free(sq, &on_square) {
                on_square[sq + 1] = Some(w);
                continue;
            }
        }
        if place >= 100 - l.elim_rate {
            w = Written {
                side,
                kind,
                move_run: 0,
                attack_run: 0,
                inactive: false,
                retreated: false,
            };
            eliminated.push(w);
        } else {
            reserves[side].push(w);
        }
    }
    let mut out = String::new();
    if let Some(header) = spec.header {
        out.push_str(header);
        out.push(' ');
    }
    write_ranks(
        &mut out,
        &on_square,
        |out, which| write_canonical_group(spec, out, std::mem::take(&mut reserves[which])),
        |out, w| write_written(spec, out, w),
    );
    out.push(' ');
    write_canonical_group(spec, &mut out, eliminated);
    out.push(' ');
    let [north, south] = spec.side_letters;
    out.push(if mover == 0 { north } else { south });
    let half = l.half % 3;
    match half {
        1 => out.push('1'),
        2 => out.push('2'),
        _ => {}
    }
    let mut passed = [false; 2];
    passed[mover] = half == 1;
    passed[1 - mover] = l.other_passed;
    out.push(' ');
    match passed {
        [false, false] => out.push('-'),
        [true, false] => out.push(north),
        [false, true] => out.push(south),
        [true, true] => {
            out.push(north);
            out.push(south);
        }
    }
    out.push_str(&format!(" {} -", l.turn));
    out
}

/// Writes the ranks field of a position from `on_square` (0 the north
/// reserve, 1..=30 the board squares in rank order, 31 the south reserve):
/// each reserve through `group` (0 north, 1 south), each board rank's units
/// through `unit`, runs of empty squares as their number, ranks split by `/`.
pub fn write_ranks<T>(
    out: &mut String,
    on_square: &[Option<T>; 32],
    mut group: impl FnMut(&mut String, usize),
    mut unit: impl FnMut(&mut String, &T),
) {
    let mut index = 0;
    for (r, &size) in RANK_SIZES.iter().enumerate() {
        if r > 0 {
            out.push('/');
        }
        if r == 0 || r == RANK_SIZES.len() - 1 {
            group(out, usize::from(r != 0));
            index += 1;
            continue;
        }
        let mut empty = 0;
        for _ in 0..size {
            match &on_square[index] {
                None => empty += 1,
                Some(u) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    unit(out, u);
                }
            }
            index += 1;
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
    }
}

const STAGES: [&str; 9] = ["R", "O", "S1", "C", "A1", "A4", "S5", "L", "V"];

/// Tries to put an attack in progress into `base` (a position without one,
/// already accepted as `game`), following the layout's attack choices. Returns
/// the attack field the parser accepted, if any.
pub fn with_attack(base: &str, game: &Squares, l: &Layout) -> Option<String> {
    with_attack_in(&CIVIL_WAR_SPEC, base, game, l)
}

/// As [`with_attack`], for `spec`'s game (its stages, its square codes).
pub fn with_attack_in(spec: &GameSpec, base: &str, game: &Squares, l: &Layout) -> Option<String> {
    let (a, t, s, st) = l.attack?;
    let b = board();
    let side = game.to_move();
    let own: Vec<Space> = game.occupied_by(side).iter().collect();
    if own.is_empty() {
        return None;
    }
    let attacker = own[a as usize % own.len()];
    let targets: Vec<Space> = b.edge(attacker).iter().collect();
    if targets.is_empty() {
        return None;
    }
    let target = targets[t as usize % targets.len()];
    let supports: Vec<Space> = (b.adjacent(target) & game.occupied_by(side))
        .iter()
        .filter(|&x| x != attacker)
        .collect();
    let support = if supports.is_empty() || s % 3 == 0 {
        None
    } else {
        Some(supports[s as usize % supports.len()])
    };
    let stem = base.strip_suffix(" -")?;
    // Square codes as the game writes them (F codes in the variant, N1).
    let n = spec.variant.notation();
    let (attacker, target) = (attacker.display_in(n), target.display_in(n));
    let squares = match support {
        Some(sp) => format!("{attacker}x{target}+{}", sp.display_in(n)),
        None => format!("{attacker}x{target}"),
    };
    let accepted: Vec<String> = spec
        .stages
        .iter()
        .filter_map(|stage| {
            let text = format!("{stem} {squares}/{stage}");
            text.parse::<Squares>().ok().map(|_| text)
        })
        .collect();
    if accepted.is_empty() {
        None
    } else {
        Some(accepted[st as usize % accepted.len()].clone())
    }
}

/// The side as an index, Blue 0.
pub fn side_index(side: Side) -> usize {
    side.index()
}

/// Plays `choices` (each picks among the listed orders, modulo their number)
/// from the opening, stopping early if the game ends.
pub fn play(gray_first: bool, choices: &[u32]) -> Squares {
    play_in(Variant::CivilWar, gray_first, choices)
}

/// As [`play`], from the opening of `variant`.
pub fn play_in(variant: Variant, gray_first: bool, choices: &[u32]) -> Squares {
    let first = if gray_first { Side::Gray } else { Side::Blue };
    let mut game = Squares::opening_of(variant, first);
    let mut legal = Vec::new();
    let mut events = Vec::new();
    for &c in choices {
        legal.clear();
        game.legal_orders_into(&mut legal);
        if legal.is_empty() {
            break;
        }
        game.apply_listed(legal[c as usize % legal.len()], &mut events);
    }
    game
}

/// Random play of the variant from its opening: `steps` orders, each picked
/// among the listed ones by a generator seeded with `seed`.
pub fn nap_play(seed: u64, steps: usize) -> Napoleonic {
    nap_play_with_events(seed, steps).0
}

/// As [`nap_play`], with the events of the last order applied (none if no
/// order was).
pub fn nap_play_with_events(seed: u64, steps: usize) -> (Napoleonic, Vec<NapEvent>) {
    let mut rng = XorShift::new(seed);
    let first = if rng.chance(50) {
        Seat::North
    } else {
        Seat::South
    };
    let mut game = Napoleonic::new(&GameOptions {
        first,
        seed: None,
        scenario: None,
    });
    let mut last = Vec::new();
    for _ in 0..steps {
        let legal = game.legal_orders();
        if legal.is_empty() {
            break;
        }
        let order = legal[rng.below(legal.len())].clone();
        last = game
            .apply(&order)
            .unwrap_or_else(|r| panic!("{game}: listed {order} refused: {r}"));
    }
    (game, last)
}

/// A failed property with this message.
pub fn fail(message: String) -> proptest::test_runner::TestCaseError {
    proptest::test_runner::TestCaseError::fail(message)
}

/// The case count: `default`, or `PROPTEST_CASES` for a longer run. Failures
/// are not persisted to a regressions file: the seeds are printed instead.
pub fn config(default: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default);
    ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(cases)
    }
}
