//! `IVec3`, `IMat3` and `IQuat`: inclusion of the exact result (rational
//! arithmetic on the member values) for random members, `f32` and `f64`.

mod common;

use ccd_interval::{IMat3, IQuat, IVec3, Interval, Real};
use common::*;
use nalgebra::{Matrix3, Quaternion, UnitQuaternion, Vector3};
use num_rational::BigRational;
use proptest::prelude::*;

type R = BigRational;
type RV = [R; 3];
type RM = [[R; 3]; 3];

/// Moderate-range intervals keep the rational products cheap; the scalar
/// operations themselves are covered over the full range in `arith.rs`.
fn ival<T: Real>() -> BoxedStrategy<Interval<T>> {
    prop_oneof![
        3 => (-100.0f64..100.0, 0.0f64..10.0).prop_map(|(a, w)| Interval::new(T::lit(a), T::lit(a) + T::lit(w).abs())),
        1 => interval::<T>(),
    ]
    .boxed()
}

/// An interval vector and a member of it.
fn vec_and_member<T: Real>() -> BoxedStrategy<(IVec3<T>, Vector3<T>)> {
    (
        ival::<T>(),
        ival::<T>(),
        ival::<T>(),
        pick(),
        pick(),
        pick(),
    )
        .prop_map(|(x, y, z, a, b, c)| {
            (
                IVec3::new(x, y, z),
                Vector3::new(member(x, a), member(y, b), member(z, c)),
            )
        })
        .boxed()
}

/// An interval matrix and a member of it.
fn mat_and_member<T: Real>() -> BoxedStrategy<(IMat3<T>, Matrix3<T>)> {
    (
        vec_and_member::<T>(),
        vec_and_member::<T>(),
        vec_and_member::<T>(),
    )
        .prop_map(|((r0, m0), (r1, m1), (r2, m2))| {
            let m = IMat3 {
                m: [r0.to_array(), r1.to_array(), r2.to_array()],
            };
            (
                m,
                Matrix3::from_rows(&[m0.transpose(), m1.transpose(), m2.transpose()]),
            )
        })
        .boxed()
}

fn rv<T: Real>(v: &Vector3<T>) -> RV {
    [q(v.x), q(v.y), q(v.z)]
}

fn rm<T: Real>(m: &Matrix3<T>) -> RM {
    std::array::from_fn(|r| std::array::from_fn(|c| q(m[(r, c)])))
}

fn rdot(a: &RV, b: &RV) -> R {
    &a[0] * &b[0] + &a[1] * &b[1] + &a[2] * &b[2]
}

fn rcross(a: &RV, b: &RV) -> RV {
    [
        &a[1] * &b[2] - &a[2] * &b[1],
        &a[2] * &b[0] - &a[0] * &b[2],
        &a[0] * &b[1] - &a[1] * &b[0],
    ]
}

fn rmat_vec(m: &RM, v: &RV) -> RV {
    std::array::from_fn(|r| rdot(&m[r], v))
}

fn rmat_mat(a: &RM, b: &RM) -> RM {
    std::array::from_fn(|r| {
        std::array::from_fn(|c| &a[r][0] * &b[0][c] + &a[r][1] * &b[1][c] + &a[r][2] * &b[2][c])
    })
}

fn vec_encloses<T: Real>(v: &IVec3<T>, e: &RV) -> bool {
    v.to_array().iter().zip(e).all(|(i, e)| encloses(*i, e))
}

fn mat_encloses<T: Real>(m: &IMat3<T>, e: &RM) -> bool {
    (0..3).all(|r| (0..3).all(|c| encloses(m.m[r][c], &e[r][c])))
}

