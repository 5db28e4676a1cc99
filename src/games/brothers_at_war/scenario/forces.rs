//! Checks of the forces: brigades, their commanders and reserve tracks,
//! the units with their ratings and set-up, and off-board artillery.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::field::Field;
use super::findings::{short_id, Findings};
use super::model::{
    Brigade, Cost, Face, Prohibited, Ratings, Scenario, Side, Terrain, Unit, UnitKind,
};
use crate::games::brothers_at_war::core::{BattleMap, Hex};

/// The most brigades (divisional artillery included) a battle may have.
pub const MAX_BRIGADES: usize = 100;
/// The most units a battle may have.
pub const MAX_UNITS: usize = 400;
/// The most off-board artillery cards a battle may have.
pub const MAX_OFF_BOARD: usize = 20;
/// The highest firepower a counter may print.
pub const MAX_FIREPOWER: u8 = 20;
/// The highest movement a counter may print.
pub const MAX_MOVEMENT: u8 = 20;
/// The longest printed range an artillery unit may have.
pub const MAX_RANGE: u8 = 30;
/// The longest reserve track.
pub const MAX_RESERVES: u8 = 30;
/// The most entry hexes a reinforcement may list.
pub const MAX_ENTRY_HEXES: usize = 20;
/// The most units in one hex at set-up (5.3).
const STACK: usize = 2;

/// Checks brigades, units and off-board artillery; `map` is `None` when
/// the map itself is wrong, and the checks that need it are left out.
pub fn check(s: &Scenario, map: Option<&BattleMap>, f: &mut Findings) {
    f.bound(
        &Field::key("brigade"),
        s.brigades.len(),
        MAX_BRIGADES,
        "brigades",
    );
    f.bound(&Field::key("unit"), s.units.len(), MAX_UNITS, "units");
    f.bound(
        &Field::key("off_board"),
        s.off_board.len(),
        MAX_OFF_BOARD,
        "off-board cards",
    );
    let brigades = &s.brigades[..s.brigades.len().min(MAX_BRIGADES)];
    let units = &s.units[..s.units.len().min(MAX_UNITS)];
    let mut ids = HashSet::new();
    for (i, b) in brigades.iter().enumerate() {
        brigade(s, i, b, units, map, f);
        let field = Field::key("brigade").at(i).then("id");
        f.require(
            ids.insert(b.id.to_ascii_lowercase()),
            field,
            format!("brigade id `{}` is used twice", b.id),
        );
    }
    let by_id: HashMap<&str, &Brigade> = brigades.iter().map(|b| (b.id.as_str(), b)).collect();
    let mut ids = HashSet::new();
    let mut regiments: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, u) in units.iter().enumerate() {
        unit(s, i, u, &by_id, map, f);
        f.require(
            ids.insert(u.id.to_ascii_lowercase()),
            Field::key("unit").at(i).then("id"),
            format!("unit id `{}` is used twice", u.id),
        );
        if let Some(r) = &u.regiment {
            let n = regiments.entry(r).or_default();
            *n += 1;
            f.require(
                *n <= STACK,
                Field::key("unit").at(i).then("regiment"),
                format!("regiment `{r}` has more than two units (5.35)"),
            );
        }
    }
    if let Some(map) = map {
        set_up_stacks(units, &by_id, map, f);
    }
    if let Some(r) = s.remnant {
        for (face, ratings) in [("front", r.front), ("back", r.back)] {
            bounded(Field::key("remnant").then(face), ratings, f);
        }
    }
    off_board(s, units, &by_id, f);
}

/// The side a unit fights for: its own word, else its brigade's.
fn side_of(u: &Unit, by_id: &HashMap<&str, &Brigade>) -> Option<Side> {
    u.side.or_else(|| {
        u.brigade
            .as_deref()
            .and_then(|b| by_id.get(b))
            .map(|b| b.side)
    })
}

