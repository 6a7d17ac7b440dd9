//! `xpat-solver RULE.SEED [-check FILE | -search FILE]`: see `--help`.

use std::process::ExitCode;

fn main() -> ExitCode {
    match xpat_solver::cli::parse(std::env::args_os()) {
        Ok(args) => ExitCode::from(xpat_solver::cli::run(args)),
        Err(code) => ExitCode::from(code),
    }
}
