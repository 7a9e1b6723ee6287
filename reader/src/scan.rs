//! Finding the grid and classifying its cells with no calibration: the one call a reader needs
//! before labelling digits.
//!
//! API: [`find_grid_and_cells`]`(img, hint)` returns a [`ScreenCells`]: the grid (10 + 10 line
//! centres), the 81 cells row by row as [`CellInk`] (big digit as a normalised
//! [`super::DigitPatch`], or empty, with a pencil-notes flag), each digit cell's
//! [`InkFeatures`] (ink and background colour, stroke weight, height), and the screen's
//! given/entry split ([`InkSplit`]). `hint` is a calibrated grid rectangle: tried first, never
//! required (a different screen size or a moved grid falls back to the full search). Killer
//! sudoku is refused with [`VisionError::Killer`].
//!
//! The grid is looked for strictly first (all ten lines each way, [`super::locate_grid`]); when that
//! fails, lattices fixed by the inner box lines alone are tried ([`locate_grid_candidates_on`](crate::locate::locate_grid_candidates_on)),
//! and one is accepted only when the cells agree: enough big digits, each centred in its cell.

use super::VisionError;
use super::cells::{CellInk, InkFeatures, check_not_killer, cut_cells_adaptive_on};
use super::kinds::{InkSplit, paper_colour};
use super::locate::{
    Grid, grid_offset, grid_tolerance, locate_grid_candidates_on, locate_grid_on,
    locate_grid_stepped_on, near,
};
use super::screen::{Screen, colour_distance};
use crate::board::Cell;
use crate::geometry::Rect;
use image::RgbaImage;

/// A located grid with its 81 cleaned cells (row by row) and the given/entry split.
#[derive(Debug, Clone)]
pub struct ScreenCells {
    pub grid: Grid,
    pub cells: Vec<CellInk>,
    /// Per cell: the digit's ink features, `None` for cells without a big digit.
    pub features: Vec<Option<InkFeatures>>,
    pub split: InkSplit,
}

impl ScreenCells {
    /// The cells of `grid` on `img`, cut as the search cuts them.
    pub(crate) fn on(img: &Screen, grid: Grid) -> ScreenCells {
        let (cells, features) = cut_cells_adaptive_on(img, &grid);
        ScreenCells::new(img, grid, cells, features)
    }

    /// Cells already cut from `img`, with this screen's given/entry split.
    pub(crate) fn new(
        img: &RgbaImage,
        grid: Grid,
        cells: Vec<CellInk>,
        features: Vec<Option<InkFeatures>>,
    ) -> ScreenCells {
        let paper = paper_colour(img, &grid, &cells);
        let split = InkSplit::on_paper(&cells, &features, paper);
        ScreenCells {
            grid,
            cells,
            features,
            split,
        }
    }

    /// How many cells hold a big digit.
    pub fn digits(&self) -> usize {
        self.cells.iter().filter(|c| c.digit.is_some()).count()
    }

    /// The cells that hold a big digit, in reading order, with their digit patches: what the
    /// labeller reads.
    pub fn digit_patches(&self) -> (Vec<Cell>, Vec<&[u8]>) {
        Cell::all()
            .zip(&self.cells)
            .filter_map(|(c, ink)| Some((c, ink.digit.as_ref()?.pixels.as_slice())))
            .unzip()
    }

    /// Do the cells look like a sudoku seen through the right grid? At least 17 big digits
    /// (no puzzle has fewer givens), nearly all centred in their cells: a lattice shifted or
    /// scaled off the real grid cuts digits apart or puts them off-centre.
    pub(crate) fn plausible(&self) -> bool {
        let pitch = self.grid.pitch();
        let mut centred = 0;
        for (cell, ink) in Cell::all().zip(&self.cells) {
            let Some(p) = &ink.digit else { continue };
            let r = self.grid.cell_rect(cell);
            let (cx, cy) = (
                p.bbox.x as f32 + p.bbox.width as f32 / 2.0,
                p.bbox.y as f32 + p.bbox.height as f32 / 2.0,
            );
            let (ex, ey) = (
                r.x as f32 + r.width as f32 / 2.0,
                r.y as f32 + r.height as f32 / 2.0,
            );
            if (cx - ex).abs() <= 0.2 * pitch && (cy - ey).abs() <= 0.2 * pitch {
                centred += 1;
            }
        }
        let n = self.digits();
        n >= 17 && centred * 10 >= n * 9
    }

