//! Battles (P18-P25): strengths, which attacks are allowed, the larger
//! battle and its losses, the even battle and its coin, the sacrifice and
//! its disabled marker, and the survivors' move.

use crate::games::civil_war_1863::core::event::{BattleKind, Cause, Event};
use crate::games::civil_war_1863::core::flow::{Battle, Stage};
use crate::games::civil_war_1863::core::order::Order;
use crate::games::civil_war_1863::core::side::{PieceKind, Side};
use crate::games::civil_war_1863::core::square::Square;
use crate::games::civil_war_1863::core::stack::MAX_COUNT as MAX;
use crate::games::civil_war_1863::core::stack::{Counts, Stack};
use crate::games::civil_war_1863::core::state::CivilWar1863;
use crate::games::civil_war_1863::engine::movement::{paths, reach, sails};
use crate::games::civil_war_1863::engine::refusal::Refusal;

impl CivilWar1863 {
    /// Whether the square is a key city or a capital, where the whole
    /// defence must go (P26).
    pub fn is_stronghold(&self, sq: Square) -> bool {
        self.board.key_city_side(sq).is_some() || self.board.capital(sq).is_some()
    }

    /// The defending strength on a square (P18): its pieces, infantry and
    /// cavalry counting two under a fortification marker (P32), plus the
    /// garrison of an uncaptured capital for its owner (P29).
    pub fn strength(&self, sq: Square) -> u32 {
        let mut strength = 0;
        let mut defender = None;
        if let Some(s) = self.stack(sq) {
            let all = s.all();
            strength = all.total();
            if s.fort.has_marker() {
                strength += all.ground();
            }
            defender = Some(s.side);
        }
        if let Some((owner, garrison)) = self.garrison(sq) {
            if defender.is_none_or(|d| d == owner) {
                strength += u32::from(garrison);
            }
        }
        strength
    }

    /// Whether `attack` pieces of the side to move may attack `at` (P19,
    /// P23, P24, P26).
    pub(crate) fn check_attack(&self, attack: u32, at: Square) -> Result<(), Refusal> {
        let defence = self.strength(at);
        if attack >= defence {
            return Ok(());
        }
        if attack != 1 {
            return Err(Refusal::SmallerAttack { attack, defence });
        }
        if self.is_stronghold(at) {
            return Err(Refusal::SacrificeInCity);
        }
        if self.stack(at).is_some_and(Stack::has_disabled_marker) {
            return Err(Refusal::AlreadyDisabled { square: at });
        }
        if self.disabled_markers_left() == 0 {
            return Err(Refusal::NoDisabledMarker);
        }
        Ok(())
    }

    /// A group of the side to move has moved onto an enemy square or
    /// uncaptured enemy capital: the battle begins (P18, P19).
    pub(crate) fn start_battle(
        &mut self,
        from: Square,
        at: Square,
        group: Counts,
        events: &mut Vec<Event>,
    ) {
        let attacker = self.to_move;
        let (attack, defence) = (group.total(), self.strength(at));
        let kind = if attack > defence {
            BattleKind::Larger
        } else if attack == defence {
            BattleKind::Even
        } else {
            BattleKind::Sacrifice
        };
        events.push(Event::Battle {
            attacker,
            at,
            attack,
            defence,
            kind,
        });
        let stage = match kind {
            BattleKind::Larger => Stage::Losses,
            BattleKind::Even => Stage::Coin,
            BattleKind::Sacrifice => {
                // P23: the lone attacker goes, the defenders are disabled.
                events.push(Event::Eliminated {
                    side: attacker,
                    at,
                    pieces: group,
                    cause: Cause::Battle,
                });
                if let Some(s) = self.stacks.get_mut(at) {
                    s.disabled = s.all();
                }
                events.push(Event::Disabled { at });
                return;
            }
        };
        self.battle = Some(Battle {
            at,
            from,
            attacker,
            group,
            stage,
        });
        if stage == Stage::Losses {
            self.force_single(events);
        }
    }

    /// The defender's side and pieces in the battle under way.
    fn defence(&self, at: Square) -> Counts {
        self.stack(at).map_or(Counts::NONE, Stack::all)
    }

