#![allow(missing_docs, clippy::all)]
use super::corners::Corners;
use super::soundness::verify_containment;
use super::verify::blocks;
use super::walk::walk_tree;
use ccd_bv::{Obb, Real};
use std::time::Instant;

fn med(mut v: Vec<f64>) -> f64 { v.sort_by(f64::total_cmp); v[v.len() / 2] }

fn run<T: Real>(path: &str) {
    let file = unsafe { crate::BvhFile::open_unchecked(path) }.unwrap().into_typed::<T, Obb<T>>().unwrap();
    let s = &unsafe { super::parse(file.bytes(), false) }.unwrap();
    let (nodes, faces, vertices) = blocks::<T, Obb<T>>(file.bytes(), s).unwrap();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    pool.install(|| {
        let (mut tw, mut tc, mut tp) = (vec![], vec![], vec![]);
        for _ in 0..7 {
            let t = Instant::now();
            let spans = walk_tree(nodes, faces.len(), s.info.options.leaf_size as usize, s.info.depth).unwrap();
            tw.push(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            let corners = Corners::of(faces, vertices).unwrap();
            tc.push(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            verify_containment(nodes, faces, corners, &spans).unwrap();
            tp.push(t.elapsed().as_secs_f64() * 1e3);
        }
        eprintln!("PROBE {} walk {:.2} corners {:.2} proof {:.2}", std::any::type_name::<T>(), med(tw), med(tc), med(tp));
    });
}

#[test]
#[ignore]
fn probe() {
    run::<f32>("/tmp/ba/archive-f32.bvh");
    run::<f64>("/tmp/ba/archive-f64.bvh");
}
