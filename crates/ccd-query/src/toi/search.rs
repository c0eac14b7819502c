//! The time-of-impact visitor of the best-first engine: entries are node pairs × time intervals, keyed by the
//! interval (earliest first); the pruning test is the span test (and the radial shells), the extra split is
//! halving time.

use std::cmp::Ordering;
use std::collections::HashSet;

use ccd_bv::BoundingVolume;
use ccd_bv::Real;
use ccd_bv::moving::moving_triangle_triangle;
use ccd_bvh::Hierarchy;
use ccd_interval::bound_up;
use ccd_motion::Motion;
use nalgebra::Vector3;

use super::ContinuousVolume;
use super::describe::{ModelPair, describe, feature_distance, feature_of};
use super::leaf::{Bracket, Tri, earliest};
use super::request::{Feature, Toi, ToiMode, ToiRequest, ToiStats};
use super::shells::Shells;
use super::spans::{Span, Spans};
use crate::DescentRule;
use crate::engine::{BestFirstVisitor, Entry, FaceRef, Flow, Step, best_first};

/// Time is halved for a node pair while `TIME_SPLIT_RATIO · slack > diameter` (the larger of the two): the
/// motions' slack must be small next to the volumes for the static test at the span's pose to be nearly as
/// tight as at a single time. Measured on bench-ccd (ratios 1, 2, 4, 8, 16, 32): 16 is the fastest on the
/// approach scenes and within noise of 32, which costs more on the concentric spin.
const TIME_SPLIT_RATIO: f64 = 16.0;

/// An entry's key: the bit patterns of its time interval's ends (non-negative floats order like their bits):
/// earliest start first, then the shorter interval.
type Key = (u64, u64);

/// An entry's time interval.
type Span2<T> = (T, T);

fn key<T: Real>(t0: T, t1: T) -> Key {
    let bits = |t: T| t.to_f64_exact().to_bits();
    (bits(t0), bits(t1))
}

/// The traversal state shared by the leaf handlers.
pub(crate) struct Search<'q, T: Real, MA: ?Sized, MB: ?Sized> {
    pub motion_a: &'q MA,
    pub motion_b: &'q MB,
    pub request: ToiRequest<T>,
    /// Displacements of both motions when both are pure translations (and `min_separation` is 0).
    pub translation: Option<(Vector3<T>, Vector3<T>)>,
    pub stats: ToiStats,
    pub best: Option<Toi<T>>,
    pub found: Vec<Toi<T>>,
    /// Set when the budget ran out: the start of the earliest entry left, before which there is no contact.
    pub undecided_from: Option<T>,
    tested: HashSet<(usize, usize)>,
    spans: Spans<'q, T, MA, MB>,
    /// Radial shells of both trees, computed the first time the body origins are close enough for them to help.
    shells: Option<(Shells<T>, Shells<T>)>,
    /// The larger root volume's distance bound from its origin: shells can only separate nodes while the origins
    /// are closer than this.
    shell_reach: T,
}

impl<'q, T: Real, MA: Motion<T> + ?Sized, MB: Motion<T> + ?Sized> Search<'q, T, MA, MB> {
    pub fn new(
        motion_a: &'q MA,
        motion_b: &'q MB,
        request: ToiRequest<T>,
        stats: ToiStats,
    ) -> Self {
        let translation = match (
            motion_a.is_pure_translation(),
            motion_b.is_pure_translation(),
        ) {
            (Some(da), Some(db)) if request.min_separation <= T::zero() => Some((da, db)),
            _ => None,
        };
        Self {
            motion_a,
            motion_b,
            request,
            translation,
            stats,
            best: None,
            found: Vec::new(),
            undecided_from: None,
            tested: HashSet::new(),
            spans: Spans::new(motion_a, motion_b),
            shells: None,
            shell_reach: T::zero(),
        }
    }

    fn first_only(&self) -> bool {
        self.request.mode == ToiMode::FirstContact
    }

    /// `true` once no entry starting at `t0` can change the answer.
    fn done_at(&self, t0: T) -> bool {
        match &self.best {
            Some(b) if self.first_only() => t0 >= b.t_lo,
            Some(b) => t0 > b.t_hi,
            None => false,
        }
    }

    /// Walks the node pairs of `a` and `b` over `[0, t_max]` on the best-first engine.
    pub fn run<A, B>(&mut self, a: &A, b: &B)
    where
        A: Hierarchy<Scalar = T>,
        B: Hierarchy<Scalar = T, Bv = A::Bv>,
        A::Bv: ContinuousVolume<T>,
    {
        if a.nodes().is_empty() || b.nodes().is_empty() {
            return;
        }
        self.shell_reach = a.nodes()[0]
            .bv
            .origin_radius()
            .max(b.nodes()[0].bv.origin_radius());
        let t_max = self.request.t_max;
        let root = Entry {
            key: key(T::zero(), t_max),
            na: 0,
            nb: 0,
            extra: (T::zero(), t_max),
        };
        let (queue, _) = best_first(a, b, root, DescentRule::LargestDiameter, self, usize::MAX);
        self.stats.queue_pushes += queue.pushes;
    }

