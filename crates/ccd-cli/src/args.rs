//! Command-line syntax: the subcommands, their flags and the pose parser.

use std::path::PathBuf;

use ccd::{BuildMethod, BuildOptions, BvKind, FitMethod};
use ccd::{MAX_LEAF_SIZE, ScalarKind};
use clap::{Args, Parser, Subcommand, ValueEnum};

pub use crate::pose::{POSE_HELP, PoseArg, PoseFormat, QuatOrder, parse_pose};

/// Build, inspect and query collision models of rigid triangle meshes.
///
/// Meshes are OBJ, STL (ASCII or binary) or PLY files, recognised by their
/// extension; `.bvh` files are hierarchies saved by `ccd build`, recognised
/// by their first bytes and memory-mapped (validated, never copied).
#[derive(Debug, Parser)]
#[command(name = "ccd", version)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Build a bounding-volume hierarchy over a mesh and save it as a .bvh file.
    Build(BuildArgs),
    /// Describe a .bvh file (or a mesh, after building its tree in memory).
    Info(InfoArgs),
    /// Find the intersecting triangle pairs of two placed models.
    #[command(after_long_help = POSE_HELP)]
    Collide(CollideArgs),
    /// Conservative first time of contact of two moving models over normalised time [0, t_max].
    #[command(after_long_help = TOI_HELP)]
    Toi(Box<ToiArgs>),
    /// How far apart two placed models are: the distance, the closest points (world frame) and triangles.
    #[command(after_long_help = POSE_HELP)]
    Distance(DistanceArgs),
    /// Whether two placed models come within a tolerance (early exit on the first witness).
    #[command(after_long_help = POSE_HELP)]
    Within(WithinArgs),
}

/// `ccd distance`.
#[derive(Debug, Args)]
pub struct DistanceArgs {
    /// Model A: a mesh (built in memory) or a .bvh file.
    pub a: PathBuf,
    /// Model B: a mesh (built in memory) or a .bvh file.
    pub b: PathBuf,
    /// Pose of A in the world (see POSE below); default: identity.
    #[arg(long, value_name = "POSE", value_parser = parse_pose, allow_hyphen_values = true)]
    pub pose_a: Option<PoseArg>,
    /// Pose of B in the world (see POSE below); default: identity.
    #[arg(long, value_name = "POSE", value_parser = parse_pose, allow_hyphen_values = true)]
    pub pose_b: Option<PoseArg>,
    /// How POSE values are read.
    #[command(flatten)]
    pub poses: PoseFormat,
    /// Relative error allowed (PQP's rel_err): the answer may exceed the true distance by rel_err times it.
    #[arg(long, value_name = "E", default_value_t = 0.0, value_parser = parse_non_negative, allow_negative_numbers = true)]
    pub rel_err: f64,
    /// Absolute error allowed (PQP's abs_err).
    #[arg(long, value_name = "E", default_value_t = 0.0, value_parser = parse_non_negative, allow_negative_numbers = true)]
    pub abs_err: f64,
    /// Stop as soon as the models are certainly farther apart than this and say so.
    #[arg(long, value_name = "D", value_parser = parse_non_negative, allow_negative_numbers = true)]
    pub max_distance: Option<f64>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// How to build the trees of mesh inputs (a .bvh input fixes the types, as for `collide`).
    #[command(flatten)]
    pub tree: TreeArgs,
}

/// `ccd within`.
#[derive(Debug, Args)]
pub struct WithinArgs {
    /// Model A: a mesh (built in memory) or a .bvh file.
    pub a: PathBuf,
    /// Model B: a mesh (built in memory) or a .bvh file.
    pub b: PathBuf,
    /// The distance to test against.
    #[arg(long, value_name = "D", value_parser = parse_non_negative, allow_negative_numbers = true)]
    pub tolerance: f64,
    /// Pose of A in the world (see POSE below); default: identity.
    #[arg(long, value_name = "POSE", value_parser = parse_pose, allow_hyphen_values = true)]
    pub pose_a: Option<PoseArg>,
    /// Pose of B in the world (see POSE below); default: identity.
    #[arg(long, value_name = "POSE", value_parser = parse_pose, allow_hyphen_values = true)]
    pub pose_b: Option<PoseArg>,
    /// How POSE values are read.
    #[command(flatten)]
    pub poses: PoseFormat,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// How to build the trees of mesh inputs (a .bvh input fixes the types, as for `collide`).
    #[command(flatten)]
    pub tree: TreeArgs,
}

