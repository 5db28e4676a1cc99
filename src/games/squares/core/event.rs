//! What happens when an order is applied, as data: the engine reports
//! it, the notation words it (`text/event.rs`), records and mails keep it.

use super::board::Space;
use super::flow::Outcome;
use super::order::Order;
use super::unit::{Side, UnitKind};

/// One thing that happened, in the order it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A unit moved.
    Moved {
        /// Whose unit.
        side: Side,
        /// Its type.
        unit: UnitKind,
        /// Where it was.
        from: Space,
        /// Where it is now.
        to: Space,
    },
    /// A player passed; his next turn is a double turn (R4).
    Passed {
        /// Who passed.
        side: Side,
    },
    /// A player's double turn begins.
    DoubleTurn {
        /// Whose double turn.
        side: Side,
    },
    /// An attack was declared.
    Attacked {
        /// The attacker's side.
        side: Side,
        /// The attacking unit's type.
        unit: UnitKind,
        /// The attacking unit's square.
        from: Space,
        /// The attacked square.
        target: Space,
        /// The supporting unit's type and square.
        support: Option<(UnitKind, Space)>,
    },
    /// The attack is a flank attack: the defender must retreat if it can (R18).
    Flank {
        /// The attacked square.
        target: Space,
    },
    /// A unit retreated (one event per unit of a chain).
    Retreated {
        /// Whose unit.
        side: Side,
        /// Its type.
        unit: UnitKind,
        /// Where it was.
        from: Space,
        /// Where it went.
        to: Space,
    },
    /// A defender stood its ground.
    Stood {
        /// Whose unit.
        side: Side,
        /// Its type.
        unit: UnitKind,
        /// Its square.
        square: Space,
    },
    /// The attacker chose an option against a standing defender (R19,
    /// N18, N19).
    OptionChosen {
        /// The attacker's side.
        side: Side,
        /// The option order taken (`OPTION 2`, `OPTION GB1`, `OPTION HB3`).
        option: Order,
    },
    /// A cavalry charge directly after a PASS eliminates the defending foot
    /// unit (N10).
    Charge {
        /// The attacked square.
        target: Space,
    },
    /// A unit was eliminated.
    Eliminated {
        /// Whose unit.
        side: Side,
        /// Its type.
        unit: UnitKind,
        /// Where it was.
        square: Space,
    },
    /// The attacking unit advanced into the vacated square.
    Advanced {
        /// Whose unit.
        side: Side,
        /// Its type.
        unit: UnitKind,
        /// Where it was.
        from: Space,
        /// Where it is now.
        to: Space,
    },
    /// The attacking unit stayed where it was.
    Stayed {
        /// Whose unit.
        side: Side,
        /// Its square.
        square: Space,
    },
    /// A decision with exactly one legal choice was taken automatically.
    Forced {
        /// Who would have decided.
        side: Side,
        /// The only legal order, which was applied.
        order: Order,
    },
    /// The game is over.
    GameOver(Outcome),
}
