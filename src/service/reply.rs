//! The reply to the sender: every line they wrote, echoed with what was
//! done, then the sections it asked for (boards, help, lists), capped in
//! size by the mail it answers.

use serde::Serialize;

use super::identity::reply_address;
use super::subject::{game_subject, reply_subject};
use super::work::Work;
use super::{texts, Result};
use crate::mail::outgoing::{message_id, AutoKind, OutgoingMail};
use crate::store::StoreError;

/// One echoed line of the reply: what was understood, what was done.
#[derive(Clone, Debug, Serialize)]
pub(super) struct Item {
    pub(super) line: String,
    pub(super) answer: String,
    #[serde(skip)]
    pub(super) refused: bool,
}

impl Work<'_> {
    pub(super) fn item(&mut self, line: &str, answer: impl Into<String>, refused: bool) {
        let line = self.written.get(line).map_or(line, String::as_str);
        // The echo of what was written is for recognising the line, not a
        // copy of it: a long line is cut (no amplification of its text).
        const ECHO_CHARS: usize = 120;
        let echo = if line.chars().count() > ECHO_CHARS {
            let cut: String = line.chars().take(ECHO_CHARS).collect();
            format!("{cut}... (cut)")
        } else {
            line.to_string()
        };
        self.items.push(Item {
            line: echo,
            answer: texts::wrap(&answer.into()).trim_end().to_string(),
            refused,
        });
    }

    /// Queues the reply to the sender and every other mail decided.
    pub(super) fn queue_reply(&mut self) -> Result<()> {
        let (reply_to, subject, list_id, game_seat) = match &self.game {
            Some((g, s)) => (
                Some(reply_address(&self.config.service.address, g.id, &s.secret)),
                if self.items.iter().any(|i| i.refused) && !self.items.iter().any(|i| !i.refused) {
                    format!("Game {}: refused", g.id)
                } else {
                    // The game as this mail left it.
                    let g = self.tx.game(g.id)?.unwrap_or_else(|| g.clone());
                    game_subject(&g, Some(s.seat))
                },
                Some(format!("<game-{}.{}>", g.id, self.domain())),
                Some((g.id, s.seat)),
            ),
            None => (None, reply_subject(&self.incoming.subject), None, None),
        };
        if self.stranger && self.game.is_none() && self.items.len() > 1 {
            // Someone with no part in the game gets one short answer, not an
            // echo of everything they wrote (no backscatter to a forged
            // From, no amplification).
            let first = self.items.iter().position(|i| i.refused).unwrap_or(0);
            let left = self.items.len() - 1;
            let kept = self.items.swap_remove(first);
            self.items = vec![
                kept,
                Item {
                    line: "(the rest of this mail)".into(),
                    answer: format!("{left} more line(s) not answered."),
                    refused: true,
                },
            ];
            self.parts.clear();
        }
        let intro = if self.items.iter().any(|i| i.refused) {
            "orderly read your mail. Some of it could not be done; each line you\nwrote is answered below."
        } else {
            "orderly read your mail; each line you wrote is answered below."
        };
        let body = texts::render(
            "reply",
            minijinja::context! {
                intro => intro,
                items => self.items,
                parts => self.parts,
                address => self.config.service.address,
            },
        );
        let body = cap_reply(body, self.incoming_size);
        let id = message_id(&format!("{}/reply", self.message_id), self.domain());
        let mut references = self.incoming.references.clone();
        if let Some(own) = &self.incoming.message_id {
            references.push(own.clone());
        }
        let reply = OutgoingMail {
            message_id: id,
            from: self.sender_mailbox(),
            to: self.sender.to_string(),
            reply_to,
            subject,
            in_reply_to: self.incoming.message_id.clone(),
            references,
            list_id,
            body,
            date: self.now,
            auto: AutoKind::Replied,
            return_path: None,
            text_only: false,
        };
        self.outgoing.insert(0, (reply, game_seat));
        for (mail, seat) in std::mem::take(&mut self.outgoing) {
            let json = serde_json::to_string(&mail)
                .map_err(|e| StoreError::Corrupt(format!("outgoing mail: {e}")))?;
            self.tx.queue_mail(
                &mail.message_id,
                seat.map(|(g, _)| g),
                &mail.to,
                &json,
                self.at,
            )?;
            if let Some((g, s)) = seat {
                self.tx.set_last_message(g, s, &mail.message_id)?;
            }
        }
        Ok(())
    }
}

/// The smallest cap on a reply's body, in bytes: a reply is never much
/// larger than the mail it answers, so a short mail cannot make orderly
/// send a long one (amplification).
const REPLY_CAP_BYTES: usize = 64 * 1024;

/// `body`, cut at a line's end to at most the larger of
/// [`REPLY_CAP_BYTES`] and the incoming mail's size, with a note of what
/// was left out.
fn cap_reply(body: String, incoming_size: usize) -> String {
    let cap = REPLY_CAP_BYTES.max(incoming_size);
    if body.len() <= cap {
        return body;
    }
    let mut end = cap.saturating_sub(200);
    while !body.is_char_boundary(end) {
        end -= 1;
    }
    let end = body[..end].rfind('\n').map_or(end, |i| i + 1);
    format!(
        "{}\n[The rest of this reply, {} bytes, is left out: a reply is at most \
         {cap} bytes. Send fewer lines in one mail.]\n",
        &body[..end],
        body.len() - end
    )
}
