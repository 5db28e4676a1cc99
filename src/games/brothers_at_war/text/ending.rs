//! How a battle ended, in the one wording records, the database and mails
//! use, and read back.

use crate::games::brothers_at_war::core::state::Ending;
use crate::games::brothers_at_war::scenario::model::Side;

/// `points: Union 7, Confederacy 4`; `Union holds every hex of its
/// instant victory`; `Confederacy broke enough brigades`.
pub fn words(ending: Ending) -> String {
    match ending {
        Ending::Points { union, confederacy } => {
            format!("points: Union {union}, Confederacy {confederacy}")
        }
        Ending::InstantHexes(side) => format!("{} holds its instant victory hexes", name(side)),
        Ending::InstantBroken(side) => format!("{} broke enough brigades", name(side)),
    }
}

fn name(side: Side) -> &'static str {
    match side {
        Side::Union => "Union",
        Side::Confederacy => "Confederacy",
    }
}

/// Reads [`words`] back (any case and spacing).
pub fn read(text: &str) -> Option<Ending> {
    let flat = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase();
    for side in Side::BOTH {
        for e in [Ending::InstantHexes(side), Ending::InstantBroken(side)] {
            if words(e).to_ascii_lowercase() == flat {
                return Some(e);
            }
        }
    }
    let rest = flat.strip_prefix("points: union ")?;
    let (union, confederacy) = rest.split_once(", confederacy ")?;
    Some(Ending::Points {
        union: union.parse().ok()?,
        confederacy: confederacy.parse().ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ending_reads_back() {
        for e in [
            Ending::Points {
                union: 7,
                confederacy: 0,
            },
            Ending::InstantHexes(Side::Union),
            Ending::InstantBroken(Side::Confederacy),
        ] {
            assert_eq!(read(&words(e)), Some(e));
            assert_eq!(read(&words(e).to_ascii_uppercase()), Some(e));
        }
        assert_eq!(read("points: union x, confederacy 2"), None);
    }
}
