//! Calibrating from one screenshot of an app: find the grid and the keypad, cut
//! digit templates from the board's digits (labelled through the keypad glyphs, or by the
//! `--givens` the user typed), fill missing digits from the keypad, measure ink colours, check
//! that the templates read the calibration screen back exactly, and produce a `Calibration`,
//! its `Templates` and an overlay picture. Deterministic: the same screen gives the same file.

use crate::calibration::{Calibration, FORMAT_VERSION, InputOrder, Keypad, Recognition};
use crate::geometry::{Point, Rect, Size};
use crate::sudoku::{Board, Cell};
use crate::vision::cells::{PATCH_H, PATCH_W, ncc};
use crate::vision::keypad::{Glyph, find_keypad, glyphs_outside};
use crate::vision::recognize::{colour_distance, locate_and_cut, read_grid, rule_conflicts};
use crate::vision::{Grid, Templates, overlay};
use anyhow::{Result, anyhow, bail};
use image::RgbaImage;

/// What the user told calibrate.
#[derive(Debug, Clone, Default)]
pub struct CalibrateOptions {
    pub profile: String,
    /// The board's big digits, when the keypad cannot label them.
    pub givens: Option<Board>,
    pub erase: Option<Point>,
    pub notes: Option<Point>,
    pub input_order: InputOrder,
}

/// How the templates were labelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelSource {
    Keypad,
    Givens,
}

/// Everything calibrate found.
#[derive(Debug, Clone)]
pub struct Calibrated {
    pub calibration: Calibration,
    pub templates: Templates,
    pub grid: Grid,
    /// The board as labelled on the calibration screen.
    pub board: Board,
    pub labelled_by: LabelSource,
    /// Digits whose template came from the keypad glyph (absent from the board).
    pub from_keypad: Vec<u8>,
    pub overlay: RgbaImage,
    /// Centre and box of each digit key, as drawn on the overlay.
    pub keys: Option<[(Point, Rect); 9]>,
}

impl Calibrated {
    /// Records erase, notes and input order found after calibrating (by `calibrate --probe`):
    /// the same calibration and overlay as when they are given as options.
    pub fn set_controls(
        &mut self,
        img: &RgbaImage,
        erase: Option<Point>,
        notes: Option<Point>,
        input_order: InputOrder,
    ) -> Result<()> {
        self.calibration.input_order = input_order;
        if let Some(k) = &mut self.calibration.keypad {
            k.erase = erase;
            k.notes = notes;
        }
        self.calibration.validate()?;
        self.overlay = overlay::draw_calibration(img, &self.grid, self.keys.as_ref(), erase, notes);
        Ok(())
    }
}

/// Recognition thresholds written by calibrate.
pub const MIN_SCORE: f64 = 0.7;
pub const MIN_MARGIN: f64 = 0.05;
pub const KIND_DISTANCE: f64 = 60.0;

fn mean_patch(patches: &[&[u8]]) -> Vec<u8> {
    let n = patches.len() as u32;
    (0..PATCH_W * PATCH_H)
        .map(|i| ((patches.iter().map(|p| p[i] as u32).sum::<u32>() + n / 2) / n) as u8)
        .collect()
}

/// Groups digit patches by shape: greedy in cell order (deterministic), then, while there are
/// more than nine groups, merges the two most alike groups that never share a row, column or
/// box (two cells that see each other cannot hold the same digit).
fn cluster(patches: &[&[u8]], cells: &[Cell]) -> (Vec<usize>, Vec<Vec<u8>>) {
    let (mut assign, mut centroids) = cluster_greedy(patches);
    while centroids.len() > 9 {
        let k = centroids.len();
        let sees = |a: Cell, b: Cell| {
            a.row() == b.row() || a.col() == b.col() || a.box_index() == b.box_index()
        };
        let mut best: Option<(f32, usize, usize)> = None;
        for a in 0..k {
            for b in a + 1..k {
                let clash = (0..patches.len()).any(|i| {
                    assign[i] == a
                        && (0..patches.len()).any(|j| assign[j] == b && sees(cells[i], cells[j]))
                });
                let s = ncc(&centroids[a], &centroids[b]);
                if !clash && best.is_none_or(|(bs, _, _)| s > bs) {
                    best = Some((s, a, b));
                }
            }
        }
        let Some((_, a, b)) = best else { break };
        for x in assign.iter_mut() {
            if *x == b {
                *x = a;
            } else if *x > b {
                *x -= 1;
            }
        }
        centroids.remove(b);
        let ps: Vec<&[u8]> = (0..patches.len())
            .filter(|&i| assign[i] == a)
            .map(|i| patches[i])
            .collect();
        centroids[a] = mean_patch(&ps);
    }
    (assign, centroids)
}

