//! One motion's parameters, the motion built from them, and the restated limits applied to them.

use ccd_bv::Real;
use ccd_motion::{ConstantRotationTranslation, Interp, Motion, Screw, Static, Translation};
use ccd_query::ToiRequest;
use nalgebra::{Isometry3, Point3, Quaternion, Translation3, Unit, UnitQuaternion, Vector3};

use super::limits::{Sc, Verdict, angle, magnitude, time, unit, wide, worst};

/// One motion's parameters, realised in `T`.
#[derive(Clone, Copy, Debug)]
pub struct Params<T: Real> {
    pub kind: u8,
    pub start_t: [T; 3],
    pub start_q: [T; 4],
    pub disp: [T; 3],
    pub axis: [T; 3],
    pub point: [T; 3],
    pub angle: T,
    pub distance: T,
    pub end_t: [T; 3],
    pub end_q: [T; 4],
}

/// A pose from a translation and (unchecked) quaternion components `w, i, j, k`.
pub fn isometry<T: Real>(t: &[T; 3], q: &[T; 4]) -> Isometry3<T> {
    Isometry3::from_parts(
        Translation3::new(t[0], t[1], t[2]),
        UnitQuaternion::new_unchecked(Quaternion::new(q[0], q[1], q[2], q[3])),
    )
}

impl<T: Sc> Params<T> {
    /// The motion (whatever the parameters: constructing one never panics).
    pub fn motion(&self) -> Box<dyn Motion<T>> {
        let start = isometry(&self.start_t, &self.start_q);
        let axis = Unit::new_unchecked(Vector3::from(self.axis));
        match self.kind {
            0 => Box::new(Static::new(start)),
            1 => Box::new(Translation::new(start, Vector3::from(self.disp))),
            2 => Box::new(Screw::new(
                start,
                axis,
                Point3::from(self.point),
                self.angle,
                self.distance,
            )),
            3 => Box::new(ConstantRotationTranslation::new(
                start,
                axis,
                self.angle,
                Vector3::from(self.disp),
            )),
            _ => Box::new(Interp::new(start, isometry(&self.end_t, &self.end_q))),
        }
    }

    /// The restated limits applied to the parameters this kind of motion uses.
    pub fn verdict(&self) -> Verdict {
        let t = &T::TABLE;
        let lengths = |v: &[T]| worst(v.iter().map(|&x| magnitude(wide(x), t)));
        let unit = |v: &[T]| unit(&v.iter().map(|&x| wide(x)).collect::<Vec<_>>(), t);
        let start = worst([lengths(&self.start_t), unit(&self.start_q)]);
        match self.kind {
            0 => start,
            1 => worst([start, lengths(&self.disp)]),
            2 => worst([
                start,
                unit(&self.axis),
                lengths(&self.point),
                angle(wide(self.angle), t),
                magnitude(wide(self.distance), t),
            ]),
            3 => worst([
                start,
                unit(&self.axis),
                angle(wide(self.angle), t),
                lengths(&self.disp),
            ]),
            _ => worst([start, lengths(&self.end_t), unit(&self.end_q)]),
        }
    }

    /// Whether every length the motion uses is at most `bound` (the scene stays small enough for the sampling
    /// oracle's own float poses to be meaningful).
    pub fn moderate(&self, bound: f64) -> bool {
        let small = |v: &[T]| v.iter().all(|&x| wide(x).abs() <= bound);
        small(&self.start_t)
            && small(&self.disp)
            && small(&self.point)
            && small(&[self.distance])
            && small(&self.end_t)
    }
}

/// The restated limits applied to the request.
pub fn request_verdict<T: Sc>(r: &ToiRequest<T>) -> Verdict {
    let sep = wide(r.min_separation);
    worst([
        time(wide(r.t_max)),
        time(wide(r.tolerance)),
        if sep >= 0.0 {
            magnitude(sep, &T::TABLE)
        } else {
            Verdict::Out
        },
        if r.max_iterations >= 1 && r.budget.volume_tests >= 1 && r.budget.primitive_tests >= 1 {
            Verdict::In
        } else {
            Verdict::Out
        },
    ])
}
