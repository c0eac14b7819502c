//! `cargo xtask tidy`: the house rules that a compiler does not check, as a check that fails.
//!
//! - **Layering** (ARCHITECTURE.md): a crate depends only on crates above it in
//!   [`LAYERS`]; `ccd-testkit` (test scaffolding) depends on no workspace crate and may be used by any
//!   crate's tests and by the tools.
//! - **The CLI uses only the façade**: `crates/ccd-cli` depends on no workspace crate but `crates/ccd`.
//! - **Short files**: no Rust source file over [`MAX_LINES`] lines.
//! - **Primary sources**: no comment or document cites internal summaries ("digest") or the project's
//!   starting code ("seed" used as a document, see [`citation`]); random-number seeds are fine.
//!
//! The rules run on `cargo metadata` and the files under the workspace root; `cargo test -p xtask` runs them
//! on the repository (so CI enforces them), and the unit tests below show each rule catching a violation.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

/// The layers from the bottom up, by crate directory (stable across package renames): a crate may depend on
/// crates in earlier layers only. The last layer's crates (the CLI, the benchmark suites, the criterion
/// benches) depend on nothing of each other.
pub const LAYERS: &[&[&str]] = &[
    &["crates/ccd-interval"],
    &["crates/ccd-motion"],
    &["crates/ccd-bv"],
    &["crates/ccd-bvh"],
    &["crates/ccd-query"],
    &["crates/ccd"],
    &["crates/ccd-cli", "xtask", "benches"],
];

/// Test scaffolding: depends on no workspace crate at build time, usable by every crate's tests and the tools.
pub const TESTKIT: &str = "crates/ccd-testkit";

/// The command-line tool and the only crate it may use.
pub const CLI: (&str, &str) = ("crates/ccd-cli", "crates/ccd");

/// Longest allowed Rust source file, in lines.
pub const MAX_LINES: usize = 800;

/// This file: it names the patterns it looks for, so the citation rule skips it.
const THIS_FILE: &str = "xtask/src/tidy.rs";

/// Folders whose files are checked, relative to the workspace root.
const SOURCE_ROOTS: &[&str] = &[
    "crates",
    "xtask",
    "benches",
    "fuzz",
    "README.md",
    "ARCHITECTURE.md",
];

/// One broken rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// `from` depends (build or normal; `dev` for test-only) on `to`, which is not below it.
    Layering { from: String, to: String, dev: bool },
    /// The CLI depends on a workspace crate other than the façade.
    CliBypassesFacade { to: String },
    /// A Rust file longer than [`MAX_LINES`].
    LongFile { path: String, lines: usize },
    /// A citation of an internal document.
    Citation {
        path: String,
        line: usize,
        text: String,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Layering { from, to, dev } => {
                let kind = if *dev { "dev-" } else { "" };
                write!(
                    f,
                    "layering: {from} has a {kind}dependency on {to}, which is not below it (ARCHITECTURE.md)"
                )
            }
            Self::CliBypassesFacade { to } => {
                write!(
                    f,
                    "the CLI depends on {to}; it may use only the façade (crates/ccd)"
                )
            }
            Self::LongFile { path, lines } => {
                write!(f, "{path}: {lines} lines (at most {MAX_LINES})")
            }
            Self::Citation { path, line, text } => {
                write!(
                    f,
                    "{path}:{line}: cites an internal document, cite the primary source: {text}"
                )
            }
        }
    }
}

/// A workspace crate's dependencies on other workspace crates, by directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrateDeps {
    /// The crate's directory, relative to the workspace root.
    pub dir: String,
    /// `(directory, test-only)` of each dependency on a workspace crate.
    pub deps: Vec<(String, bool)>,
}

/// The layer index of a crate directory, `None` for the test kit and unknown crates.
fn layer(dir: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&dir))
}

/// The layering and CLI rules over `crates`.
pub fn check_dependencies(crates: &[CrateDeps]) -> Vec<Violation> {
    let mut out = Vec::new();
    for c in crates {
        for (to, dev) in &c.deps {
            let allowed = if c.dir == TESTKIT {
                // The kit's own tests may use anything; the kit itself nothing of the workspace.
                *dev
            } else if to == TESTKIT {
                *dev || layer(&c.dir) == Some(LAYERS.len() - 1)
            } else {
                matches!((layer(&c.dir), layer(to)), (Some(f), Some(t)) if t < f)
            };
            if !allowed {
                out.push(Violation::Layering {
                    from: c.dir.clone(),
                    to: to.clone(),
                    dev: *dev,
                });
            }
            if c.dir == CLI.0 && !dev && to != CLI.1 {
                out.push(Violation::CliBypassesFacade { to: to.clone() });
            }
        }
    }
    out
}

