//! The turn sequence (2.0): preparation (2.1), activation (2.2, 3.x) and
//! the end phase (2.3), run by [`BrothersAtWar::advance`] from one
//! decision or draw of chance to the next.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::cards::Kind;
use crate::games::brothers_at_war::core::battle::Battle;
use crate::games::brothers_at_war::core::combat::{CardsRule, DiscardRule, Setting};
use crate::games::brothers_at_war::core::event::Event;
use crate::games::brothers_at_war::core::ids::{BrigadeId, Marker};
use crate::games::brothers_at_war::core::order::{OpFireRule, PassDiscard};
use crate::games::brothers_at_war::core::state::{
    Activation, BrigadeState, BrothersAtWar, Dynamic, Place, Step, UnitState,
};
use crate::games::brothers_at_war::scenario::model::{Side, UnitKind};

/// The track space symbol that adds a countdown marker (3.14 a).
pub const COUNTDOWN_SPACE: &str = "countdown";
/// The track space symbol that has both players draw (3.14 b).
pub const CARDS_SPACE: &str = "cards";

/// At most this many automatic steps run between two decisions: a bound
/// against a sequence that would loop.
const MAX_STEPS: usize = 10_000;

impl BrothersAtWar {
    /// A new game of this battle, set up and run to its first decision or
    /// draw (the deal, 11.1).
    pub fn start(battle: Arc<Battle>) -> BrothersAtWar {
        let s = &battle.scenario;
        let units = s
            .units
            .iter()
            .map(|u| UnitState {
                place: match (u.at, &u.enters, u.kind) {
                    _ if u.off_board.is_some() => Place::OffBoard,
                    (Some(h), _, _) => Place::Map(h),
                    (None, None, UnitKind::Skirmisher) => Place::Display,
                    _ => Place::Waiting,
                },
                face: u.face,
                finished: false,
                disrupted: u.disrupted,
                out_of_command: false,
                generic: None,
            })
            .collect();
        let brigades = s
            .brigades
            .iter()
            .map(|b| BrigadeState {
                commander: b.commander.as_ref().and_then(|c| c.at),
                reserve: b.reserves.map_or(0, |r| r.spent),
                casualties: 0,
                exhausted: b.reserves.is_some_and(|r| r.spent >= r.length),
                broken: false,
                committed: !b.uncommitted,
                committing: false,
                free_this_turn: false,
                opfire: OpFireRule::Always,
            })
            .collect();
        let mut deck: Vec<u8> = s.cards.iter().flat_map(|c| c.numbers.clone()).collect();
        deck.sort_unstable();
        let control: BTreeMap<_, _> = s
            .victory
            .hexes
            .iter()
            .filter_map(|k| k.controlled_by.map(|side| (k.at, side)))
            .collect();
        let mut draws = vec![Side::Union; usize::from(s.hand_size.union)];
        draws.extend(vec![
            Side::Confederacy;
            usize::from(s.hand_size.confederacy)
        ]);
        let mut game = BrothersAtWar {
            now: Dynamic {
                activations: 0,
                turn: 1,
                step: Step::Deal,
                units,
                brigades,
                cup: Vec::new(),
                track: Vec::new(),
                countdown_box: s.activation.countdown_markers,
                exhausted_box: Vec::new(),
                deck,
                discard: Vec::new(),
                hands: [Vec::new(), Vec::new()],
                ask_discard: [false, false],
                pass_discard: None,
                control,
                activated_this_turn: Vec::new(),
                free_due: Vec::new(),
                free_queue: Vec::new(),
                activation: None,
                checks: Vec::new(),
                draws,
                exit_points: [0, 0],
                ended: None,
                fire: None,
                assault: None,
                point_blank: None,
                reaction: None,
                last_group: None,
                card_effects: Vec::new(),
                instructions: Default::default(),
                answers: Vec::new(),
                asking: Default::default(),
                held: None,
                holding: Default::default(),
                fate_moves: Vec::new(),
            },
            battle,
        };
        let mut events = Vec::new();
        game.advance(&mut events);
        game
    }