/// `ccd build`.
#[derive(Debug, Args)]
pub struct BuildArgs {
    /// The mesh (.obj, .stl or .ply).
    pub mesh: PathBuf,
    /// Where to write the hierarchy (conventionally FILE.bvh).
    #[arg(short, long, value_name = "FILE.bvh")]
    pub output: PathBuf,
    /// How to build the tree.
    #[command(flatten)]
    pub tree: TreeArgs,
}

/// `ccd info`.
#[derive(Debug, Args)]
pub struct InfoArgs {
    /// A .bvh file, or a mesh (its tree is then built in memory with the
    /// options below, which a .bvh file ignores).
    pub input: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// How to build the tree of a mesh.
    #[command(flatten)]
    pub tree: TreeArgs,
}

/// `ccd collide`.
#[derive(Debug, Args)]
pub struct CollideArgs {
    /// Model A: a mesh (built in memory) or a .bvh file.
    pub a: PathBuf,
    /// Model B: a mesh (built in memory) or a .bvh file.
    pub b: PathBuf,
    /// Pose of A in the world (see POSE below); default: identity.
    #[arg(long, value_name = "POSE", value_parser = parse_pose, allow_hyphen_values = true)]
    pub pose_a: Option<PoseArg>,
    /// Pose of B in the world (see POSE below); default: identity.
    #[arg(long, value_name = "POSE", value_parser = parse_pose, allow_hyphen_values = true)]
    pub pose_b: Option<PoseArg>,
    /// How POSE values are read.
    #[command(flatten)]
    pub poses: PoseFormat,
    /// Stop at the first contact found (reports at most one pair).
    #[arg(long)]
    pub first: bool,
    /// Exit with status 1 when the models collide and 0 when they do not (errors then exit with 2).
    #[arg(long)]
    pub exit_code: bool,
    /// Also write both posed meshes (world frame) to FILE as a PLY file, the contacting triangles coloured
    /// (A's in red, B's in orange; the others grey): A's triangles first, in its input order, then B's.
    #[arg(long, value_name = "FILE.ply")]
    pub export: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// How to build the trees of mesh inputs. A .bvh input fixes the scalar
    /// and volume type: meshes are then built to match it, and asking for
    /// another type is an error.
    #[command(flatten)]
    pub tree: TreeArgs,
}

/// `ccd toi`.
#[derive(Debug, Args)]
pub struct ToiArgs {
    /// Model A: a mesh (built in memory) or a .bvh file.
    pub a: PathBuf,
    /// Model B: a mesh (built in memory) or a .bvh file.
    pub b: PathBuf,
    /// Motion of A over t in [0, 1] (see MOTION below); `static` (resting at its start pose) when left out.
    #[arg(long, value_name = "MOTION", value_parser = parse_motion, allow_hyphen_values = true, default_value = "static")]
    pub motion_a: MotionArg,
    /// Motion of B over t in [0, 1] (see MOTION below); `static` (resting at its start pose) when left out.
    #[arg(long, value_name = "MOTION", value_parser = parse_motion, allow_hyphen_values = true, default_value = "static")]
    pub motion_b: MotionArg,
    /// Start pose of A (see POSE below); default: identity. Not with an interp motion.
    #[arg(long, value_name = "POSE", value_parser = parse_pose, allow_hyphen_values = true)]
    pub pose_a: Option<PoseArg>,
    /// Start pose of B (see POSE below); default: identity. Not with an interp motion.
    #[arg(long, value_name = "POSE", value_parser = parse_pose, allow_hyphen_values = true)]
    pub pose_b: Option<PoseArg>,
    /// How POSE values are read.
    #[command(flatten)]
    pub poses: PoseFormat,
    /// Width of the reported bracket [t_lo, t_hi] in normalised time.
    #[arg(long, value_name = "T", default_value_t = 1e-6, value_parser = parse_non_negative, allow_negative_numbers = true)]
    pub tolerance: f64,
    /// End of the searched interval [0, t_max] (at most 1).
    #[arg(long, value_name = "T", default_value_t = 1.0, value_parser = parse_non_negative, allow_negative_numbers = true)]
    pub t_max: f64,
    /// Most continuous volume tests before the answer is "undecided" (with the certified t_lo reached).
    #[arg(long, value_name = "N", default_value_t = ccd::ToiBudget::default().volume_tests)]
    pub max_volume_tests: u64,
    /// Most primitive tests (leaf time boxes, constant-velocity triangle tests) before "undecided".
    #[arg(long, value_name = "N", default_value_t = ccd::ToiBudget::default().primitive_tests)]
    pub max_primitive_tests: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// How to build the trees of mesh inputs (a .bvh input fixes the types, as for `collide`).
    #[command(flatten)]
    pub tree: TreeArgs,
}

