//! Command-line flags of every suite, in one place: the flags both suites
//! share are defined once ([`CommonFlags`], [`MeshFlags`]) and flattened
//! into each subcommand.

use std::path::PathBuf;

use ::ccd::BvKind;
use clap::{Args, Parser, Subcommand, ValueEnum};

/// Default seed of the rotation sequence (any fixed value; stamped in every
/// output so a run can be replayed).
pub const DEFAULT_SEED: u64 = 2000;

/// ccd's development tasks: benchmark suites reproducing Gottschalk's thesis
/// experiments (PhD thesis, UNC 2000, Ch. 5).
#[derive(Debug, Parser)]
#[command(name = "cargo xtask", version, about, long_about = None)]
pub struct Cli {
    /// The task to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The tasks.
#[derive(Debug, Subcommand)]
#[allow(
    clippy::enum_variant_names,
    reason = "the variants name the `bench-*` subcommands"
)]
pub enum Command {
    /// Parallel close proximity (thesis §5.3.2, Fig. 5.11; Fig. 5.17 with
    /// --levels): two concentric tessellated spheres a gap ε apart, mean BV
    /// tests against ε per BV type, ramp slopes and ledges.
    BenchProximity(ProximityFlags),
    /// Transverse contact (thesis §5.3.3, Figs. 5.21–5.23): two unit spheres
    /// √2 apart, contacts, BV tests and contact cost against the triangle
    /// count per BV type.
    BenchTransverse(TransverseFlags),
    /// Precompute once, memory-map forever: build, save, validated and
    /// unchecked open, and the first query after opening, for OBB trees of a
    /// large icosphere in f32 and f64.
    BenchArchive(ArchiveFlags),
    /// Build time of OBB trees: the 40,000-triangle lat/long sphere on one thread and the 327,680-triangle
    /// icosphere on two (medians of end-to-end builds, node count, tree fingerprint).
    BenchBuild(BuildFlags),
    /// Continuous collision: time of impact on the test scenes of Jørgensen 2006 and on moving 1,280-triangle
    /// spheres (approach, spinning approach, shell tunnelling, concentric spin), against analytic times
    /// and dense discrete sampling; false negatives, false positives, time per query.
    BenchCcd(CcdFlags),
    /// Distance and tolerance queries: parallel close proximity over an ε sweep (every answer at least ε, all
    /// volume types agreeing, rel_err bound, tolerance answers at ε/2 and 2ε), transverse contact (distance
    /// 0) and the sliding-sphere path (distance against the analytic curve); medians, counters, CSV, SVG, JSON.
    BenchDistance(DistanceFlags),
    /// House rules as a check: crate layering (ARCHITECTURE.md), the CLI on the façade only, no Rust file over
    /// 800 lines, no citations of internal documents; exits non-zero on any violation.
    Tidy,
    /// Sliding sphere (thesis §5.3.1, Figs. 5.4–5.8): the radius-0.8 sphere's centre moved from x = 0 to 2
    /// through the unit sphere, new random orientations at every position; contacts, BV tests, triangle tests
    /// and time per position per BV type, all contacts and first contact, checked against an exact all-pairs
    /// count on a sample of positions.
    BenchSliding(SlidingFlags),
    /// Cost of one overlap test per BV type (thesis §5.2, Tables 5.1/5.2): volume pairs recorded from real
    /// traversals (parallel close proximity and transverse contact), split into disjoint and overlapping,
    /// replayed through each test; ns per test and ratios to the sphere test beside the thesis's.
    BenchOverlap(OverlapFlags),
}

