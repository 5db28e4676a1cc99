//! Why an order is refused, each reason citing the ruling it enforces.

use crate::games::civil_war_1863::core::flow::DecisionKind;
use crate::games::civil_war_1863::core::side::PieceKind;
use crate::games::civil_war_1863::core::square::Square;
use crate::games::{CitesRule, RuleId};

/// Why an order was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The game is over (P34, P35).
    #[error("the game is over")]
    GameOver,
    /// The order does not answer the decision the game waits for (P7).
    #[error("the game waits for {expected}")]
    NotNow {
        /// What the game waits for.
        expected: DecisionKind,
    },
    /// The game waits for the coin, which the service tosses (P22).
    #[error("the game waits for the coin of an even battle")]
    WaitingForCoin,
    /// No piece of the player's stands on the square (P10).
    #[error("you have no pieces on {square}")]
    NoPieces {
        /// The square.
        square: Square,
    },
    /// An order must name at least one piece (P10).
    #[error("the order names no piece")]
    NoPieceNamed,
    /// The square holds fewer pieces than named (P10).
    #[error("{square} does not hold the pieces named")]
    NotThere {
        /// The square.
        square: Square,
    },
    /// Pieces named have already moved this turn (P10); a piece that has
    /// moved cannot attack (P25).
    #[error("pieces named on {square} have already moved this turn")]
    AlreadyMoved {
        /// The square.
        square: Square,
        /// Whether the order was an attack.
        attack: bool,
    },
    /// Survivors make an ordinary move, never a rail ride (P21).
    #[error("survivors make an ordinary move, not a rail ride")]
    SurvivorsRide,
    /// Pieces named are disabled this turn (P23).
    #[error("pieces named on {square} are disabled this turn")]
    Disabled {
        /// The square.
        square: Square,
    },
    /// Infantry and cavalry under a fortification marker may not leave (P32).
    #[error("infantry and cavalry in fortified {square} may not leave")]
    LockedIn {
        /// The city.
        square: Square,
    },
    /// Infantry and cavalry may not leave a city on the turn it is
    /// unfortified (P33).
    #[error("{square} was unfortified this turn: its infantry and cavalry stay")]
    UnfortifiedThisTurn {
        /// The city.
        square: Square,
    },
    /// Infantry and cavalry may not enter a city on the turn it is
    /// fortified (P31).
    #[error("{square} was fortified this turn: no infantry or cavalry may enter")]
    FortifiedThisTurn {
        /// The city.
        square: Square,
    },
    /// The path is longer than the group may go (P10, P11, P12).
    #[error("a group with {slowest} moves at most {most} square(s)")]
    TooFar {
        /// The kind that limits the group.
        slowest: PieceKind,
        /// How far it may go.
        most: u8,
    },
    /// A step is not to a neighbouring square (P2).
    #[error("{to} is not next to {from}")]
    NotNeighbour {
        /// From.
        from: Square,
        /// To.
        to: Square,
    },
    /// A move must end on another square (P8, P11).
    #[error("a move must end on another square")]
    BackToStart,
    /// A move passes through an enemy-held square or an uncaptured enemy
    /// capital (P9).
    #[error("a move may not pass through {square}")]
    ThroughEnemy {
        /// The square.
        square: Square,
    },
    /// A ground piece may not enter a square without land (P1, P11).
    #[error("{kind} may not enter {square}: it holds no land")]
    NoLand {
        /// The kind.
        kind: PieceKind,
        /// The square.
        square: Square,
    },
    /// Only infantry aboard a gunboat, moving with it, may go to sea (P13).
    #[error("infantry may enter {square} only aboard a gunboat moving with it")]
    NotAboard {
        /// The water-only square.
        square: Square,
    },
    /// Infantry may not march onto a mountain square off the railroad (P5).
    #[error("infantry may enter mountain square {square} only along a railroad or by a pass")]
    Mountain {
        /// The mountain square.
        square: Square,
    },
    /// Infantry may not cross a corner that the range closes (P6).
    #[error("infantry may not step {from}-{to}: mountains close that corner")]
    MountainCorner {
        /// From.
        from: Square,
        /// To.
        to: Square,
    },
    /// A gunboat step must follow the water (P3, P12).
    #[error("no water joins {from} and {to}")]
    NoWaterJoin {
        /// From.
        from: Square,
        /// To.
        to: Square,
    },
    /// The move would leave infantry at sea without a gunboat (P14).
    #[error("the move would leave infantry at sea on {square} without a gunboat")]
    StrandedAtSea {
        /// The square.
        square: Square,
    },
    /// A smaller force may attack only as a sacrifice of one piece (P19).
    #[error("{attack} may not attack {defence}: only a single piece may attack a larger force")]
    SmallerAttack {
        /// The attacking strength.
        attack: u32,
        /// The defending strength.
        defence: u32,
    },
    /// No sacrifice in a key city or a capital (P26).
    #[error("no sacrifice battle in a key city or capital")]
    SacrificeInCity,
    /// A square already disabled cannot be sacrificed against (P24).
    #[error("{square} already carries a disabled marker")]
    AlreadyDisabled {
        /// The square.
        square: Square,
    },
    /// All three disabled markers are on the board (P24).
    #[error("no disabled marker is left in the box")]
    NoDisabledMarker,
    /// Only infantry rides (P15).
    #[error("only infantry rides the railroad")]
    RideInfantryOnly,
    /// A ride is one to three rail steps (P15).
    #[error("a ride goes one to three squares along the railroad")]
    RideTooLong,
    /// The group did not stand on a railroad (P15).
    #[error("{square} is not on a railroad")]
    NotOnRailroad {
        /// The square.
        square: Square,
    },
    /// A ride goes square by square along one line (P15).
    #[error("{from}-{to} is not a step along a railroad")]
    NotRailStep {
        /// From.
        from: Square,
        /// To.
        to: Square,
    },
    /// A ride may not enter a square twice (P15).
    #[error("a ride may not enter {square} twice")]
    RideRevisits {
        /// The square.
        square: Square,
    },
    /// The section is cut against the rider (P17).
    #[error("the railroad section at {square} is cut")]
    SectionCut {
        /// A square of the cut section on the ride.
        square: Square,
    },
    /// Only a key city that is not a capital may be fortified (P31).
    #[error("{square} is not a key city that can be fortified")]
    NotFortifiable {
        /// The square.
        square: Square,
    },
    /// Fortifying needs infantry or cavalry that stood there since the
    /// start of the turn (P31).
    #[error("{square} holds no infantry or cavalry that stood there since the start of the turn")]
    NoTroopsToFortify {
        /// The city.
        square: Square,
    },
    /// Troops cannot move in and fortify on the same turn (P31).
    #[error("troops moved into {square} this turn: it cannot be fortified now")]
    MovedInThisTurn {
        /// The city.
        square: Square,
    },
    /// The city already has a marker or an order this turn (P31, P33).
    #[error("{square} has had its fortification order, or is fortified already")]
    AlreadyFortified {
        /// The city.
        square: Square,
    },
    /// All six fortification markers are on the board (P31).
    #[error("no fortification marker is left in the box")]
    NoFortMarker,
    /// Disabled troops give no fortification order (P23).
    #[error("the troops in {square} are disabled")]
    DisabledFortify {
        /// The city.
        square: Square,
    },
    /// Only a city fortified before this turn can be unfortified (P33).
    #[error("{square} is not fortified")]
    NotFortified {
        /// The city.
        square: Square,
    },
    /// A turn must hold at least one order while one is legal (P8).
    #[error("you must move at least one piece (or fortify) this turn")]
    MustAct,
    /// k is out of range (P20).
    #[error("k must be from 1 to {defence}")]
    TakeOutOfRange {
        /// The defending strength.
        defence: u32,
    },
    /// In a key city or a capital the whole defence must go (P26).
    #[error("in a key city or capital the attack must take all {defence}")]
    MustTakeAll {
        /// The defending strength.
        defence: u32,
    },
    /// The pieces named as losses do not match k (P20).
    #[error("the losses must be k of the defender's pieces and k - 1 of the attacker's")]
    WrongLosses,
    /// Survivors may not move onto an enemy square or capital (P21).
    #[error("survivors may not move onto {square}")]
    SurvivorsIntoEnemy {
        /// The square.
        square: Square,
    },
    /// The removal names no piece of the remover (P27).
    #[error("you have no {kind} on {square} to remove")]
    NoSuchRemoval {
        /// The square.
        square: Square,
        /// The kind.
        kind: PieceKind,
    },
    /// The winner has no piece of that kind in the battle (P22).
    #[error("no {kind} of yours is in the battle")]
    NoSuchKeep {
        /// The kind.
        kind: PieceKind,
    },
}

