//! Output of the suites: the provenance stamp (host, revision, date), CSV
//! tables written to stdout and to a file, JSON summaries, and number
//! formatting.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};

/// Where and when a run happened.
#[derive(Clone, Debug)]
pub struct Stamp {
    /// Host name.
    pub host: String,
    /// CPU model and logical core count.
    pub cpu: String,
    /// `git rev-parse --short HEAD` (plus `-dirty` for uncommitted changes),
    /// or `unknown`.
    pub revision: String,
    /// UTC start time, ISO 8601.
    pub date: String,
}

impl Stamp {
    /// Collects the stamp; never fails (unknown parts read `unknown`).
    pub fn collect() -> Self {
        let host = fs::read_to_string("/proc/sys/kernel/hostname")
            .ok()
            .or_else(|| std::env::var("HOSTNAME").ok())
            .or_else(|| run_text("hostname", &[]))
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "unknown".into());
        let model = fs::read_to_string("/proc/cpuinfo").ok().and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_owned())
        });
        let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
        let cpu = format!(
            "{} ({cores} logical cores)",
            model.unwrap_or_else(|| "unknown cpu".into())
        );
        let revision = match run_text("git", &["rev-parse", "--short", "HEAD"]) {
            Some(rev) => {
                let dirty = run_text("git", &["status", "--porcelain", "--untracked-files=no"])
                    .is_some_and(|s| !s.trim().is_empty());
                format!("{}{}", rev.trim(), if dirty { "-dirty" } else { "" })
            }
            None => "unknown".into(),
        };
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Self {
            host,
            cpu,
            revision,
            date: iso8601_utc(secs),
        }
    }

    /// One header line: `host=… cpu="…" rev=… date=…`.
    pub fn line(&self) -> String {
        format!(
            "host={} cpu=\"{}\" rev={} date={}",
            self.host, self.cpu, self.revision, self.date
        )
    }
}

/// Stdout of a command that exited successfully.
fn run_text(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `YYYY-MM-DDTHH:MM:SSZ` for seconds since the Unix epoch (proleptic
/// Gregorian calendar, the days-from-civil inversion of H. Hinnant).
pub fn iso8601_utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// A CSV table preceded by `# ` comment lines.
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// Comment lines (without the leading `# `).
    pub comments: Vec<String>,
    /// Column names.
    pub columns: Vec<&'static str>,
    /// Rows, already formatted.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// An empty table with these columns.
    pub fn new(columns: &[&'static str]) -> Self {
        Self {
            columns: columns.to_vec(),
            ..Self::default()
        }
    }

    /// Renders comments, the column row and the rows.
    pub fn render(&self) -> String {
        let mut s = String::new();
        for c in &self.comments {
            let _ = writeln!(s, "# {c}");
        }
        s + &self.render_body()
    }

    /// Renders the column row and the rows, without the comments.
    pub fn render_body(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{}", self.columns.join(","));
        for r in &self.rows {
            let _ = writeln!(s, "{}", r.join(","));
        }
        s
    }

    /// Writes the rendered table to `path`, creating its directory.
    pub fn write(&self, path: &Path) -> Result<()> {
        write_file(path, &self.render())
    }
}

/// Writes `text` to `path`, creating the parent directory.
pub fn write_file(path: &Path, text: &str) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

/// Writes a pretty-printed JSON value to `path`.
pub fn write_json(path: &Path, value: &serde_json::Value) -> Result<()> {
    write_file(path, &(serde_json::to_string_pretty(value)? + "\n"))
}

/// A JSON number, or `null` for NaN/infinity/`None`.
pub fn json_num(x: Option<f64>) -> serde_json::Value {
    x.filter(|v| v.is_finite())
        .map_or(serde_json::Value::Null, serde_json::Value::from)
}

/// `x` with about six significant digits: fixed notation for moderate
/// magnitudes, scientific otherwise; `nan` for NaN.
pub fn num(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x == 0.0 {
        return "0".into();
    }
    let a = x.abs();
    if (1e-3..1e9).contains(&a) {
        let decimals = (5 - a.log10().floor() as i32).max(0) as usize;
        let s = format!("{x:.decimals$}");
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_owned()
        } else {
            s
        }
    } else {
        format!("{x:.5e}")
    }
}

/// A slope with three decimals, or `n/a`.
pub fn slope(x: Option<f64>) -> String {
    x.map_or_else(|| "n/a".into(), |v| format!("{v:.3}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(iso8601_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601_utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(iso8601_utc(1_700_000_000), "2023-11-14T22:13:20Z");
    }

    #[test]
    fn numbers() {
        assert_eq!(num(15.0), "15");
        assert_eq!(num(1234.56789), "1234.57");
        assert_eq!(num(0.0123456789), "0.0123457");
        assert_eq!(num(1e-6), "1.00000e-6");
        assert_eq!(num(f64::NAN), "nan");
        assert_eq!(slope(Some(-1.1449)), "-1.145");
        assert_eq!(json_num(Some(f64::NAN)), serde_json::Value::Null);
    }

    #[test]
    fn table_renders_csv_with_comments() {
        let mut t = Table::new(&["a", "b"]);
        t.comments.push("hello".into());
        t.rows.push(vec!["1".into(), "2".into()]);
        assert_eq!(t.render(), "# hello\na,b\n1,2\n");
        assert_eq!(t.render_body(), "a,b\n1,2\n");
    }
}