/// Tree options shared by every command that may build a tree.
#[derive(Debug, Args)]
pub struct TreeArgs {
    /// Bounding-volume type of trees built from meshes [default: obb; for
    /// `collide`, the type of a .bvh input].
    #[arg(long, value_enum)]
    pub bv: Option<BvArg>,
    /// Use f32 volumes and vertices instead of f64.
    #[arg(long)]
    pub f32: bool,
    /// Most triangles per leaf (1 to 16).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_LEAF_SIZE)))]
    pub leaf_size: u32,
    /// How OBB and RSS orientations are fitted (spheres and AABBs ignore it).
    #[arg(long, value_enum, default_value_t = FitArg::Hull)]
    pub fit: FitArg,
    /// How nodes are split and fitted: fast (hull-surface frames only for nodes of 3 to 16 triangles) or
    /// reference (hull-surface frames for every node: the trees of earlier versions, about 3× the build time).
    #[arg(long, value_enum, default_value_t = MethodArg::Fast)]
    pub method: MethodArg,
}

impl TreeArgs {
    /// The requested scalar and volume type (OBB unless `--bv` says otherwise).
    pub fn kind(&self) -> TreeKind {
        TreeKind {
            scalar: if self.f32 {
                ScalarKind::F32
            } else {
                ScalarKind::F64
            },
            bv: self.bv.map_or(BvKind::Obb, BvArg::kind),
        }
    }

    /// The build options.
    pub fn options(&self) -> BuildOptions {
        BuildOptions {
            leaf_size: self.leaf_size,
            fit: self.fit.method(),
            method: self.method.method(),
            ..BuildOptions::default()
        }
    }
}

/// `--bv`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BvArg {
    /// Oriented bounding boxes.
    Obb,
    /// Axis-aligned bounding boxes (in the model frame).
    Aabb,
    /// Bounding spheres.
    Sphere,
    /// Rectangle swept spheres (PQP's distance volume).
    Rss,
}

impl BvArg {
    /// The library's volume kind.
    pub fn kind(self) -> BvKind {
        match self {
            BvArg::Obb => BvKind::Obb,
            BvArg::Aabb => BvKind::Aabb,
            BvArg::Sphere => BvKind::Sphere,
            BvArg::Rss => BvKind::Rss,
        }
    }
}

/// `--fit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FitArg {
    /// Covariance of the convex hull's surface (the default, robust to tessellation).
    Hull,
    /// Covariance of the triangles themselves (cheaper).
    Triangles,
}

impl FitArg {
    /// The library's fitting method.
    pub fn method(self) -> FitMethod {
        match self {
            FitArg::Hull => FitMethod::HullSurface,
            FitArg::Triangles => FitMethod::TriangleSurface,
        }
    }
}

/// `--method`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MethodArg {
    /// `BuildMethod::Fast` (the default).
    Fast,
    /// `BuildMethod::Reference`.
    Reference,
}

impl MethodArg {
    /// The library's build method.
    pub fn method(self) -> BuildMethod {
        match self {
            MethodArg::Fast => BuildMethod::Fast,
            MethodArg::Reference => BuildMethod::Reference,
        }
    }
}

/// The name `--fit` uses for a fitting method.
pub fn fit_name(fit: FitMethod) -> &'static str {
    match fit {
        FitMethod::HullSurface => "hull",
        FitMethod::TriangleSurface => "triangles",
    }
}

