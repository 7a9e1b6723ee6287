//! The simulated phone's own screen geometry: points, sizes and rectangles in screen pixels.
//! Deliberately separate from the agent's types so the phone never shares code with the program
//! that drives it.

/// A pixel position on the screen (x to the right, y down).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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

/// An axis-aligned rectangle: top-left corner plus size, in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rect_contains_its_centre_but_not_its_right_or_bottom_edge() {
        let r = Rect::new(10, 20, 30, 40);
        assert_eq!(r.center(), Point::new(25, 40));
        assert!(r.contains(r.center()));
        assert!(!r.contains(Point::new(r.right(), 30)));
        assert!(!r.contains(Point::new(15, r.bottom())));
        assert_eq!(Size::new(1080, 2340).to_string(), "1080x2340");
    }
}