    /// Every choice of losses the attacker has (P20, P26).
    pub(crate) fn loss_orders(&self) -> Vec<Order> {
        let Some(b) = self.battle.filter(|b| b.stage == Stage::Losses) else {
            return Vec::new();
        };
        let defence = self.strength(b.at);
        let pieces = self.defence(b.at);
        let mut out = Vec::new();
        if self.is_stronghold(b.at) {
            // P26: the whole defence, garrison and doubling included.
            for own in b.group.parts_of(defence - 1) {
                out.push(Order::Losses {
                    take: defence as u8,
                    enemy: pieces,
                    own,
                });
            }
            return out;
        }
        for take in 1..=defence {
            for enemy in pieces.parts_of(take) {
                for own in b.group.parts_of(take - 1) {
                    out.push(Order::Losses {
                        take: take as u8,
                        enemy,
                        own,
                    });
                }
            }
        }
        out
    }

    /// Whether the attacker's losses are a legal choice (P20, P26).
    pub(crate) fn check_losses(&self, take: u8, enemy: Counts, own: Counts) -> Result<(), Refusal> {
        let b = self.battle.expect("checked: a battle waits for losses");
        let defence = self.strength(b.at);
        let take = u32::from(take);
        if self.is_stronghold(b.at) && take != defence {
            return Err(Refusal::MustTakeAll { defence });
        }
        if take == 0 || take > defence {
            return Err(Refusal::TakeOutOfRange { defence });
        }
        let pieces = self.defence(b.at);
        let enemy_ok = if self.is_stronghold(b.at) {
            enemy == pieces
        } else {
            enemy.total() == take && pieces.contains(enemy)
        };
        if !enemy_ok || own.total() != take - 1 || !b.group.contains(own) {
            return Err(Refusal::WrongLosses);
        }
        Ok(())
    }

    /// Applies the attacker's losses (P20): the defender's survivors then
    /// make their move (P21), or the attacker takes the square.
    pub(crate) fn apply_losses(&mut self, enemy: Counts, own: Counts, events: &mut Vec<Event>) {
        let mut b = self.battle.expect("checked: a battle waits for losses");
        let defender = b.attacker.opponent();
        if !enemy.is_empty() {
            self.eliminate(defender, b.at, enemy, Cause::Battle, events);
        }
        if !own.is_empty() {
            b.group = b.group.minus(own);
            events.push(Event::Eliminated {
                side: b.attacker,
                at: b.at,
                pieces: own,
                cause: Cause::Battle,
            });
        }
        if let Some(s) = self.stacks.get_mut(b.at) {
            // P24: the survivors retreat and the disabled marker goes back.
            s.disabled = Counts::NONE;
            b.stage = Stage::Survivors;
            self.battle = Some(b);
            self.settle_survivors(events);
        } else {
            self.battle = Some(b);
            self.attacker_takes(events);
        }
    }

    /// Takes pieces off a square, emptying it when none remain.
    pub(crate) fn eliminate(
        &mut self,
        side: Side,
        at: Square,
        pieces: Counts,
        cause: Cause,
        events: &mut Vec<Event>,
    ) {
        if let Some(s) = self.stacks.get_mut(at) {
            s.take(pieces);
            if s.all().is_empty() {
                self.stacks.set(at, None);
            }
        }
        events.push(Event::Eliminated {
            side,
            at,
            pieces,
            cause,
        });
    }

    /// The attacker's pieces in the battle take its now empty square: a
    /// battle won there captures it (P22, P27, P29, P30).
    pub(crate) fn attacker_takes(&mut self, events: &mut Vec<Event>) {
        let b = self.battle.take().expect("a battle is under way");
        self.won_battle_at(b.attacker, b.at, events);
        let stack = self
            .stacks
            .get_or_insert(b.at, Stack::new(b.attacker, Counts::NONE));
        stack.moved = stack.moved.plus(b.group);
        events.push(Event::Took {
            side: b.attacker,
            at: b.at,
            pieces: b.group,
        });
        self.strand_at_sea(b.at, events);
    }