    /// The hand size of a side (2.31).
    pub fn hand_size(&self, side: Side) -> usize {
        let h = self.battle.scenario.hand_size;
        usize::from(match side {
            Side::Union => h.union,
            Side::Confederacy => h.confederacy,
        })
    }

    /// Runs every automatic step until a player must decide, chance must
    /// be drawn, or the battle is over.
    pub fn advance(&mut self, events: &mut Vec<Event>) {
        for _ in 0..MAX_STEPS {
            if let Some(ending) = self.now.ended {
                if self.now.step != Step::Over {
                    self.now.step = Step::Over;
                    self.now.activation = None;
                    self.now.checks.clear();
                    self.now.draws.clear();
                    events.push(Event::Over(ending));
                }
                return;
            }
            if self.now.ended.is_none() {
                self.now.ended = self.instant_victory();
                if self.now.ended.is_some() {
                    continue;
                }
            }
            if !self.now.draws.is_empty() {
                if self.now.deck.is_empty() {
                    // B4: the discard pile returns to the deck; with both
                    // empty the draw is lost.
                    self.now.deck = std::mem::take(&mut self.now.discard);
                    self.now.deck.sort_unstable();
                    if self.now.deck.is_empty() {
                        self.now.draws.clear();
                    }
                    continue;
                }
                return;
            }
            if !self.now.checks.is_empty() {
                return;
            }
            match self.now.step.clone() {
                Step::Deal => self.now.step = Step::Preparation,
                Step::Preparation => self.prepare(events),
                Step::Commitment(side) => {
                    if self.uncommitted(side).is_empty() {
                        self.after_commitment(side);
                    } else {
                        return;
                    }
                }
                Step::FreeTie => return,
                Step::Free => match self.now.free_queue.first().copied() {
                    None => self.now.step = Step::Select,
                    Some(b) => {
                        self.now.free_queue.remove(0);
                        self.now.brigades[b.index()].free_this_turn = true;
                        self.place(Marker::Free(b), events);
                        self.begin_activation(b, true, events);
                    }
                },
                Step::Select => {
                    let countdowns = self
                        .now
                        .track
                        .iter()
                        .filter(|m| **m == Marker::Countdown)
                        .count();
                    if countdowns >= 2 || self.now.cup.is_empty() {
                        events.push(Event::ActivationPhaseEnds);
                        self.now.step = Step::EndDiscard(Side::Union);
                    } else {
                        return;
                    }
                }
                Step::Recovery(b) => {
                    // B50: command checks follow the rallies' results.
                    self.queue_command_checks(b);
                    self.now.step = Step::Units(b);
                }
                Step::Units(_) => return,
                Step::PassDiscard(b) => {
                    let side = self.battle.brigade_side(b);
                    if self.now.hands[side.index()].len() > self.hand_size(side) {
                        // B46: the card named in the pass, else asked.
                        match self.now.pass_discard.take() {
                            Some(PassDiscard::Card(n))
                                if self.now.hands[side.index()].contains(&n) =>
                            {
                                self.discard_card(side, n, events)
                            }
                            Some(PassDiscard::New) => {
                                if let Some(card) = self.now.hands[side.index()].pop() {
                                    self.now.discard.push(card);
                                    events.push(Event::Discarded { side, card });
                                }
                            }
                            _ => return,
                        }
                    }
                    self.now.pass_discard = None;
                    self.now.step = Step::Commander(b);
                }
                Step::Commander(b) => {
                    // B125: a commander off the map by a card has no step.
                    if self.battle.scenario.brigades[b.index()].commander.is_some()
                        && !self.brigade(b).broken
                        && self.commander_away(b).is_none()
                    {
                        return;
                    }
                    self.end_activation(b);
                }
                Step::EndDiscard(side) => {
                    if self.now.hands[side.index()].len() > self.hand_size(side) {
                        let asked = self.now.instructions.get(
                            side,
                            None,
                            Setting::Discard(DiscardRule::Auto),
                        ) == Setting::Discard(DiscardRule::Ask);
                        if self.now.ask_discard[side.index()] || asked {
                            return;
                        }
                        self.auto_discard(side, events);
                    }
                    self.now.step = match side {
                        Side::Union => Step::EndDiscard(Side::Confederacy),
                        Side::Confederacy => Step::EndDraw,
                    };
                }
                Step::EndDraw => {
                    for side in Side::BOTH {
                        let short = self
                            .hand_size(side)
                            .saturating_sub(self.now.hands[side.index()].len());
                        self.now.draws.extend(vec![side; short]);
                    }
                    self.now.step = Step::Cleanup;
                }
                Step::Cleanup => {
                    self.clean_up(events);
                    self.now.step = Step::Fate;
                }
                Step::Fate => {
                    self.queue_fate_checks();
                    self.now.step = Step::Advance;
                }
                Step::Advance if !self.now.fate_moves.is_empty() => {
                    let b = self.now.fate_moves.remove(0);
                    self.begin_fate_move(b, events);
                }
                Step::Advance => {
                    if self.now.turn >= self.battle.scenario.turns {
                        self.now.ended = Some(self.points_ending());
                    } else {
                        // 2.35: brigades due this turn put their markers
                        // in the cup at the next preparation (in_play).
                        self.now.turn += 1;
                        // 2.35, 9.19 c: independent skirmishers due back.
                        let turn = self.now.turn;
                        for u in self.now.units.iter_mut() {
                            if u.place == Place::Track(turn) {
                                u.place = Place::Display;
                            }
                        }
                        self.commanders_return(turn, events);
                        self.now.step = Step::Preparation;
                    }
                }
                Step::Over => return,
            }
        }
    }

