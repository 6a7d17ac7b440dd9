//! `xpat-solver RULE.SEED [-check FILE | -search FILE]`: see `--help`.

use std::process::ExitCode;

use xpat_solver::cli;

fn main() -> ExitCode {
    match cli::parse(std::env::args_os()) {
        Ok(options) => ExitCode::from(cli::run(options)),
        Err(code) => ExitCode::from(code),
    }
}