/// Flags of `bench-sliding`.
#[derive(Clone, Debug, Args)]
#[command(after_help = "\
Defaults: latlong t=101 s=200 (40,000 triangles) for both spheres (radii 1 and 0.8), 1,001 positions \
x = 0, 0.002, …, 2, one new pair of random rotations per position (the same sequence for every BV type), \
all three BV types, f64, an all-contacts and a first-contact query per position, the exact all-pairs count at \
21 evenly spaced positions.
--quick: 3,600 triangles, 101 positions, 6 checked positions.
Outputs: CSV on stdout and in <out>/sliding.csv, <out>/sliding_{contacts,nv,np,ratio,contact_cost,time}.svg \
(Figs. 5.4–5.8 and the time per position); exits non-zero if contact sets differ between BV types or from the \
all-pairs count, or if a first-contact query disagrees with the all-contacts one.

Examples:
  cargo xtask bench-sliding --quick
  cargo xtask bench-sliding --threads 1 --json bench-out/sliding.json
  cargo xtask bench-sliding --bv obb --threads 1      # speed case")]
pub struct SlidingFlags {
    /// Flags shared by every suite (--queries is not used: see --steps).
    #[command(flatten)]
    pub common: CommonFlags,
    /// Mesh selection [default: latlong t=101, s=200, 40,000 triangles].
    #[command(flatten)]
    pub mesh: MeshFlags,
    /// The descent rule.
    #[command(flatten)]
    pub descend: DescendFlags,
    /// Positions from x = 0 to 2 (at least 2) [default: 1,001; 101 with --quick].
    #[arg(long)]
    pub steps: Option<usize>,
    /// Evenly spaced positions checked against the exact all-pairs count (0 skips the check) [default: 21; 6
    /// with --quick].
    #[arg(long)]
    pub oracle: Option<usize>,
}

/// Flags of `bench-overlap`.
#[derive(Clone, Debug, Args)]
#[command(after_help = "\
Defaults: the volume pairs tested by 2 all-contacts queries in each of two scenes, per BV type: parallel close \
proximity (latlong t=101 s=200, 40,000 triangles, ε = 1e-3, outer mesh scaled so the meshes cannot touch) and \
transverse contact (latlong t=72 s=144, 20,448 triangles, centres 1.41421 apart); every BV type \
(sphere, aabb, obb, rss), f64. Each list (scene, BV type, verdict) is thinned to at most 65,536 evenly spaced \
pairs and replayed in 15 passes of about 10^6 tests; the median pass gives ns per test. Two costs per pair: the \
test alone (B's volume already in A's frame) and the model-space update plus the test (B's volume moved by an \
opaque identity pose first, the work of a transform without changing the pair).
--quick: 3,600 and 3,024 triangles, 1 query per scene, 5 passes.
Outputs: CSV on stdout and in <out>/overlap.csv; exits non-zero if a replayed verdict differs from the recorded one.

Examples:
  cargo xtask bench-overlap --quick
  cargo xtask bench-overlap --threads 1 --json bench-out/overlap.json")]
pub struct OverlapFlags {
    /// Flags shared by every suite (--queries: recorded queries per scene [default: 2; 1 with --quick]; --bv
    /// defaults to all four types here).
    #[command(flatten)]
    pub common: CommonFlags,
    /// Timed passes over each list (the median is reported) [default: 15; 5 with --quick].
    #[arg(long)]
    pub passes: Option<usize>,
    /// Pairs replayed per list at most, evenly spaced over the recorded list [default: 65536].
    #[arg(long)]
    pub max_pairs: Option<usize>,
}

/// Flags of `bench-distance`.
#[derive(Clone, Debug, Args)]
#[command(after_help = "\
Defaults: latlong t=101 s=200 (40,000 triangles), ε in {1e-3, 1e-2, 1e-1}, 50 queries per (BV type, ε, \
rel_err ∈ {0, 0.1}) plus the tolerance queries and transverse contact, a sliding-sphere path of 1,001 \
positions (the radius-0.8 sphere's centre from x = 0 to 2, new random rotations at each), all three BV types, \
f64, one thread.
--quick: 3,600 triangles, 5 queries, 101 path positions.
Outputs: CSV on stdout and in <out>/distance.csv, <out>/distance.svg, the path in <out>/distance_path.csv and \
<out>/distance_path.svg; exits non-zero if a check fails.

Examples:
  cargo xtask bench-distance --quick
  cargo xtask bench-distance --bv obb --eps 1e-3 --json bench-out/distance.json")]
pub struct DistanceFlags {
    /// Flags shared by every suite.
    #[command(flatten)]
    pub common: CommonFlags,
    /// Mesh selection [default: latlong t=101, s=200, 40,000 triangles].
    #[command(flatten)]
    pub mesh: MeshFlags,
    /// Gap values ε (comma list or repeated) [default: 1e-3,1e-2,1e-1].
    #[arg(long, value_delimiter = ',')]
    pub eps: Vec<f64>,
    /// Positions on the sliding-sphere path (at least 2; 0 skips it) [default: 1,001; 101 with --quick].
    #[arg(long)]
    pub path_steps: Option<usize>,
}

/// Flags of `bench-ccd`.
#[derive(Debug, Args)]
#[command(
    after_help = "Defaults: 50 timed queries per scene (median, single thread), ground truth of the sphere \
scenes from 2,000 discrete samples. --quick: 5 queries, 400 samples. Exits non-zero on any false negative.\n\n\
Example:\n  cargo xtask bench-ccd --json bench-out/ccd.json"
)]
pub struct CcdFlags {
    /// Timed queries per scene [default: 50; 5 with --quick]; a scene starts no new query after 5 s.
    #[arg(long)]
    pub queries: Option<usize>,
    /// Small, fast configuration (indicative numbers only).
    #[arg(long)]
    pub quick: bool,
    /// Also write a JSON summary to this path.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Run only the scenes whose name contains this text (e.g. `approach-spin`).
    #[arg(long)]
    pub scene: Option<String>,
}