    /// The preparation phase (2.1): markers not in a box and one countdown
    /// marker go into the cup, remnants recover (2.12), and uncommitted
    /// brigades may commit (3.15).
    fn prepare(&mut self, events: &mut Vec<Event>) {
        events.push(Event::TurnBegins(self.now.turn));
        self.now.track.clear();
        self.now.cup.clear();
        self.now.activated_this_turn.clear();
        for b in self.battle.brigade_ids().collect::<Vec<_>>() {
            let s = &mut self.now.brigades[b.index()];
            s.free_this_turn = false;
            if s.committing {
                s.committing = false;
                s.committed = true;
            }
            if !self.in_play(b) || !self.brigade(b).committed || self.divisional_broken(b) {
                continue;
            }
            let boxed = u8::from(self.now.exhausted_box.contains(&b));
            for i in 0..self.markers(b).saturating_sub(boxed) {
                self.now.cup.push(Marker::Brigade(b, i));
            }
        }
        if self.now.countdown_box > 0 {
            self.now.countdown_box -= 1;
            self.now.cup.push(Marker::Countdown);
        }
        self.sort_cup();
        let remnants: Vec<_> = self
            .unit_ids()
            .filter(|&u| self.kind_of(u) == UnitKind::Remnant && self.hex_of(u).is_some())
            .collect();
        self.recover_units(&remnants);
        self.now.step = Step::Commitment(Side::Union);
    }

    /// Divisional artillery with no unit left stays in the broken box
    /// (8.31).
    fn divisional_broken(&self, b: BrigadeId) -> bool {
        self.battle.scenario.brigades[b.index()].divisional
            && self.units_of_brigade(b).iter().all(|&u| {
                matches!(
                    self.unit(u).place,
                    Place::Eliminated | Place::Removed | Place::Exited
                )
            })
    }

    /// The uncommitted brigades of a side that may commit now (3.15).
    pub fn uncommitted(&self, side: Side) -> Vec<BrigadeId> {
        self.battle
            .brigade_ids()
            .filter(|&b| {
                self.battle.brigade_side(b) == side
                    && self.in_play(b)
                    && !self.brigade(b).committed
                    && !self.brigade(b).committing
            })
            .collect()
    }

    /// After a side's commitment choices: the other side's, then the free
    /// activations (2.321).
    pub fn after_commitment(&mut self, side: Side) {
        match side {
            Side::Union => self.now.step = Step::Commitment(Side::Confederacy),
            Side::Confederacy => self.order_free_activations(None),
        }
    }

