//! `xpat-solver RULE.SEED [-check FILE | -search FILE]`: see `--help`.
//! `xpat-solver survey ...`: see `xpat-solver survey --help`.
//!
//! The binary is the command line ([`cli`]) over the library
//! `xpat_solver`, which it calls as any other program would.

use std::process::ExitCode;

mod cli;

/// Running out of memory is an outcome (`ECHEC`, "out of memory"), not an
/// abort: see [`xpat_solver::memory::WithSpare`].
#[global_allocator]
static ALLOCATOR: xpat_solver::memory::WithSpare = xpat_solver::memory::WithSpare;

fn main() -> ExitCode {
    xpat_solver::memory::return_freed_memory();
    xpat_solver::memory::install_spare();
    let mut args: Vec<_> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == "survey") {
        return ExitCode::from(xpat_solver::survey::main(args.split_off(2)));
    }
    match cli::parse(args) {
        Ok(options) => ExitCode::from(cli::run(options)),
        Err(code) => ExitCode::from(code),
    }
}