impl CitesRule for Refusal {
    fn rule(&self) -> RuleId {
        RuleId(match self {
            Refusal::GameOver => "P34",
            Refusal::NotNow { .. } => "P7",
            Refusal::WaitingForCoin => "P22",
            Refusal::NoPieces { .. } | Refusal::NoPieceNamed | Refusal::NotThere { .. } => "P10",
            Refusal::AlreadyMoved { attack: false, .. } => "P10",
            Refusal::AlreadyMoved { attack: true, .. } => "P25",
            Refusal::SurvivorsRide => "P21",
            Refusal::Disabled { .. } | Refusal::DisabledFortify { .. } => "P23",
            Refusal::LockedIn { .. } => "P32",
            Refusal::UnfortifiedThisTurn { .. } => "P33",
            Refusal::FortifiedThisTurn { .. } => "P31",
            Refusal::TooFar {
                slowest: PieceKind::Infantry,
                ..
            } => "P10",
            Refusal::TooFar {
                slowest: PieceKind::Cavalry,
                ..
            } => "P11",
            Refusal::TooFar { .. } => "P12",
            Refusal::NotNeighbour { .. } => "P2",
            Refusal::BackToStart => "P8",
            Refusal::ThroughEnemy { .. } => "P9",
            Refusal::NoLand { .. } => "P1",
            Refusal::NotAboard { .. } => "P13",
            Refusal::Mountain { .. } => "P5",
            Refusal::MountainCorner { .. } => "P6",
            Refusal::NoWaterJoin { .. } => "P3",
            Refusal::StrandedAtSea { .. } => "P14",
            Refusal::SmallerAttack { .. } => "P19",
            Refusal::SacrificeInCity => "P26",
            Refusal::AlreadyDisabled { .. } | Refusal::NoDisabledMarker => "P24",
            Refusal::RideInfantryOnly
            | Refusal::RideTooLong
            | Refusal::NotOnRailroad { .. }
            | Refusal::NotRailStep { .. }
            | Refusal::RideRevisits { .. } => "P15",
            Refusal::SectionCut { .. } => "P17",
            Refusal::NotFortifiable { .. }
            | Refusal::NoTroopsToFortify { .. }
            | Refusal::MovedInThisTurn { .. }
            | Refusal::AlreadyFortified { .. }
            | Refusal::NoFortMarker => "P31",
            Refusal::NotFortified { .. } => "P33",
            Refusal::MustAct => "P8",
            Refusal::TakeOutOfRange { .. } | Refusal::WrongLosses => "P20",
            Refusal::MustTakeAll { .. } => "P26",
            Refusal::SurvivorsIntoEnemy { .. } => "P21",
            Refusal::NoSuchRemoval { .. } => "P27",
            Refusal::NoSuchKeep { .. } => "P22",
        })
    }
}
