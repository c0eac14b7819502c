//! [`Screw`]: Redon's motion M2, rotation about and translation along one fixed world axis.

use ccd_interval::limits::{
    check_angle, check_isometry, check_magnitude, check_unit, check_vector, renormalized,
};
use ccd_interval::{IMat3, IVec3, Interval, RangeError, Real, bound_up};
use nalgebra::{Isometry3, Point3, Translation3, Unit, UnitQuaternion, Vector3};

use crate::arc::short_arc;
use crate::enclosure::{
    AxisFrame, IntervalPose, eval_pad, l1, norm_upper, pad_matrix, rotation_pad, sin_vers,
    time_interval, turn_offset, widen_vec,
};
use crate::motion::Motion;

/// A screw motion (Redon's M2): the body turns through ω·t about the world-space line through `point` with
/// direction u = `axis`, while sliding δ·t along it (ω = `angle`, δ = `distance`). A world point y0 = start·x moves
/// on the helix y(t) = Rot_u(ωt)·(y0 − c) + c + (δt)·u, c = `point`.
///
/// Internally the axis is held as the lever ℓ from the axis to the start origin (the part of p0 − c across u), and
/// positions are evaluated as displacements, p(t) = p0 + (Rot_u(ωt) − I)·ℓ + (δt)·u, which stays accurate when the
/// axis is far away (a nearly pure translation as a screw has its axis at distance ~1/ω).
///
/// # Frames
/// Poses map body to world. `axis`, `point` and `distance` are in world coordinates.
///
/// # Guarantee
/// Enclosures use interval trigonometry of the angle interval ω·[t0, t1]: conservative over every sub-interval and
/// for spins of any number of turns. [`point_bound`](Motion::point_bound) bounds the point's own helix.
///
/// # Reference
/// Redon et al. 2002 (M2, the special case of M1 whose translation is along the rotation axis).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Screw<T: Real> {
    start: Isometry3<T>,
    axis: Unit<Vector3<T>>,
    point: Point3<T>,
    angle: T,
    distance: T,
    /// ℓ: from the axis to the start origin, across the axis.
    lever: Vector3<T>,
    frame: AxisFrame<T>,
    rot_pad: T,
    trans_pad: T,
}

impl<T: Real> Screw<T> {
    /// The screw motion from `start` that turns through `angle` radians (right-hand rule about `axis`; any real
    /// value, several turns included) about the world line through `point` along `axis`, and slides `distance`
    /// along `axis`.
    pub fn new(
        start: Isometry3<T>,
        axis: Unit<Vector3<T>>,
        point: Point3<T>,
        angle: T,
        distance: T,
    ) -> Self {
        let r = start.translation.vector - point.coords;
        let lever = r - axis.into_inner() * axis.dot(&r);
        Self::with_lever(start, axis, point, angle, distance, lever)
    }

    fn with_lever(
        start: Isometry3<T>,
        axis: Unit<Vector3<T>>,
        point: Point3<T>,
        angle: T,
        distance: T,
        lever: Vector3<T>,
    ) -> Self {
        let r0 = *start.rotation.to_rotation_matrix().matrix();
        // pose(t) evaluates p0 + sin θ·(u × ℓ) − 2 sin²(θ/2)·ℓ + u·(δt). With θ = ω·t rounded (relative error ε),
        // the sine is off by at most 2ε|ω| and the versine by ε|ω|·min(|ω|, 2/|ω|)·… ≤ 3ε|ω|; so the turned lever is
        // off by about 10ε|ω|·|ℓ| (small even for far axes, where |ℓ| ~ 1/ω), each sum by an ulp of its terms.
        let trans_pad = T::EPSILON
            * (T::lit(32.0) * angle.abs() * l1(&lever)
                + T::lit(8.0) * (l1(&start.translation.vector) + distance.abs()))
            + crate::enclosure::tiny();
        Self {
            start,
            axis,
            point,
            angle,
            distance,
            lever,
            frame: AxisFrame::new(&axis, &r0),
            rot_pad: rotation_pad(angle),
            trans_pad,
        }
    }

    /// The screw motion that carries `start` to `end` (Chasles' theorem), turning through the short rotation
    /// (angle ω in [0, π]) of end·start⁻¹.
    ///
    /// Without rotation the result is the pure translation along the displacement. Otherwise, with Δ the
    /// displacement of the origin, the slide is δ = u·Δ and the lever (start origin minus the nearest axis point)
    /// solves (Rot_u(ω) − I)·ℓ = Δ⊥: ℓ = −½(Δ⊥ + cot(ω/2)·u × Δ⊥). Nearly pure translations have far axes
    /// (|ℓ| ~ |Δ⊥|/ω); positions stay accurate because they are evaluated as displacements.
    ///
    /// `pose(1)` equals `end` up to rounding.
    pub fn between(start: &Isometry3<T>, end: &Isometry3<T>) -> Self {
        let arc = short_arc(&start.rotation, &end.rotation);
        let p0 = start.translation.vector;
        let delta = end.translation.vector - p0;
        if arc.angle == T::zero() {
            let n = delta.norm();
            let (axis, distance) = if n > T::zero() {
                (Unit::new_unchecked(delta / n), n)
            } else {
                (Vector3::x_axis(), T::zero())
            };
            return Self::new(*start, axis, Point3::from(p0), T::zero(), distance);
        }
        let u = arc.axis;
        let distance = u.dot(&delta);
        let across = delta - u.into_inner() * distance;
        let cot = T::one() / (arc.angle * T::lit(0.5)).tan();
        let lever = -(across + u.cross(&across) * cot) * T::lit(0.5);
        Self::with_lever(
            *start,
            u,
            Point3::from(p0 - lever),
            arc.angle,
            distance,
            lever,
        )
    }