fn brigade(
    s: &Scenario,
    i: usize,
    b: &Brigade,
    units: &[Unit],
    map: Option<&BattleMap>,
    f: &mut Findings,
) {
    let at = |key: &str| Field::key("brigade").at(i).then(key);
    f.require(
        short_id(&b.id),
        at("id"),
        format!(
            "brigade id `{}` must be 1 to 16 letters, digits, - or _",
            b.id
        ),
    );
    f.require(
        !b.name.trim().is_empty(),
        at("name"),
        "a brigade needs a name",
    );
    f.require(
        (1..=2).contains(&b.markers),
        at("markers"),
        format!(
            "a brigade has 1 or 2 activation markers (3.1), not {}",
            b.markers
        ),
    );
    f.require(
        (1..=s.turns.max(1)).contains(&b.arrives),
        at("arrives"),
        format!(
            "brigade {} arrives on turn {}, outside 1 to {}",
            b.id, b.arrives, s.turns
        ),
    );
    let mine: Vec<&Unit> = units
        .iter()
        .filter(|u| u.brigade.as_deref() == Some(b.id.as_str()))
        .collect();
    f.require(
        !mine.is_empty(),
        at("id"),
        format!("brigade {} has no units", b.id),
    );
    if b.divisional {
        f.require(
            b.commander.is_none(),
            at("commander"),
            "divisional artillery has no commander (9.3)",
        );
        f.require(
            b.reserves.is_none(),
            at("reserves"),
            "divisional artillery has no reserve track (8.12, 9.3)",
        );
        f.require(
            mine.iter().all(|u| u.kind == UnitKind::Artillery),
            at("divisional"),
            format!(
                "divisional artillery {} may hold only artillery (9.3)",
                b.id
            ),
        );
        return;
    }
    match &b.commander {
        None => f.push(
            at("id"),
            format!("brigade {} needs a commander (4.1)", b.id),
        ),
        Some(c) => match c.at {
            Some(hex) => {
                if let Some(map) = map {
                    let field = at("commander").then("at");
                    if !map.contains(hex) {
                        f.push(
                            field,
                            format!("commander {} sets up at {hex}, off the map", c.name),
                        );
                    } else if prohibited_river(map, hex) {
                        f.push(
                            field,
                            format!("commander {} sets up at {hex}, a river hex no ford opens (4.11, B19)", c.name),
                        );
                    }
                }
            }
            None => f.require(
                mine.iter().any(|u| u.enters.is_some()),
                at("commander"),
                format!(
                    "commander {} has no `at` and none of brigade {}'s units arrives with him",
                    c.name, b.id
                ),
            ),
        },
    }
    match b.reserves {
        None => f.push(
            at("id"),
            format!("brigade {} needs a reserve track (8.1)", b.id),
        ),
        Some(r) => {
            let field = at("reserves");
            f.require(
                (1..=MAX_RESERVES).contains(&r.length),
                field.clone().then("length"),
                format!(
                    "a reserve track is 1 to {MAX_RESERVES} spaces long, not {}",
                    r.length
                ),
            );
            f.require(
                r.dark <= r.length,
                field.clone().then("dark"),
                format!("{} dark spaces on a track of {} (8.3)", r.dark, r.length),
            );
            f.require(
                r.spent <= r.length,
                field.then("spent"),
                format!(
                    "{} reserves spent on a track of {} (8.111)",
                    r.spent, r.length
                ),
            );
        }
    }
}

/// A river hex with no ford or bridge hexside: nothing may be placed in
/// it (B19).
fn prohibited_river(map: &BattleMap, hex: Hex) -> bool {
    map.terrain_of(hex).river
        && !map.neighbours(hex).any(|n| {
            map.hexside(hex, n)
                .iter()
                .any(|id| map.hexside_kinds()[usize::from(id.0)].ford)
        })
}

/// Whether a unit set up on this face may stand in this terrain: the
/// chart's prohibitions for the kind of mover it is, and rivers (5.213).
fn may_stand(t: &Terrain, kind: UnitKind, face: Face) -> bool {
    let cost = match (kind, face) {
        (UnitKind::Infantry | UnitKind::Remnant, _) => t.moving.infantry,
        (UnitKind::Cavalry | UnitKind::Skirmisher, Face::Front) => t.moving.infantry,
        (UnitKind::Cavalry | UnitKind::Skirmisher, Face::Back) => t.moving.cavalry,
        (UnitKind::Artillery, _) => t.moving.artillery,
    };
    !t.river && cost != Cost::Prohibited(Prohibited::No)
}