fn check_vec<T: Real>(
    (u, a): (IVec3<T>, Vector3<T>),
    (v, b): (IVec3<T>, Vector3<T>),
    (s, k): (Interval<T>, T),
) -> Result<(), TestCaseError> {
    let (ra, rb, rk) = (rv(&a), rv(&b), q(k));
    prop_assert!(u.contains(&a) && IVec3::point(&a).contains(&a));
    prop_assert!(encloses(u.dot(&v), &rdot(&ra, &rb)), "dot");
    prop_assert!(encloses(u.dot_real(&b), &rdot(&ra, &rb)), "dot_real");
    prop_assert!(vec_encloses(&u.cross(&v), &rcross(&ra, &rb)), "cross");
    prop_assert!(
        vec_encloses(&u.cross_real(&b), &rcross(&ra, &rb)),
        "cross_real"
    );
    let scaled: RV = std::array::from_fn(|i| &ra[i] * &rk);
    prop_assert!(vec_encloses(&u.scale(s), &scaled), "scale");
    prop_assert!(vec_encloses(&(u * s), &scaled), "mul");
    prop_assert!(vec_encloses(&(u * k), &scaled), "mul real");
    prop_assert!(encloses(u.norm_sqr(), &rdot(&ra, &ra)), "norm_sqr");
    let sum: RV = std::array::from_fn(|i| &ra[i] + &rb[i]);
    let diff: RV = std::array::from_fn(|i| &ra[i] - &rb[i]);
    prop_assert!(vec_encloses(&(u + v), &sum) && vec_encloses(&(u + b), &sum));
    prop_assert!(vec_encloses(&(u - v), &diff) && vec_encloses(&(u - b), &diff));
    prop_assert!((-u).contains(&-a));
    let mut w = u;
    w += v;
    w -= v;
    prop_assert!(w.contains(&a));
    prop_assert!(u.hull(v).contains(&a) && u.hull(v).contains(&b));
    let m = u.mag();
    prop_assert!(a.x.abs() <= m.x && a.y.abs() <= m.y && a.z.abs() <= m.z);
    Ok(())
}

fn check_mat<T: Real>(
    (m, a): (IMat3<T>, Matrix3<T>),
    (n, b): (IMat3<T>, Matrix3<T>),
    (v, x): (IVec3<T>, Vector3<T>),
) -> Result<(), TestCaseError> {
    let (ra, rb, rx) = (rm(&a), rm(&b), rv(&x));
    prop_assert!(m.contains(&a) && IMat3::point(&a).contains(&a));
    prop_assert!(m.transpose().contains(&a.transpose()));
    prop_assert!(vec_encloses(&m.mul_vec(&v), &rmat_vec(&ra, &rx)), "mul_vec");
    prop_assert!(
        vec_encloses(&m.mul_real_vec(&x), &rmat_vec(&ra, &rx)),
        "mul_real_vec"
    );
    let ab = rmat_mat(&ra, &rb);
    prop_assert!(mat_encloses(&m.mul(&n), &ab), "mul");
    prop_assert!(mat_encloses(&m.mul_real(&b), &ab), "mul_real");
    prop_assert!(mat_encloses(&IMat3::real_mul(&a, &n), &ab), "real_mul");
    let sum: RM = std::array::from_fn(|r| std::array::from_fn(|c| &ra[r][c] + &rb[r][c]));
    let diff: RM = std::array::from_fn(|r| std::array::from_fn(|c| &ra[r][c] - &rb[r][c]));
    prop_assert!(mat_encloses(&(m + n), &sum) && mat_encloses(&(m - n), &diff));
    let up = m.abs_upper();
    prop_assert!((0..3).all(|r| (0..3).all(|c| a[(r, c)].abs() <= up[(r, c)])));
    prop_assert!(IMat3::<T>::identity().contains(&Matrix3::identity()));
    Ok(())
}

/// Exact Hamilton product, `(w, x, y, z)`.
fn rqmul(a: &[R; 4], b: &[R; 4]) -> [R; 4] {
    let [aw, ax, ay, az] = a;
    let [bw, bx, by, bz] = b;
    [
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    ]
}

fn rq<T: Real>(q_: &Quaternion<T>) -> [R; 4] {
    [q(q_.w), q(q_.i), q(q_.j), q(q_.k)]
}

fn clamp_unit(e: R) -> R {
    let one = R::from_integer(1.into());
    if e > one {
        one
    } else if e < -one.clone() {
        -one
    } else {
        e
    }
}

/// Exact `R(q)` of the unit-quaternion formula at `q`, clamped to `[-1, 1]`.
fn rrot(q_: &[R; 4]) -> RM {
    let [w, x, y, z] = q_;
    let one = R::from_integer(1.into());
    let two = R::from_integer(2.into());
    let m = [
        [
            &one - &two * (y * y + z * z),
            &two * (x * y - w * z),
            &two * (x * z + w * y),
        ],
        [
            &two * (x * y + w * z),
            &one - &two * (x * x + z * z),
            &two * (y * z - w * x),
        ],
        [
            &two * (x * z - w * y),
            &two * (y * z + w * x),
            &one - &two * (x * x + y * y),
        ],
    ];
    m.map(|r| r.map(clamp_unit))
}

