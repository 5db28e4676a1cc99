//! A player's own settings: the address they play from (SET ADDRESS,
//! CONFIRM ADDRESS), vacations, the time zone deadlines are shown in.

use super::clock::{start_vacation, vacation_days_used, whole_days, year_start};
use super::notices::queue_notice;
use super::work::Work;
use super::zones::local_time;
use super::{commands, identity, texts, Result};
use crate::store::{seat_text, GameRow, SeatRow, Timestamp};

/// Days a SET ADDRESS code may be confirmed from the new address.
const ADDRESS_CODE_DAYS: i64 = 7;

impl Work<'_> {
    /// `SET ADDRESS new@address`: a code goes to the new address; the move
    /// happens when it comes back from there (CONFIRM ADDRESS).
    pub(super) fn set_address(
        &mut self,
        line: &str,
        new: &str,
        game: &GameRow,
        seat: &SeatRow,
    ) -> Result<()> {
        if let Err(why) = identity::check_mailbox(new) {
            self.item(line, format!("Refused: {why}. Nothing was changed."), true);
            return Ok(());
        }
        if new == self.sender || identity::is_own_address(self.config, new) {
            self.item(
                line,
                "Refused: name the new address you want to play from. Nothing was changed.",
                true,
            );
            return Ok(());
        }
        let code = identity::address_code(self.secret, seat.player_id, new, self.message_id);
        self.tx
            .request_address_change(&code, seat.player_id, new, self.at)?;
        let body = texts::wrap(&format!(
            "{} asked orderly to move their games to this address. If this is \
             you, reply from this address with the line\n\n  CONFIRM ADDRESS {code}\n\n\
             within {ADDRESS_CODE_DAYS} days. If it is not, ignore this mail: nothing \
             changes.",
            self.sender
        ));
        queue_notice(
            self.tx,
            self.config,
            game,
            new,
            None,
            body,
            &format!("{}/address", self.message_id),
            self.now,
        )?;
        self.item(
            line,
            format!(
                "A code went to {new}: write CONFIRM ADDRESS <code> from there within \
                 {ADDRESS_CODE_DAYS} days, and your games move to it. Until then \
                 nothing changes."
            ),
            false,
        );
        Ok(())
    }

    /// `CONFIRM ADDRESS code`, from the new address: every seat moves.
    pub(super) fn confirm_address(&mut self, line: &str, code: &str) -> Result<()> {
        let since = self.now - chrono::Duration::days(ADDRESS_CODE_DAYS);
        let Some((player, old)) = self
            .tx
            .take_address_change(code, self.sender, since.into())?
        else {
            self.item(
                line,
                "Refused: this code is not one orderly sent to this address in the \
                 last days. Write SET ADDRESS again from your old address.",
                true,
            );
            return Ok(());
        };
        self.tx.move_player(player, self.sender)?;
        let me = self.tx.player(self.sender, "", self.at)?;
        let mut moved = Vec::new();
        for g in self.tx.games_of(me)? {
            if !g.status.is_open() {
                continue;
            }
            moved.push(g.id.to_string());
            let seats = self.tx.seats(g.id)?;
            for other in seats.iter().filter(|s| s.player_id != me) {
                let body = texts::wrap(&format!(
                    "Your opponent in game {} now plays from {} (before: {old}).",
                    g.id, self.sender
                ));
                let seed = format!(
                    "{}/moved/{}/{}",
                    self.message_id,
                    g.id,
                    seat_text(other.seat)
                );
                queue_notice(
                    self.tx,
                    self.config,
                    &g,
                    &other.address,
                    Some((g.id, other.seat)),
                    body,
                    &seed,
                    self.now,
                )?;
            }
        }
        let games = if moved.is_empty() {
            "You have no open game; new ones will come here.".to_string()
        } else {
            format!(
                "Your games ({}) are played from here now.",
                moved.join(", ")
            )
        };
        self.item(
            line,
            format!("Confirmed: {old} is now {}. {games}", self.sender),
            false,
        );
        Ok(())
    }

    /// Any order ends the sender's vacation early: their other games'
    /// deadlines give back the days not taken.
    pub(super) fn end_vacation_early(&mut self) -> Result<()> {
        let Some(player) = self.tx.player_id(self.sender)? else {
            return Ok(());
        };
        let Some((id, ends)) = self.tx.on_vacation(player, self.at)? else {
            return Ok(());
        };
        let unused = ends.utc() - self.now;
        for (game, _, deadline) in self.tx.deadlines_of_player(player)? {
            let back = (deadline.utc() - unused).max(self.now);
            self.tx.move_deadline(game, back.into())?;
        }
        self.tx.end_vacation(id, self.at)?;
        self.item(
            "(vacation)",
            "Your order ends your vacation early; the unused days are yours again.",
            false,
        );
        Ok(())
    }

    /// `VACATION ...`: checked against the yearly allowance and the
    /// player's other vacations, stored, and started at once when it starts
    /// now (the sweep starts later ones).
    pub(super) fn vacation(&mut self, line: &str, span: commands::VacationSpan) -> Result<()> {
        let player = self.tx.player(self.sender, "", self.at)?;
        let (starts, ends) = match span {
            commands::VacationSpan::Days(n) => {
                (self.now, self.now + chrono::Duration::days(i64::from(n)))
            }
            commands::VacationSpan::Dates(a, b) => {
                let day = |d: chrono::NaiveDate| d.and_hms_opt(0, 0, 0).map(|t| t.and_utc());
                match (day(a), day(b.succ_opt().unwrap_or(b))) {
                    (Some(s), Some(e)) => (s.max(self.now), e),
                    _ => {
                        self.item(line, "Not understood: those dates are out of range.", true);
                        return Ok(());
                    }
                }
            }
        };
        if ends <= self.now {
            self.item(line, "Refused: that vacation is over already.", true);
            return Ok(());
        }
        let days = whole_days(ends - starts);
        let taken = self.tx.vacations_of(player, year_start(self.now))?;
        let overlaps = taken.iter().any(|v| {
            !v.ended && v.starts < Timestamp::from(ends) && v.ends > Timestamp::from(starts)
        });
        if overlaps {
            self.item(
                line,
                "Refused: it overlaps a vacation you have already set.",
                true,
            );
            return Ok(());
        }
        let used = vacation_days_used(&taken);
        let allowance = i64::from(self.config.deadlines.vacation_days_per_year);
        if used + days > allowance {
            self.item(
                line,
                format!(
                    "Refused: {days} days would exceed your {allowance} vacation days this \
                     year ({} left).",
                    (allowance - used).max(0)
                ),
                true,
            );
            return Ok(());
        }
        let id = self.tx.add_vacation(player, starts.into(), ends.into())?;
        if starts <= self.now {
            start_vacation(self.tx, self.config, id, player, starts, ends, self.now)?;
        }
        self.item(
            line,
            format!(
                "Vacation from {} to {}: your clocks stop in every game; any order \
                 you send ends it early. {} vacation days left this year.",
                local_time(starts, "UTC"),
                local_time(ends, "UTC"),
                allowance - used - days
            ),
            false,
        );
        Ok(())
    }

    pub(super) fn set_timezone(&mut self, line: &str, zone: &str) -> Result<()> {
        match zone.parse::<chrono_tz::Tz>() {
            Ok(tz) => {
                let player = self.tx.player(self.sender, "", self.at)?;
                self.tx.set_timezone(player, tz.name())?;
                self.item(
                    line,
                    format!("Deadlines will be shown to you in {}.", tz.name()),
                    false,
                );
            }
            Err(_) => self.item(
                line,
                format!(
                    "Refused: {zone:?} is not a time zone; write one of the IANA names, \
                     such as Europe/Paris, America/New_York or UTC."
                ),
                true,
            ),
        }
        Ok(())
    }
}