/// Whether a line cites an internal document: "digest" used as a document ("digest 002 §4", "digest §5", "the
/// digest", "digest's", "digest acceptance") rather than a hash digest, or "seed" naming the project's starting
/// code ("the seed's", "seed code", "the seed does", "seeds/") rather than a random-number seed.
pub fn citation(line: &str) -> bool {
    let l = line.to_ascii_lowercase();
    let digest = l.match_indices("digest").any(|(i, p)| {
        let (before, after) = (&l[..i], &l[i + p.len()..]);
        before.ends_with("the ")
            || before.ends_with("the_")
            || [
                " 0",
                " 1",
                " 2",
                " 3",
                " 4",
                " 5",
                " 6",
                " 7",
                " 8",
                " 9",
                " §",
                "'s",
                "_",
                " acceptance",
                " estimate",
            ]
            .iter()
            .any(|w| after.starts_with(w))
    });
    let seed_document = [
        "seeds/",
        "seed code",
        "seed project",
        "seed repository",
        "seed's",
        "seed_cases",
    ]
    .iter()
    .any(|p| l.contains(p));
    let the_seed = l.match_indices("the seed").any(|(i, p)| {
        // "the seed" of a generator: "the seed of", "the seed for", "the seed)" ...; anything else names the
        // starting code ("as the seed does", "the seed spun").
        let rest = &l[i + p.len()..];
        !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
            && ![
                " of", " for", " value", " is ", " and", " (", ")", ",", ":", ";", ".",
            ]
            .iter()
            .any(|w| rest.starts_with(w))
            && !rest.is_empty()
    });
    digest || seed_document || the_seed
}

/// The file rules over one file's text (`path` relative to the workspace root).
pub fn check_file(path: &str, text: &str) -> Vec<Violation> {
    let mut out = Vec::new();
    if path.ends_with(".rs") {
        let lines = text.lines().count();
        if lines > MAX_LINES {
            out.push(Violation::LongFile {
                path: path.to_owned(),
                lines,
            });
        }
    }
    if citation(path) {
        out.push(Violation::Citation {
            path: path.to_owned(),
            line: 0,
            text: "(the file name)".to_owned(),
        });
    }
    for (i, line) in text.lines().enumerate() {
        if path != THIS_FILE && citation(line) {
            out.push(Violation::Citation {
                path: path.to_owned(),
                line: i + 1,
                text: line.trim().to_owned(),
            });
        }
    }
    out
}

/// The workspace root (the parent of this crate's directory).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace root")
        .to_path_buf()
}

/// Every workspace crate's dependencies on workspace crates, from `cargo metadata`.
pub fn workspace_deps(root: &Path) -> Result<Vec<CrateDeps>> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ])
        .current_dir(root)
        .output()
        .context("running cargo metadata")?;
    if !out.status.success() {
        bail!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let meta: serde_json::Value =
        serde_json::from_slice(&out.stdout).context("parsing cargo metadata")?;
    let rel = |p: &str| -> String {
        let dir = Path::new(p).parent().unwrap_or(Path::new(""));
        dir.strip_prefix(root)
            .unwrap_or(dir)
            .to_string_lossy()
            .replace('\\', "/")
    };
    let mut crates = Vec::new();
    for p in meta["packages"].as_array().context("no packages")? {
        let dir = rel(p["manifest_path"].as_str().context("no manifest path")?);
        let mut deps = Vec::new();
        for d in p["dependencies"].as_array().context("no dependencies")? {
            if let Some(path) = d["path"].as_str() {
                let to = Path::new(path)
                    .strip_prefix(root)
                    .unwrap_or(Path::new(path));
                deps.push((
                    to.to_string_lossy().replace('\\', "/"),
                    d["kind"].as_str() == Some("dev"),
                ));
            }
        }
        crates.push(CrateDeps { dir, deps });
    }
    Ok(crates)
}

/// The files the file rules read: Rust sources and Markdown under [`SOURCE_ROOTS`], outside build folders.
fn source_files(root: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut todo: Vec<PathBuf> = SOURCE_ROOTS.iter().map(|r| root.join(r)).collect();
    while let Some(p) = todo.pop() {
        if p.is_dir() {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name == "target" || name.starts_with('.') {
                continue;
            }
            for e in std::fs::read_dir(&p).with_context(|| format!("reading {}", p.display()))? {
                todo.push(e?.path());
            }
        } else if p.extension().is_some_and(|e| e == "rs" || e == "md") {
            out.push(p);
        }
    }
    out.sort();
    Ok(out)
}

/// Every rule over the workspace at `root`.
pub fn check_workspace(root: &Path) -> Result<Vec<Violation>> {
    let mut out = check_dependencies(&workspace_deps(root)?);
    for path in source_files(root)? {
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        let rel = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .to_string_lossy()
            .replace('\\', "/");
        out.extend(check_file(&rel, &text));
    }
    Ok(out)
}

