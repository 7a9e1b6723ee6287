//! An animated GIF of a backtracking search, drawn locally with no phone: the puzzle in a clean
//! style, each frame the board after one more move, the cell just changed highlighted (green for a
//! placed digit, red for one taken back), and a step counter. Long searches are sampled down to a
//! frame budget so the file stays small; the first frame is the puzzle and the last the result.

use crate::sudoku::{Board, Cell, SolveEvent};
use ab_glyph::{FontRef, PxScale};
use anyhow::{Context, Result};
use image::codecs::gif::{GifEncoder, Repeat};
use image::{Delay, Frame, Rgba, RgbaImage};
use imageproc::drawing::{draw_filled_rect_mut, draw_text_mut, text_size};
use imageproc::rect::Rect as PRect;

const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
const FONT_BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

/// How the GIF is sampled and paced.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GifOptions {
    /// Most frames in the file, puzzle and result included (at least 2).
    pub max_frames: usize,
    /// Time each move frame is shown, in milliseconds (GIF rounds to 10 ms).
    pub frame_ms: u32,
    /// Time the final frame is held, in milliseconds.
    pub hold_last_ms: u32,
    /// Cell size in pixels.
    pub cell_px: u32,
}

impl Default for GifOptions {
    fn default() -> Self {
        GifOptions {
            max_frames: 300,
            frame_ms: 60,
            hold_last_ms: 3000,
            cell_px: 40,
        }
    }
}

/// Which events' results become frames: after event `i` for each returned `i + 1` (0 = the
/// puzzle before any move). Evenly spread, always including the puzzle and the last move.
pub fn sampled_steps(events: usize, max_frames: usize) -> Vec<usize> {
    let budget = max_frames.max(2);
    if events < budget {
        return (0..=events).collect();
    }
    let mut steps: Vec<usize> = (0..budget)
        .map(|k| (k as u64 * events as u64 / (budget as u64 - 1)) as usize)
        .collect();
    steps.dedup();
    steps
}

/// Renders the search as GIF bytes.
pub fn search_gif(puzzle: &Board, events: &[SolveEvent], options: &GifOptions) -> Result<Vec<u8>> {
    let steps = sampled_steps(events.len(), options.max_frames);
    let style = Style::new(options.cell_px)?;
    let mut bytes = Vec::new();
    {
        let mut encoder = GifEncoder::new_with_speed(&mut bytes, 30);
        encoder
            .set_repeat(Repeat::Infinite)
            .context("GIF encoder refused its settings")?;
        let mut board = *puzzle;
        let mut applied = 0;
        for (k, &step) in steps.iter().enumerate() {
            while applied < step {
                match events[applied] {
                    SolveEvent::Set { cell, digit } => board.set(cell, Some(digit)),
                    SolveEvent::Cancel { cell } => board.set(cell, None),
                }
                applied += 1;
            }
            let last_event = step.checked_sub(1).map(|i| events[i]);
            let image = style.draw(puzzle, &board, last_event, step, events.len());
            let ms = if k + 1 == steps.len() {
                options.hold_last_ms
            } else {
                options.frame_ms
            };
            let frame = Frame::from_parts(image, 0, 0, Delay::from_numer_denom_ms(ms, 1));
            encoder
                .encode_frame(frame)
                .context("could not encode a GIF frame")?;
        }
    }
    Ok(bytes)
}

struct Style {
    font: FontRef<'static>,
    bold: FontRef<'static>,
    cell: u32,
    margin: u32,
    header: u32,
}

const BACKGROUND: Rgba<u8> = Rgba([250, 250, 247, 255]);
const LINE: Rgba<u8> = Rgba([60, 60, 70, 255]);
const THIN: Rgba<u8> = Rgba([190, 190, 198, 255]);
const GIVEN: Rgba<u8> = Rgba([20, 20, 28, 255]);
const GUESS: Rgba<u8> = Rgba([40, 90, 200, 255]);
const SET_MARK: Rgba<u8> = Rgba([200, 238, 200, 255]);
const CANCEL_MARK: Rgba<u8> = Rgba([246, 200, 200, 255]);
const HEADER_TEXT: Rgba<u8> = Rgba([50, 50, 60, 255]);

impl Style {
    fn new(cell: u32) -> Result<Style> {
        let cell = cell.clamp(16, 200);
        Ok(Style {
            font: FontRef::try_from_slice(FONT).context("embedded font is unreadable")?,
            bold: FontRef::try_from_slice(FONT_BOLD).context("embedded font is unreadable")?,
            cell,
            margin: cell / 4,
            header: cell,
        })
    }

    fn size(&self) -> (u32, u32) {
        let side = self.cell * 9 + 2 * self.margin;
        (side, side + self.header)
    }

    fn cell_origin(&self, cell: Cell) -> (u32, u32) {
        (
            self.margin + cell.col() as u32 * self.cell,
            self.header + self.margin + cell.row() as u32 * self.cell,
        )
    }

