//! Why an order is refused, each reason citing the rule it enforces.

use crate::games::brothers_at_war::core::Hex;
use crate::games::{CitesRule, RuleId};

/// Why an order was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The battle is over (2.4).
    #[error("the battle is over")]
    GameOver,
    /// The order does not answer the decision the game waits for (2.0).
    #[error("the game waits for {expected}")]
    NotNow {
        /// What the game waits for, in words.
        expected: String,
    },
    /// The game waits for a draw of chance, which the service makes (3.12).
    #[error("the game waits for a draw of chance")]
    WaitingForChance,
    /// A chance order that does not fit the draw pending (3.12).
    #[error("that is not an outcome of the draw pending")]
    NotAnOutcome,
    /// An answer written when nothing asks it (B7): a retreat or a
    /// reserve is given only as the answer to a question of the game, or
    /// by a standing instruction.
    #[error("{what} is made only {when}; nothing asks it now")]
    OnlyWhenAsked {
        /// What.
        what: &'static str,
        /// When it is made.
        when: &'static str,
        /// Its rule.
        rule: &'static str,
    },
    /// No unit of that name (5.1).
    #[error("there is no unit {0}")]
    NoSuchUnit(String),
    /// No brigade of that name (3.1).
    #[error("there is no brigade {0}")]
    NoSuchBrigade(String),
    /// The unit is not of the brigade activating (3.22).
    #[error("{0} is not of the brigade activating")]
    NotOfBrigade(String),
    /// The brigade is not the player's (3.15, 6.12).
    #[error("{0} is not your brigade")]
    NotYours(String),
    /// A unit activates once per activation (5.1).
    #[error("{0} has already activated")]
    AlreadyActed(String),
    /// Finished units may not move or fire (1.51).
    #[error("{0} is Finished")]
    Finished(String),
    /// Remnants cannot activate (5.45).
    #[error("{0} is a remnant and cannot activate")]
    Remnant(String),
    /// The unit is not on the map.
    #[error("{0} is not on the map")]
    NotOnMap(String),
    /// The unit has left the map in this battle and can no longer act:
    /// how (a skirmisher disbanded, 9.14; eliminated, 6.54; removed with
    /// its broken brigade, 8.3; exited, 5.214), and that rule.
    #[error("{unit} is no longer on the map: {how}, so it cannot act")]
    Gone {
        /// The unit.
        unit: String,
        /// How it left, in words.
        how: &'static str,
        /// The rule that took it off.
        rule: &'static str,
    },
    /// Two units activate together only if they began stacked (5.33).
    #[error("{0} and {1} did not begin the activation stacked")]
    NotAStack(String, String),
    /// The unit is not the one spending movement points (5.1).
    #[error("{0} is not the active unit")]
    NotActive(String),
    /// Another unit is active and cannot end its activation here (5.32).
    #[error("the active unit {0} must first move to where it may end its activation")]
    ActiveCannotEnd(String),
    /// A move goes to an adjacent hex (5.21).
    #[error("{to} is not next to {from}")]
    NotAdjacent {
        /// From.
        from: Hex,
        /// To.
        to: Hex,
    },
    /// No exit of the scenario's for this side is here (5.214, B20).
    #[error("no exit for your side is at {0}")]
    NoExit(Hex),
    /// Units may not leave the map unless the scenario allows it (5.214).
    #[error("{0} is not on the map")]
    OffMap(Hex),
    /// Not enough movement points (5.2), for a price set by `rule`.
    #[error("that needs {need} movement points and {left} are left")]
    NoPoints {
        /// Needed.
        need: u8,
        /// Left.
        left: u8,
        /// The rule that sets the price or the allowance: 5.2 for a
        /// step, 5.22 a change of formation, 5.24 fire, 5.25 hold fire,
        /// 5.212 a step that would end road march.
        rule: &'static str,
    },
    /// The chart prohibits this mover there (5.21).
    #[error("{0} may not be entered by this unit (terrain effects chart)")]
    Prohibited(Hex),
    /// River hexes are entered across fords only (5.213).
    #[error("the river hex {0} may be entered only across a ford")]
    River(Hex),
    /// Formed infantry enters woods only along a road or trail (5.41).
    #[error("formed infantry may enter the woods of {0} only along a road or trail")]
    FormedInWoods(Hex),
    /// Deployed artillery does not move (5.42).
    #[error("deployed artillery does not move: limber it first")]
    Deployed,
    /// A Disrupted unit may only move (6.531).
    #[error("a Disrupted unit may only move")]
    DisruptedOnlyMoves,
    /// A Disrupted unit may not close on a near enemy in sight (6.531).
    #[error("a Disrupted unit may not move closer to the enemy at {0}")]
    DisruptedCloses(Hex),
    /// A Disrupted unit may not move next to an enemy (6.531).
    #[error("a Disrupted unit may not move next to an enemy")]
    DisruptedAdjacent,
    /// Skirmishers may not move next to an enemy (9.11).
    #[error("skirmishers may not move next to an enemy")]
    SkirmisherAdjacent,
    /// The unit cannot change formation (5.22): remnants, foot-only
    /// skirmishers.
    #[error("{0} has no other formation")]
    NoOtherFormation(String),
    /// Deployed artillery limbers only as its first action (5.222).
    #[error("artillery limbers only as its first action")]
    LimberFirst,
    /// A skirmisher is deployed by one unit, not by a stack acting as one
    /// (5.26, B58).
    #[error("one unit deploys a skirmisher, not a stack")]
    DeployFirst,
    /// Out of command units may not deploy skirmishers (4.3).
    #[error("an out of command unit may not deploy skirmishers")]
    OutOfCommandDeploy,
    /// An out of command unit's move disrupts it (4.3), and the step is
    /// one a Disrupted unit may not take (6.531): the unit, and why.
    #[error("{0} is out of command, so its move disrupts it (4.3), and {1}")]
    OutOfCommandMove(String, Box<Refusal>),
    /// The skirmisher may not be deployed now (9.13, 9.14).
    #[error("{0} cannot be deployed now")]
    CannotDeploy(String),
    /// The skirmisher disbanded in this activation and may not be
    /// deployed again in it (9.14, B58).
    #[error("{0} disbanded in this activation and may not be deployed again before the next")]
    DisbandedThisActivation(String),
    /// Skirmishers next to an enemy would disband at once (9.14).
    #[error("a skirmisher deployed next to an enemy would disband at once")]
    DeployAdjacent,
    /// Only a deployed skirmisher disbands, instead of activating (5.27).
    #[error("{0} is not a deployed skirmisher that has not activated")]
    CannotDisband(String),
    /// An off-board battery only fires (9.4): it never moves, changes
    /// formation or holds.
    #[error("{0} is an off-board battery: it only fires (OBA FIRE hex)")]
    OffBoardOnlyFires(String),
    /// A unit may not end its activation here: the rule that forbids it
    /// (5.3 the limit of two, 9.21 a remnant's hex, 5.32 another
    /// brigade's or a skirmisher's stack).
    #[error("{0} may not end its activation in {1}")]
    CannotEnd(String, Hex, &'static str),
    /// Passing is activating no unit (3.221).
    #[error("a brigade passes only before activating any unit")]
    PassAfterActing,
    /// Commanders go to hexes open to movement and free of enemies (4.11).
    #[error("the commander may not go to {0}")]
    CommanderHex(Hex),
    /// The brigade has no commander (9.3).
    #[error("this brigade has no commander")]
    NoCommander,
    /// The card is not in the player's hand (11).
    #[error("card {0} is not in your hand")]
    NotInHand(u8),
    /// A card that is never played, only discarded (11.12, B123).
    #[error("card {0} ({1}) has no effect: it can only be discarded")]
    CardNeverPlayed(u8, String),
    /// The card's timing window is not open now (11.11, B124).
    #[error("card {card} ({name}) is played {window}, which is not now")]
    CardNotNow {
        /// The card.
        card: u8,
        /// Its title.
        name: String,
        /// When it may be played, in words.
        window: String,
    },
    /// An independent skirmisher is never given up for a reserve (9.19 a).
    #[error("{0} is an independent skirmisher: it is never given up to recover a reserve")]
    IndependentNotGivenUp(String),
    /// A remnant goes only where a unit of its brigade stood, free of the
    /// enemy (2.33 a, B110).
    #[error("the remnant may not go to {0}: only to a hex one of its brigade's units held, with no enemy")]
    RemnantHex(Hex),
    /// A card question was answered by a card it did not offer (B148).
    #[error(
        "card {card} does not answer this question: play one of {} or PASS",
        crate::games::brothers_at_war::core::event::number_list(offered)
    )]
    CardNotOffered {
        /// The card written.
        card: u8,
        /// The cards offered.
        offered: Vec<u8>,
    },
    /// The card's effect has no such target (11.12, B123).
    #[error("card {card} ({name}) cannot be played {why}")]
    CardTarget {
        /// The card.
        card: u8,
        /// Its title.
        name: String,
        /// Why, and what it may be played on.
        why: String,
    },
    /// A card forbids the brigade's fire in this activation (B125).
    #[error("the {0} units may not fire in this activation: a card forbids it")]
    FireForbidden(String),
    /// A unit that fired by a `fire-then-assault` card assaults the hex it
    /// fired at before anything else (B128).
    #[error("{0} must now assault {1}, as its card said: write {0} MOVE {1}")]
    MustAssault(String, Hex),
    /// A standing instruction names the other player's brigades (B5).
    #[error("{0} is not yours: instructions are set for your own brigades (or your side)")]
    NotYourInstruction(String),
    /// The commander is off the map by a card until a later turn (B125).
    #[error("the {0} commander is off the map until turn {1}; write COMMANDER STAY")]
    CommanderAway(String, u8),
    /// Cards beyond the hand size must be discarded (2.31, 3.221).
    #[error("discard down to your hand size first")]
    MustDiscard,
    /// The brigade is not uncommitted (3.15).
    #[error("{0} is not an uncommitted brigade")]
    NotUncommitted(String),
    /// A reinforcement enters at its entry hexes (10.1, 10.11).
    #[error("{0} is not an entry hex open to this reinforcement")]
    NotEntry(Hex),
    /// Fire is refused (6.0-6.4, B64-B66).
    #[error("{0}")]
    Fire(super::fire::FireRefusal),
    /// The attack named is not one of those offered (B7, B69).
    #[error("that opportunity attack is not one of those offered")]
    NotOffered,
    /// The retreat path is not one of the legal paths offered (6.73, B86).
    #[error("that is not a legal retreat path")]
    PathNotOffered,
    /// The retreat path breaks a rule of 6.7: which, and how.
    #[error("that retreat path is not legal: {why}")]
    PathRefused {
        /// The rule broken.
        rule: &'static str,
        /// How, in words.
        why: String,
    },
    /// The unit named is not a disbanded skirmisher on its brigade's
    /// display (8.133, B104).
    #[error("{0} is not a disbanded skirmisher waiting on its brigade's display")]
    NotOnDisplay(String),
    /// No reserve can be recovered (8.13): why.
    #[error("brigade {brigade} cannot recover a reserve: {why}")]
    NothingToRecover {
        /// The brigade.
        brigade: String,
        /// Why, in words.
        why: &'static str,
    },
    /// The unit named is no enemy off-board battery (9.43, B147).
    #[error("{0} is not an enemy off-board battery: FIRE takes a hex, or a battery's unit id")]
    NotABattery(String),
    /// FIRE named neither a hex nor a unit (6.0, 9.43).
    #[error("{0} is neither a hex nor a unit: write FIRE and a hex (such as 0712), or FIRE and an enemy off-board battery's unit id")]
    NotAHexNorUnit(String),
    /// A battery whose card does not allow it may not fire at another
    /// (9.432, B113).
    #[error("the batteries of {0} may not fire at other off-board batteries: their card does not say so")]
    NoCounterBattery(String),
    /// A fate check's move takes move actions only (2.33 b, B111).
    #[error(
        "a fate check's move takes MOVE (and DONE) orders only, then END UNITS and the commander"
    )]
    FateMoveOnly,
    /// The unit named to be lost is not one of the stack hit (6.54, B145).
    #[error("{0} is not one of the units of the stack hit")]
    NotInStack(String),
    /// An assault is refused (7.1, 7.2, B96, B100).
    #[error("{0}")]
    Assault(super::assault::AssaultRefusal),
    /// A reinforcement enters from its turn on (10.1).
    #[error("{0} does not arrive yet")]
    NotArrived(String),
}

