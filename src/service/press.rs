//! Messages between the players (SAY, PRESS): kept in the game's record
//! and passed to the opponent with the update this mail makes, or alone.

use super::game::side_name;
use super::reply::Answer;
use super::texts;
use super::work::Work;
use super::Result;
use crate::store::{EntryKind, GameRow, SeatRow};

impl Work<'_> {
    /// `SAY text`: the message goes to the opponent with this mail's
    /// update (or on its own) and into the record.
    pub(super) fn pass_message(
        &mut self,
        line: &str,
        text: &str,
        game: &GameRow,
        seat: &SeatRow,
    ) -> Result<()> {
        // A message is read by a person: no control characters, and no
        // more than a short letter's length.
        const MOST_CHARS: usize = 1000;
        let text: String = text
            .chars()
            .filter(|c| !c.is_control())
            .take(MOST_CHARS)
            .collect();
        let side = side_name(game, seat.seat);
        let words = texts::say(
            "press.says",
            minijinja::context! { side => side, text => text },
        );
        let count = self.tx.entry_count(game.id)?;
        self.tx.add_entry(
            game.id,
            EntryKind::Comment,
            Some(seat.seat),
            &words,
            line,
            Some(self.message_id),
            self.at,
            &[],
        )?;
        if game.order_count == count {
            // The cached position stays current: a message changes no state.
            if let Some(position) = &game.position {
                self.tx
                    .set_position(game.id, position, count + 1, self.at)?;
            }
        }
        // The game as this mail has left it so far names the mail, when
        // no update carries the message.
        let row = self.reload(game.id)?;
        self.notify_other(&row, seat.seat, words)?;
        self.item(
            line,
            Answer::Done(texts::say(
                "press.passed",
                minijinja::context! { side => side_name(game, seat.seat.other()), text => text },
            )),
        );
        Ok(())
    }
}