/// A unit-quaternion box and a unit member: a random rotation `q0`, a
/// perturbed rotation `q1`, and the hull of both widened by `pad`.
fn quat_box<T: Real>() -> BoxedStrategy<(IQuat<T>, UnitQuaternion<T>)> {
    let angles = (-3.2f64..3.2, -3.2f64..3.2, -3.2f64..3.2);
    (angles.clone(), angles, 0.0f64..0.2, 0.0f64..1e-3)
        .prop_map(|((r0, p0, y0), (r1, p1, y1), t, pad)| {
            let q0 = UnitQuaternion::from_euler_angles(T::lit(r0), T::lit(p0), T::lit(y0));
            let q1 = UnitQuaternion::from_euler_angles(T::lit(r1), T::lit(p1), T::lit(y1));
            let q1 = q0.nlerp(&q1, T::lit(t));
            let pad = Interval::new(-T::lit(pad), T::lit(pad));
            let b = IQuat::point(&q0).hull(&IQuat::point(&q1));
            let b = IQuat::new(b.w + pad, b.x + pad, b.y + pad, b.z + pad);
            (b, q1)
        })
        .boxed()
}

fn check_quat<T: Real>(
    (p, a): (IQuat<T>, UnitQuaternion<T>),
    (o, b): (IQuat<T>, UnitQuaternion<T>),
) -> Result<(), TestCaseError> {
    prop_assert!(p.contains(a.quaternion()) && o.contains(b.quaternion()));
    let (ra, rb) = (rq(a.quaternion()), rq(b.quaternion()));
    let prod = p.mul(&o);
    let e = rqmul(&ra, &rb);
    let got = [prod.w, prod.x, prod.y, prod.z];
    prop_assert!(got.iter().zip(&e).all(|(i, e)| encloses(*i, e)), "mul");
    let c = p.conjugate();
    prop_assert!(c.contains(&a.quaternion().conjugate()));
    let rot = p.to_rotation_matrix();
    prop_assert!(
        mat_encloses(&rot, &rrot(&ra)),
        "to_rotation_matrix {rot:?} misses R({a:?})"
    );
    let up = rot.abs_upper();
    prop_assert!(up.iter().all(|v| *v <= T::one()));
    Ok(())
}

macro_rules! linalg_tests {
    ($m:ident, $t:ty) => {
        mod $m {
            use super::*;

            proptest! {
                #![proptest_config(config(256))]

                #[test]
                fn vector_ops(u in vec_and_member::<$t>(), v in vec_and_member::<$t>(), (s, ps) in (ival::<$t>(), pick())) {
                    check_vec(u, v, (s, member(s, ps)))?;
                }

                #[test]
                fn matrix_ops(m in mat_and_member::<$t>(), n in mat_and_member::<$t>(), v in vec_and_member::<$t>()) {
                    check_mat(m, n, v)?;
                }

                #[test]
                fn quaternion_ops(p in quat_box::<$t>(), o in quat_box::<$t>()) {
                    check_quat(p, o)?;
                }
            }
        }
    };
}

linalg_tests!(f32_linalg, f32);
linalg_tests!(f64_linalg, f64);

#[test]
fn quaternion_conventions_match_nalgebra() {
    let a = UnitQuaternion::from_euler_angles(0.3f64, -1.1, 2.0);
    let b = UnitQuaternion::from_euler_angles(-0.7f64, 0.4, 0.9);
    let tol = Interval::new(-1e-15, 1e-15);
    let p = IQuat::point(&a).mul(&IQuat::point(&b));
    let pad = |i: Interval<f64>| i + tol;
    let p = IQuat::new(pad(p.w), pad(p.x), pad(p.y), pad(p.z));
    assert!(p.contains((a * b).quaternion()));
    let r = IQuat::point(&a).to_rotation_matrix();
    let r = IMat3 {
        m: r.m.map(|row| row.map(pad)),
    };
    assert!(r.contains(a.to_rotation_matrix().matrix()));
}

#[test]
fn point_rotation_matrix_is_tight() {
    let a = UnitQuaternion::from_euler_angles(0.3f32, -1.1, 2.0);
    let r = IQuat::point(&a).to_rotation_matrix();
    for row in r.m {
        for e in row {
            assert!(e.width() < 1e-5, "{e}");
        }
    }
}