    /// P14: infantry left at sea without a gunboat is eliminated.
    pub(crate) fn strand_at_sea(&mut self, at: Square, events: &mut Vec<Event>) {
        if !self.board.is_water_only(at) {
            return;
        }
        let Some(s) = self.stack(at) else { return };
        let all = s.all();
        if all.get(PieceKind::Infantry) > 0 && all.get(PieceKind::Gunboat) == 0 {
            let side = s.side;
            let infantry = Counts::of(PieceKind::Infantry, all.get(PieceKind::Infantry));
            self.eliminate(side, at, infantry, Cause::AtSea, events);
        }
    }

    /// The coin of an even battle (P22): heads, the attacker wins.
    pub(crate) fn apply_toss(&mut self, heads: bool, events: &mut Vec<Event>) {
        let mut b = self.battle.expect("checked: a battle waits for the coin");
        events.push(Event::Tossed { heads });
        if heads {
            let pieces = self.defence(b.at);
            if !pieces.is_empty() {
                self.eliminate(b.attacker.opponent(), b.at, pieces, Cause::Battle, events);
            }
            b.stage = Stage::Keep { attacker: true };
        } else {
            events.push(Event::Eliminated {
                side: b.attacker,
                at: b.at,
                pieces: b.group,
                cause: Cause::Battle,
            });
            b.group = Counts::NONE;
            if self.stack(b.at).is_none() {
                // The garrison alone won: it is not reduced (P22, P29).
                self.battle = None;
                return;
            }
            b.stage = Stage::Keep { attacker: false };
        }
        self.battle = Some(b);
        self.force_single(events);
    }

    /// The kinds the winner of the even battle may keep (P22).
    pub(crate) fn keep_orders(&self) -> Vec<Order> {
        let Some(b) = self.battle else {
            return Vec::new();
        };
        let pieces = match b.stage {
            Stage::Keep { attacker: true } => b.group,
            Stage::Keep { attacker: false } => self.defence(b.at),
            _ => return Vec::new(),
        };
        pieces.kinds().map(Order::Keep).collect()
    }

    /// The winner keeps one piece of `kind` (P22, P24, P32).
    pub(crate) fn apply_keep(&mut self, kind: PieceKind, events: &mut Vec<Event>) {
        let mut b = self.battle.expect("checked: a battle waits for the keep");
        let one = Counts::of(kind, 1);
        if b.stage == (Stage::Keep { attacker: true }) {
            let gone = b.group.minus(one);
            if !gone.is_empty() {
                events.push(Event::Eliminated {
                    side: b.attacker,
                    at: b.at,
                    pieces: gone,
                    cause: Cause::Battle,
                });
            }
            events.push(Event::Kept {
                side: b.attacker,
                at: b.at,
                kind,
            });
            b.group = one;
            self.battle = Some(b);
            self.attacker_takes(events);
            return;
        }
        self.battle = None;
        let defender = b.attacker.opponent();
        if let Some(s) = self.stacks.get_mut(b.at) {
            let gone = s.all().minus(one);
            let disabled = s.has_disabled_marker();
            s.take(gone);
            // P24: the marker stays on the one piece kept.
            s.disabled = if disabled { one } else { Counts::NONE };
            if !gone.is_empty() {
                events.push(Event::Eliminated {
                    side: defender,
                    at: b.at,
                    pieces: gone,
                    cause: Cause::Battle,
                });
            }
        }
        events.push(Event::Kept {
            side: defender,
            at: b.at,
            kind,
        });
        self.strand_at_sea(b.at, events);
    }

    /// Every survivors' move the defender may make now (P21).
    pub(crate) fn survivor_orders(&self) -> Vec<Order> {
        let Some(b) = self.battle.filter(|b| b.stage == Stage::Survivors) else {
            return Vec::new();
        };
        let pieces = self.defence(b.at);
        let mut out = Vec::new();
        for part in pieces.parts().filter(|p| !p.is_empty()) {
            for path in paths(b.at, reach(part).1) {
                if self.check_survivors(part, &path).is_ok() {
                    out.push(Order::Survivors { pieces: part, path });
                }
            }
        }
        out
    }

