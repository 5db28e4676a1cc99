//! The reply to the sender: every line they wrote, echoed with what was
//! done, then the sections it asked for (boards, help, lists), capped in
//! size by the mail it answers. What became of each line is typed
//! ([`Answer`]): the reply's intro and subject and the log's outcome are
//! decided by it, never by the wording.

use super::identity::reply_address;
use super::subject::{game_subject, reply_subject};
use super::work::Work;
use super::{texts, Result};
use crate::mail::outgoing::{message_id, AutoKind, OutgoingMail};

/// What became of one line (or one moderator command), with the words
/// that tell the writer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Done as asked, or answered (what only informs).
    Done(String),
    /// Understood, but not done: not allowed, not now, or not legal.
    Refused(String),
    /// Not read as what it seems to be meant for; nothing was done.
    NotUnderstood(String),
    /// Prose, neither an order nor a command: no failure.
    Ignored(String),
}

impl Answer {
    /// The words of the answer.
    pub fn text(&self) -> &str {
        match self {
            Answer::Done(t)
            | Answer::Refused(t)
            | Answer::NotUnderstood(t)
            | Answer::Ignored(t) => t,
        }
    }

    /// The words of the answer, taken.
    pub fn into_text(self) -> String {
        match self {
            Answer::Done(t)
            | Answer::Refused(t)
            | Answer::NotUnderstood(t)
            | Answer::Ignored(t) => t,
        }
    }

    /// Whether the line failed: refused or not understood (what makes a
    /// reply say that some of the mail could not be done).
    pub fn is_failure(&self) -> bool {
        matches!(self, Answer::Refused(_) | Answer::NotUnderstood(_))
    }

    /// The same answer in other words.
    fn map(self, f: impl FnOnce(String) -> String) -> Answer {
        match self {
            Answer::Done(t) => Answer::Done(f(t)),
            Answer::Refused(t) => Answer::Refused(f(t)),
            Answer::NotUnderstood(t) => Answer::NotUnderstood(f(t)),
            Answer::Ignored(t) => Answer::Ignored(f(t)),
        }
    }
}

/// One echoed line of the reply: what was written, what became of it.
#[derive(Clone, Debug)]
pub(super) struct Item {
    /// The line as written (cut when long).
    pub(super) line: String,
    /// What became of it, wrapped for the reply.
    pub(super) answer: Answer,
    /// The line's place among the mail's lines, when it is one of them
    /// (not a line of the service's, as the end of the mail closing a
    /// turn): the reply lists the answers in the mail's order.
    pub(super) at: Option<usize>,
}