/// `cargo xtask tidy`: prints every violation; fails if there is one.
pub fn run() -> Result<crate::bench::Verdict> {
    let violations = check_workspace(&workspace_root())?;
    for v in &violations {
        println!("{v}");
    }
    Ok(if violations.is_empty() {
        println!("tidy: layering, CLI façade, file lengths and citations all clean");
        crate::bench::Verdict::Pass
    } else {
        crate::bench::Verdict::Fail(format!("{} house-rule violations", violations.len()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn krate(dir: &str, deps: &[(&str, bool)]) -> CrateDeps {
        CrateDeps {
            dir: dir.to_owned(),
            deps: deps
                .iter()
                .map(|(d, dev)| ((*d).to_owned(), *dev))
                .collect(),
        }
    }

    /// The repository follows every rule (this is what CI enforces).
    #[test]
    fn workspace_is_tidy() {
        let violations = check_workspace(&workspace_root()).expect("metadata and files readable");
        let list: Vec<String> = violations.iter().map(ToString::to_string).collect();
        assert!(
            list.is_empty(),
            "house-rule violations:\n{}",
            list.join("\n")
        );
    }

    /// The workspace's own crates are all placed in a layer or are the test kit (a new crate must be placed).
    #[test]
    fn every_crate_has_a_place() {
        for c in workspace_deps(&workspace_root()).expect("metadata") {
            assert!(
                layer(&c.dir).is_some() || c.dir == TESTKIT,
                "{} is in no layer of LAYERS",
                c.dir
            );
        }
    }

    #[test]
    fn upward_and_sideways_dependencies_are_caught() {
        let ok = [
            krate(
                "crates/ccd-bv",
                &[("crates/ccd-interval", false), (TESTKIT, true)],
            ),
            krate("xtask", &[("crates/ccd", false), (TESTKIT, false)]),
            krate(TESTKIT, &[("crates/ccd", true)]),
            krate("crates/ccd-cli", &[("crates/ccd", false)]),
        ];
        assert!(check_dependencies(&ok).is_empty());
        let up = krate("crates/ccd-bvh", &[("crates/ccd-query", false)]);
        assert_eq!(
            check_dependencies(&[up]),
            [Violation::Layering {
                from: "crates/ccd-bvh".into(),
                to: "crates/ccd-query".into(),
                dev: false
            }]
        );
        let up_in_tests = krate("crates/ccd-bv", &[("crates/ccd", true)]);
        assert_eq!(check_dependencies(&[up_in_tests]).len(), 1);
        let sideways = krate("xtask", &[("benches", false)]);
        assert_eq!(check_dependencies(&[sideways]).len(), 1);
        let kit_up = krate(TESTKIT, &[("crates/ccd-bv", false)]);
        assert_eq!(check_dependencies(&[kit_up]).len(), 1);
        let kit_in_lib = krate("crates/ccd-bvh", &[(TESTKIT, false)]);
        assert_eq!(check_dependencies(&[kit_in_lib]).len(), 1);
    }

    #[test]
    fn cli_may_use_only_the_facade() {
        let cli = krate(
            "crates/ccd-cli",
            &[("crates/ccd", false), ("crates/ccd-bvh", false)],
        );
        assert_eq!(
            check_dependencies(&[cli]),
            [Violation::CliBypassesFacade {
                to: "crates/ccd-bvh".into()
            }]
        );
    }

    #[test]
    fn long_files_are_caught() {
        let text = "fn f() {}\n".repeat(MAX_LINES);
        assert!(check_file("a.rs", &text).is_empty());
        let longer = text + "\n";
        assert_eq!(
            check_file("a.rs", &longer),
            [Violation::LongFile {
                path: "a.rs".into(),
                lines: MAX_LINES + 1
            }]
        );
        // Markdown may be long.
        assert!(check_file("a.md", &longer).is_empty());
    }

    #[test]
    fn citations_are_caught_and_random_seeds_are_not() {
        for cited in [
            "/// Digest 002 §4.5 (the corrected axis table)",
            "// as the seed does",
            "// the seed's build keeps it",
            "(the digest's oracle cases)",
            "// Digest §1.6: n = 80",
            "(digest acceptance < 0.02)",
            "crates/ccd-interval/tests/digest_table.rs",
            "crates/ccd-motion/tests/seed_cases.rs",
            "// Seed code gives [-1, 3].",
            "see shared/seeds/ for the original",
            "// ported from the seed code",
        ] {
            assert!(citation(cited), "{cited}");
        }
        for fine in [
            "let mut rng = SplitMix64::new(seed);",
            "/// Seed of the rotation sequence",
            "/// the seed of the rotation sequence",
            "/// the seed for every BV type",
            "// with --seed 7",
            "/// for a fixed seed, the same sequence",
            "fn seeded(seed: u64)",
            "let digests: Vec<u64> = payload.par_chunks(CHUNK).map(xxh3_64).collect();",
            "/// The checksum from the chunk digests, in order.",
            "fn combine(digests: &[u64]) -> u64 {",
            "hashed with XXH3-64 (seed 0)",
            "`PROPTEST_RNG_SEED` the seed):",
        ] {
            assert!(!citation(fine), "{fine}");
        }
    }
}
