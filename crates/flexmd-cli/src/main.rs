//! The `flexmd` binary: see the crate's library for everything it does.

fn main() -> std::process::ExitCode {
    flexmd_cli::main()
}
