//! A jigsaw board's lines (`jigsaw` habit): nine irregular regions of nine cells whose thick
//! borders wander off the 3x3 box lines, as jigsaw sudoku apps draw them. Only the drawing: the
//! app's rules stay classic, since a reader must refuse such a board, not play it.

use super::paint::*;
use super::*;

/// Cells that leave their 3x3 box for a neighbouring region: (row, col, region). Each region
/// gives one cell and takes one, so every region keeps nine connected cells.
const MOVED: [(usize, usize, usize); 12] = [
    (3, 0, 0),
    (2, 2, 3),
    (0, 6, 1),
    (2, 5, 2),
    (3, 6, 4),
    (5, 5, 5),
    (6, 3, 6),
    (8, 2, 7),
    (5, 7, 8),
    (6, 8, 5),
    (5, 1, 6),
    (6, 0, 3),
];

/// The region (0..9) of `cell` on the jigsaw board.
pub(crate) fn region(cell: Cell) -> usize {
    MOVED
        .iter()
        .find(|&&(r, c, _)| r == cell.row() && c == cell.col())
        .map_or(cell.box_index(), |&(_, _, region)| region)
}

impl Frame<'_> {
    /// Turns the two inner box lines each way into thin lines, then draws a thick border
    /// wherever two neighbouring cells lie in different regions.
    pub(super) fn jigsaw_lines(&mut self) {
        let (c, g) = (self.skin.colors, self.l.grid);
        let lines = self.l.lines;
        let thin = lines[1].1;
        let thick = lines[3].1.max(thin + 2);
        for i in [3, 6] {
            let (start, width) = lines[i];
            let thin_at = start + (width - thin.min(width)) / 2;
            let across = Rect::new(g.x + start, g.y, width, g.height);
            let down = Rect::new(g.x, g.y + start, g.width, width);
            fill_rect(self.img, across, c.grid_bg);
            fill_rect(self.img, down, c.grid_bg);
            fill_rect(
                self.img,
                Rect::new(g.x + thin_at, g.y, thin, g.height),
                c.thin_line,
            );
            fill_rect(
                self.img,
                Rect::new(g.x, g.y + thin_at, g.width, thin),
                c.thin_line,
            );
        }
        // The centre of line i and the span from line i to line i + 1, both ends included.
        let mid = |i: usize| lines[i].0 + lines[i].1 / 2;
        let span = |i: usize| (lines[i].0, lines[i + 1].0 + lines[i + 1].1 - lines[i].0);
        for cell in Cell::all() {
            let (r, col) = (cell.row(), cell.col());
            if let Some(right) = Cell::new(r, col + 1)
                && region(right) != region(cell)
            {
                let (y, h) = span(r);
                let x = mid(col + 1).saturating_sub(thick / 2);
                fill_rect(
                    self.img,
                    Rect::new(g.x + x, g.y + y, thick, h),
                    c.thick_line,
                );
            }
            if let Some(below) = Cell::new(r + 1, col)
                && region(below) != region(cell)
            {
                let (x, w) = span(col);
                let y = mid(r + 1).saturating_sub(thick / 2);
                fill_rect(
                    self.img,
                    Rect::new(g.x + x, g.y + y, w, thick),
                    c.thick_line,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_jigsaw_region_holds_nine_connected_cells_and_some_leave_their_box() {
        for reg in 0..9 {
            let cells: Vec<Cell> = Cell::all().filter(|&c| region(c) == reg).collect();
            assert_eq!(cells.len(), 9, "region {reg}");
            let mut seen = vec![cells[0]];
            let mut i = 0;
            while i < seen.len() {
                let c = seen[i];
                for n in &cells {
                    let near = c.row().abs_diff(n.row()) + c.col().abs_diff(n.col()) == 1;
                    if near && !seen.contains(n) {
                        seen.push(*n);
                    }
                }
                i += 1;
            }
            assert_eq!(seen.len(), 9, "region {reg} is in one piece");
        }
        assert!(Cell::all().any(|c| region(c) != c.box_index()));
    }
}