/// Flags of `bench-archive`.
#[derive(Debug, Args)]
#[command(
    after_help = "Defaults: icosphere level 7 (327,680 triangles), hull-surface OBB fit, 5 repeats \
per measurement (medians), files in <out>/archive-*.bvh.\n\nExample:\n  cargo xtask bench-archive --json bench-out/archive.json"
)]
pub struct ArchiveFlags {
    /// Icosphere subdivision level L (20·4^L triangles).
    #[arg(long, default_value_t = 7)]
    pub level: u32,
    /// OBB orientation fit: convex-hull surface (default) or triangles.
    #[arg(long, value_enum, default_value_t = FitFlag::Hull)]
    pub fit: FitFlag,
    /// Repeats of every timed step (the median is reported).
    #[arg(long, default_value_t = 5)]
    pub repeats: usize,
    /// Directory for the .bvh files [default: bench-out/ at the workspace root].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Also write a JSON summary to this path.
    #[arg(long)]
    pub json: Option<PathBuf>,
}

/// Flags of `bench-build`.
#[derive(Debug, Args)]
#[command(
    after_help = "Defaults: hull-surface OBB fit, f64, 5 builds per mesh (median and minimum).\n\n\
Example:\n  cargo xtask bench-build --repeats 9 --json bench-out/build.json"
)]
pub struct BuildFlags {
    /// OBB orientation fit: convex-hull surface (default) or triangles.
    #[arg(long, value_enum, default_value_t = FitFlag::Hull)]
    pub fit: FitFlag,
    /// Builds per mesh (the median is reported).
    #[arg(long, default_value_t = 5)]
    pub repeats: usize,
    /// Build method: fast (default) or reference (every node's statistics and frame recomputed).
    #[arg(long, value_enum, default_value_t = MethodFlag::Fast)]
    pub method: MethodFlag,
    /// Build f32 trees instead of f64.
    #[arg(long)]
    pub f32: bool,
    /// Also write a JSON summary to this path.
    #[arg(long)]
    pub json: Option<PathBuf>,
}

/// Tree build method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MethodFlag {
    /// `BuildMethod::Fast`: statistics per triangle once, hull frames for small nodes only.
    Fast,
    /// `BuildMethod::Reference`: every node's statistics and frame recomputed from its triangles.
    Reference,
}

