//! The `orderly` command line.

use std::io::{self, BufWriter};

use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};

use orderly::games::squares::{Side, Squares};

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
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum FirstSide {
    Blue,
    Gray,
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Engine { first, position } => {
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
            orderly::engine_tool::run(game, stdin.lock(), &mut out)?;
        }
    }
    Ok(())
}
