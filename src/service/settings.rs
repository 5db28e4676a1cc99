//! A player's own settings: the address they play from (SET ADDRESS,
//! CONFIRM ADDRESS), vacations, the time zone deadlines are shown in,
//! reminders or a daily digest, and the board as a picture or not.

use super::clock::{start_vacation, vacation_days_used, whole_days, year_start};
use super::notices::queue_notice;
use super::reply::Answer;
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
            self.item(
                line,
                Answer::Refused(texts::say(
                    "settings.address_not_a_mailbox",
                    minijinja::context! { why => why },
                )),
            );
            return Ok(());
        }
        if new == self.sender || identity::is_own_address(self.config, new) {
            self.item(
                line,
                Answer::Refused(texts::say("settings.address_the_same", ())),
            );
            return Ok(());
        }
        let code = identity::address_code(self.secret, seat.player_id, new, self.message_id);
        self.tx
            .request_address_change(&code, seat.player_id, new, self.at)?;
        let body = texts::wrap(&texts::say(
            "settings.address_code_mail",
            minijinja::context! {
                player => self.sender,
                code => code,
                days => ADDRESS_CODE_DAYS,
            },
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
            Answer::Done(texts::say(
                "settings.address_code_sent",
                minijinja::context! { address => new, days => ADDRESS_CODE_DAYS },
            )),
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
                Answer::Refused(texts::say("settings.address_code_unknown", ())),
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
                let body = texts::wrap(&texts::say(
                    "settings.address_moved_notice",
                    minijinja::context! { game => g.id, address => self.sender, old => old },
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
            texts::say("settings.address_no_open_game", ())
        } else {
            texts::say(
                "settings.address_games_moved",
                minijinja::context! { games => moved.join(", ") },
            )
        };
        self.item(
            line,
            Answer::Done(texts::say(
                "settings.address_confirmed",
                minijinja::context! { old => old, address => self.sender, games => games },
            )),
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
            &texts::say("settings.vacation_line", ()),
            Answer::Done(texts::say("settings.vacation_ended_early", ())),
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
                        self.item(
                            line,
                            Answer::NotUnderstood(texts::say("settings.vacation_out_of_range", ())),
                        );
                        return Ok(());
                    }
                }
            }
        };
        if ends <= self.now {
            self.item(
                line,
                Answer::Refused(texts::say("settings.vacation_over", ())),
            );
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
                Answer::Refused(texts::say("settings.vacation_overlaps", ())),
            );
            return Ok(());
        }
        let used = vacation_days_used(&taken);
        let allowance = i64::from(self.config.deadlines.vacation_days_per_year);
        if used + days > allowance {
            self.item(
                line,
                Answer::Refused(texts::say(
                    "settings.vacation_too_long",
                    minijinja::context! {
                        days => days,
                        allowance => allowance,
                        left => (allowance - used).max(0),
                    },
                )),
            );
            return Ok(());
        }
        let id = self.tx.add_vacation(player, starts.into(), ends.into())?;
        if starts <= self.now {
            start_vacation(self.tx, self.config, id, player, starts, ends, self.now)?;
        }
        self.item(
            line,
            Answer::Done(texts::say(
                "settings.vacation_set",
                minijinja::context! {
                    starts => local_time(starts, "UTC"),
                    ends => local_time(ends, "UTC"),
                    left => allowance - used - days,
                },
            )),
        );
        Ok(())
    }

    /// `SET TIMEZONE <IANA name>`: the zone deadlines are shown in.
    pub(super) fn set_timezone(&mut self, line: &str, zone: &str) -> Result<()> {
        match zone.parse::<chrono_tz::Tz>() {
            Ok(tz) => {
                let player = self.tx.player(self.sender, "", self.at)?;
                self.tx.set_timezone(player, tz.name())?;
                self.item(
                    line,
                    Answer::Done(texts::say(
                        "settings.timezone_set",
                        minijinja::context! { zone => tz.name() },
                    )),
                );
            }
            Err(_) => self.item(
                line,
                Answer::Refused(texts::say(
                    "settings.timezone_unknown",
                    minijinja::context! { zone => zone },
                )),
            ),
        }
        Ok(())
    }

    /// `SET DIGEST DAILY|OFF`: one mail a day instead of reminders.
    pub(super) fn set_digest(&mut self, line: &str, on: bool) -> Result<()> {
        let player = self.tx.player(self.sender, "", self.at)?;
        self.tx.set_digest(player, on)?;
        let what = if on {
            texts::say("settings.digest_on", ())
        } else {
            texts::say("settings.digest_off", ())
        };
        self.item(line, Answer::Done(what));
        Ok(())
    }

    /// `SET PICTURES ON|OFF`, for all the player's mail (issue 19).
    pub(super) fn set_pictures(&mut self, line: &str, on: bool) -> Result<()> {
        let player = self.tx.player(self.sender, "", self.at)?;
        self.tx.set_pictures(player, on)?;
        self.item(
            line,
            Answer::Done(texts::say(
                "settings.pictures",
                minijinja::context! { on => on, server => self.config.outgoing.pictures && self.config.outgoing.html },
            )),
        );
        Ok(())
    }

    /// `SET REMINDERS ON|OFF`, for all the player's games.
    pub(super) fn set_reminders(&mut self, line: &str, on: bool) -> Result<()> {
        let player = self.tx.player(self.sender, "", self.at)?;
        self.tx.set_reminders(player, on)?;
        self.item(
            line,
            Answer::Done(texts::say(
                "settings.reminders",
                minijinja::context! { on => on },
            )),
        );
        Ok(())
    }
}