/// OBB orientation fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FitFlag {
    /// Covariance of the convex-hull surface (thesis §3.3.4).
    Hull,
    /// Covariance of the triangles (thesis §3.3.3, RAPID).
    Triangles,
}

/// A bounding-volume type of the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, ValueEnum)]
pub enum BvType {
    /// Bounding spheres.
    Sphere,
    /// Axis-aligned bounding boxes (updated by wrapping).
    Aabb,
    /// Oriented bounding boxes (separating-axis test).
    Obb,
    /// Rectangle swept spheres (PQP's distance volume); run on request only (`--bv rss`).
    Rss,
}

impl BvType {
    /// The thesis's types, the default set, in the order rows and plots list them.
    pub const ALL: [BvType; 3] = [BvType::Sphere, BvType::Aabb, BvType::Obb];

    /// Lower-case name used in CSV rows, JSON keys and legends (the volume's [`BvKind::name`]).
    pub fn name(self) -> &'static str {
        self.kind().name()
    }

    /// The library's kind of this volume type.
    pub fn kind(self) -> BvKind {
        match self {
            BvType::Sphere => BvKind::Sphere,
            BvType::Aabb => BvKind::Aabb,
            BvType::Obb => BvKind::Obb,
            BvType::Rss => BvKind::Rss,
        }
    }
}

/// A descent rule of the collide suites (`--descend`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Descend {
    /// Split the larger diameter (the thesis's rule; the default of the thesis suites).
    #[default]
    LargestDiameter,
    /// Split the larger surface area.
    LargestArea,
    /// Split the larger volume.
    LargestVolume,
    /// Split A until it is a leaf, then B.
    AlwaysA,
    /// Split B until it is a leaf, then A.
    AlwaysB,
    /// Split both nodes of an internal pair (the library's default; the binary BVTT identity does not hold).
    Both,
}

impl Descend {
    /// The library's rule.
    pub fn rule(self) -> ::ccd::DescentRule {
        use ::ccd::DescentRule as R;
        match self {
            Descend::LargestDiameter => R::LargestDiameter,
            Descend::LargestArea => R::LargestArea,
            Descend::LargestVolume => R::LargestVolume,
            Descend::AlwaysA => R::AlwaysA,
            Descend::AlwaysB => R::AlwaysB,
            Descend::Both => R::Both,
        }
    }

    /// The flag's spelling, as headers print it.
    pub fn name(self) -> &'static str {
        match self {
            Descend::LargestDiameter => "largest-diameter",
            Descend::LargestArea => "largest-area",
            Descend::LargestVolume => "largest-volume",
            Descend::AlwaysA => "always-a",
            Descend::AlwaysB => "always-b",
            Descend::Both => "both",
        }
    }
}

/// The descent flag of the collide suites (proximity, transverse, sliding).
#[derive(Clone, Copy, Debug, Args)]
pub struct DescendFlags {
    /// Descent rule of the collide queries [default: largest-diameter, the thesis's; `both` is the library's
    /// default and its fastest in close proximity].
    #[arg(long, value_enum, default_value_t = Descend::LargestDiameter)]
    pub descend: Descend,
}

/// The tessellation family of the test spheres.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum MeshKind {
    /// Latitude/longitude sphere (poles plus t−1 rings of s vertices,
    /// 2·s·(t−1) triangles), as in the thesis.
    #[default]
    Latlong,
    /// Subdivided icosahedron (20·4^L triangles): a control without the
    /// lat/long pole anomaly.
    Icosphere,
}

/// Flags shared by every suite.
#[derive(Clone, Debug, Args)]
pub struct CommonFlags {
    /// BV types to run (comma list or repeated; rss on request) [default: sphere,aabb,obb].
    #[arg(long, value_enum, value_delimiter = ',')]
    pub bv: Vec<BvType>,
    /// Use f32 models and poses instead of f64.
    #[arg(long)]
    pub f32: bool,
    /// Queries per configuration (suite default unless given).
    #[arg(long)]
    pub queries: Option<usize>,
    /// Seed of the rotation sequence (the same sequence serves every BV type
    /// and every configuration).
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Worker threads for the queries [default: all cores]; use 1 for
    /// timing figures.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Directory for the CSV and SVG outputs [default: bench-out/ at the
    /// workspace root].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Also write a JSON summary to this path.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Small, fast configuration (indicative numbers only).
    #[arg(long)]
    pub quick: bool,
}