    /// Do the first and last rows and columns each hold a digit like the board's own (one seen
    /// inside them in height, ink and background)? An icon or a title in an app bar cut by a
    /// lattice a row off the board is a glyph of another height or colour.
    pub(crate) fn edges_hold_digits(&self) -> bool {
        let on_edge = |c: Cell| matches!(c.row(), 0 | 8) || matches!(c.col(), 0 | 8);
        let inner: Vec<&InkFeatures> = Cell::all()
            .filter(|&c| !on_edge(c))
            .filter_map(|c| self.features[c.index()].as_ref())
            .collect();
        let Some(h) = median_height(&inner) else {
            return false;
        };
        let like_the_board = |f: &InkFeatures| like_digits(f, h, &inner);
        let has = |edge: &dyn Fn(Cell) -> bool| {
            Cell::all().any(|c| {
                edge(c)
                    && self.features[c.index()]
                        .as_ref()
                        .is_some_and(&like_the_board)
            })
        };
        [0, 8]
            .into_iter()
            .all(|k| has(&|c: Cell| c.row() == k) && has(&|c: Cell| c.col() == k))
    }

    /// Does the board go on beyond this lattice: `[left, right, above, below]` (above and below
    /// only looked at when `vertical`)? Three or more cells of its pitch just beyond that side,
    /// in line with its rows (columns), hold digits like the board's own (height, ink and
    /// background): the lattice is a column off a board of tiles without lines, or one grid of
    /// several. A classic board stops at its border; a keypad beside it has keys of another
    /// size or look, and seldom three in line with the rows.
    fn board_beyond(&self, img: &Screen, vertical: bool) -> [bool; 4] {
        let feats: Vec<&InkFeatures> = self.features.iter().flatten().collect();
        let Some(h) = median_height(&feats) else {
            return [false; 4];
        };
        let like_the_board = |f: &InkFeatures| like_digits(f, h, &feats);
        let pitch = self.grid.pitch();
        let (xs, ys) = (&self.grid.xs, &self.grid.ys);
        let big_min = (0.8 * h).min(super::cells::BIG_MIN);
        // Three or more of the nine cells of a line of `pitch` beyond the lattice (`rect(i)`)
        // hold digits like the board's.
        let goes_on = |rect: &dyn Fn(usize) -> Rect| {
            (0..9)
                .filter(|&i| {
                    super::cells::digit_features_in(img, rect(i), pitch, big_min)
                        .is_some_and(|f| like_the_board(&f))
                })
                .count()
                >= 3
        };
        let px = |v: f32| v.round() as u32;
        let column = |x0: f32| {
            x0 >= 0.0
                && x0 + pitch <= img.width() as f32
                && goes_on(&|r| Rect::new(px(x0), px(ys[r]), px(pitch), px(ys[r + 1] - ys[r])))
        };
        let row = |y0: f32| {
            vertical
                && y0 >= 0.0
                && y0 + pitch <= img.height() as f32
                && goes_on(&|c| Rect::new(px(xs[c]), px(y0), px(xs[c + 1] - xs[c]), px(pitch)))
        };
        [
            column(xs[0] - pitch),
            column(xs[9]),
            row(ys[0] - pitch),
            row(ys[9]),
        ]
    }

    /// Is this lattice the rectangle `expected` (within the locator's wobble)?
    pub(crate) fn fits(&self, expected: Rect) -> bool {
        grid_offset(&self.grid, expected) <= grid_tolerance(expected)
    }
}