fn ratings(i: usize, face: &str, r: Ratings, f: &mut Findings) {
    bounded(Field::key("unit").at(i).then(face), r, f);
}

/// Ratings within the bounds any counter keeps to.
fn bounded(field: Field, r: Ratings, f: &mut Findings) {
    f.require(
        r.firepower <= MAX_FIREPOWER,
        field.clone().then("firepower"),
        format!("firepower {} is above {MAX_FIREPOWER}", r.firepower),
    );
    f.require(
        r.movement <= MAX_MOVEMENT,
        field.then("movement"),
        format!("movement {} is above {MAX_MOVEMENT}", r.movement),
    );
}

fn unit(
    s: &Scenario,
    i: usize,
    u: &Unit,
    by_id: &HashMap<&str, &Brigade>,
    map: Option<&BattleMap>,
    f: &mut Findings,
) {
    let at = |key: &str| Field::key("unit").at(i).then(key);
    f.require(
        short_id(&u.id),
        at("id"),
        format!("unit id `{}` must be 1 to 16 letters, digits, - or _", u.id),
    );
    f.require(!u.name.trim().is_empty(), at("name"), "a unit needs a name");
    match u.brigade.as_deref() {
        Some(b) => match by_id.get(b) {
            None => f.push(at("brigade"), format!("unit {}: no brigade `{b}`", u.id)),
            Some(brigade) => f.require(
                u.side.is_none_or(|side| side == brigade.side),
                at("side"),
                format!("unit {} is not of its brigade {}'s side", u.id, brigade.id),
            ),
        },
        None if u.kind == UnitKind::Remnant => f.require(
            u.side.is_some(),
            at("kind"),
            format!("remnant {} of no brigade must say its side (9.2)", u.id),
        ),
        None => f.push(at("id"), format!("unit {} needs a brigade", u.id)),
    }
    ratings(i, "front", u.front, f);
    ratings(i, "back", u.back, f);
    match (u.kind, u.range) {
        (UnitKind::Artillery, Some(r)) => f.require(
            (1..=MAX_RANGE).contains(&r),
            at("range"),
            format!("range {r} is outside 1 to {MAX_RANGE}"),
        ),
        (UnitKind::Artillery, None) => f.push(
            at("kind"),
            format!("artillery {} needs a range (1.23)", u.id),
        ),
        (_, Some(_)) => f.push(at("range"), "only artillery has a range (1.23)"),
        (_, None) => {}
    }
    f.require(
        !u.sharpshooter || u.kind == UnitKind::Skirmisher,
        at("sharpshooter"),
        "only a skirmisher may be a sharpshooter (6.134)",
    );
    f.require(
        !(u.kind == UnitKind::Skirmisher && u.face == Face::Back && !u.cavalry_symbol),
        at("face"),
        "only a cavalry skirmisher (cavalry_symbol) has a mounted side (9.11)",
    );
    f.require(
        !u.independent || u.kind == UnitKind::Skirmisher,
        at("independent"),
        "only a skirmisher may be independent (9.19)",
    );
    let places = [u.at.is_some(), u.enters.is_some(), u.off_board.is_some()];
    match places.iter().filter(|&&p| p).count() {
        0 => f.require(
            u.kind == UnitKind::Skirmisher,
            at("id"),
            format!(
                "unit {} has no `at`, `enters` or `off_board`: only a skirmisher starts on its brigade's display (9.1)",
                u.id
            ),
        ),
        1 => {}
        _ => f.push(
            at("id"),
            format!("unit {} has more than one of `at`, `enters` and `off_board`", u.id),
        ),
    }
    if let Some(e) = &u.enters {
        f.require(
            (1..=s.turns.max(1)).contains(&e.turn),
            at("enters").then("turn"),
            format!(
                "unit {} enters on turn {}, outside 1 to {}",
                u.id, e.turn, s.turns
            ),
        );
        f.require(
            (1..=MAX_ENTRY_HEXES).contains(&e.at.len()),
            at("enters").then("at"),
            format!("a reinforcement names 1 to {MAX_ENTRY_HEXES} entry hexes"),
        );
        if let Some(map) = map {
            for (j, hex) in e.at.iter().take(MAX_ENTRY_HEXES).enumerate() {
                f.require(
                    map.on_edge(*hex),
                    at("enters").then("at").at(j),
                    format!(
                        "entry hex {hex} of unit {} is not on the map's edge (10.1)",
                        u.id
                    ),
                );
            }
        }
    }
    let (Some(hex), Some(map)) = (u.at, map) else {
        return;
    };
    if !map.contains(hex) {
        f.push(
            at("at"),
            format!("unit {} sets up at {hex}, off the map", u.id),
        );
    } else if !may_stand(map.terrain_of(hex), u.kind, u.face) {
        let rule = if map.terrain_of(hex).river {
            "5.213"
        } else {
            "5.21"
        };
        f.push(
            at("at"),
            format!(
                "unit {} sets up at {hex}, {} terrain it may not enter ({rule})",
                u.id,
                map.terrain_name(map.terrain(hex))
            ),
        );
    }
}

