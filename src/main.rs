//! `xpat-solver RULE.SEED [-check FILE | -search FILE]`: see `--help`.
//! `xpat-solver survey ...`: see `xpat-solver survey --help`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args: Vec<_> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == "survey") {
        return ExitCode::from(xpat_solver::survey::main(args.split_off(2)));
    }
    match xpat_solver::cli::parse(args) {
        Ok(args) => ExitCode::from(xpat_solver::cli::run(args)),
        Err(code) => ExitCode::from(code),
    }
}