/// Is every cell of `grid` framed: on each of its four sides, does the lattice line (a drawn line, a
/// gap between tiles, the board's edge against the page) differ in brightness from the
/// cell's own paper? A lattice a row or column off the board has a row of cells on the
/// page (an app bar, the space around the board) with no frame on the far side.
fn framed(img: &Screen, grid: &Grid) -> bool {
    let (w, h) = img.dimensions();
    let luma = |x: f32, y: f32| {
        let (x, y) = (
            x.round().clamp(0.0, w as f32 - 1.0),
            y.round().clamp(0.0, h as f32 - 1.0),
        );
        img.row(y as u32)[x as usize] as i16
    };
    // A thin line may lie a pixel or two off the lattice's estimate of it.
    let reach = (grid.pitch() * 0.04).max(1.0).round() as i32;
    let median = |mut v: Vec<i16>| {
        v.sort_unstable();
        v[v.len() / 2]
    };
    let (xs, ys) = (&grid.xs, &grid.ys);
    Cell::all().all(|cell| {
        let (r, c) = (cell.row(), cell.col());
        let (x0, x1, y0, y1) = (xs[c], xs[c + 1], ys[r], ys[r + 1]);
        let (cw, ch) = (x1 - x0, y1 - y0);
        // The paper: the cell's middle, at points of a 5x5 lattice (a digit covers few).
        let paper = median(
            (1..6)
                .flat_map(|i| (1..6).map(move |j| (i, j)))
                .map(|(i, j)| {
                    luma(
                        x0 + cw * (0.2 + 0.1 * i as f32),
                        y0 + ch * (0.2 + 0.1 * j as f32),
                    )
                })
                .collect(),
        );
        // Each side: at points along its middle, the strongest difference across it.
        let side = |vertical: bool, at: f32| {
            median(
                (1..8)
                    .map(|k| {
                        let t = 0.25 + 0.5 * k as f32 / 8.0;
                        (-reach..=reach)
                            .map(|o| {
                                let v = if vertical {
                                    luma(at + o as f32, y0 + ch * t)
                                } else {
                                    luma(x0 + cw * t, at + o as f32)
                                };
                                (v - paper).abs()
                            })
                            .max()
                            .unwrap_or(0)
                    })
                    .collect(),
            )
        };
        [
            side(true, x0),
            side(true, x1),
            side(false, y0),
            side(false, y1),
        ]
        .into_iter()
        .all(|d| d >= FRAME_CONTRAST)
    })
}

/// How many cells a lattice is moved, each way, to the board that goes on beyond it.
const MAX_SLIDE: usize = 3;

/// The least brightness step between a cell's paper and the lines around it that frames it.
const FRAME_CONTRAST: i16 = 12;

/// The median height of `digits` (a fraction of the cell), `None` when there are none.
fn median_height(digits: &[&InkFeatures]) -> Option<f32> {
    let mut heights: Vec<f32> = digits.iter().map(|f| f.height).collect();
    heights.sort_by(f32::total_cmp);
    heights.get(heights.len() / 2).copied()
}

/// Is `f` a digit like the board's `digits` (of median height `h`): as tall, and in the ink
/// on the background of one of them?
fn like_digits(f: &InkFeatures, h: f32, digits: &[&InkFeatures]) -> bool {
    (f.height - h).abs() <= 0.12 * h
        && digits.iter().any(|g| {
            colour_distance(f.ink, g.ink) < 60.0
                && colour_distance(f.background, g.background) < 80.0
        })
}

/// Finds the grid (near `hint` first when given) and classifies its cells. A lattice whose
/// lines run on beyond its 9x9 is passed over (a lattice a cell off the board sees the board's
/// own lines run on); when nothing else is found, that is a samurai or other multi-grid puzzle,
/// refused with [`VisionError::MultiGrid`]. A grid whose thick walls are not on its box lines is
/// a jigsaw, refused with [`VisionError::Irregular`].
pub fn find_grid_and_cells(
    img: &RgbaImage,
    hint: Option<Rect>,
) -> Result<ScreenCells, VisionError> {
    find_grid_and_cells_on(&Screen::new(img), hint)
}

/// [`find_grid_and_cells`] on a screen whose brightness planes the caller shares.
pub(crate) fn find_grid_and_cells_on(
    img: &Screen,
    hint: Option<Rect>,
) -> Result<ScreenCells, VisionError> {
    let mut ran_on = false;
    let mut stands_alone = |screen: ScreenCells| -> Option<ScreenCells> {
        let runs = super::overrun::lines_run_on(img, &screen.grid);
        ran_on |= runs;
        if runs {
            return None;
        }
        // Above and below are looked at only for a lattice the board goes on beside: every
        // read passes here, and few lattices are off the board.
        match screen.board_beyond(img, false) {
            [false, false, _, _] => Some(screen),
            _ => {
                let beyond = screen.board_beyond(img, true);
                slid_onto_the_board(img, screen, beyond)
            }
        }
    };
    match find(img, hint, &mut stands_alone) {
        Err(VisionError::NoGrid(_)) if ran_on => Err(VisionError::MultiGrid),
        Ok(screen) if super::regions::irregular(img, &screen.grid) => Err(VisionError::Irregular),
        found => found,
    }
}