    /// Whether a survivors' move is legal (P21): an ordinary move of its
    /// kinds, never onto an enemy square or uncaptured enemy capital.
    pub(crate) fn check_survivors(&self, pieces: Counts, path: &[Square]) -> Result<(), Refusal> {
        let b = self.battle.expect("checked: survivors are pending");
        let defender = b.attacker.opponent();
        let stack = self.stack(b.at).ok_or(Refusal::NotThere { square: b.at })?;
        if !stack.all().contains(pieces) {
            return Err(Refusal::NotThere { square: b.at });
        }
        // P13, P43: survivors go to sea only with the gunboats they stood
        // with since the start of the turn; one that arrived by an earlier
        // survivors' move has not.
        let sailing = pieces.min(Counts([MAX, 0, MAX]));
        if sails(pieces)
            && path.iter().any(|&s| self.board.is_water_only(s))
            && !stack.unmoved.contains(sailing)
        {
            return Err(Refusal::NotAboard { square: path[0] });
        }
        self.check_path(defender, b.at, pieces, path)?;
        let to = *path.last().expect("check_path saw a step");
        if self.hostile_to(defender, to) {
            return Err(Refusal::SurvivorsIntoEnemy { square: to });
        }
        Ok(())
    }

    /// Moves survivors off the battle square (P21); one that reaches an
    /// empty enemy key city captures it (P27).
    pub(crate) fn apply_survivors(
        &mut self,
        pieces: Counts,
        path: &[Square],
        events: &mut Vec<Event>,
    ) {
        let b = self.battle.expect("checked: survivors are pending");
        let defender = b.attacker.opponent();
        let to = *path.last().expect("checked: a path");
        if let Some(s) = self.stacks.get_mut(b.at) {
            s.take(pieces);
            if s.all().is_empty() {
                self.stacks.set(b.at, None);
            }
        }
        self.set_down(defender, pieces, to);
        events.push(Event::Moved {
            side: defender,
            pieces,
            from: b.at,
            to,
        });
        self.entered(defender, to, events);
        self.settle_survivors(events);
    }

