//! The volumes are plain data: sizes, and byte round trips through bytemuck.

use ccd_bv::{Aabb, Obb, Rss, Sphere};

#[test]
fn sizes_have_no_padding() {
    assert_eq!(size_of::<Obb<f32>>(), 60);
    assert_eq!(size_of::<Obb<f64>>(), 120);
    assert_eq!(size_of::<Aabb<f32>>(), 24);
    assert_eq!(size_of::<Aabb<f64>>(), 48);
    assert_eq!(size_of::<Sphere<f32>>(), 16);
    assert_eq!(size_of::<Sphere<f64>>(), 32);
    assert_eq!(size_of::<Rss<f32>>(), 60);
    assert_eq!(size_of::<Rss<f64>>(), 120);
    assert_eq!(align_of::<Obb<f32>>(), 4);
    assert_eq!(align_of::<Obb<f64>>(), 8);
}

#[test]
fn slices_round_trip_through_bytes() {
    let obbs: Vec<Obb<f32>> = (0..5)
        .map(|k| {
            let x = k as f32;
            Obb {
                rot: [[1.0, x, 2.0], [3.0, 4.0, x], [x, -1.0, 0.5]],
                center: [x, -x, 7.0],
                half: [0.0, x, 1e-7],
            }
        })
        .collect();
    let bytes: &[u8] = bytemuck::cast_slice(&obbs);
    assert_eq!(bytes.len(), 5 * 60);
    let back: &[Obb<f32>] = bytemuck::cast_slice(bytes);
    assert_eq!(back, &obbs[..]);

    let spheres = [
        Sphere {
            center: [1.0f64, 2.0, 3.0],
            radius: 4.0,
        },
        Sphere {
            center: [-1.0, 0.0, 1e300],
            radius: 0.0,
        },
    ];
    let words: &[f64] = bytemuck::cast_slice(&spheres);
    assert_eq!(words, &[1.0, 2.0, 3.0, 4.0, -1.0, 0.0, 1e300, 0.0]);
    assert_eq!(bytemuck::cast_slice::<f64, Sphere<f64>>(words), &spheres);

    let boxes = [Aabb {
        center: [1.0f32, 2.0, 3.0],
        half: [0.5, 0.25, 0.0],
    }];
    let floats: &[f32] = bytemuck::cast_slice(&boxes);
    assert_eq!(floats, &[1.0, 2.0, 3.0, 0.5, 0.25, 0.0]);
    assert_eq!(bytemuck::cast_slice::<f32, Aabb<f32>>(floats), &boxes);
    assert_eq!(
        <Aabb<f32> as bytemuck::Zeroable>::zeroed(),
        Aabb {
            center: [0.0; 3],
            half: [0.0; 3]
        }
    );
}
