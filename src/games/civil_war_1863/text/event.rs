//! What an event tells each player, in words, citing the rule at work.
//! Nothing is hidden in this game: the two players read the same facts,
//! each with their own side called "you".

use crate::games::civil_war_1863::core::event::{BattleKind, Cause, Event};
use crate::games::civil_war_1863::core::side::{PieceKind, Side};
use crate::games::civil_war_1863::core::stack::Counts;

/// `pieces` in words: `2 infantry and 1 cavalry`.
pub fn pieces_words(pieces: Counts) -> String {
    let parts: Vec<String> = PieceKind::ALL
        .into_iter()
        .filter(|&k| pieces.get(k) > 0)
        .map(|k| {
            let n = pieces.get(k);
            let name = match (k, n) {
                (PieceKind::Gunboat, 1) => "gunboat",
                (PieceKind::Gunboat, _) => "gunboats",
                (k, _) => k.name(),
            };
            format!("{n} {name}")
        })
        .collect();
    match parts.as_slice() {
        [] => "no piece".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// `side` as `viewer` reads it (an observer, `None`: in the third person).
fn who(side: Side, viewer: Option<Side>) -> String {
    if Some(side) == viewer {
        "you".to_string()
    } else {
        format!("the {side}")
    }
}

fn whose(side: Side, viewer: Option<Side>) -> String {
    if Some(side) == viewer {
        "your".to_string()
    } else {
        format!("the {side}'s")
    }
}

/// What `event` tells `viewer`, one sentence ending with the rule cited.
pub fn words(event: &Event, viewer: Side) -> String {
    words_for(event, Some(viewer))
}

/// What `event` tells an observer of the game, who holds no side: the
/// same sentence in the third person.
pub fn public_words(event: &Event) -> String {
    words_for(event, None)
}

/// [`words`] for `viewer`, or for an observer (`None`).
fn words_for(event: &Event, viewer: Option<Side>) -> String {
    match event {
        Event::Moved {
            side,
            pieces,
            from,
            to,
        } => format!(
            "{} {} moved from {from} to {to}.",
            capital(&whose(*side, viewer)),
            pieces_words(*pieces)
        ),
        Event::Battle {
            attacker,
            at,
            attack,
            defence,
            kind,
        } => {
            let (what, rule) = match kind {
                BattleKind::Larger => ("the larger force wins", "P20"),
                BattleKind::Even => ("an even battle: the coin decides", "P22"),
                BattleKind::Sacrifice => ("a sacrifice", "P23"),
            };
            format!(
                "{} attacked {at}, {attack} against {defence}: {what} (rule {rule}).",
                capital(&who(*attacker, viewer))
            )
        }
        Event::Tossed { heads } => format!(
            "The coin came down {} (rule P22).",
            if *heads {
                "heads: the attacker wins"
            } else {
                "tails: the defender wins"
            }
        ),
        Event::Eliminated {
            side,
            at,
            pieces,
            cause,
        } => {
            let (why, rule) = match cause {
                Cause::Battle => ("in battle", "P20"),
                Cause::NoRetreat => ("with no square to withdraw to", "P21"),
                Cause::AtSea => ("at sea without a gunboat", "P14"),
                Cause::Removal => ("for a lost city", "P27"),
            };
            format!(
                "{} lost {} at {at} {why} (rule {rule}).",
                capital(&who(*side, viewer)),
                pieces_words(*pieces)
            )
        }
        Event::Kept { side, at, kind } => format!(
            "{} kept one {} at {at} (rule P22).",
            capital(&who(*side, viewer)),
            kind.name()
        ),
        Event::Took { side, at, pieces } => format!(
            "{} took {at} with {} (rule P20).",
            capital(&who(*side, viewer)),
            pieces_words(*pieces)
        ),
        Event::Disabled { at } => {
            format!("A disabled marker went on the force at {at} (rule P23).")
        }
        Event::GarrisonDestroyed { at } => {
            format!("The garrison of {at} was destroyed (rule P29).")
        }
        Event::Captured { side, at, removals } => format!(
            "{} captured {at}: {} must remove {removals} piece{} (rule P27).",
            capital(&who(*side, viewer)),
            who(side.opponent(), viewer),
            if *removals == 1 { "" } else { "s" }
        ),
        Event::Fortified { at } => format!("{at} was fortified (rule P31)."),
        Event::Unfortified { at } => format!("{at} is no longer fortified (rule P33)."),
        Event::TurnEnded { side } => format!("{} ended the turn.", capital(&who(*side, viewer))),
        Event::TurnSkipped { side } => format!(
            "{} could give no order, so the turn ended (rule P8).",
            capital(&who(*side, viewer))
        ),
        Event::Forced { side, order } => format!(
            "{} had one choice, taken: {order}.",
            capital(&who(*side, viewer))
        ),
        Event::Ended { winner: Some(w) } => format!(
            "{} won: the other side has no piece left (rule P34).",
            capital(&who(*w, viewer))
        ),
        Event::Ended { winner: None } => "The game ended in a stalemate (rule P35).".to_string(),
    }
}

fn capital(text: &str) -> String {
    crate::games::text::capitalised(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::civil_war_1863::core::square::Square;

    #[test]
    fn each_side_reads_its_own_pieces_as_yours() {
        let e = Event::Moved {
            side: Side::Union,
            pieces: Counts([2, 1, 0]),
            from: Square::parse("H7").unwrap(),
            to: Square::parse("H8").unwrap(),
        };
        assert_eq!(
            words(&e, Side::Union),
            "Your 2 infantry and 1 cavalry moved from H7 to H8."
        );
        assert_eq!(
            words(&e, Side::Confederacy),
            "The Union's 2 infantry and 1 cavalry moved from H7 to H8."
        );
    }

    #[test]
    fn battles_cite_their_rule() {
        let e = Event::Eliminated {
            side: Side::Confederacy,
            at: Square::parse("K3").unwrap(),
            pieces: Counts([0, 0, 1]),
            cause: Cause::AtSea,
        };
        assert!(words(&e, Side::Union).ends_with("(rule P14)."));
        assert!(words(&e, Side::Confederacy).starts_with("You lost 1 gunboat at K3"));
    }
}
