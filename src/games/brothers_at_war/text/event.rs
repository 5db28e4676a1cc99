//! What an event tells each player: everything is public but the card a
//! side draws, which only its drawer is told (B2, 11), even one that acts
//! when drawn (B129: the other player is told what it did).

use super::ending;
use crate::games::brothers_at_war::core::combat::CombatEvent;
use crate::games::brothers_at_war::core::event::Event;
use crate::games::brothers_at_war::scenario::model::Side;
use crate::games::Seat;

/// `event` in words for `viewer`.
pub fn words(event: &Event, viewer: Seat) -> String {
    match event {
        Event::CardDrawn { side, card } if Side::of(viewer) == *side => {
            format!("you draw card {card}")
        }
        Event::CardDrawn { side, .. } => format!("{} draws a card", side.code()),
        // B129: a card that acts when drawn is still the drawer's to know;
        // the other player learns what it did, not which card it was.
        Event::DeckReshuffled { side, card, name } if Side::of(viewer) == *side => format!(
            "your card {card} ({name}) acts when drawn: the discards go back into the deck \
             and you draw again"
        ),
        Event::DeckReshuffled { side, .. } => format!(
            "{} drew a card that acts when drawn: the discards go back into the deck and {} \
             draws again",
            side.code(),
            side.code()
        ),
        Event::Over(e) => format!("the battle is over: {}", ending::words(*e)),
        // 6.5, 6.6, 6.13: a fire turned onto a skirmisher is still the
        // firer's fire, capped and saved as such; the 1-hit cap and the
        // short list of saves are those of fire *by* skirmishers.
        Event::Combat(CombatEvent::Shielded { aimed, skirmisher }) => format!(
            "the skirmish zone shields {aimed}: the fire falls on the skirmisher in \
             {skirmisher} instead (6.361). It keeps the cap of the firer's fire and the \
             skirmisher its saves (6.5, 6.6: the 1-hit cap and the limited saves of 6.131 \
             and 6.132 are for fire by skirmishers); one hit disbands it (6.541)"
        ),
        other => other.to_string(),
    }
}

/// `event` in words for an observer, who holds no seat: a card drawn as
/// the side that did not draw it reads it (B2); every other event is
/// the same for everybody.
pub fn public_words(event: &Event) -> String {
    match event {
        Event::CardDrawn { side, .. } | Event::DeckReshuffled { side, .. } => {
            words(event, side.other().seat())
        }
        other => words(other, Seat::North),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_observer_reads_a_card_drawn_as_the_other_side_does() {
        let drawn = Event::CardDrawn {
            side: Side::Confederacy,
            card: 17,
        };
        assert_eq!(public_words(&drawn), "CSA draws a card");
        let reshuffled = Event::DeckReshuffled {
            side: Side::Union,
            card: 9,
            name: "Fortune of War".into(),
        };
        assert!(!public_words(&reshuffled).contains('9'));
        assert!(!public_words(&reshuffled).contains("your"));
    }

    #[test]
    fn a_card_drawn_is_named_to_its_drawer_only() {
        let e = Event::CardDrawn {
            side: Side::Union,
            card: 17,
        };
        assert!(words(&e, Seat::North).contains("17"));
        assert!(!words(&e, Seat::South).contains("17"));
        assert_eq!(words(&e, Seat::South), "USA draws a card");
    }

    #[test]
    fn a_card_that_acts_when_drawn_is_named_to_its_drawer_only() {
        let e = Event::DeckReshuffled {
            side: Side::Union,
            card: 25,
            name: "Orders from Division".into(),
        };
        let mine = words(&e, Seat::North);
        assert!(
            mine.contains("25") && mine.contains("Orders from Division"),
            "{mine}"
        );
        let theirs = words(&e, Seat::South);
        assert!(
            !theirs.contains("25") && !theirs.contains("Orders"),
            "{theirs}"
        );
        assert!(
            theirs.contains("the discards go back into the deck"),
            "{theirs}"
        );
    }
}