    /// Under `CARDS ... ASK` only (B148, B150): the side that lost the
    /// draw for the first free activation (2.321, B13) is asked whether a
    /// `reroll-any-die` card (looked up for his side) draws it again.
    /// Returns whether it is drawn again.
    pub fn card_rerolls_tie(&mut self, first: Side, events: &mut Vec<Event>) -> bool {
        let side = first.other();
        if self.cards_rule(side, None) != CardsRule::Ask {
            return false;
        }
        let about = |_: &BrothersAtWar| {
            format!(
                "the die for the first free activation went to {} (2.321)",
                first.code()
            )
        };
        let Some((card, _)) =
            self.react_with_card(side, None, "after-roll", &[Kind::RerollAny], &about, events)
        else {
            return false;
        };
        events.push(Event::CardEffect {
            card,
            what: "the die for the first free activation is rolled again".into(),
        });
        true
    }

    /// Orders the free activations due (2.321): the side with more places
    /// first and the sides alternate; equal counts roll a die each
    /// (`first` once rolled). Within a side, brigades go in scenario order.
    pub fn order_free_activations(&mut self, first: Option<Side>) {
        let due: Vec<BrigadeId> = std::mem::take(&mut self.now.free_due)
            .into_iter()
            .filter(|&b| self.in_play(b) && self.brigade(b).committed)
            .collect();
        let of = |side: Side| -> Vec<BrigadeId> {
            due.iter()
                .copied()
                .filter(|&b| self.battle.brigade_side(b) == side)
                .collect()
        };
        let (union, confederacy) = (of(Side::Union), of(Side::Confederacy));
        if due.is_empty() {
            self.now.step = Step::Select;
            return;
        }
        let lead = match (union.len().cmp(&confederacy.len()), first) {
            (std::cmp::Ordering::Greater, _) => Side::Union,
            (std::cmp::Ordering::Less, _) => Side::Confederacy,
            (std::cmp::Ordering::Equal, Some(side)) => side,
            (std::cmp::Ordering::Equal, None) => {
                self.now.free_due = due;
                self.now.step = Step::FreeTie;
                return;
            }
        };
        let (a, b) = match lead {
            Side::Union => (union, confederacy),
            Side::Confederacy => (confederacy, union),
        };
        let mut queue = Vec::new();
        for i in 0..a.len().max(b.len()) {
            queue.extend(a.get(i));
            queue.extend(b.get(i));
        }
        self.now.free_queue = queue;
        self.now.step = Step::Free;
    }

    /// Places a marker on the next space of the track and triggers its
    /// symbol (2.21, 3.14).
    pub fn place(&mut self, marker: Marker, events: &mut Vec<Event>) {
        self.now.track.push(marker);
        let space = self.now.track.len();
        events.push(Event::MarkerPlaced {
            marker: match marker {
                Marker::Brigade(b, _) => self.brigade_name(b),
                Marker::Free(b) => format!("free {}", self.brigade_name(b)),
                Marker::Countdown => "countdown".to_string(),
            },
            space: space.min(255) as u8,
        });
        let symbol = self
            .battle
            .scenario
            .activation
            .spaces
            .get(space - 1)
            .map(String::as_str);
        match symbol {
            Some(COUNTDOWN_SPACE) if self.now.countdown_box > 0 => {
                self.now.countdown_box -= 1;
                self.now.cup.push(Marker::Countdown);
                self.sort_cup();
                events.push(Event::CountdownAdded);
            }
            Some(CARDS_SPACE) => {
                events.push(Event::BothDraw);
                self.now.draws.extend(Side::BOTH);
            }
            _ => {}
        }
    }

    /// The marker at `place` (from 1) of the cup is drawn and placed
    /// (2.21): a brigade's activates, a countdown may end the phase (3.3).
    pub fn draw_marker(&mut self, place: usize, events: &mut Vec<Event>) {
        let marker = self.now.cup.remove(place - 1);
        self.place(marker, events);
        if let Marker::Brigade(b, _) = marker {
            self.now.activated_this_turn.push(b);
            self.begin_activation(b, false, events);
        }
    }

