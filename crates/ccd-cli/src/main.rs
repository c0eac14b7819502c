//! `ccd`: build, inspect and query collision models from the command line.
//!
//! ```text
//! ccd build mesh.obj -o mesh.bvh [--bv obb|aabb|sphere|rss] [--f32] [--leaf-size N] [--fit hull|triangles]
//! ccd info mesh.bvh [--json]
//! ccd collide a.bvh b.obj --pose-b 0.5,0,0,0,0,1.57 [--first] [--json] [--exit-code] [--export hits.ply]
//! ccd toi a.obj b.bvh --motion-a static --motion-b translate:-6,0,0 --pose-b 3,0,0 [--json]
//! ```
//!
//! Every failure exits with status 1 (2 for command-line usage errors, and for every failure of
//! `collide --exit-code`, which exits 1 when the models collide) and prints exactly one line,
//! `error: …`, naming the file at fault.

mod cmd;

use ccd_cli::args;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

use crate::args::{Cli, Command};

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        // A panic is a bug in ccd; keep the one-line error contract anyway.
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!(
            "error: internal error (a bug in ccd): {}{at}",
            one_line(&message)
        );
    }));

    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    // `collide --exit-code`: 1 when colliding, and errors move to 2 so that scripts can tell them apart.
    let exit_code = matches!(&cli.command, Command::Collide(a) if a.exit_code);
    let mut colliding = false;
    let result = match &cli.command {
        Command::Build(a) => cmd::build::run(a, &mut out),
        Command::Info(a) => cmd::info::run(a, &mut out),
        Command::Collide(a) => cmd::collide::run(a, &mut out).map(|c| colliding = c),
        Command::Toi(a) => cmd::toi::run(a, &mut out),
        Command::Distance(a) => cmd::distance::run_distance(a, &mut out),
        Command::Within(a) => cmd::distance::run_within(a, &mut out),
    }
    .and_then(|()| out.flush().map_err(anyhow::Error::from));
    let success = ExitCode::from(u8::from(exit_code && colliding));
    match result {
        Ok(()) => success,
        // The reader of our output went away (`ccd collide … | head`): not an error.
        Err(e) if is_broken_pipe(&e) => success,
        Err(e) => {
            eprintln!("error: {}", one_line(&chain_message(&e)));
            ExitCode::from(if exit_code { 2 } else { 1 })
        }
    }
}

/// Reports a command-line error from clap on one line (help and version
/// requests go to stdout with status 0, as usual).
fn usage_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let code = ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
    if !e.use_stderr() {
        let _ = e.print();
        return ExitCode::SUCCESS;
    }
    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        eprintln!("error: no command given (build, info, collide or toi; see --help)");
        return code;
    }
    // clap renders "error: …", details on indented lines, then usage and a
    // hint; keep the message and its details, drop the rest.
    let rendered = e.render().to_string();
    let mut message = String::new();
    for line in rendered.lines().map(str::trim) {
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        let separator = if line.starts_with("tip:") { "; " } else { " " };
        if !line.is_empty() {
            if !message.is_empty() {
                message.push_str(separator);
            }
            message.push_str(line.strip_prefix("error: ").unwrap_or(line));
        }
    }
    eprintln!("error: {message} (see --help)");
    code
}

/// The messages of `e` and of its causes joined by ": ", leaving out a cause whose message already ends the text
/// (errors such as an I/O error naming its file print their source themselves).
fn chain_message(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let part = cause.to_string();
        if text.is_empty() {
            text = part;
        } else if !text.ends_with(&part) {
            text = format!("{text}: {part}");
        }
    }
    text
}

/// Collapses a message onto one line.
fn one_line(message: &str) -> String {
    message.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain()
        .filter_map(|c| c.downcast_ref::<std::io::Error>())
        .any(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
}
