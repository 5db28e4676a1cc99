//! The `orderly` command line.

use std::io::{self, BufWriter};

use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};

use orderly::games::squares::{Side, Squares};
use orderly::games::Seat;

#[derive(Parser)]
#[command(
    name = "orderly",
    version,
    about = "A play-by-email service for board wargames"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play SQUARES orders read from stdin, one per line, printing the events,
    /// the position string, the pending decision and every legal order.
    Engine {
        /// Who moves first in the opening position.
        #[arg(long, value_enum, default_value_t = FirstSide::Blue)]
        first: FirstSide,
        /// Start from this position string instead of the opening.
        #[arg(long, conflicts_with = "first")]
        position: Option<String>,
        /// Print the ASCII board after each order: from the seat of the
        /// player to act, or from `blue`'s or `gray`'s seat.
        #[arg(long, value_enum, num_args = 0..=1, default_missing_value = "mover")]
        board: Option<BoardView>,
        /// Print the pending choices worded for the player to act.
        #[arg(long)]
        choices: bool,
    },
    /// Replay a game record, re-validating every order: print the final
    /// board and the result, or the first illegal order with its line.
    Replay(orderly::replay_tool::ReplayArgs),
}

#[derive(Clone, Copy, ValueEnum)]
enum BoardView {
    /// The seat of the player to act.
    Mover,
    Blue,
    Gray,
}

#[derive(Clone, Copy, ValueEnum)]
enum FirstSide {
    Blue,
    Gray,
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Engine {
            first,
            position,
            board,
            choices,
        } => {
            let game = match position {
                Some(text) => text
                    .parse::<Squares>()
                    .with_context(|| format!("reading the position {text:?}"))?,
                None => Squares::opening(match first {
                    FirstSide::Blue => Side::Blue,
                    FirstSide::Gray => Side::Gray,
                }),
            };
            let stdin = io::stdin();
            let mut out = BufWriter::new(io::stdout().lock());
            let extras = orderly::engine_tool::Extras {
                board: board.map(|view| match view {
                    BoardView::Mover => None,
                    BoardView::Blue => Some(Seat::North),
                    BoardView::Gray => Some(Seat::South),
                }),
                choices,
            };
            orderly::engine_tool::run_with(game, stdin.lock(), &mut out, extras)?;
        }
        Command::Replay(args) => {
            let replayed =
                orderly::replay_tool::run(&args, &mut io::stdout().lock(), &mut io::stderr())?;
            if !replayed {
                std::process::exit(1);
            }
        }
    }
    Ok(())
}
