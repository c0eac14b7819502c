//! Which tessellated sphere a suite uses: lat/long (t, s) or icosphere
//! level, chosen from the mesh flags or a triangle count.

use anyhow::{Result, bail};
use ccd_testkit::Mesh;

use crate::flags::{MeshFlags, MeshKind};

/// One sphere tessellation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tessellation {
    /// `latlong(t, s)`: poles plus t−1 rings of s vertices.
    LatLong {
        /// Stacks t.
        t: u32,
        /// Slices s.
        s: u32,
    },
    /// Icosahedron subdivided `level` times.
    Icosphere {
        /// Subdivision level L.
        level: u32,
    },
}

impl Tessellation {
    /// Number of triangles: 2·s·(t−1) or 20·4^L.
    pub fn tris(self) -> usize {
        match self {
            Tessellation::LatLong { t, s } => 2 * s as usize * (t as usize - 1),
            Tessellation::Icosphere { level } => 20 << (2 * level),
        }
    }

    /// The mesh at `radius`, centred at the origin.
    pub fn mesh(self, radius: f64) -> Mesh {
        match self {
            Tessellation::LatLong { t, s } => ccd_testkit::latlong(t, s, radius),
            Tessellation::Icosphere { level } => ccd_testkit::icosphere(level, radius),
        }
    }

    /// `t=<t> s=<s>` or `icosphere level=<L>`, for headers.
    pub fn describe(self) -> String {
        match self {
            Tessellation::LatLong { t, s } => format!("mesh=latlong t={t} s={s}"),
            Tessellation::Icosphere { level } => format!("mesh=icosphere level={level}"),
        }
    }

    /// The single tessellation named by `flags`, or `default_tris` triangles
    /// of the chosen family when no size flag is given.
    pub fn from_flags(flags: &MeshFlags, default_tris: usize) -> Result<Self> {
        Self::from_flags_opt(flags)?
            .map_or_else(|| Ok(Self::for_tris(flags.mesh, default_tris)), Ok)
    }

    /// The tessellation named explicitly by `flags` (`--tris`,
    /// `--stacks/--slices`, `--level`), if any.
    pub fn from_flags_opt(flags: &MeshFlags) -> Result<Option<Self>> {
        let tess = match (
            flags.mesh,
            flags.tris,
            flags.stacks.zip(flags.slices),
            flags.level,
        ) {
            (MeshKind::Latlong, _, _, Some(_)) => bail!("--level applies to --mesh icosphere"),
            (MeshKind::Icosphere, _, Some(_), _) => {
                bail!("--stacks/--slices apply to --mesh latlong")
            }
            (MeshKind::Latlong, _, Some((t, s)), _) => {
                if t < 2 || s < 3 {
                    bail!("latlong needs stacks >= 2 and slices >= 3, got t={t} s={s}");
                }
                Tessellation::LatLong { t, s }
            }
            (MeshKind::Icosphere, _, _, Some(level)) => {
                if level > 10 {
                    bail!("icosphere level {level} is too large (at most 10)");
                }
                Tessellation::Icosphere { level }
            }
            (kind, Some(n), _, _) => Self::for_tris(kind, n),
            _ => return Ok(None),
        };
        Ok(Some(tess))
    }

    /// The tessellation of `kind` closest to `n` triangles (see
    /// [`latlong_for_tris`] and [`icosphere_level_for_tris`]).
    pub fn for_tris(kind: MeshKind, n: usize) -> Self {
        match kind {
            MeshKind::Latlong => {
                let (t, s) = latlong_for_tris(n);
                Tessellation::LatLong { t, s }
            }
            MeshKind::Icosphere => Tessellation::Icosphere {
                level: icosphere_level_for_tris(n),
            },
        }
    }
}

/// Lat/long stacks and slices `(t, s)` for `n` triangles.
///
/// If `n = 2·s·(t−1)` has an exact solution with the aspect `s/(2t)` within
/// a factor 1.5 of 1, the one with the aspect closest to 1 is returned
/// (40,000 → (101, 200), 20,448 → (72, 144)). Otherwise the `t` with
/// `s = 2t` whose count `4t(t−1)` is nearest to `n`.
pub fn latlong_for_tris(n: usize) -> (u32, u32) {
    let aspect = |t: usize, s: usize| (s as f64 / (2.0 * t as f64)).ln().abs();
    if n >= 4 && n.is_multiple_of(2) {
        let half = n / 2;
        // r = t − 1 runs over the divisors of n/2.
        let best = (1..=half)
            .filter(|r| half.is_multiple_of(*r))
            .map(|r| (r + 1, half / r))
            .filter(|&(t, s)| s >= 3 && aspect(t, s) <= 1.5f64.ln() + 1e-12)
            .min_by(|a, b| aspect(a.0, a.1).total_cmp(&aspect(b.0, b.1)));
        if let Some((Ok(t), Ok(s))) = best.map(|(t, s)| (u32::try_from(t), u32::try_from(s))) {
            return (t, s);
        }
    }
    // Nearest 4t(t−1): t ≈ (1 + √(1 + n))/2; check the neighbours.
    let guess = ((1.0 + (1.0 + n as f64).sqrt()) / 2.0).round().max(2.0) as usize;
    let t = (guess.saturating_sub(1).max(2)..=guess + 1)
        .min_by_key(|&t| (4 * t * (t - 1)).abs_diff(n))
        .unwrap_or(2);
    (t as u32, 2 * t as u32)
}

/// Icosphere level whose `20·4^L` triangles are nearest to `n` in ratio.
pub fn icosphere_level_for_tris(n: usize) -> u32 {
    let target = (n.max(1) as f64).ln();
    (0..=10u32)
        .min_by(|&a, &b| {
            let da = ((20u64 << (2 * a)) as f64).ln() - target;
            let db = ((20u64 << (2 * b)) as f64).ln() - target;
            da.abs().total_cmp(&db.abs())
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_latlong_counts() {
        assert_eq!(latlong_for_tris(40_000), (101, 200));
        assert_eq!(latlong_for_tris(20_448), (72, 144));
        assert_eq!(latlong_for_tris(80), (5, 10));
        assert_eq!(latlong_for_tris(597_528), (387, 774));
        assert_eq!(latlong_for_tris(3_600), (31, 60));
        for n in [80, 3_600, 20_448, 40_000] {
            let (t, s) = latlong_for_tris(n);
            assert_eq!(Tessellation::LatLong { t, s }.tris(), n);
        }
    }

    #[test]
    fn inexact_latlong_counts_fall_back_to_nearest_square_grid() {
        // 40,001 is odd: the neighbours are t=100 (39,600, 401 away) and
        // t=101 (40,400, 399 away).
        assert_eq!(latlong_for_tris(40_001), (101, 202));
        // 2·prime: only (t, s) = (2, p) or (p+1, 1) factorisations, both
        // rejected for aspect; nearest square grid instead.
        let (t, s) = latlong_for_tris(2 * 10_007);
        assert_eq!(s, 2 * t);
        assert!((4 * t as usize * (t as usize - 1)).abs_diff(20_014) < 300);
        assert_eq!(latlong_for_tris(0), (2, 4));
    }

    #[test]
    fn icosphere_levels() {
        assert_eq!(icosphere_level_for_tris(80), 1);
        assert_eq!(icosphere_level_for_tris(40_000), 5);
        assert_eq!(icosphere_level_for_tris(1), 0);
        assert_eq!(Tessellation::Icosphere { level: 3 }.tris(), 1280);
    }
}