/// A lattice a cell or two off a board of tiles (its strongest edges can be other tiles beside
/// the board: a column of note fields, rows of them below) sees the board go on at one side of
/// an axis (`beyond`, as [`ScreenCells::board_beyond`] gives it): the board is the lattice
/// moved that way, as far as the board goes on, if that one stands alone and still looks like a
/// sudoku with a digit in every outer row and column. `None` when the board goes on at both
/// sides of an axis, or further than [`MAX_SLIDE`] cells.
fn slid_onto_the_board(
    img: &Screen,
    mut screen: ScreenCells,
    mut beyond: [bool; 4],
) -> Option<ScreenCells> {
    let (w, h) = (img.width() as f32, img.height() as f32);
    for _ in 0..MAX_SLIDE {
        let mut grid = screen.grid.clone();
        for (across, back, on) in [(true, beyond[0], beyond[1]), (false, beyond[2], beyond[3])] {
            match (back, on) {
                (true, true) => return None,
                (false, false) => {}
                (_, forward) => grid = grid.slid_a_cell(across, forward),
            }
        }
        if grid.xs[0] < 0.0 || grid.ys[0] < 0.0 || grid.xs[9] >= w || grid.ys[9] >= h {
            return None;
        }
        screen = ScreenCells::on(img, grid);
        beyond = screen.board_beyond(img, true);
        if beyond == [false; 4] {
            let alone = screen.plausible()
                && screen.edges_hold_digits()
                && !super::overrun::lines_run_on(img, &screen.grid);
            return alone.then_some(screen);
        }
    }
    None
}