impl CommonFlags {
    /// The output directory: `--out`, else `bench-out/` at the workspace
    /// root (whatever the current directory).
    pub fn out_dir(&self) -> PathBuf {
        self.out.clone().unwrap_or_else(|| {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .parent()
                .unwrap_or(std::path::Path::new("."))
                .join("bench-out")
        })
    }

    /// The BV types to run, in canonical order, without duplicates.
    pub fn bv_types(&self) -> Vec<BvType> {
        if self.bv.is_empty() {
            return BvType::ALL.to_vec();
        }
        let mut v = self.bv.clone();
        v.sort();
        v.dedup();
        v
    }
}

/// How the sphere meshes are tessellated.
#[derive(Clone, Debug, Args)]
pub struct MeshFlags {
    /// Tessellation family.
    #[arg(long, value_enum, default_value_t = MeshKind::Latlong)]
    pub mesh: MeshKind,
    /// Triangle count: a lat/long (t, s) with exactly this count and s ≈ 2t
    /// if one exists, otherwise the nearest with s = 2t; for icospheres the
    /// nearest level.
    #[arg(long, conflicts_with_all = ["stacks", "level"])]
    pub tris: Option<usize>,
    /// Lat/long stacks t (poles plus t−1 rings); needs --slices.
    #[arg(long, requires = "slices", conflicts_with = "level")]
    pub stacks: Option<u32>,
    /// Lat/long slices s (vertices per ring); needs --stacks.
    #[arg(long, requires = "stacks")]
    pub slices: Option<u32>,
    /// Icosphere subdivision level L (20·4^L triangles).
    #[arg(long)]
    pub level: Option<u32>,
}

/// Flags of `bench-proximity`.
#[derive(Clone, Debug, Args)]
#[command(after_help = "\
Defaults: latlong t=101 s=200 (40,000 triangles), ε = 1e-6 … 1e+1 at 4 per decade (29 values), \
100 queries per (BV type, ε), all three BV types, f64, outer mesh scaled so the meshes cannot touch.
--quick: 3,600 triangles, 10 queries, 2 ε per decade.
Outputs: CSV on stdout and in <out>/proximity.csv, <out>/proximity.svg (Fig. 5.11), with --levels \
<out>/levels.csv and <out>/levels.svg (Fig. 5.17); exits non-zero if a contact appears where the \
meshes cannot touch.

Examples:
  cargo xtask bench-proximity --quick
  cargo xtask bench-proximity --threads 1 --json bench-out/proximity.json
  cargo xtask bench-proximity --bv obb --eps 1e-3 --threads 1      # speed case")]
pub struct ProximityFlags {
    /// Flags shared by every suite.
    #[command(flatten)]
    pub common: CommonFlags,
    /// Mesh selection [default: latlong t=101, s=200, 40,000 triangles].
    #[command(flatten)]
    pub mesh: MeshFlags,
    /// The descent rule.
    #[command(flatten)]
    pub descend: DescendFlags,
    /// Gap values ε (comma list or repeated); replaces the log-spaced grid.
    #[arg(long, value_delimiter = ',')]
    pub eps: Vec<f64>,
    /// Smallest ε of the grid.
    #[arg(long, default_value_t = 1e-6)]
    pub eps_min: f64,
    /// Largest ε of the grid.
    #[arg(long, default_value_t = 1e1)]
    pub eps_max: f64,
    /// Grid points per decade of ε [default: 4; 2 with --quick].
    #[arg(long)]
    pub per_decade: Option<u32>,
    /// Thesis-literal outer radius 1+ε (contacts may appear below
    /// eps_contact = 1/ρ_min − 1) instead of scaling the outer mesh so the
    /// meshes cannot touch.
    #[arg(long)]
    pub unscaled: bool,
    /// Ramp as fractions a,b of the log range between the right (lower) and
    /// left (upper) ledge [default: 0.25,0.75].
    #[arg(long, value_parser = parse_ramp_range)]
    pub ramp_range: Option<(f64, f64)>,
    /// Also report per-level node count, diameter and thickness of each
    /// inner tree, and plot levels.svg (Fig. 5.17).
    #[arg(long)]
    pub levels: bool,
}

