//! Plain screen geometry: points, sizes and rectangles in screen pixels, and the 9x9 split of a
//! grid rectangle into cells. Every stage that places or cuts something uses these types.

use serde::{Deserialize, Serialize};

/// A pixel position on the screen (x to the right, y down).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Point {
    pub x: u32,
    pub y: u32,
}

impl Point {
    pub const fn new(x: u32, y: u32) -> Self {
        Point { x, y }
    }
}

/// A screen or image size in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Size {
    pub width: u32,
    pub height: u32,
}

impl Size {
    pub const fn new(width: u32, height: u32) -> Self {
        Size { width, height }
    }
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl std::str::FromStr for Size {
    type Err = String;
    /// Parses `1080x2340`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (w, h) = s
            .trim()
            .split_once(['x', 'X'])
            .ok_or_else(|| format!("'{s}' is not a size like 1080x2340"))?;
        let parse = |v: &str| {
            v.trim()
                .parse::<u32>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("'{s}' is not a size like 1080x2340"))
        };
        Ok(Size::new(parse(w)?, parse(h)?))
    }
}

/// An axis-aligned rectangle: top-left corner plus size, in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rect {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

impl Rect {
    pub const fn new(x: u32, y: u32, width: u32, height: u32) -> Self {
        Rect {
            x,
            y,
            width,
            height,
        }
    }

    pub fn right(&self) -> u32 {
        self.x + self.width
    }

    pub fn bottom(&self) -> u32 {
        self.y + self.height
    }

    pub fn center(&self) -> Point {
        Point::new(self.x + self.width / 2, self.y + self.height / 2)
    }

    pub fn contains(&self, p: Point) -> bool {
        p.x >= self.x && p.x < self.right() && p.y >= self.y && p.y < self.bottom()
    }

    /// True when the rectangle lies entirely inside a screen of `size`.
    pub fn fits_in(&self, size: Size) -> bool {
        self.right() <= size.width && self.bottom() <= size.height
    }

    /// The rectangle of cell (`row`, `col`), 0-based, when `self` is a 9x9 grid. Cell edges are
    /// rounded from exact ninths so that rounding errors never accumulate across the grid.
    pub fn grid_cell(&self, row: usize, col: usize) -> Rect {
        let edge = |origin: u32, span: u32, i: usize| origin + (span as u64 * i as u64 / 9) as u32;
        let (x0, x1) = (
            edge(self.x, self.width, col),
            edge(self.x, self.width, col + 1),
        );
        let (y0, y1) = (
            edge(self.y, self.height, row),
            edge(self.y, self.height, row + 1),
        );
        Rect::new(x0, y0, x1 - x0, y1 - y0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_parses_from_wxh_and_rejects_garbage() {
        assert_eq!("1080x2340".parse::<Size>(), Ok(Size::new(1080, 2340)));
        assert!("1080".parse::<Size>().is_err());
        assert!("0x5".parse::<Size>().is_err());
    }

    #[test]
    fn grid_cells_tile_the_grid_without_gaps() {
        let grid = Rect::new(10, 20, 1000, 1000);
        assert_eq!(grid.grid_cell(0, 0).x, 10);
        assert_eq!(grid.grid_cell(8, 8).right(), 1010);
        for i in 0..8 {
            assert_eq!(grid.grid_cell(0, i).right(), grid.grid_cell(0, i + 1).x);
            assert_eq!(grid.grid_cell(i, 0).bottom(), grid.grid_cell(i + 1, 0).y);
        }
        assert!(grid.contains(grid.grid_cell(4, 4).center()));
    }
}