/// A scalar type and a volume type: what selects the monomorphised tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeKind {
    /// `f32` or `f64`.
    pub scalar: ScalarKind,
    /// Sphere, AABB, OBB or RSS.
    pub bv: BvKind,
}

impl std::fmt::Display for TreeKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.scalar.name(), self.bv.name())
    }
}

/// The MOTION and POSE syntax, shown by `ccd toi --help`.
const TOI_HELP: &str = "\
MOTION (normalised time t in [0, 1], world frame, angles in radians):
  static                               rest at the start pose
  translate:dx,dy,dz                   slide by (dx,dy,dz)
  screw:ax,ay,az,angle,distance        turn by angle about the axis (ax,ay,az) through the
                                       model origin's start position, sliding distance along it
  rotate-translate:ax,ay,az,angle,dx,dy,dz
                                       turn by angle about the axis (ax,ay,az) through the
                                       model origin while it slides by (dx,dy,dz)
  interp:POSE0;POSE1                   linear position, short-arc slerp orientation from POSE0
                                       (t = 0) to POSE1 (t = 1); gives its own start pose
The start pose is --pose-a/--pose-b (identity by default). Axes need not be unit length but
must not be zero. Quote specs containing ';' in the shell.
Output: 't_lo t_hi' (no contact before t_lo; the features touch within the tolerance somewhere
in [t_lo, t_hi]), the triangle pair, the features, the world point and normal, and the
counters; or 'no contact in [0, t_max]' (certified); or, when the budget runs out first,
'undecided within the budget: no contact before t_lo' (certified) and any contact found so far.
Every number must lie in the supported range (see the README's limits table): an axis, a
quaternion, a translation, an angle or a time outside it is refused with the value and the limit.

POSE (model frame -> world frame), comma-separated numbers: tx,ty,tz | tx,ty,tz,rx,ry,rz (rotation
vector) | tx,ty,tz,q,q,q,q (unit quaternion in the --quat-order, wxyz by default) |
rpy:tx,ty,tz,roll,pitch,yaw (R = Rz(yaw) Ry(pitch) Rx(roll)) | matrix:m00,...,m33 (4x4, row by row);
see `ccd collide --help` for details.

Examples:
  ccd toi a.obj b.obj --motion-a static --motion-b translate:-6,0,0 --pose-b 3,0,0
  ccd toi a.bvh b.obj --motion-a rotate-translate:0,0,1,20,1,0,0 --motion-b static --json
  ccd toi a.obj b.obj --motion-a static --motion-b 'interp:3,0,0;-3,0,0,0,0,3.14'";

/// A parsed MOTION, kept in `f64` until the scalar type of the query is known.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MotionArg {
    /// `static`.
    Static,
    /// `translate:dx,dy,dz`.
    Translate([f64; 3]),
    /// `screw:ax,ay,az,angle,distance`.
    Screw {
        /// Axis direction (non-zero, not normalised).
        axis: [f64; 3],
        /// Turn in radians.
        angle: f64,
        /// Slide along the axis.
        distance: f64,
    },
    /// `rotate-translate:ax,ay,az,angle,dx,dy,dz`.
    RotateTranslate {
        /// Axis direction (non-zero, not normalised).
        axis: [f64; 3],
        /// Turn in radians.
        angle: f64,
        /// Displacement of the model origin.
        displacement: [f64; 3],
    },
    /// `interp:POSE0;POSE1`.
    Interp(PoseArg, PoseArg),
}

/// Parses `n` comma-separated finite numbers.
fn numbers(s: &str, n: usize, what: &str) -> Result<Vec<f64>, String> {
    let v = s
        .split(',')
        .map(|part| {
            ccd::number::finite(part).map_err(|bad| format!("{what}: {:?} {bad}", part.trim()))
        })
        .collect::<Result<Vec<f64>, String>>()?;
    if v.len() == n {
        Ok(v)
    } else {
        Err(format!(
            "{what} takes {n} comma-separated numbers, got {}",
            v.len()
        ))
    }
}