    /// A brigade's activation begins with its recovery (2.22, 3.21).
    fn begin_activation(&mut self, b: BrigadeId, free: bool, events: &mut Vec<Event>) {
        events.push(Event::Activates {
            brigade: self.brigade_name(b),
            free,
        });
        self.now.activations = self.now.activations.saturating_add(1);
        self.now.activation = Some(Activation::new(b, free));
        // B124: the enemy's cards for an activation drawn, before recovery.
        if self.card_on_activation(b, events) {
            // No recovery, no units and no Move Commander step: its units'
            // out of command markers stay (3.23).
            self.end_card_effects();
            self.now.last_group = None;
            let free = self.now.activation.take().is_some_and(|a| a.free);
            self.now.step = if free { Step::Free } else { Step::Select };
            return;
        }
        self.recover_brigade(b);
        self.now.step = Step::Recovery(b);
    }

    /// 2.33 b, B111: the exhausted brigade disrupts its Undisrupted units
    /// and moves any of them, and its commander, at once: an activation
    /// of move actions (its units Disrupted can do nothing else, 6.53),
    /// no pass, no opportunity fire at it; then the end phase goes on.
    fn begin_fate_move(&mut self, b: BrigadeId, events: &mut Vec<Event>) {
        if self.brigade(b).broken {
            return;
        }
        for u in self.units_of_brigade(b) {
            if self.hex_of(u).is_some() && !self.unit(u).disrupted {
                self.disrupt(u, "fate check, 2.33 b", events);
            }
        }
        events.push(Event::FateMove {
            brigade: self.brigade_name(b),
        });
        self.now.activations = self.now.activations.saturating_add(1);
        self.now.activation = Some(Activation {
            fate_move: true,
            ..Activation::new(b, false)
        });
        self.now.step = Step::Units(b);
    }

    /// Keeps the cup in its canonical order (B1): countdown markers first,
    /// then activation markers by brigade id and marker number.
    pub fn sort_cup(&mut self) {
        let battle = Arc::clone(&self.battle);
        let id = |b: BrigadeId| battle.scenario.brigades[b.index()].id.clone();
        self.now.cup.sort_by_key(|m| match *m {
            Marker::Countdown => (0, String::new(), 0),
            Marker::Brigade(b, i) => (1, id(b), i),
            Marker::Free(b) => (2, id(b), 0),
        });
    }

    /// Discards a card from a hand, face up (11.2).
    pub fn discard_card(&mut self, side: Side, card: u8, events: &mut Vec<Event>) {
        let hand = &mut self.now.hands[side.index()];
        if let Some(i) = hand.iter().position(|&c| c == card) {
            hand.remove(i);
            self.now.discard.push(card);
            events.push(Event::Discarded { side, card });
        }
    }

    /// B121's default discard: down to the hand size, cards of no effect
    /// first, then those held longest.
    fn auto_discard(&mut self, side: Side, events: &mut Vec<Event>) {
        while self.now.hands[side.index()].len() > self.hand_size(side) {
            let hand = &self.now.hands[side.index()];
            let useless = hand.iter().copied().find(|&c| self.card_has_no_effect(c));
            let Some(card) = useless.or_else(|| hand.first().copied()) else {
                return;
            };
            self.discard_card(side, card, events);
        }
    }

    /// Whether a card's kind is `no-effect` (B122).
    fn card_has_no_effect(&self, card: u8) -> bool {
        self.battle
            .scenario
            .cards
            .iter()
            .any(|c| c.numbers.contains(&card) && c.effect == "no-effect")
    }

    /// After the move commander step: out of command markers go (3.23),
    /// and the next marker is drawn, or the next free activation runs.
    pub fn end_activation(&mut self, b: BrigadeId) {
        for u in self.units_of_brigade(b) {
            self.now.units[u.index()].out_of_command = false;
        }
        self.end_card_effects();
        self.now.last_group = None;
        let (free, fate) = self
            .now
            .activation
            .take()
            .map_or((false, false), |a| (a.free, a.fate_move));
        // 2.33 b: a fate check's move returns to the end phase.
        self.now.step = if fate {
            Step::Advance
        } else if free {
            Step::Free
        } else {
            Step::Select
        };
    }
}
