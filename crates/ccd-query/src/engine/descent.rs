//! Descent rules: which node of an overlapping pair to split.

use ccd_bv::{BoundingVolume, Real};

use crate::DescentRule;

/// Whether to descend A (else B) for an overlapping pair. Never descends a
/// leaf; ties go to A (FPQ §7.3.2).
#[inline(always)]
pub(crate) fn descend_a<T: Real, V: BoundingVolume<T>>(
    rule: DescentRule,
    a: &V,
    a_leaf: bool,
    b: &V,
    b_leaf: bool,
) -> bool {
    if b_leaf {
        return true;
    }
    if a_leaf {
        return false;
    }
    match rule {
        DescentRule::LargestDiameter => a.diameter() >= b.diameter(),
        DescentRule::LargestArea => a.area() >= b.area(),
        DescentRule::LargestVolume => a.volume() >= b.volume(),
        DescentRule::AlwaysA => true,
        DescentRule::AlwaysB => false,
    }
}