    /// The start pose (t = 0).
    pub fn start(&self) -> &Isometry3<T> {
        &self.start
    }

    /// The world-frame screw axis direction.
    pub fn axis(&self) -> &Unit<Vector3<T>> {
        &self.axis
    }

    /// A world point on the screw axis (as given, or for [`between`](Self::between) the axis point nearest the
    /// start origin).
    pub fn point(&self) -> &Point3<T> {
        &self.point
    }

    /// The total rotation angle over t ∈ [0, 1] (radians).
    pub fn angle(&self) -> T {
        self.angle
    }

    /// The total slide along the axis over t ∈ [0, 1] (length units).
    pub fn distance(&self) -> T {
        self.distance
    }

    /// The end pose (t = 1).
    pub fn end(&self) -> Isometry3<T> {
        self.pose(T::one())
    }

    /// Encloses p0 + (δ·t)·u over the time interval: the start origin slid along the axis.
    fn slide(&self, time: Interval<T>) -> IVec3<T> {
        IVec3::point(self.axis.as_ref()) * (time * self.distance) + self.start.translation.vector
    }
}

impl<T: Real> Motion<T> for Screw<T> {
    fn check_range(&self) -> Result<(), RangeError> {
        check_isometry(&self.start).map_err(|e| e.within("start pose"))?;
        check_unit(self.axis.as_slice(), || "axis norm".into())?;
        check_vector(&self.point.coords, "axis point")?;
        check_angle(self.angle, || "angle".into())?;
        check_magnitude(self.distance, || "distance along the axis".into())
    }

    fn pose(&self, t: T) -> Isometry3<T> {
        let theta = self.angle * t;
        let half = (theta * T::lit(0.5)).sin();
        let turned =
            self.axis.cross(&self.lever) * theta.sin() - self.lever * (T::lit(2.0) * half * half);
        let p =
            self.start.translation.vector + turned + self.axis.into_inner() * (self.distance * t);
        let turn = UnitQuaternion::from_axis_angle(&self.axis, theta);
        Isometry3::from_parts(
            Translation3::from(p),
            renormalized(turn * self.start.rotation),
        )
    }

    fn enclose(&self, t0: T, t1: T) -> IntervalPose<T> {
        let time = time_interval(t0, t1);
        let (sin, vers) = sin_vers(self.angle, time);
        let trans =
            turn_offset(&self.axis, &IVec3::point(&self.lever), sin, vers) + self.slide(time);
        IntervalPose {
            rot: pad_matrix(&self.frame.rotation(sin, vers), self.rot_pad),
            trans: widen_vec(trans, &Vector3::repeat(self.trans_pad)),
        }
    }

    fn point_bound(&self, p: &Vector3<T>, t0: T, t1: T) -> IVec3<T> {
        // y(t) = p0 + R0·p + (Rot(θ) − I)·(R0·p + ℓ) + (δt)·u: the point's helix, as a displacement.
        let time = time_interval(t0, t1);
        let (sin, vers) = sin_vers(self.angle, time);
        let body = IMat3::point(self.start.rotation.to_rotation_matrix().matrix()).mul_real_vec(p);
        let moved =
            turn_offset(&self.axis, &(body + self.lever), sin, vers) + body + self.slide(time);
        let pad = self.rot_pad * l1(p) + self.trans_pad;
        eval_pad(widen_vec(moved, &Vector3::repeat(pad)), p)
    }

    fn max_speed(&self, radius: T) -> T {
        // A point at distance ρ from the axis moves with velocity ω·u × (y − c) + δ·u: two orthogonal parts, so
        // the speed is √((ωρ)² + δ²), and ρ ≤ |x| + |ℓ|.
        let rho = radius + norm_upper(&self.lever);
        let spin = self.angle.abs() * rho;
        bound_up((spin * spin + self.distance * self.distance).sqrt())
    }

    fn velocity_bound(&self, p: &Vector3<T>, t0: T, t1: T) -> IVec3<T> {
        // d/dt y(t) = ω·u × Rot(θ)·(R0·p + ℓ) + δ·u; Rot(θ)·w = w + (Rot(θ) − I)·w.
        let (sin, vers) = sin_vers(self.angle, time_interval(t0, t1));
        let body = IMat3::point(self.start.rotation.to_rotation_matrix().matrix()).mul_real_vec(p);
        let arm = body + self.lever;
        let arm = turn_offset(&self.axis, &arm, sin, vers) + arm;
        let spin = -arm.cross_real(self.axis.as_ref()) * self.angle;
        let slide = IVec3::point(self.axis.as_ref()) * Interval::point(self.distance);
        let pad = self.rot_pad * (l1(p) + l1(&self.lever)) * self.angle.abs();
        widen_vec(spin + slide, &Vector3::repeat(pad))
    }

    fn is_pure_translation(&self) -> Option<Vector3<T>> {
        (self.angle == T::zero()).then(|| self.axis.into_inner() * self.distance)
    }
}
