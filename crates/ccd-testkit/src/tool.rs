//! Running a command-line tool from its integration tests: one process, its exit status and its output as text.

use std::ffi::OsStr;
use std::process::Command;

/// What one run of a tool did.
#[derive(Clone, Debug)]
pub struct ToolRun {
    /// Exit status.
    pub code: i32,
    /// Everything written to stdout.
    pub stdout: String,
    /// Everything written to stderr.
    pub stderr: String,
}

/// Runs the executable `exe` (in a crate's integration tests, `env!("CARGO_BIN_EXE_<name>")`) with `args`.
///
/// # Panics
/// If the process cannot start, is killed by a signal, or writes output that is not UTF-8: each a test
/// failure.
pub fn run_tool<I, S>(exe: &str, args: I) -> ToolRun
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let out = Command::new(exe)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{exe} does not run: {e}"));
    ToolRun {
        code: out
            .status
            .code()
            .unwrap_or_else(|| panic!("{exe} was killed by a signal")),
        stdout: String::from_utf8(out.stdout).expect("utf-8 stdout"),
        stderr: String::from_utf8(out.stderr).expect("utf-8 stderr"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(unix)]
    fn reports_status_and_both_streams() {
        let run = run_tool("sh", ["-c", "echo out; echo err >&2; exit 3"]);
        assert_eq!(
            (run.code, run.stdout.as_str(), run.stderr.as_str()),
            (3, "out\n", "err\n")
        );
    }
}