/// A non-zero axis direction, divided by its largest component magnitude so that normalising it can neither
/// overflow (1e200,1e200,0) nor underflow (1e-200,0,0).
fn axis(v: &[f64], what: &str) -> Result<[f64; 3], String> {
    let a = [v[0], v[1], v[2]];
    let m = a.iter().fold(0.0f64, |m, c| m.max(c.abs()));
    if m == 0.0 {
        Err(format!("{what}: the axis is zero"))
    } else {
        Ok(a.map(|c| c / m))
    }
}

/// Parses MOTION (the syntax `ccd toi --help` prints).
pub fn parse_motion(s: &str) -> Result<MotionArg, String> {
    let (kind, rest) = s.split_once(':').unwrap_or((s, ""));
    match kind.trim() {
        "static" if rest.trim().is_empty() => Ok(MotionArg::Static),
        "static" => Err("static takes no numbers".into()),
        "translate" => {
            let v = numbers(rest, 3, "translate:dx,dy,dz")?;
            Ok(MotionArg::Translate([v[0], v[1], v[2]]))
        }
        "screw" => {
            let what = "screw:ax,ay,az,angle,distance";
            let v = numbers(rest, 5, what)?;
            Ok(MotionArg::Screw {
                axis: axis(&v, what)?,
                angle: v[3],
                distance: v[4],
            })
        }
        "rotate-translate" => {
            let what = "rotate-translate:ax,ay,az,angle,dx,dy,dz";
            let v = numbers(rest, 7, what)?;
            Ok(MotionArg::RotateTranslate {
                axis: axis(&v, what)?,
                angle: v[3],
                displacement: [v[4], v[5], v[6]],
            })
        }
        "interp" => {
            let (p0, p1) = rest
                .split_once(';')
                .ok_or("interp:POSE0;POSE1 needs two poses separated by ';'")?;
            let p0 = parse_pose(p0).map_err(|e| format!("interp POSE0: {e}"))?;
            let p1 = parse_pose(p1).map_err(|e| format!("interp POSE1: {e}"))?;
            Ok(MotionArg::Interp(p0, p1))
        }
        other => Err(format!(
            "unknown motion {other:?} (static, translate, screw, rotate-translate or interp)"
        )),
    }
}

/// Parses a finite, non-negative number.
fn parse_non_negative(s: &str) -> Result<f64, String> {
    match ccd::number::finite(s) {
        Ok(v) if v >= 0.0 => Ok(v),
        Ok(_) => Err(format!("{:?} is negative: it must be at least 0", s.trim())),
        Err(bad) => Err(format!("{:?} {bad}", s.trim())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_line_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
        assert_eq!(MAX_LEAF_SIZE, 16, "update the --leaf-size help");
    }

    #[test]
    fn motions_parse() {
        assert_eq!(parse_motion("static"), Ok(MotionArg::Static));
        assert_eq!(
            parse_motion("translate:-6,0,0.5"),
            Ok(MotionArg::Translate([-6.0, 0.0, 0.5]))
        );
        assert_eq!(
            parse_motion("screw:0,0,1,3.5,2"),
            Ok(MotionArg::Screw {
                axis: [0.0, 0.0, 1.0],
                angle: 3.5,
                distance: 2.0
            })
        );
        assert_eq!(
            parse_motion("rotate-translate:0,1,0,20,-6,0,0"),
            Ok(MotionArg::RotateTranslate {
                axis: [0.0, 1.0, 0.0],
                angle: 20.0,
                displacement: [-6.0, 0.0, 0.0]
            })
        );
        let Ok(MotionArg::Interp(p0, p1)) = parse_motion("interp:1,0,0;0,0,0,0,0,1") else {
            panic!("interp did not parse")
        };
        assert_eq!(p0, parse_pose("1,0,0").unwrap());
        assert_eq!(p1, parse_pose("0,0,0,0,0,1").unwrap());
        for bad in [
            "",
            "still",
            "static:1",
            "translate:1,2",
            "translate:1,2,nan",
            "screw:0,0,0,1,1",
            "rotate-translate:1,0,0,1,2,3",
            "interp:1,0,0",
            "interp:1,0,0;x,0,0",
        ] {
            assert!(parse_motion(bad).is_err(), "{bad:?} was accepted");
        }
    }
}
