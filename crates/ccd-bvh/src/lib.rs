#![doc = include_str!("../README.md")]
//!
//! # Layout
//!
//! A [`Bvh`] is a binary tree of sphere, AABB, OBB or RSS volumes
//! ([`ccd_bv::BoundingVolume`]) stored like Gottschalk's FPQ (§7.2): one node
//! array with adjacent children, one face array reordered so every node owns a
//! contiguous range, one vertex array. Nodes are plain `#[repr(C)]` data with
//! no padding (an `f32` OBB node is 64 bytes). Queries read trees through the
//! [`Hierarchy`] trait.
//!
//! | property | guarantee |
//! |---|---|
//! | containment | every node's volume contains all its triangles (exactly, after rounding) |
//! | partition | every face lies in exactly one leaf; siblings partition their parent's faces |
//! | depth | at most 65 + ⌈log2 n⌉ levels, even on adversarial input |
//! | input | bad meshes are rejected with a [`BuildError`], never a panic |

pub mod archive;
mod build;
mod bvh;
mod dispatch;
mod error;
mod hierarchy;
mod node;
pub mod replace;
mod slots;
mod view;

pub use archive::{FileInfo, ScalarKind};
pub use build::{BuildMethod, BuildOptions, TIGHTER_FRAME_TRIANGLES};
pub use bvh::Bvh;
pub use error::{BuildError, FileError};
pub use hierarchy::{Hierarchy, TreeStats};
pub use node::{Face, MAX_LEAF_SIZE, Node, NodeKind};
pub use replace::{replace_file, replace_file_with};
pub use slots::FaceSlots;
pub use view::{BvhFile, BvhView, MappedBvh};

/// The volume types named by [`with_types!`]'s expansion (not part of the API).
#[doc(hidden)]
pub use ccd_bv as __bv;