    /// The radial shell test (`shells.rs`) of an entry's nodes, when the body origins stay close enough for
    /// shells to separate anything and rotation makes most of the span's slack (otherwise splitting time works
    /// well, and the shells, which cost a pass over both meshes, are not computed).
    fn shells_apart<A, B>(
        &mut self,
        a: &A,
        b: &B,
        en: &Entry<Key, Span2<T>>,
        span: &Span<T>,
    ) -> bool
    where
        A: Hierarchy<Scalar = T, Bv: ContinuousVolume<T>>,
        B: Hierarchy<Scalar = T, Bv = A::Bv>,
    {
        if span.origin_gap >= self.shell_reach {
            return false;
        }
        let rel = &span.rel;
        let (na, nb) = (&a.nodes()[en.na as usize], &b.nodes()[en.nb as usize]);
        let turning = rel.rot_dev_a * na.bv.origin_radius() + rel.rot_dev_b * nb.bv.origin_radius();
        if turning <= rel.trans_dev_a + rel.trans_dev_b {
            return false;
        }
        let origin_gap = span.origin_gap;
        let (sa, sb) = self
            .shells
            .get_or_insert_with(|| (Shells::new(a), Shells::new(b)));
        Shells::apart(
            sa.get(en.na as usize),
            sb.get(en.nb as usize),
            origin_gap,
            self.request.min_separation,
        )
    }

    /// Tests faces `fa` of `a` and `fb` of `b` over `[t0, t1]` and records what it finds.
    fn leaf_pair<A, B>(&mut self, a: &A, fa: FaceRef, b: &B, fb: FaceRef, (t0, t1): (T, T))
    where
        A: Hierarchy<Scalar = T>,
        B: Hierarchy<Scalar = T>,
    {
        let (ta, tb) = (a.triangle(fa.slot), b.triangle(fb.slot));
        let pair = ModelPair {
            a: ta.map(Vector3::from),
            b: tb.map(Vector3::from),
        };
        let (ida, idb) = (fa.id, fb.id);
        let (fa, fb) = (fa.slot, fb.slot);
        let bracket = if let Some((da, db)) = self.translation {
            if !self.tested.insert((fa, fb)) {
                return;
            }
            self.translated(&pair, &da, &db)
        } else {
            let limit = match &self.best {
                Some(b) if self.first_only() => (b.t_lo, true),
                Some(b) => (b.t_hi, false),
                None => (self.request.t_max, false),
            };
            earliest(
                &Tri::new(&ta),
                &Tri::new(&tb),
                &mut self.spans,
                (t0, t1, self.request.t_max),
                limit,
                self.request.tolerance,
                self.request.min_separation,
                self.request.max_iterations.max(1),
                &mut self.stats,
            )
        };
        let Some(br) = bracket else { return };
        let features: Vec<Feature> = (0..15)
            .filter(|i| br.features & (1 << i) != 0)
            .map(feature_of)
            .collect();
        let make = |feature: Feature| {
            let (point, normal) = describe(
                &pair,
                self.motion_a,
                self.motion_b,
                feature,
                (br.t_lo, br.t_hi),
            );
            Toi {
                t_lo: br.t_lo,
                t_hi: br.t_hi,
                separation: br.separation,
                hit_cap: br.hit_cap,
                tri_a: ida,
                tri_b: idb,
                feature,
                point,
                normal,
            }
        };
        if self.first_only() {
            if self.best.as_ref().is_some_and(|b| b.t_lo <= br.t_lo) {
                return;
            }
            // The surviving feature closest at t_hi describes the contact.
            let dist =
                |f: &Feature| feature_distance(&pair, self.motion_a, self.motion_b, *f, br.t_hi);
            let f = features
                .iter()
                .copied()
                .min_by(|x, y| dist(x).partial_cmp(&dist(y)).unwrap_or(Ordering::Equal))
                .unwrap_or(Feature::Overlap);
            self.best = Some(make(f));
        } else {
            for f in features {
                let toi = make(f);
                if self.best.as_ref().is_none_or(|b| toi.t_lo < b.t_lo) {
                    self.best = Some(toi);
                }
                self.found.push(toi);
            }
        }
    }