fn cluster_greedy(patches: &[&[u8]]) -> (Vec<usize>, Vec<Vec<u8>>) {
    let mut members: Vec<Vec<usize>> = Vec::new();
    let mut centroids: Vec<Vec<u8>> = Vec::new();
    let mut assign = Vec::with_capacity(patches.len());
    for (i, p) in patches.iter().enumerate() {
        let best = centroids
            .iter()
            .enumerate()
            .map(|(k, c)| (k, ncc(c, p)))
            .fold((usize::MAX, -1f32), |a, b| if b.1 > a.1 { b } else { a });
        if best.1 >= 0.85 {
            members[best.0].push(i);
            let ps: Vec<&[u8]> = members[best.0].iter().map(|&j| patches[j]).collect();
            centroids[best.0] = mean_patch(&ps);
            assign.push(best.0);
        } else {
            members.push(vec![i]);
            centroids.push(p.to_vec());
            assign.push(centroids.len() - 1);
        }
    }
    (assign, centroids)
}

fn mean_colour(cs: &[[u8; 3]]) -> [u8; 3] {
    let n = cs.len().max(1) as u32;
    std::array::from_fn(|k| ((cs.iter().map(|c| c[k] as u32).sum::<u32>() + n / 2) / n) as u8)
}

/// Splits digit ink colours into givens (the larger group) and entries, when two clearly
/// different colours are present.
fn ink_colours(inks: &[[u8; 3]]) -> ([u8; 3], Option<[u8; 3]>) {
    let all = mean_colour(inks);
    let Some(&far) = inks
        .iter()
        .max_by(|a, b| colour_distance(**a, all).total_cmp(&colour_distance(**b, all)))
    else {
        return ([0, 0, 0], None);
    };
    let Some(&other) = inks
        .iter()
        .max_by(|a, b| colour_distance(**a, far).total_cmp(&colour_distance(**b, far)))
    else {
        return (all, None);
    };
    let (mut c0, mut c1) = (far, other);
    let mut groups = (Vec::new(), Vec::new());
    for _ in 0..8 {
        groups = (Vec::new(), Vec::new());
        for &i in inks {
            if colour_distance(i, c0) <= colour_distance(i, c1) {
                groups.0.push(i);
            } else {
                groups.1.push(i);
            }
        }
        c0 = mean_colour(&groups.0);
        c1 = mean_colour(&groups.1);
    }
    if groups.1.is_empty() || groups.0.is_empty() || colour_distance(c0, c1) < KIND_DISTANCE {
        return (all, None);
    }
    if groups.0.len() >= groups.1.len() {
        (c0, Some(c1))
    } else {
        (c1, Some(c0))
    }
}

