//! What an event tells each player: everything is public but the card a
//! side draws, which only its drawer is told (B2, 11).

use super::ending;
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
        Event::Over(e) => format!("the battle is over: {}", ending::words(*e)),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
