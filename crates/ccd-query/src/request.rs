//! Query requests.

/// Which side of a pair of overlapping volumes to descend (Gottschalk §2.4), or both.
///
/// Every rule finds the same contacts (§2.6.1); they differ only in the
/// number of tests and the order of the walk. A leaf is never descended; ties descend A.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum DescentRule {
    /// Descend the volume with the larger diameter (the thesis's rule, which its benchmarks use).
    LargestDiameter,
    /// Descend the volume with the larger surface area.
    LargestArea,
    /// Descend the volume with the larger volume.
    LargestVolume,
    /// Descend A until it is a leaf, then B.
    AlwaysA,
    /// Descend B until it is a leaf, then A.
    AlwaysB,
    /// Descend both volumes of a pair of internal nodes at once: the four pairs of their children are tested
    /// together; a leaf against an internal node descends the internal one. About 5 % more volume tests than
    /// [`LargestDiameter`](Self::LargestDiameter) in close proximity, but half as many levels of the test tree to
    /// walk, each a dependent load: the fastest rule for collide and distance queries in close proximity. The
    /// thesis identities that assume one node is split per pair (`D − I + 2·N_p = 1`) do not hold for it.
    /// The default.
    #[default]
    Both,
}

impl DescentRule {
    /// All rules, for tests and benchmarks.
    pub const ALL: [DescentRule; 6] = [
        DescentRule::LargestDiameter,
        DescentRule::LargestArea,
        DescentRule::LargestVolume,
        DescentRule::AlwaysA,
        DescentRule::AlwaysB,
        DescentRule::Both,
    ];
}

/// Whether a collision query reports every contact or stops at the first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ContactMode {
    /// Report every intersecting triangle pair.
    #[default]
    All,
    /// Stop at the first intersecting triangle pair found.
    First,
}

/// Options of [`collide`](crate::collide).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CollideRequest {
    /// All contacts or the first one.
    pub mode: ContactMode,
    /// Descent rule of the traversal.
    pub descent: DescentRule,
}

impl CollideRequest {
    /// Every contact, default descent rule.
    pub fn all() -> Self {
        Self {
            mode: ContactMode::All,
            descent: DescentRule::default(),
        }
    }

    /// The first contact found, default descent rule.
    pub fn first() -> Self {
        Self {
            mode: ContactMode::First,
            descent: DescentRule::default(),
        }
    }

    /// The same request with another descent rule.
    pub fn with_descent(self, descent: DescentRule) -> Self {
        Self { descent, ..self }
    }
}