    fn draw(
        &self,
        puzzle: &Board,
        board: &Board,
        last: Option<SolveEvent>,
        step: usize,
        total: usize,
    ) -> RgbaImage {
        let (w, h) = self.size();
        let mut img = RgbaImage::from_pixel(w, h, BACKGROUND);
        let c = self.cell;
        if let Some(event) = last {
            let (cell, colour) = match event {
                SolveEvent::Set { cell, .. } => (cell, SET_MARK),
                SolveEvent::Cancel { cell } => (cell, CANCEL_MARK),
            };
            let (x, y) = self.cell_origin(cell);
            draw_filled_rect_mut(
                &mut img,
                PRect::at(x as i32, y as i32).of_size(c, c),
                colour,
            );
        }
        let (gx, gy) = (self.margin, self.header + self.margin);
        for i in 0..=9u32 {
            let thick = i % 3 == 0;
            let (colour, width) = if thick {
                (LINE, (c / 16).max(2))
            } else {
                (THIN, 1)
            };
            let offset = if thick { width / 2 } else { 0 };
            let pos = i * c;
            let x = (gx + pos).saturating_sub(offset) as i32;
            let y = (gy + pos).saturating_sub(offset) as i32;
            draw_filled_rect_mut(
                &mut img,
                PRect::at(x, gy as i32).of_size(width, 9 * c),
                colour,
            );
            draw_filled_rect_mut(
                &mut img,
                PRect::at(gx as i32, y).of_size(9 * c, width),
                colour,
            );
        }
        let scale = PxScale::from(c as f32 * 0.7);
        for cell in Cell::all() {
            let Some(digit) = board.get(cell) else {
                continue;
            };
            let given = puzzle.get(cell).is_some();
            let (font, colour) = if given {
                (&self.bold, GIVEN)
            } else {
                (&self.font, GUESS)
            };
            let text = digit.to_string();
            let (tw, th) = text_size(scale, font, &text);
            let (x, y) = self.cell_origin(cell);
            let tx = x + c.saturating_sub(tw) / 2;
            let ty = y + c.saturating_sub(th) / 2;
            draw_text_mut(&mut img, colour, tx as i32, ty as i32, scale, font, &text);
        }
        let label = if step == total && total > 0 {
            format!("search done: {total} moves")
        } else {
            format!("move {step} of {total}")
        };
        let hscale = PxScale::from(c as f32 * 0.5);
        let (_, th) = text_size(hscale, &self.font, &label);
        let ty = (self.header + self.margin).saturating_sub(th) / 2;
        draw_text_mut(
            &mut img,
            HEADER_TEXT,
            self.margin as i32,
            ty as i32,
            hscale,
            &self.font,
            &label,
        );
        img
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::AnimationDecoder;
    use image::codecs::gif::GifDecoder;

    #[test]
    fn short_searches_get_a_frame_per_move_and_long_ones_are_sampled() {
        assert_eq!(sampled_steps(3, 10), [0, 1, 2, 3]);
        let s = sampled_steps(11_880, 300);
        assert_eq!(s.len(), 300);
        assert_eq!((s[0], s[299]), (0, 11_880));
        assert!(s.windows(2).all(|w| w[0] < w[1]));
    }

    fn ink_in_cell(img: &RgbaImage, style: &Style, cell: Cell) -> usize {
        let (x0, y0) = style.cell_origin(cell);
        let c = style.cell;
        let mut n = 0;
        for y in y0 + c / 5..y0 + c * 4 / 5 {
            for x in x0 + c / 5..x0 + c * 4 / 5 {
                let px = img.get_pixel(x, y).0;
                // Ink differs strongly from the background; move highlights only slightly.
                if (0..3).any(|i| px[i].abs_diff(BACKGROUND.0[i]) > 80) {
                    n += 1;
                }
            }
        }
        n
    }

    #[test]
    fn gif_starts_with_the_puzzle_and_ends_with_the_last_move() {
        let mut puzzle = Board::empty();
        let given = Cell::new(0, 0).unwrap();
        puzzle.set(given, Some(5));
        let (a, b) = (Cell::new(4, 4).unwrap(), Cell::new(8, 8).unwrap());
        let events = [
            SolveEvent::Set { cell: a, digit: 1 },
            SolveEvent::Set { cell: b, digit: 2 },
            SolveEvent::Cancel { cell: b },
            SolveEvent::Set { cell: b, digit: 3 },
        ];
        let options = GifOptions::default();
        let bytes = search_gif(&puzzle, &events, &options).unwrap();
        let frames = GifDecoder::new(std::io::Cursor::new(bytes))
            .unwrap()
            .into_frames()
            .collect_frames()
            .unwrap();
        assert_eq!(frames.len(), events.len() + 1);
        let style = Style::new(options.cell_px).unwrap();
        let first = frames[0].buffer();
        let last = frames[frames.len() - 1].buffer();
        assert_eq!(first.dimensions(), style.size());
        assert!(ink_in_cell(first, &style, given) > 10);
        assert_eq!(ink_in_cell(first, &style, a), 0);
        assert!(ink_in_cell(last, &style, a) > 10);
        assert!(ink_in_cell(last, &style, b) > 10);
        // The cancel frame shows the cell empty again.
        assert_eq!(ink_in_cell(frames[3].buffer(), &style, b), 0);
        assert_eq!(frames[frames.len() - 1].delay().numer_denom_ms().0, 3000);
    }
}