impl Work<'_> {
    /// Answers `line` (the text read from it; the reply quotes it as the
    /// player wrote it).
    pub(super) fn item(&mut self, line: &str, answer: Answer) {
        // The line as written: of several lines read as the same text,
        // the first not yet answered (lines are answered in order), the
        // last one for any later answer.
        let (at, line) = match self.written.get_mut(line) {
            Some(lines) if lines.len() > 1 => lines.pop_front().unwrap_or_default(),
            Some(lines) => lines
                .front()
                .cloned()
                .unwrap_or_else(|| (0, line.to_string())),
            None => {
                self.item_at(line, answer, None);
                return;
            }
        };
        self.item_at(&line, answer, Some(at));
    }

    /// Answers `line`, the mail's line number `at` (`None`: no line of
    /// the mail), quoted as given.
    pub(super) fn item_at(&mut self, line: &str, answer: Answer, at: Option<usize>) {
        // The echo of what was written is for recognising the line, not a
        // copy of it: a long line is cut (no amplification of its text).
        const ECHO_CHARS: usize = 120;
        let echo = if line.chars().count() > ECHO_CHARS {
            let cut: String = line.chars().take(ECHO_CHARS).collect();
            texts::say("mail.echo_cut", minijinja::context! { cut => cut })
        } else {
            line.to_string()
        };
        self.items.push(Item {
            line: echo,
            answer: answer.map(|text| texts::wrap(&text).trim_end().to_string()),
            at,
        });
    }

    /// The answers in the order of the lines they answer: lines played
    /// together (orders in a row, with prose between them answered after
    /// them; lines held, refused or unused) are answered as the game took
    /// them, but the reply echoes the mail as it was written. An answer
    /// to no line of the mail stays after the answer before it.
    pub(super) fn items_in_mail_order(&mut self) {
        let mut last = 0;
        let mut keyed: Vec<(usize, Item)> = std::mem::take(&mut self.items)
            .into_iter()
            .map(|item| {
                last = item.at.unwrap_or(last);
                (last, item)
            })
            .collect();
        keyed.sort_by_key(|(at, _)| *at);
        self.items = keyed.into_iter().map(|(_, item)| item).collect();
    }

    /// What became of the mail, for the log: `orders taken`, `orders
    /// taken, 3 lines ignored`, `refused: 1 line, orders taken`, `ok` (only
    /// commands), `no order or command, 2 lines ignored`.
    pub(super) fn outcome(&self) -> String {
        let refused = self.items.iter().filter(|i| i.answer.is_failure()).count();
        let lines = |n: usize| match n {
            1 => "1 line".to_string(),
            n => format!("{n} lines"),
        };
        let mut out = if refused > 0 {
            let mut out = format!("refused: {}", lines(refused));
            if self.taken > 0 {
                out.push_str(", orders taken");
            }
            out
        } else if self.taken > 0 {
            "orders taken".to_string()
        } else if self
            .items
            .iter()
            .all(|i| matches!(i.answer, Answer::Ignored(_)))
        {
            "no order or command".to_string()
        } else {
            "ok".to_string()
        };
        if self.ignored > 0 {
            out.push_str(&format!(", {} ignored", lines(self.ignored)));
        }
        out
    }

    /// Queues the reply to the sender and every other mail decided.
    pub(super) fn queue_reply(&mut self) -> Result<()> {
        self.items_in_mail_order();
        let (reply_to, subject, list_id, game_seat) = match &self.game {
            Some((g, s)) => (
                Some(reply_address(&self.config.service.address, g.id, &s.secret)),
                if self.items.iter().any(|i| i.answer.is_failure())
                    && self.items.iter().all(|i| i.answer.is_failure())
                {
                    texts::say("subject.refused", minijinja::context! { game => g.id })
                } else {
                    // The game as this mail left it.
                    let g = self.tx.game(g.id)?.unwrap_or_else(|| g.clone());
                    game_subject(&g, Some(s.seat))
                },
                Some(format!("<game-{}.{}>", g.id, self.domain())),
                Some((g.id, s.seat)),
            ),
            // A Play of the Day member's reply carries their key (replying
            // to it votes, `daily.rs`), a new watcher's theirs (replying
            // confirms, `observers.rs`).
            None => match &self.reply_key {
                Some((game, key, subject)) => (
                    Some(reply_address(&self.config.service.address, *game, key)),
                    subject.clone(),
                    None,
                    None,
                ),
                None => (None, reply_subject(&self.incoming.subject), None, None),
            },
        };
        if self.stranger && self.game.is_none() && self.items.len() > 1 {
            // Someone with no part in the game gets one short answer, not an
            // echo of everything they wrote (no backscatter to a forged
            // From, no amplification).
            let first = self
                .items
                .iter()
                .position(|i| i.answer.is_failure())
                .unwrap_or(0);
            let left = self.items.len() - 1;
            let kept = self.items.swap_remove(first);
            self.items = vec![
                kept,
                Item {
                    at: None,
                    line: texts::say("mail.rest", ()),
                    answer: Answer::Refused(texts::say(
                        "mail.rest_not_answered",
                        minijinja::context! { left => left },
                    )),
                },
            ];
            self.parts.clear();
        }
        let intro = if self.items.iter().any(|i| i.answer.is_failure()) {
            texts::say("mail.intro_failed", ())
        } else {
            texts::say("mail.intro", ())
        };
        let body = texts::render(
            "reply",
            minijinja::context! {
                intro => intro,
                items => self
                    .items
                    .iter()
                    .map(|i| minijinja::context! { line => i.line, answer => i.answer.text() })
                    .collect::<Vec<_>>(),
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
            picture: self.reply_picture.take(),
        };
        self.outgoing.insert(0, (reply, game_seat));
        self.queue_outgoing()
    }

    /// Queues the mails to others this work made, each seat's threaded
    /// on the next.
    pub(super) fn queue_outgoing(&mut self) -> Result<()> {
        for (mut mail, seat) in std::mem::take(&mut self.outgoing) {
            super::outbox::queue(self.tx, &mut mail, seat.map(|(g, _)| g), self.at)?;
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
    let note = texts::say(
        "mail.reply_cut",
        minijinja::context! { left => body.len() - end, cap => cap },
    );
    format!("{}\n{note}\n", &body[..end])
}