/// At most two units a hex at set-up (5.3), of one side, and no
/// skirmisher stacked (9.14).
fn set_up_stacks(
    units: &[Unit],
    by_id: &HashMap<&str, &Brigade>,
    map: &BattleMap,
    f: &mut Findings,
) {
    let mut stacks: HashMap<Hex, Vec<&Unit>> = HashMap::new();
    for (i, u) in units.iter().enumerate() {
        let Some(hex) = u.at.filter(|h| map.contains(*h)) else {
            continue;
        };
        let here = stacks.entry(hex).or_default();
        let field = Field::key("unit").at(i).then("at");
        if here.len() >= STACK {
            f.push(
                field,
                format!("a third unit in {hex} (5.3: at most two a hex)"),
            );
        } else if let Some(other) = here.first() {
            if side_of(other, by_id) != side_of(u, by_id) {
                f.push(field, format!("units of both sides in {hex}"));
            } else if u.kind == UnitKind::Skirmisher || other.kind == UnitKind::Skirmisher {
                f.push(field, format!("a skirmisher stacked in {hex} (9.11, 9.14)"));
            }
        }
        here.push(u);
    }
}

fn off_board(s: &Scenario, units: &[Unit], by_id: &HashMap<&str, &Brigade>, f: &mut Findings) {
    let cards = &s.off_board[..s.off_board.len().min(MAX_OFF_BOARD)];
    let points: HashSet<&str> = s.map.fire_points.iter().map(|p| p.id.as_str()).collect();
    let mut ids = HashSet::new();
    for (i, card) in cards.iter().enumerate() {
        let at = |key: &str| Field::key("off_board").at(i).then(key);
        f.require(
            short_id(&card.id) && ids.insert(card.id.to_ascii_lowercase()),
            at("id"),
            format!("off-board id `{}` must be a short id, used once", card.id),
        );
        f.require(
            !card.fire_points.is_empty() && card.fire_points.len() <= 20,
            at("fire_points"),
            "an off-board card names 1 to 20 fire points (9.41)",
        );
        for (j, p) in card.fire_points.iter().take(20).enumerate() {
            f.require(
                points.contains(p.as_str()),
                at("fire_points").at(j),
                format!("no fire point `{p}` in map.fire_points"),
            );
        }
        f.require(card.level <= 9, at("level"), "a level is 0 to 9");
        f.require(card.saves <= 6, at("saves"), "at most 6 extra saves");
        f.require(
            units
                .iter()
                .any(|u| u.off_board.as_deref() == Some(card.id.as_str())),
            at("id"),
            format!("no unit stands on off-board card {}", card.id),
        );
    }
    for (i, u) in units.iter().enumerate() {
        let Some(name) = u.off_board.as_deref() else {
            continue;
        };
        let field = Field::key("unit").at(i).then("off_board");
        match cards.iter().find(|c| c.id == name) {
            None => f.push(field, format!("no off-board card `{name}`")),
            Some(card) => {
                f.require(
                    u.kind == UnitKind::Artillery,
                    field.clone(),
                    "only artillery stands on an off-board card (9.4)",
                );
                f.require(
                    side_of(u, by_id).is_none_or(|side| side == card.side),
                    field,
                    format!("unit {} is not of off-board card {}'s side", u.id, card.id),
                );
            }
        }
    }
}