/// Calibrates on one screenshot.
pub fn calibrate_image(img: &RgbaImage, opts: &CalibrateOptions) -> Result<Calibrated> {
    let (grid, inks) = locate_and_cut(img).map_err(|e| anyhow!(e))?;
    let digit_cells: Vec<(Cell, &crate::vision::DigitPatch)> = Cell::all()
        .zip(&inks)
        .filter_map(|(c, ink)| ink.digit.as_ref().map(|p| (c, p)))
        .collect();
    if digit_cells.len() < 5 {
        bail!(
            "only {} digits on the board; calibrate on a puzzle that shows its givens",
            digit_cells.len()
        );
    }
    let patches: Vec<&[u8]> = digit_cells
        .iter()
        .map(|(_, p)| p.pixels.as_slice())
        .collect();
    let glyphs = glyphs_outside(img, &grid);

    let mut labels = vec![0u8; digit_cells.len()];
    let keypad: Option<[Glyph; 9]>;
    let labelled_by;
    if let Some(givens) = &opts.givens {
        labelled_by = LabelSource::Givens;
        let mut wrong = Vec::new();
        for cell in Cell::all() {
            let seen = inks[cell.index()].digit.is_some();
            if seen != givens.get(cell).is_some() {
                wrong.push(format!(
                    "{cell} ({})",
                    if seen {
                        "digit on screen, empty in --givens"
                    } else {
                        "empty on screen, digit in --givens"
                    }
                ));
            }
        }
        if !wrong.is_empty() {
            bail!("--givens does not match the screen at {}", wrong.join(", "));
        }
        for (k, (cell, _)) in digit_cells.iter().enumerate() {
            labels[k] = givens.get(*cell).unwrap_or(0);
        }
        let refs: Vec<Option<Vec<u8>>> = (1..=9u8)
            .map(|d| {
                let ps: Vec<&[u8]> = (0..patches.len())
                    .filter(|&k| labels[k] == d)
                    .map(|k| patches[k])
                    .collect();
                (!ps.is_empty()).then(|| mean_patch(&ps))
            })
            .collect();
        keypad = find_keypad(&glyphs, &refs, true);
    } else {
        labelled_by = LabelSource::Keypad;
        let cells: Vec<Cell> = digit_cells.iter().map(|(c, _)| *c).collect();
        let (assign, centroids) = cluster(&patches, &cells);
        if centroids.len() > 9 {
            bail!(
                "the board's digits fall into {} shapes, more than 9; pass --givens <81 chars> to label them",
                centroids.len()
            );
        }
        let refs: Vec<Option<Vec<u8>>> = centroids.iter().cloned().map(Some).collect();
        let Some(keys) = find_keypad(&glyphs, &refs, false) else {
            bail!(
                "could not find nine keypad digits outside the grid to label the templates; pass --givens <81 chars> (the board's digits, row by row)"
            );
        };
        let mut pairs: Vec<(f32, usize, usize)> = Vec::new();
        for (c, cen) in centroids.iter().enumerate() {
            for (d, g) in keys.iter().enumerate() {
                pairs.push((ncc(cen, &g.patch), c, d));
            }
        }
        pairs.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        let mut cluster_digit = vec![0u8; centroids.len()];
        let mut digit_used = [false; 9];
        for (_, c, d) in pairs {
            if cluster_digit[c] == 0 && !digit_used[d] {
                cluster_digit[c] = d as u8 + 1;
                digit_used[d] = true;
            }
        }
        // A digit drawn in two styles (bold givens, regular entries) forms two groups; one of
        // them lost the one-to-one pairing above. Give a group its best-matching key instead when
        // that key clearly fits better and no rule is broken.
        let sees = |a: Cell, b: Cell| {
            a.row() == b.row() || a.col() == b.col() || a.box_index() == b.box_index()
        };
        for c in 0..centroids.len() {
            let scores: Vec<f32> = keys.iter().map(|g| ncc(&centroids[c], &g.patch)).collect();
            let (best_d, best_s) = scores
                .iter()
                .enumerate()
                .fold((0, -1f32), |a, (d, &s)| if s > a.1 { (d, s) } else { a });
            let current = cluster_digit[c] as usize - 1;
            if best_d == current || best_s < scores[current] + 0.15 {
                continue;
            }
            let target = best_d as u8 + 1;
            let clash = (0..assign.len()).any(|i| {
                assign[i] == c
                    && (0..assign.len()).any(|j| {
                        assign[j] != c
                            && cluster_digit[assign[j]] == target
                            && sees(cells[i], cells[j])
                    })
            });
            if !clash {
                cluster_digit[c] = target;
            }
        }
        for (k, &a) in assign.iter().enumerate() {
            labels[k] = cluster_digit[a];
        }
        keypad = Some(keys);
    }

    let mut board = Board::empty();
    for (k, (cell, _)) in digit_cells.iter().enumerate() {
        board.set(*cell, Some(labels[k]));
    }
    let conflicts = rule_conflicts(&board);
    if !conflicts.is_empty() {
        let list: Vec<String> = conflicts
            .iter()
            .map(|(a, b, d)| format!("{d} in {a} and {b}"))
            .collect();
        bail!(
            "the digits as labelled break the rules ({}); pass --givens <81 chars> to label them",
            list.join(", ")
        );
    }

    let mut raw: [Option<Vec<u8>>; 9] = Default::default();
    let mut from_keypad = Vec::new();
    for d in 1..=9u8 {
        let ps: Vec<&[u8]> = (0..patches.len())
            .filter(|&k| labels[k] == d)
            .map(|k| patches[k])
            .collect();
        if !ps.is_empty() {
            raw[d as usize - 1] = Some(mean_patch(&ps));
        } else if let Some(keys) = &keypad {
            raw[d as usize - 1] = Some(keys[d as usize - 1].patch.clone());
            from_keypad.push(d);
        }
    }
    let alt: [Option<Vec<u8>>; 9] = std::array::from_fn(|d| {
        let on_board = !from_keypad.contains(&(d as u8 + 1));
        keypad
            .as_ref()
            .filter(|_| on_board)
            .map(|k| k[d].patch.clone())
    });
    let templates = Templates::with_alternates(raw, alt);
    let missing = templates.missing();
    if !missing.is_empty() {
        let list: Vec<String> = missing.iter().map(|d| d.to_string()).collect();
        bail!(
            "no template for digit(s) {}: they are not on the board and no keypad was found; calibrate on a screen showing them",
            list.join(", ")
        );
    }

    let ink_list: Vec<[u8; 3]> = digit_cells.iter().map(|(_, p)| p.ink).collect();
    let (given_ink, entry_ink) = ink_colours(&ink_list);
    let size = Size::new(img.width(), img.height());
    let calibration = Calibration {
        format_version: FORMAT_VERSION,
        profile: opts.profile.clone(),
        templates: format!("templates/{}", opts.profile),
        input_order: opts.input_order,
        screen: size,
        grid: grid.rect(),
        keypad: keypad.as_ref().map(|k| Keypad {
            digits: std::array::from_fn(|d| k[d].centre()),
            erase: opts.erase,
            notes: opts.notes,
        }),
        recognition: Recognition {
            min_score: MIN_SCORE,
            min_margin: MIN_MARGIN,
            given_ink,
            entry_ink,
            kind_distance: KIND_DISTANCE,
        },
        pacing: None,
    };
    calibration.validate()?;

    // The templates must read their own screen back exactly.
    let check = read_grid(img, grid.clone(), &templates, &calibration.recognition)
        .map_err(|e| anyhow!("the new templates do not read the calibration screen back: {e}"))?;
    if check.board != board {
        bail!(
            "the new templates read {} instead of {}; pass --givens to label the digits",
            check.board.to_line(),
            board.to_line()
        );
    }

    let keys: Option<[(Point, Rect); 9]> = keypad
        .as_ref()
        .map(|k| std::array::from_fn(|d| (k[d].centre(), k[d].bbox)));
    let overlay = overlay::draw_calibration(img, &grid, keys.as_ref(), opts.erase, opts.notes);
    Ok(Calibrated {
        calibration,
        templates,
        grid,
        board,
        labelled_by,
        from_keypad,
        overlay,
        keys,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bar(at: usize) -> Vec<u8> {
        (0..PATCH_W * PATCH_H)
            .map(|i| if i % PATCH_W == at { 255 } else { 0 })
            .collect()
    }

    #[test]
    fn shape_groups_merge_only_when_their_cells_never_see_each_other() {
        // Ten shapes for ten cells on one diagonal: the two most alike that share no unit merge.
        let cells: Vec<Cell> = (0..9)
            .map(|i| Cell::new(i, i).unwrap())
            .chain([Cell::new(0, 4).unwrap()])
            .collect();
        let mut patches: Vec<Vec<u8>> = (0..9).map(|i| bar(i * 2)).collect();
        // r1c5 looks like r1c1's shape but shares its row; r2c2 is another style of r9c9's shape.
        patches.push(
            bar(0)
                .iter()
                .zip(bar(1))
                .map(|(a, b)| a.max(&b).to_owned())
                .collect(),
        );
        patches[1] = bar(16)
            .iter()
            .zip(bar(17))
            .map(|(a, b)| (*a).max(b))
            .collect();
        let refs: Vec<&[u8]> = patches.iter().map(|p| p.as_slice()).collect();
        let (assign, centroids) = cluster(&refs, &cells);
        assert!(centroids.len() <= 9);
        assert_ne!(assign[0], assign[9], "same row, cannot be the same digit");
    }

    #[test]
    fn two_clearly_different_ink_colours_split_into_givens_and_entries() {
        let mut inks = vec![[20, 20, 20]; 6];
        inks.extend([[30, 90, 220]; 3]);
        assert_eq!(ink_colours(&inks), ([20, 20, 20], Some([30, 90, 220])));
        assert_eq!(ink_colours(&[[20, 20, 20], [25, 22, 20]]).1, None);
    }
}