    /// Constant-velocity (Eberly) test of one triangle pair over `[0, t_max]`.
    fn translated(
        &mut self,
        pair: &ModelPair<T>,
        da: &Vector3<T>,
        db: &Vector3<T>,
    ) -> Option<Bracket<T>> {
        self.stats.primitive_tests += 1;
        let (pa, pb) = (self.motion_a.pose(T::zero()), self.motion_b.pose(T::zero()));
        let wa = pair.a.map(|v| pa.transform_point(&v.into()).coords.into());
        let wb = pair.b.map(|v| pb.transform_point(&v.into()).coords.into());
        let t_max = self.request.t_max;
        let time = moving_triangle_triangle(&wa, da, &wb, db, t_max).time()?;
        let time = time.max(T::zero()).min(t_max);
        let width = self.request.tolerance.max(T::EPSILON * T::lit(64.0));
        let t_hi = (time + width).min(t_max);
        // The closest feature at t_hi names the contact; its distance there, measured on the motions' float poses,
        // plus the rounding of the posed vertices and closest points (64 ε of the coordinates' magnitudes), bounds
        // the triangles' distance at t_hi.
        let dist: [T; 15] = std::array::from_fn(|bit| {
            feature_distance(
                pair,
                self.motion_a,
                self.motion_b,
                feature_of(bit as u32),
                t_hi,
            )
        });
        let bit = (0..15)
            .min_by(|&x, &y| dist[x].partial_cmp(&dist[y]).unwrap_or(Ordering::Equal))
            .unwrap_or(0);
        let size = |w: &[[T; 3]; 3], d: &Vector3<T>| {
            w.iter().flatten().fold(T::zero(), |m, x| m.max(x.abs())) + d.abs().max()
        };
        let slop = T::EPSILON * T::lit(64.0) * T::lit(3.0) * (size(&wa, da) + size(&wb, db));
        Some(Bracket {
            t_lo: time,
            t_hi,
            features: 1 << bit,
            separation: bound_up(dist[bit] + slop),
            hit_cap: false,
        })
    }
}

impl<T, A, B, MA, MB> BestFirstVisitor<A, B> for Search<'_, T, MA, MB>
where
    T: Real,
    A: Hierarchy<Scalar = T>,
    B: Hierarchy<Scalar = T, Bv = A::Bv>,
    A::Bv: ContinuousVolume<T>,
    MA: Motion<T> + ?Sized,
    MB: Motion<T> + ?Sized,
{
    type Key = Key;
    type Extra = Span2<T>;

    /// Once a first contact is known, entries starting at or after its `t_lo` (first contact only), or after its
    /// `t_hi` (all feature pairs), cannot change the answer.
    fn done(&self, &(t0, _): &Key) -> bool {
        // The key holds the start widened to f64 exactly, so it narrows back exactly.
        self.done_at(T::lit(f64::from_bits(t0)))
    }

    /// The span test (volumes static at the interval's float pose, farther apart than the motions' slack) and the
    /// radial shells prune; leaf pairs go to the leaf test; otherwise time is halved while the slack is more than
    /// 1/`TIME_SPLIT_RATIO` of the larger volume's diameter, else the larger volume is split.
    fn visit(&mut self, a: &A, b: &B, en: &Entry<Key, Span2<T>>) -> Step<Key, Span2<T>> {
        let (t0, t1) = en.extra;
        // Entries are taken earliest start first (the engine's local stack holds entries starting where the popped
        // one does), so every contact before `t0` has been found: the certified part of an undecided answer.
        if self.request.budget.exhausted_by(&self.stats) {
            self.undecided_from = Some(t0);
            return Step::Stop;
        }
        let (na, nb) = (&a.nodes()[en.na as usize], &b.nodes()[en.nb as usize]);
        let span = self.spans.get(t0, t1, &mut self.stats);
        let slack = span.rel.slack(na.bv.origin_radius(), nb.bv.origin_radius());
        let gap = (slack + self.request.min_separation) * (T::one() + T::lit(4.0) * T::EPSILON);
        self.stats.bv_tests += 1;
        if na.bv.apart(&nb.bv, &span.pose, gap, span.rel.defect)
            || self.shells_apart(a, b, en, &span)
        {
            return Step::Prune;
        }
        if na.is_leaf() && nb.is_leaf() {
            return Step::Leaves;
        }
        let (da, db) = (na.bv.diameter_squared(), nb.bv.diameter_squared());
        let mid = t0 + (t1 - t0) * T::lit(0.5);
        let splittable = t1 - t0 > self.request.tolerance && t0 < mid && mid < t1;
        // Halve time while the motions' slack over the interval exceeds a fraction of the volumes' size (compared
        // squared).
        let ratio_sq = T::lit(TIME_SPLIT_RATIO * TIME_SPLIT_RATIO);
        if splittable && ratio_sq * slack * slack > da.max(db) {
            return Step::SplitExtra([(key(t0, mid), (t0, mid)), (key(mid, t1), (mid, t1))]);
        }
        Step::Descend
    }

    /// Children keep the parent's interval, so its key: they are handled at once, depth first.
    fn child_key(
        &mut self,
        _: &A,
        _: &B,
        parent: &Entry<Key, Span2<T>>,
        _: usize,
        _: usize,
    ) -> Option<Key> {
        Some(parent.key)
    }

    fn face_pair(
        &mut self,
        a: &A,
        fa: FaceRef,
        b: &B,
        fb: FaceRef,
        e: &Entry<Key, Span2<T>>,
    ) -> Flow {
        self.leaf_pair(a, fa, b, fb, e.extra);
        Flow::Continue
    }
}
