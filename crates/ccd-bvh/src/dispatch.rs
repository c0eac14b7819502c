//! [`with_types!`](crate::with_types): the one place where a runtime (scalar, bounding-volume) pair, as read
//! from a file header or a command line, becomes a pair of types.

/// Runs `body` with the type names `T` and `B` bound to the scalar and volume types that a runtime
/// ([`ScalarKind`](crate::ScalarKind), [`BvKind`](ccd_bv::BvKind)) pair names, e.g. `f32` and `Obb<f32>` for
/// `(ScalarKind::F32, BvKind::Obb)`, and evaluates to `body`'s value.
///
/// `body` is compiled once per pair (eight times) with concrete types, so it may use any trait that all four
/// volume types implement in both scalars (`BoundingVolume`, or a trait of a crate above this one such as
/// `ccd-query`'s `ContinuousVolume`), and every arm must have the same type. A `match` on the pair, so there is
/// no per-node cost and no failure case.
///
/// ```
/// use ccd_bv::{BoundingVolume, BvKind, Real};
/// use ccd_bvh::ScalarKind;
///
/// fn describe<T: Real, B: BoundingVolume<T>>() -> String {
///     format!("{} {}", ScalarKind::of::<T>().name(), B::KIND.name())
/// }
/// let text = ccd_bvh::with_types!(ScalarKind::F32, BvKind::Rss, |T, B| describe::<T, B>());
/// assert_eq!(text, "f32 rss");
/// ```
#[macro_export]
macro_rules! with_types {
    ($scalar:expr, $bv:expr, |$t:ident, $b:ident| $body:expr) => {
        match ($scalar, $bv) {
            ($crate::ScalarKind::F32, $crate::__bv::BvKind::Sphere) => {
                $crate::with_types!(@bind $t = f32, $b = $crate::__bv::Sphere<f32>, $body)
            }
            ($crate::ScalarKind::F32, $crate::__bv::BvKind::Aabb) => {
                $crate::with_types!(@bind $t = f32, $b = $crate::__bv::Aabb<f32>, $body)
            }
            ($crate::ScalarKind::F32, $crate::__bv::BvKind::Obb) => {
                $crate::with_types!(@bind $t = f32, $b = $crate::__bv::Obb<f32>, $body)
            }
            ($crate::ScalarKind::F32, $crate::__bv::BvKind::Rss) => {
                $crate::with_types!(@bind $t = f32, $b = $crate::__bv::Rss<f32>, $body)
            }
            ($crate::ScalarKind::F64, $crate::__bv::BvKind::Sphere) => {
                $crate::with_types!(@bind $t = f64, $b = $crate::__bv::Sphere<f64>, $body)
            }
            ($crate::ScalarKind::F64, $crate::__bv::BvKind::Aabb) => {
                $crate::with_types!(@bind $t = f64, $b = $crate::__bv::Aabb<f64>, $body)
            }
            ($crate::ScalarKind::F64, $crate::__bv::BvKind::Obb) => {
                $crate::with_types!(@bind $t = f64, $b = $crate::__bv::Obb<f64>, $body)
            }
            ($crate::ScalarKind::F64, $crate::__bv::BvKind::Rss) => {
                $crate::with_types!(@bind $t = f64, $b = $crate::__bv::Rss<f64>, $body)
            }
        }
    };
    (@bind $t:ident = $ty:ty, $b:ident = $bv:ty, $body:expr) => {{
        #[allow(dead_code)]
        type $t = $ty;
        #[allow(dead_code)]
        type $b = $bv;
        $body
    }};
}

#[cfg(test)]
mod tests {
    use ccd_bv::{BoundingVolume, BvKind, Real};

    use crate::ScalarKind;

    fn kinds<T: Real, B: BoundingVolume<T>>() -> (ScalarKind, BvKind) {
        (ScalarKind::of::<T>(), B::KIND)
    }

    #[test]
    fn every_pair_binds_the_types_it_names() {
        for scalar in [ScalarKind::F32, ScalarKind::F64] {
            for bv in [BvKind::Sphere, BvKind::Aabb, BvKind::Obb, BvKind::Rss] {
                assert_eq!(
                    with_types!(scalar, bv, |T, B| kinds::<T, B>()),
                    (scalar, bv)
                );
            }
        }
    }
}
