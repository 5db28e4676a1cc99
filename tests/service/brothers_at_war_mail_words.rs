//! Tanner's Ford by mail, the lines players write that the words of the
//! orders must not lose: the commander named by his name or his rank
//! (`Colonel Ward stays.`), an order after chatter on its line (`anyway
//! commander stay`), taken whole mails through the service.

#[path = "../common/mod.rs"]
mod common;

use common::site::{flat, plain_mail, to, Out, Site};
use orderly::games::brothers_at_war::core::state::{BrothersAtWar, Step};
use orderly::games::{Game, Seat};

const ANN: &str = "ann@example.org";
const BOB: &str = "bob@example.org";

impl Site {
    fn new(name: &str) -> Site {
        Site::open("orderly-baw-words", name, |config| {
            config.outgoing.html = false
        })
    }

    fn mail(&mut self, from: &str, to: &str, body: &str) -> Vec<Out> {
        self.counter += 1;
        let n = self.counter;
        let raw = plain_mail(
            from,
            to,
            "Re: Tanner's Ford",
            &format!("<w{n}@tanners-ford.test>"),
            n,
            body,
        );
        self.raw(raw.as_bytes())
    }

    fn started(&mut self, seed: &str) -> (String, String) {
        let outs = self.mail(
            ANN,
            "orderly@example.org",
            "Hi\n\nNEW BROTHERSATWAR VS bob@example.org AS UNION\n\nAnn",
        );
        let bob_addr = to(&outs, BOB).reply_to;
        self.fix_seed(seed);
        let outs = self.mail(BOB, &bob_addr, "Accept\n\nBob");
        (to(&outs, ANN).reply_to, bob_addr)
    }

    fn stored(&mut self) -> BrothersAtWar {
        let shown = orderly::service::admin::show(self.service.store(), 1, "example.org").unwrap();
        let position = shown
            .lines()
            .find_map(|l| l.strip_prefix("position "))
            .unwrap_or_else(|| panic!("no position in {shown}"));
        BrothersAtWar::from_position(position).unwrap()
    }
}

/// Plays on, each player ending his part as soon as he may, until the
/// game waits at a commander's step; the game, the sender and his
/// address.
fn at_commanders_step(
    site: &mut Site,
    addrs: (&str, &str),
) -> (BrothersAtWar, &'static str, String) {
    for _ in 0..200 {
        let model = site.stored();
        let seat = model.pending().expect("a decision").seat;
        let (from, addr) = match seat {
            Seat::North => (ANN, addrs.0.to_string()),
            Seat::South => (BOB, addrs.1.to_string()),
        };
        let legal: Vec<String> = model.legal_orders().iter().map(|o| o.to_string()).collect();
        if matches!(model.now.step, Step::Commander(_))
            && legal.iter().any(|l| l == "COMMANDER STAY")
            && model.now.reaction.is_none()
        {
            return (model, from, addr);
        }
        let close = ["READY", "END UNITS", "PASS", "KEEP", "COMMANDER STAY"]
            .into_iter()
            .find(|c| legal.iter().any(|l| l == c))
            .map(str::to_string)
            .unwrap_or_else(|| legal[0].clone());
        site.mail(from, &addr, &format!("{close}\n\nMe"));
    }
    panic!("no commander's step came");
}

#[test]
fn an_order_after_chatter_on_its_line_is_taken_not_lumped_with_the_prose() {
    let mut site = Site::new("chatter");
    let (ann, bob) = site.started(&"0b5e".repeat(16));
    let (_, from, addr) = at_commanders_step(&mut site, (&ann, &bob));
    let outs = site.mail(
        from,
        &addr,
        "Hmm, where did my volley go?\nanyway commander stay\n\nBob",
    );
    let reply = flat(&to(&outs, from).body);
    assert!(reply.contains("Taken: COMMANDER STAY"), "{reply}");
}

#[test]
fn the_commander_named_by_his_rank_and_name_stays() {
    let mut site = Site::new("colonel");
    let (ann, bob) = site.started(&"0b5e".repeat(16));
    let (model, from, addr) = at_commanders_step(&mut site, (&ann, &bob));
    let brigade = model.now.activation.as_ref().unwrap().brigade;
    let name = model.battle.scenario.brigades[brigade.index()]
        .commander
        .as_ref()
        .unwrap()
        .name
        .clone();
    let surname = name.split_whitespace().last().unwrap().to_string();
    let outs = site.mail(
        from,
        &addr,
        &format!("Colonel {surname} stays.\n\n--\nSent from my iPhone"),
    );
    let reply = flat(&to(&outs, from).body);
    assert!(reply.contains("Taken: COMMANDER STAY"), "{reply}");
}
