//! The compact codes a position string writes its many small records in:
//! a unit, a brigade and a marker each as one short string, so that a
//! battle's position stays a line of a few hundred characters.
//!
//! - a unit: its place (`0712` on the map, `d` display, `w` waiting, `e`
//!   eliminated, `r` removed, `x` exited, `o` off board, `t05` on the
//!   turn track until turn 5), its face (`f`
//!   front, `b` back), then `F` Finished, `D` Disrupted, `C` out of
//!   command, and `+u` or `+c` for a generic remnant of either side:
//!   `0712bD`, `df`, `0505b+c`;
//! - a brigade: commander's hex or `-`, reserve space, casualties, flags
//!   (`x` exhausted, `k` broken, `c` committed, `m` committing, `f` free
//!   activation this turn), opportunity fire (`A`, `N`, `Q`), split by
//!   `/`: `0201/1/0/c/A`;
//! - a marker: `c` a countdown, `3.0` brigade 3's first marker, `f3`
//!   brigade 3's free activation marker.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::hex::Hex;
use super::ids::{BrigadeId, Marker};
use super::order::OpFireRule;
use super::state::{BrigadeState, Place, UnitState};
use crate::games::brothers_at_war::scenario::model::{Face, Side};

/// A unit's code.
pub fn unit_code(u: &UnitState) -> String {
    let mut out = match u.place {
        Place::Map(h) => h.to_string(),
        Place::Display => "d".into(),
        Place::Waiting => "w".into(),
        Place::Eliminated => "e".into(),
        Place::Removed => "r".into(),
        Place::Exited => "x".into(),
        Place::OffBoard => "o".into(),
        Place::Track(turn) => format!("t{turn:02}"),
    };
    out.push(if u.face == Face::Front { 'f' } else { 'b' });
    for (on, c) in [
        (u.finished, 'F'),
        (u.disrupted, 'D'),
        (u.out_of_command, 'C'),
    ] {
        if on {
            out.push(c);
        }
    }
    match u.generic {
        Some(Side::Union) => out.push_str("+u"),
        Some(Side::Confederacy) => out.push_str("+c"),
        None => {}
    }
    out
}

/// Reads a unit's code.
pub fn read_unit(code: &str) -> Option<UnitState> {
    let (place, rest) = match code.get(..1)? {
        "d" => (Place::Display, &code[1..]),
        "w" => (Place::Waiting, &code[1..]),
        "e" => (Place::Eliminated, &code[1..]),
        "r" => (Place::Removed, &code[1..]),
        "x" => (Place::Exited, &code[1..]),
        "o" => (Place::OffBoard, &code[1..]),
        "t" => (Place::Track(code.get(1..3)?.parse().ok()?), code.get(3..)?),
        _ => (
            Place::Map(code.get(..4)?.parse::<Hex>().ok()?),
            code.get(4..)?,
        ),
    };
    let (flags, generic) = match rest.split_once('+') {
        Some((f, "u")) => (f, Some(Side::Union)),
        Some((f, "c")) => (f, Some(Side::Confederacy)),
        Some(_) => return None,
        None => (rest, None),
    };
    let face = match flags.get(..1)? {
        "f" => Face::Front,
        "b" => Face::Back,
        _ => return None,
    };
    let flags = &flags[1..];
    if !flags.chars().all(|c| "FDC".contains(c)) || flags.len() > 3 {
        return None;
    }
    Some(UnitState {
        place,
        face,
        finished: flags.contains('F'),
        disrupted: flags.contains('D'),
        out_of_command: flags.contains('C'),
        generic,
    })
}

/// A brigade's code.
pub fn brigade_code(b: &BrigadeState) -> String {
    let commander = b.commander.map_or("-".to_string(), |h| h.to_string());
    let mut flags = String::new();
    for (on, c) in [
        (b.exhausted, 'x'),
        (b.broken, 'k'),
        (b.committed, 'c'),
        (b.committing, 'm'),
        (b.free_this_turn, 'f'),
    ] {
        if on {
            flags.push(c);
        }
    }
    let opfire = match b.opfire {
        OpFireRule::Always => 'A',
        OpFireRule::Never => 'N',
        OpFireRule::Ask => 'Q',
    };
    format!(
        "{commander}/{}/{}/{flags}/{opfire}",
        b.reserve, b.casualties
    )
}

/// Reads a brigade's code.
pub fn read_brigade(code: &str) -> Option<BrigadeState> {
    let parts: Vec<&str> = code.split('/').collect();
    let [commander, reserve, casualties, flags, opfire] = parts[..] else {
        return None;
    };
    if !flags.chars().all(|c| "xkcmf".contains(c)) || flags.len() > 5 {
        return None;
    }
    Some(BrigadeState {
        commander: match commander {
            "-" => None,
            h => Some(h.parse().ok()?),
        },
        reserve: reserve.parse().ok()?,
        casualties: casualties.parse().ok()?,
        exhausted: flags.contains('x'),
        broken: flags.contains('k'),
        committed: flags.contains('c'),
        committing: flags.contains('m'),
        free_this_turn: flags.contains('f'),
        opfire: match opfire {
            "A" => OpFireRule::Always,
            "N" => OpFireRule::Never,
            "Q" => OpFireRule::Ask,
            _ => return None,
        },
    })
}

/// A marker's code.
pub fn marker_code(m: &Marker) -> String {
    match m {
        Marker::Countdown => "c".into(),
        Marker::Brigade(b, i) => format!("{}.{i}", b.0),
        Marker::Free(b) => format!("f{}", b.0),
    }
}

/// Reads a marker's code.
pub fn read_marker(code: &str) -> Option<Marker> {
    if code == "c" {
        return Some(Marker::Countdown);
    }
    if let Some(b) = code.strip_prefix('f') {
        return Some(Marker::Free(BrigadeId(b.parse().ok()?)));
    }
    let (b, i) = code.split_once('.')?;
    Some(Marker::Brigade(BrigadeId(b.parse().ok()?), i.parse().ok()?))
}

macro_rules! compact_serde {
    ($ty:ty, $write:ident, $read:ident, $what:literal) => {
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&$write(self))
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = String::deserialize(d)?;
                $read(&text).ok_or_else(|| D::Error::custom(format!("{text} is not a {}", $what)))
            }
        }
    };
}

compact_serde!(UnitState, unit_code, read_unit, "unit code");
compact_serde!(BrigadeState, brigade_code, read_brigade, "brigade code");
compact_serde!(Marker, marker_code, read_marker, "marker code");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_codes_round_trip() {
        for code in [
            "0712f", "0712bFDC", "df", "wb", "ef", "rb", "xf", "of", "0505b+c", "0101fD+u", "t05f",
        ] {
            let u = read_unit(code).unwrap_or_else(|| panic!("{code}"));
            assert_eq!(unit_code(&u), code);
        }
        for bad in ["", "0712", "07x2f", "0712q", "0712fZ", "0712f+z", "0000f"] {
            assert!(read_unit(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn brigade_and_marker_codes_round_trip() {
        for code in ["0201/1/0/c/A", "-/4/2/xkcmf/Q", "-/0/0//N"] {
            let b = read_brigade(code).unwrap_or_else(|| panic!("{code}"));
            assert_eq!(brigade_code(&b), code);
        }
        assert!(read_brigade("0201/1/0/z/A").is_none());
        assert!(read_brigade("0201/1/0/c").is_none());
        for code in ["c", "3.0", "12.1", "f3"] {
            assert_eq!(marker_code(&read_marker(code).unwrap()), code);
        }
        assert!(read_marker("x").is_none() && read_marker("3").is_none());
    }
}