/// Flags of `bench-transverse`.
#[derive(Clone, Debug, Args)]
#[command(after_help = "\
Defaults: latlong t in {5, 7, 10, 14, 20, 28, 40, 56, 80, 113, 160, 226} with s = 2t (80 … 203,400 \
triangles; --max-tris 600000 adds t = 320, 387), 1000 queries per (BV type, tessellation), all three \
BV types, f64. Slopes are fitted over n >= 1500. Every pose also runs a first-contact query \
(CollideRequest::first()): its BV tests and median time are the first_* columns and the \"first contact\" lines.
--quick: tessellations up to 25,280 triangles, 30 queries.
Outputs: CSV on stdout and in <out>/transverse.csv, <out>/transverse_{contacts,nv,contact_cost}.svg \
(Figs. 5.21–5.23); exits non-zero if contact sets differ between BV types or a first-contact query disagrees \
with the all-contacts one on whether there is a contact.

Examples:
  cargo xtask bench-transverse --quick
  cargo xtask bench-transverse --threads 1 --json bench-out/transverse.json
  cargo xtask bench-transverse --bv obb --tris 20448 --threads 1   # speed case (t=72, s=144)")]
pub struct TransverseFlags {
    /// Flags shared by every suite.
    #[command(flatten)]
    pub common: CommonFlags,
    /// A single tessellation instead of the list (--tris, --stacks/--slices
    /// or --level).
    #[command(flatten)]
    pub mesh: MeshFlags,
    /// The descent rule.
    #[command(flatten)]
    pub descend: DescendFlags,
    /// Largest triangle count of the tessellation list [default: 250000,
    /// i.e. lat/long up to t=226 (203,400 triangles); 26000 with --quick].
    #[arg(long)]
    pub max_tris: Option<usize>,
}

/// Parses `a,b` with `0 ≤ a < b ≤ 1`.
fn parse_ramp_range(s: &str) -> Result<(f64, f64), String> {
    let (a, b) = s.split_once(',').ok_or("expected two fractions a,b")?;
    let a: f64 = a.trim().parse().map_err(|e| format!("{a}: {e}"))?;
    let b: f64 = b.trim().parse().map_err(|e| format!("{b}: {e}"))?;
    if (0.0..1.0).contains(&a) && a < b && b <= 1.0 {
        Ok((a, b))
    } else {
        Err(format!("need 0 <= a < b <= 1, got {a},{b}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn ramp_range_is_validated() {
        assert_eq!(parse_ramp_range("0.2, 0.8"), Ok((0.2, 0.8)));
        assert!(parse_ramp_range("0.8,0.2").is_err());
        assert!(parse_ramp_range("0.5").is_err());
        assert!(parse_ramp_range("-0.1,0.5").is_err());
    }

    #[test]
    fn bv_list_parses_and_dedups() {
        let cli = Cli::parse_from([
            "xtask",
            "bench-proximity",
            "--bv",
            "obb,sphere",
            "--bv",
            "obb",
            "--eps",
            "1e-3,1e-2",
        ]);
        let Command::BenchProximity(f) = cli.command else {
            panic!("wrong subcommand")
        };
        assert_eq!(f.common.bv_types(), vec![BvType::Sphere, BvType::Obb]);
        assert_eq!(f.eps, vec![1e-3, 1e-2]);
    }
}