/// [`find_grid_and_cells`]: the first plausible lattice that `alone` accepts (as it is, or as the
/// lattice `alone` returns instead).
fn find(
    img: &Screen,
    hint: Option<Rect>,
    alone: &mut dyn FnMut(ScreenCells) -> Option<ScreenCells>,
) -> Result<ScreenCells, VisionError> {
    // A calibrated place is cheap to check: the lines near it, then the cells. A lattice a row
    // off the real grid (the hint a row out, or the app's grid moved by a row) still has
    // centred digits in its cells and its box lines on grid lines, but it lost a row of the
    // board: so a lattice found here must also be the hint's own rectangle with a digit in each
    // outer row and column like the board's own (a lattice a row off has one outside the
    // board: empty, or an app bar's icons and title). A board whose own outer row is empty is
    // left to the full search below, which proves more.
    if let Some(h) = hint
        && let Ok(grid) = near(img, h, false)
    {
        let screen = ScreenCells::on(img, grid);
        check_not_killer(&screen.cells)?;
        if screen.plausible()
            && screen.fits(h)
            && screen.edges_hold_digits()
            && let Some(screen) = alone(screen)
        {
            return Ok(screen);
        }
    }
    // Big screens are searched at half size, then each line is re-found at full size.
    let short = img.width().min(img.height());
    let small = (short >= 1000).then(|| img.half());
    let search = small.unwrap_or(img);
    let full = |g: Grid, strict: bool| -> Grid {
        if small.is_none() {
            return g;
        }
        let g = g.scaled_up(2.0, img.dimensions());
        let refound = near(img, g.rect(), strict);
        // Each line moves to where it is seen at full size, if that is within a pixel or two
        // of the half-size estimate (a line too faint to see stays where it was estimated).
        let Ok(r) = refound else { return g };
        let tol = (g.pitch() * 0.03).max(2.5);
        let pick = |a: [f32; 10], b: [f32; 10]| {
            std::array::from_fn(|i| {
                if (a[i] - b[i]).abs() <= tol {
                    b[i]
                } else {
                    a[i]
                }
            })
        };
        Grid {
            xs: pick(g.xs, r.xs),
            ys: pick(g.ys, r.ys),
            ..g
        }
    };
    let mut first_error = None;
    if let Ok(grid) = locate_grid_on(search) {
        let screen = ScreenCells::on(img, full(grid, true));
        check_not_killer(&screen.cells)?;
        let digits = screen.digits();
        if screen.plausible()
            && let Some(screen) = alone(screen)
        {
            return Ok(screen);
        }
        first_error = Some(VisionError::NoGrid(format!(
            "the grid found holds {digits} centred digits, too few for a sudoku"
        )));
    }
    for grid in locate_grid_candidates_on(search) {
        let sparse = grid.sparse();
        let screen = ScreenCells::on(img, full(grid, false));
        check_not_killer(&screen.cells)?;
        if screen.plausible()
            && (!sparse || screen.edges_hold_digits())
            && let Some(screen) = alone(screen)
        {
            return Ok(screen);
        }
    }
    // No lines to find: cells told apart by shading alone.
    if let Some(grid) = super::unlined::locate_shaded(img) {
        let screen = ScreenCells::on(img, grid);
        if screen.plausible()
            && let Some(screen) = alone(screen)
        {
            check_not_killer(&screen.cells)?;
            return Ok(screen);
        }
    }
    // Some lines are steps between shades (tiles whose boxes differ in shade, the board's edge
    // against the page): tried last, and trusted only with a digit like the board's own in
    // each outer row and column, or with every cell framed (a lattice of steps a row off the
    // board has an app bar's glyphs or nothing there, on the page, unframed).
    if let Ok(grid) = locate_grid_stepped_on(search) {
        // Each line is re-found as a line where it is one (the gaps between tiles, whose edges
        // the stepped search may take for the lines), and the lines not seen are put one
        // pitch on from those that are (the board's edge against the page).
        let grid = full(grid, false);
        let grid = near(img, grid.rect(), false).unwrap_or(grid);
        let screen = ScreenCells::on(img, grid);
        check_not_killer(&screen.cells)?;
        if screen.plausible()
            && (screen.edges_hold_digits() || framed(img, &screen.grid))
            && let Some(screen) = alone(screen)
        {
            return Ok(screen);
        }
    }
    Err(first_error.unwrap_or_else(|| {
        VisionError::NoGrid("no 10 x 10 lattice of lines or box lines forming a square".into())
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board of 9 x 9 tiles of `pitch` px (a gap of 2 px between them) on a darker page,
    /// its top-left tile at (`x0`, `y0`), with the lattice through the gaps' middles.
    fn tiles(x0: u32, y0: u32, pitch: u32) -> (RgbaImage, Grid) {
        let mut img = RgbaImage::from_pixel(
            x0 + 10 * pitch,
            y0 + 11 * pitch,
            image::Rgba([20, 20, 20, 255]),
        );
        for (x, y, p) in img.enumerate_pixels_mut() {
            let (dx, dy) = (x as i64 - x0 as i64, y as i64 - y0 as i64);
            let inside = (0..9 * pitch as i64).contains(&dx) && (0..9 * pitch as i64).contains(&dy);
            let gap = |d: i64| d.rem_euclid(pitch as i64) >= pitch as i64 - 2;
            if inside && !gap(dx) && !gap(dy) {
                *p = image::Rgba([50, 54, 60, 255]);
            }
        }
        let at = |o: u32, i: usize| o as f32 - 1.0 + (i as u32 * pitch) as f32;
        let grid = Grid {
            xs: std::array::from_fn(|i| at(x0, i)),
            ys: std::array::from_fn(|i| at(y0, i)),
            strength: 1.0,
            bright_lines: false,
        };
        (img, grid)
    }

    #[test]
    fn a_lattice_through_the_gaps_of_a_board_of_tiles_frames_every_cell_and_one_a_row_off_does_not()
    {
        let (img, grid) = tiles(6, 30, 20);
        let screen = Screen::new(&img);
        assert!(framed(&screen, &grid));
        let shift = |g: &Grid, dx: f32, dy: f32| Grid {
            xs: g.xs.map(|x| x + dx),
            ys: g.ys.map(|y| y + dy),
            ..g.clone()
        };
        assert!(!framed(&screen, &shift(&grid, 0.0, -20.0)));
        assert!(!framed(&screen, &shift(&grid, 0.0, 20.0)));
        assert!(!framed(&screen, &shift(&grid, -20.0, 0.0)));
        // Half a cell off, the lines cross the tiles' middles: no frame either.
        assert!(!framed(&screen, &shift(&grid, 10.0, 0.0)));
    }

    /// A board of tiles of `pitch` px with a 2 px gap on a dark page, `cols` x 9 of them, its
    /// top-left tile at (`x0`, `y0`), each tile of column `c` holding the digit `digit(row, c)`
    /// (0: none) in light ink; the lattice through the gaps of columns `first..first + 9`.
    fn tiles_with_digits(
        (x0, y0, pitch): (u32, u32, u32),
        cols: u32,
        first: usize,
        digit: impl Fn(usize, usize) -> u32,
    ) -> (RgbaImage, Grid) {
        use ab_glyph::{FontRef, PxScale};
        let font =
            FontRef::try_from_slice(include_bytes!("../../assets/fonts/DejaVuSans.ttf")).unwrap();
        let (w, h) = (x0 * 2 + cols * pitch, y0 * 2 + 9 * pitch);
        let mut img = RgbaImage::from_pixel(w, h, image::Rgba([20, 20, 20, 255]));
        for r in 0..9 {
            for c in 0..cols {
                let (x, y) = (x0 + c * pitch, y0 + r * pitch);
                let tile =
                    imageproc::rect::Rect::at(x as i32, y as i32).of_size(pitch - 2, pitch - 2);
                imageproc::drawing::draw_filled_rect_mut(
                    &mut img,
                    tile,
                    image::Rgba([50, 54, 60, 255]),
                );
                let d = digit(r as usize, c as usize);
                if d > 0 {
                    imageproc::drawing::draw_text_mut(
                        &mut img,
                        image::Rgba([235, 235, 235, 255]),
                        (x + pitch * 3 / 10) as i32,
                        (y + pitch / 8) as i32,
                        PxScale::from(pitch as f32 * 0.7),
                        &font,
                        &d.to_string(),
                    );
                }
            }
        }
        let at = |o: u32, i: usize| o as f32 - 1.0 + (i as u32 * pitch) as f32;
        let grid = Grid {
            xs: std::array::from_fn(|i| at(x0, first + i)),
            ys: std::array::from_fn(|i| at(y0, i)),
            strength: 1.0,
            bright_lines: false,
        };
        (img, grid)
    }

    /// A valid sudoku's digit at (`r`, `c`) when the cell is one of about half the board.
    fn digit_at(r: usize, c: usize) -> u32 {
        let solved = ((r * 3 + r / 3 + c) % 9 + 1) as u32;
        if (r * 7 + c * 5) % 9 < 4 { solved } else { 0 }
    }

    #[test]
    fn a_lattice_a_column_and_two_rows_off_a_board_of_tiles_is_slid_onto_it() {
        let (img, board) = tiles_with_digits((40, 40, 40), 9, 0, digit_at);
        let (img, board) = {
            // Room for the lattice off the board: the page goes on right and below.
            let mut big = RgbaImage::from_pixel(
                img.width() + 80,
                img.height() + 120,
                image::Rgba([20, 20, 20, 255]),
            );
            image::imageops::replace(&mut big, &img, 0, 0);
            (big, board)
        };
        let screen = Screen::new(&img);
        let off = board
            .slid_a_cell(true, true)
            .slid_a_cell(false, true)
            .slid_a_cell(false, true);
        let cells = ScreenCells::on(&screen, off);
        let beyond = cells.board_beyond(&screen, true);
        assert_eq!(beyond, [true, false, true, false]);
        let slid = slid_onto_the_board(&screen, cells, beyond).expect("slid onto the board");
        for (a, b) in slid
            .grid
            .xs
            .iter()
            .chain(&slid.grid.ys)
            .zip(board.xs.iter().chain(&board.ys))
        {
            assert!((a - b).abs() < 0.5, "{:?} against {:?}", slid.grid, board);
        }
    }

    #[test]
    fn a_lattice_with_the_board_going_on_at_both_sides_is_not_slid() {
        // Eleven columns of tiles with digits: nine of them are no standalone sudoku.
        let (img, lattice) = tiles_with_digits((40, 40, 40), 11, 1, |r, c| {
            if c == 0 || c == 10 {
                (r % 9 + 1) as u32
            } else {
                digit_at(r, c - 1)
            }
        });
        let screen = Screen::new(&img);
        let cells = ScreenCells::on(&screen, lattice);
        let beyond = cells.board_beyond(&screen, true);
        assert_eq!(beyond[..2], [true, true]);
        assert!(slid_onto_the_board(&screen, cells, beyond).is_none());
    }
}
