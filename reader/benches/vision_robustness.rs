//! Robustness sweep (`cargo bench -p sudoku-reader --bench vision_robustness`): every real
//! screenshot in `shared/real-screens` and `shared/real-screens-2`, untouched and under each
//! perturbation of `tests/support/perturb.rs` (other widths down to 360 px, JPEG, device frame,
//! margins, crops, brightness, contrast, gamma, inverted, an ad banner), read with no
//! calibration. Prints one row per screenshot (`=` exact, `-`
//! refused, `X` wrong, blank: does not apply), the totals per perturbation, then every wrong
//! board and every refusal with its reason. `VISION_ROBUST_ONLY=substring` keeps the
//! screenshots whose name contains it, `VISION_ROBUST_PERTURB=a,b` those perturbations only;
//! `VISION_ROBUST_SAVE=dir` writes every perturbed screenshot that was not read exactly there
//! (as PNG, named after the screenshot and the perturbation) to look at with `read --overlay`.

#[path = "../tests/support/perturb.rs"]
mod perturb;
// `perturb` finds `../shared` through it; the bench skips what is missing, even under CI.
#[allow(dead_code)]
#[path = "../tests/support/shared.rs"]
mod shared;

use perturb::{Verdict, context, judge, perturbations, shots};
use std::time::Instant;

fn main() {
    let only = std::env::var("VISION_ROBUST_ONLY").ok();
    let chosen = std::env::var("VISION_ROBUST_PERTURB").ok();
    let save = std::env::var_os("VISION_ROBUST_SAVE").map(std::path::PathBuf::from);
    let shots: Vec<_> = shots()
        .into_iter()
        .filter(|s| only.as_ref().is_none_or(|o| s.name.contains(o.as_str())))
        .collect();
    if shots.is_empty() {
        println!("no shared/real-screens* on this machine (or none matches VISION_ROBUST_ONLY)");
        return;
    }
    let perts: Vec<_> = perturbations()
        .into_iter()
        .filter(|p| {
            chosen
                .as_ref()
                .is_none_or(|c| c.split(',').any(|n| n == p.name))
        })
        .collect();
    let names: Vec<&str> = std::iter::once("orig")
        .chain(perts.iter().map(|p| p.name))
        .collect();
    println!("robustness sweep: read with no calibration; = exact, - refused, X WRONG, blank n/a");
    print!("{:<46}", "screenshot");
    for n in &names {
        print!(" {n:>6}");
    }
    println!();
    let mut totals = vec![[0usize; 3]; names.len()];
    let mut notes = Vec::new();
    let start = Instant::now();
    for shot in &shots {
        let ctx = context(&shot.img);
        let truth = shot.truth.as_deref();
        let mut row = Vec::new();
        row.push(Some(judge(&shot.img, truth)));
        for p in &perts {
            row.push((p.apply)(&shot.img, ctx).map(|img| {
                let v = judge(&img, truth);
                if let Some(dir) = save.as_ref().filter(|_| v != Verdict::Exact) {
                    let stem = shot.name.rsplit_once('.').map_or(&*shot.name, |s| s.0);
                    let path = dir.join(format!("{stem}.{}.png", p.name));
                    if let Err(e) = img.save(&path) {
                        eprintln!("cannot write {}: {e}", path.display());
                    }
                }
                v
            }));
        }
        let short: String = shot.name.chars().take(46).collect();
        print!("{short:<46}");
        for (k, v) in row.iter().enumerate() {
            let mark = v.as_ref().map_or(' ', Verdict::mark);
            print!(" {mark:>6}");
            if let Some(v) = v {
                let slot = match v {
                    Verdict::Exact => 0,
                    Verdict::Refused(why) => {
                        notes.push(format!("  -  {} / {}: {}", shot.name, names[k], clip(why)));
                        1
                    }
                    Verdict::Wrong(diff) => {
                        notes.push(format!("  X  {} / {}: {}", shot.name, names[k], clip(diff)));
                        2
                    }
                };
                totals[k][slot] += 1;
            }
        }
        println!();
    }
    for (label, slot) in [("exact", 0), ("refused", 1), ("WRONG", 2)] {
        print!("{label:<46}");
        for t in &totals {
            print!(" {:>6}", t[slot]);
        }
        println!();
    }
    let sum = |slot: usize| totals.iter().map(|t| t[slot]).sum::<usize>();
    println!(
        "all reads: {} exact, {} refused, {} WRONG ({:.0} s)",
        sum(0),
        sum(1),
        sum(2),
        start.elapsed().as_secs_f64()
    );
    for n in notes {
        println!("{n}");
    }
}

fn clip(s: &str) -> String {
    s.chars().take(150).collect()
}