    /// Ends the survivors' stage once the square is empty; survivors left
    /// with no legal move are eliminated (P21).
    pub(crate) fn settle_survivors(&mut self, events: &mut Vec<Event>) {
        let Some(b) = self.battle.filter(|b| b.stage == Stage::Survivors) else {
            return;
        };
        if self.stack(b.at).is_some() {
            if !self.survivor_orders().is_empty() {
                return;
            }
            let left = self.defence(b.at);
            self.eliminate(b.attacker.opponent(), b.at, left, Cause::NoRetreat, events);
        }
        self.attacker_takes(events);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;

    fn sq(n: &str) -> Square {
        Square::parse(n).unwrap()
    }

    fn game(text: &str) -> CivilWar1863 {
        text.parse().unwrap()
    }

    #[test]
    fn p19_a_smaller_force_of_two_may_not_attack() {
        let g = game("cw1863 1; south to move; U: F14 3I; C: E14 2I");
        assert_eq!(
            g.check_move(sq("E14"), Counts::of(PieceKind::Infantry, 2), &[sq("F14")]),
            Err(Refusal::SmallerAttack {
                attack: 2,
                defence: 3
            })
        );
    }

    #[test]
    fn p20_larger_battle_offers_every_k_and_both_sides_choose() {
        let mut g = game("cw1863 1; south to move; U: F14 2I1C; C: E14 3I2C");
        let order = g.parse_order("E14 3I2C-F14").unwrap();
        g.apply(&order).unwrap();
        let losses = g.legal_orders();
        // k = 1: 2 kinds; k = 2: 2 ways x 2 own; k = 3: 1 way x 3 own pairs.
        assert!(losses.iter().all(|o| matches!(o, Order::Losses { .. })));
        assert_eq!(losses.len(), 2 + 2 * 2 + 3);
    }

    #[test]
    fn p21_survivors_with_nowhere_to_go_are_eliminated() {
        // The Union infantry on F14 is hemmed in by the South on every side.
        let ring: Vec<String> = sq("F14")
            .neighbours()
            .filter(|&n| n != sq("E14"))
            .map(|n| format!("{n} 1C"))
            .collect();
        let text = format!(
            "cw1863 1; south to move; U: F14 2I; C: E14 3I1C / {}",
            ring.join(" / ")
        );
        let mut g = game(&text);
        g.apply(&g.parse_order("E14 3I-F14").unwrap()).unwrap();
        let events = g
            .apply(&g.parse_order("TAKE 1 KILL 1I LOSE none").unwrap())
            .unwrap();
        assert!(
            events.iter().any(|e| matches!(
                e,
                Event::Eliminated {
                    cause: Cause::NoRetreat,
                    ..
                }
            )),
            "{events:?}"
        );
        assert_eq!(g.holder(sq("F14")), Some(Side::Confederacy));
    }

    #[test]
    fn p23_sacrifice_disables_the_defenders() {
        let mut g = game("cw1863 1; south to move; U: F14 4I; C: E14 1C");
        g.apply(&g.parse_order("E14 1C-F14").unwrap()).unwrap();
        assert!(g.stack(sq("F14")).unwrap().has_disabled_marker());
        assert_eq!(g.disabled_markers_left(), 2);
    }

    #[test]
    fn p18_p29_the_garrison_adds_to_its_owners_pieces_until_captured() {
        let g = game("cw1863 1; south to move; U: P6 2I; C: A18 1I");
        assert_eq!(g.strength(sq("P6")), 6);
        let g = game("cw1863 1; south to move; U: P6 2I; C: A18 1I; flags P6");
        assert_eq!(g.strength(sq("P6")), 2);
        let g = game("cw1863 1; south to move; U: A1 1I; C: A18 1I");
        assert_eq!(
            g.strength(sq("P8")),
            5,
            "an empty capital defends with its garrison"
        );
    }

    #[test]
    fn p22_the_winning_attacker_keeps_one_piece_of_his_choice() {
        let mut g = game("cw1863 1; south to move; U: F14 2I / A1 1I; C: E14 1I1C");
        g.apply(&g.parse_order("E14 1I1C-F14").unwrap()).unwrap();
        g.apply(&Order::Toss { heads: true }).unwrap();
        assert_eq!(
            g.legal_orders(),
            vec![
                Order::Keep(PieceKind::Infantry),
                Order::Keep(PieceKind::Cavalry)
            ]
        );
        g.apply(&Order::Keep(PieceKind::Cavalry)).unwrap();
        assert_eq!(
            g.stack(sq("F14")).unwrap().all(),
            Counts::of(PieceKind::Cavalry, 1)
        );
    }

    #[test]
    fn p24_a_disabled_force_beaten_again_retreats_and_the_marker_goes_back() {
        let mut g = game("cw1863 1; south to move; U: F14 3I / A1 1I; C: E14 1C / E15 5I");
        g.apply(&g.parse_order("E14 1C-F14").unwrap()).unwrap();
        assert_eq!(g.disabled_markers_left(), 2);
        g.apply(&g.parse_order("E15 5I-F14").unwrap()).unwrap();
        g.apply(&g.parse_order("TAKE 1 KILL 1I LOSE none").unwrap())
            .unwrap();
        assert_eq!(g.disabled_markers_left(), 3);
        assert_eq!(
            g.pending().unwrap().kind,
            crate::games::civil_war_1863::core::flow::DecisionKind::Survivors
        );
    }

    #[test]
    fn p25_a_piece_that_has_moved_cannot_attack_but_others_may_attack_again() {
        let mut g = game("cw1863 1; south to move; U: F14 1I1C / A1 1I; C: E14 3I / E13 2I");
        g.apply(&g.parse_order("E14 3I-F14").unwrap()).unwrap();
        g.apply(&g.parse_order("TAKE 1 KILL 1I LOSE none").unwrap())
            .unwrap();
        // The Union cavalry retreats; F14 is the South's and its pieces have moved.
        g.apply(&g.parse_order("SURVIVORS 1C-G13").unwrap())
            .unwrap();
        assert_eq!(
            g.check_move(sq("F14"), Counts::of(PieceKind::Infantry, 2), &[sq("G13")]),
            Err(Refusal::AlreadyMoved {
                square: sq("F14"),
                attack: true
            }),
            "G13 now holds the Union cavalry: an attack, refused by P25"
        );
        assert_eq!(
            g.check_move(sq("E13"), Counts::of(PieceKind::Infantry, 1), &[sq("F14")]),
            Ok(()),
            "joining the square once it is theirs"
        );
    }

    #[test]
    fn p26_no_sacrifice_in_a_key_city() {
        let g = game("cw1863 1; south to move; U: C6 3I; C: D6 1C");
        assert_eq!(g.check_attack(1, sq("C6")), Err(Refusal::SacrificeInCity));
    }
}
