mod common;
use ccd_bv::fit::convex_hull;
use ccd_bv::{BoundingVolume, FitMethod, Obb, Pose, sat::obb_disjoint};
use ccd_bv::nalgebra::{Vector3, Matrix3};
use common::Rng;
use std::time::Instant;
#[test]
fn perf() {
    let mut rng = Rng(1);
    let sph: Vec<Vector3<f64>> = (0..20_000).map(|_| loop { let v = rng.vec(-1.0,1.0); if v.norm()>0.1 && v.norm()<1.0 { break v.normalize(); } }).collect();
    let cube: Vec<Vector3<f64>> = (0..20_000).map(|_| rng.vec(-1.0,1.0)).collect();
    for (n, pts) in [("sphere", &sph), ("cube", &cube)] { if std::env::var("NOHULL").is_ok() { break; }
        let t = Instant::now();
        let mut k = 0;
        for _ in 0..if std::env::var("ONLYHULL").is_ok() {100} else {10} { k += convex_hull(pts).unwrap().len(); }
        println!("hull {n}: {:?} per hull, {} faces", t.elapsed()/10, k/10);
    }
    if std::env::var("ONLYHULL").is_ok() { return; }
    // lat/long sphere 40k tris
    let (nu, nv) = (200usize, 101usize);
    let mut v = vec![[0.0, 0.0, 1.0], [0.0, 0.0, -1.0]];
    for i in 1..nv { let th = std::f64::consts::PI * i as f64 / nv as f64;
        for j in 0..nu { let ph = std::f64::consts::TAU * j as f64 / nu as f64; v.push([th.sin()*ph.cos(), th.sin()*ph.sin(), th.cos()]); } }
    let ring = |i: usize, j: usize| (2 + (i - 1) * nu + j % nu) as u32;
    let mut f = Vec::new();
    for j in 0..nu { f.push([0, ring(1, j), ring(1, j + 1)]); f.push([1, ring(nv - 1, j + 1), ring(nv - 1, j)]);
        for i in 1..nv - 1 { f.push([ring(i, j), ring(i + 1, j), ring(i + 1, j + 1)]); f.push([ring(i, j), ring(i + 1, j + 1), ring(i, j + 1)]); } }
    println!("{} tris", f.len());
    for m in [FitMethod::HullSurface] {
        let t = Instant::now();
        let o = Obb::fit(&v, &f, m);
        println!("stats {:?}", ccd_bv::fit::stats());
        println!("root fit {m:?}: {:?} {:?}", t.elapsed(), o.half);
        // simulate tree: split faces by index ranges recursively (approx n log n)
        let t = Instant::now();
        fn rec(v: &[[f64;3]], f: &[[u32;3]], m: FitMethod) -> usize { let _ = Obb::fit(v, f, m); if f.len() <= 1 { 1 } else { let h = f.len()/2; rec(v, &f[..h], m) + rec(v, &f[h..], m) } }
        let n = rec(&v, &f, m);
        println!("tree fits {m:?}: {:?} for {n} nodes", t.elapsed());
    }
    // SAT speed
    let boxes: Vec<(Matrix3<f64>, Vector3<f64>, [f64;3], [f64;3])> = (0..1024).map(|_| (rng.rotation(), rng.vec(-3.0,3.0), rng.half(), rng.half())).collect();
    let t = Instant::now(); let mut c = 0;
    for _ in 0..1000 { for (r,tt,a,b) in &boxes { c += std::hint::black_box(obb_disjoint(r, tt, a, b, 1e-6)) as usize; } }
    println!("sat: {:.2} ns/test ({c})", t.elapsed().as_nanos() as f64 / 1024e3);
    let obbs: Vec<(Obb<f64>, Obb<f64>, Pose<f64>)> = (0..1024).map(|_| (Obb{rot: rng.rotation().into(), center:[0.0;3], half: rng.half()}, Obb{rot: rng.rotation().into(), center:[0.0;3], half: rng.half()}, Pose::from_parts(rng.rotation(), rng.vec(-3.0,3.0)))).collect();
    let t = Instant::now(); let mut c = 0;
    for _ in 0..1000 { for (a,b,p) in &obbs { c += std::hint::black_box(a).overlaps(b, p) as usize; } }
    println!("obb overlaps: {:.2} ns/test ({c})", t.elapsed().as_nanos() as f64 / 1024e3);
}
