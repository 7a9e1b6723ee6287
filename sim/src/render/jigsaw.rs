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
            // Both ways blanked first, then both thin lines drawn, so neither blanks the other.
            for (at, size, color) in [(start, width, c.grid_bg), (thin_at, thin, c.thin_line)] {
                fill_rect(self.img, Rect::new(g.x + at, g.y, size, g.height), color);
                fill_rect(self.img, Rect::new(g.x, g.y + at, g.width, size), color);
            }
        }
        // The centre of line i and the span from line i to line i + 1, both ends included.
        let mid = |i: usize| lines[i].0 + lines[i].1 / 2;
        let span = |i: usize| (lines[i].0, lines[i + 1].0 + lines[i + 1].1 - lines[i].0);
        for cell in Cell::all() {
            let (r, col) = (cell.row(), cell.col());
            // A border down the line right of the cell, then along the line below it.
            for below in [false, true] {
                let next = if below {
                    Cell::new(r + 1, col)
                } else {
                    Cell::new(r, col + 1)
                };
                if next.is_none_or(|n| region(n) == region(cell)) {
                    continue;
                }
                let (along, len) = span(if below { col } else { r });
                let at = mid(if below { r + 1 } else { col + 1 }).saturating_sub(thick / 2);
                let border = if below {
                    Rect::new(g.x + along, g.y + at, len, thick)
                } else {
                    Rect::new(g.x + at, g.y + along, thick, len)
                };
                fill_rect(self.img, border, c.thick_line);
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