impl CitesRule for Refusal {
    fn rule(&self) -> RuleId {
        RuleId(match self {
            Refusal::GameOver => "2.4",
            Refusal::NotNow { .. } => "2.0",
            Refusal::WaitingForChance | Refusal::NotAnOutcome => "3.12",
            Refusal::OnlyWhenAsked { rule, .. } => rule,
            Refusal::NoSuchUnit(_) | Refusal::NotActive(_) | Refusal::AlreadyActed(_) => "5.1",
            Refusal::NoSuchBrigade(_) => "3.1",
            Refusal::NotOfBrigade(_) => "3.22",
            Refusal::NotYours(_) | Refusal::NotUncommitted(_) => "3.15",
            Refusal::Finished(_) => "1.51",
            Refusal::Remnant(_) => "5.45",
            Refusal::NotOnMap(_) => "5.2",
            Refusal::Gone { rule, .. } => rule,
            Refusal::NoPoints { rule, .. } => rule,
            Refusal::NotAStack(..) => "5.33",
            Refusal::ActiveCannotEnd(_) => "5.32",
            Refusal::CannotEnd(_, _, rule) => rule,
            Refusal::NotAdjacent { .. } | Refusal::Prohibited(_) => "5.21",
            Refusal::OffMap(_) | Refusal::NoExit(_) => "5.214",
            Refusal::River(_) => "5.213",
            Refusal::FormedInWoods(_) => "5.41",
            Refusal::Deployed => "5.42",
            Refusal::DisruptedOnlyMoves
            | Refusal::DisruptedCloses(_)
            | Refusal::DisruptedAdjacent
            | Refusal::OutOfCommandMove(..) => "6.531",
            Refusal::SkirmisherAdjacent => "9.11",
            Refusal::NoOtherFormation(_) => "5.22",
            Refusal::LimberFirst => "5.222",
            Refusal::DeployFirst => "5.26",
            Refusal::OutOfCommandDeploy => "4.3",
            Refusal::CannotDeploy(_) => "9.13",
            Refusal::DisbandedThisActivation(_) => "9.14",
            Refusal::DeployAdjacent | Refusal::CannotDisband(_) => "9.14",
            Refusal::PassAfterActing => "3.221",
            Refusal::CommanderHex(_) => "4.11",
            Refusal::NoCommander => "9.3",
            Refusal::NotInHand(_) => "11.2",
            Refusal::CardNeverPlayed(..) => "11.12",
            Refusal::CardNotNow { .. } => "B124",
            Refusal::CardNotOffered { .. } => "B148",
            Refusal::RemnantHex(_) => "2.33",
            Refusal::IndependentNotGivenUp(_) => "9.19",
            Refusal::CardTarget { .. } => "B123",
            Refusal::CommanderAway(..) => "B125",
            Refusal::NotYourInstruction(_) => "B5",
            Refusal::FireForbidden(_) => "B125",
            Refusal::MustAssault(..) => "B128",
            Refusal::OffBoardOnlyFires(_) => "9.4",
            Refusal::MustDiscard => "2.31",
            Refusal::NotEntry(_) => "10.11",
            Refusal::NotArrived(_) => "10.1",
            Refusal::Fire(r) => r.rule(),
            Refusal::Assault(r) => r.rule(),
            Refusal::NotOffered => "B69",
            Refusal::PathNotOffered => "6.73",
            Refusal::PathRefused { rule, .. } => rule,
            Refusal::NotInStack(_) => "6.54",
            Refusal::FateMoveOnly => "2.33",
            Refusal::NotABattery(_) => "9.43",
            Refusal::NotAHexNorUnit(_) => "6.0",
            Refusal::NoCounterBattery(_) => "9.432",
            Refusal::NotOnDisplay(_) => "8.133",
            Refusal::NothingToRecover { .. } => "8.13",
        })
    }
}
