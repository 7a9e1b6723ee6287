//! The looks and input rules of the simulated sudoku apps: one `Skin` per app style (colours,
//! fonts, line widths, keypad shape, input order, ad banner). Every parameter stays private to
//! `sim`: the rest of the program must find the grid and keypad from pixels, as on a real phone.

use crate::habits::{Habits, KeyLook};
use image::Rgba;

/// How the app takes a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EntryOrder {
    /// Tap a cell, then a keypad digit.
    CellFirst,
    /// Tap a keypad digit (or the eraser), then cells.
    NumberFirst,
}

/// The shape of the digit keypad.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum KeypadShape {
    /// One row 1..9 under a tool row with erase and notes (Sudoku.com style).
    Row9,
    /// Three rows of three digits, with notes and erase in a fourth column (Fassor style).
    Grid3x3,
    /// Two rows of five: 1..5 and 6..9 plus erase (Volcano style), notes in the tool row.
    Grid2x5,
    /// Bare digits 1..9 in three rows of three across the whole width on a panel, with a fourth
    /// column of icons: notes (pencil) on top, erase (X) under it (Material Sudoku style).
    IconColumn,
    /// Outlined keys in two centred rows, 1..5 over 6..9, each with a small counter of the
    /// digit's remaining cells under it; a row of outlined tool buttons (undo, erase, notes,
    /// redo) further down (Saku style).
    Counters,
    /// A coloured panel: a column of tool buttons (undo, notes, erase, hint) on the left and a
    /// 3x3 block of square keys shaded like a checkerboard on the right (Good Sudoku style).
    Panel,
}

/// The embedded font faces (all under `assets/fonts/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Face {
    RobotoRegular,
    RobotoMedium,
    RobotoLight,
    DejaVu,
    DejaVuBold,
    SerifRegular,
    SerifBold,
}

/// The bottom of the screen below the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NavBar {
    /// Gesture navigation: a thin pill on the app background.
    Gesture,
    /// The classic black bar with back, home and recents.
    Buttons,
}

/// How the board and controls are drawn beyond colours: what sets the hard layouts apart.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Style {
    /// The grid spans the whole screen width right under the app bar (no info row; the timer is
    /// the app bar's subtitle).
    pub edge_to_edge: bool,
    /// The grid's four outer lines are drawn.
    pub outer_border: bool,
    /// Thin lines are short strokes along each cell side, broken where lines cross.
    pub segmented: bool,
    /// Corner radius of the grid's outer border, dp (0: square).
    pub corner_dp: f32,
    /// Em of the big digits as a fraction of the cell height.
    pub digit_em: f32,
    /// Em of pencil notes as a fraction of the cell height.
    pub note_em: f32,
    /// Givens sit in filled discs of this colour; the same-digit highlight recolours the disc
    /// (to `same_digit`) instead of the cell.
    pub disc: Option<Rgba<u8>>,
    /// Same-number highlight ink: every digit equal to the selected one (the number-first tool's),
    /// givens and entries alike, is drawn in this colour on its `same_digit` tint or disc, so
    /// the screen no longer shows which of them are givens (`None`: digits keep their ink).
    pub highlight_fg: Option<Rgba<u8>>,
    /// No lines: cells shaded as a checkerboard, two tones in even boxes, two in odd boxes.
    pub shades: Option<[Rgba<u8>; 4]>,
    /// Background of cells holding a given (`None`: like any cell).
    pub given_cell: Option<Rgba<u8>>,
    /// The row, column and box of the selected cell are tinted.
    pub peers: bool,
    /// A panel colour behind the whole controls area.
    pub panel: Option<Rgba<u8>>,
    /// The notes button carries an ON/OFF pill.
    pub notes_badge: bool,
    /// Colour of the keypad's remaining-count counters.
    pub counter_fg: Rgba<u8>,
    /// Corner radius, dp, of cells drawn as separate tiles (0: cells meet at lines). With
    /// tiles no line is drawn: the lines' widths (`thin_dp`, `thick_dp`) are gaps showing the
    /// screen background, and `alt_box_bg` tells the boxes apart (as Flutter apps draw it).
    pub tile_dp: f32,
    /// The app opens with a given selected whose digit stands in the most corner cells (one
    /// outside the corners when there is one), so that its same-number highlight reaches into
    /// the grid's corners, as an app restoring a game where the player left it does.
    pub opens_on_corner_digit: bool,
    /// How the selected (pressed) digit key is drawn: filled, outlined or a disc.
    pub key_look: KeyLook,
    /// Thick lines bound irregular (jigsaw) regions instead of 3x3 boxes (`jigsaw` habit).
    pub jigsaw: bool,
}

/// The plain look of the first skins: lines all round, digits at two thirds of the cell.
const CLASSIC: Style = Style {
    edge_to_edge: false,
    outer_border: true,
    segmented: false,
    corner_dp: 0.0,
    digit_em: 0.68,
    note_em: 0.27,
    disc: None,
    highlight_fg: None,
    shades: None,
    given_cell: None,
    peers: true,
    panel: None,
    notes_badge: true,
    counter_fg: rgb(0x808080),
    tile_dp: 0.0,
    opens_on_corner_digit: false,
    key_look: KeyLook::Filled,
    jigsaw: false,
};

/// Every colour a skin paints with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Palette {
    pub background: Rgba<u8>,
    pub status_bg: Rgba<u8>,
    pub status_fg: Rgba<u8>,
    pub appbar_bg: Rgba<u8>,
    pub appbar_fg: Rgba<u8>,
    pub info_fg: Rgba<u8>,
    pub grid_bg: Rgba<u8>,
    /// Background of every other 3x3 box (`None`: all boxes plain).
    pub alt_box_bg: Option<Rgba<u8>>,
    pub thin_line: Rgba<u8>,
    pub thick_line: Rgba<u8>,
    pub given: Rgba<u8>,
    pub entry: Rgba<u8>,
    pub note: Rgba<u8>,
    pub selected: Rgba<u8>,
    pub peer: Rgba<u8>,
    pub same_digit: Rgba<u8>,
    /// Key button background (`None`: bare digits, no button).
    pub key_bg: Option<Rgba<u8>>,
    pub key_border: Option<Rgba<u8>>,
    pub key_fg: Rgba<u8>,
    pub key_active_bg: Rgba<u8>,
    pub key_active_fg: Rgba<u8>,
    pub tool_fg: Rgba<u8>,
    pub accent: Rgba<u8>,
    pub banner_bg: Rgba<u8>,
    pub banner_fg: Rgba<u8>,
}

/// One app look: colours, fonts, line widths, keypad shape and input order.
#[derive(Debug, Clone, PartialEq)]
pub struct Skin {
    pub(super) name: &'static str,
    pub(super) app_title: &'static str,
    /// The Android package the app runs as (what `dumpsys window` names as focused); each skin is
    /// an app of its own.
    pub(super) package: &'static str,
    pub(super) level: &'static str,
    pub(super) input: EntryOrder,
    pub(super) keypad: KeypadShape,
    pub(super) ui_face: Face,
    pub(super) title_face: Face,
    pub(super) given_face: Face,
    pub(super) entry_face: Face,
    pub(super) key_face: Face,
    /// Cell line and box line widths in dp (1 dp = 1/160 inch; 2.75 px at 1080 wide).
    pub(super) thin_dp: f32,
    pub(super) thick_dp: f32,
    /// Corner radius of buttons and cards, dp.
    pub(super) radius_dp: f32,
    pub(super) ad_banner: bool,
    pub(super) nav: NavBar,
    /// What the app calls its mistakes counter.
    pub(super) mistakes_label: &'static str,
    /// A wood-grain backdrop instead of the flat background colour.
    pub(super) wood: bool,
    pub(super) style: Style,
    pub(super) colors: Palette,
}

const fn rgb(hex: u32) -> Rgba<u8> {
    Rgba([(hex >> 16) as u8, (hex >> 8) as u8, hex as u8, 255])
}

const NAMES: &[&str] = &[
    "light", "dark", "thick", "numfirst", "wood", "edge", "discs", "shaded", "tiles", "card",
];

impl Default for Skin {
    /// The light, cell-first app with a 1x9 keypad.
    fn default() -> Self {
        Skin::light()
    }
}

impl Skin {
    /// The skin called `name` (see [`Skin::names`]).
    pub fn named(name: &str) -> Option<Skin> {
        match name {
            "light" => Some(Skin::light()),
            "dark" => Some(Skin::dark()),
            "thick" => Some(Skin::thick()),
            "numfirst" => Some(Skin::numfirst()),
            "wood" => Some(Skin::wood()),
            "edge" => Some(Skin::edge()),
            "discs" => Some(Skin::discs()),
            "shaded" => Some(Skin::shaded()),
            "tiles" => Some(Skin::tiles()),
            "card" => Some(Skin::card()),
            _ => None,
        }
    }

    /// Every skin name, the default first.
    pub fn names() -> &'static [&'static str] {
        NAMES
    }

    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The Android package the app runs as.
    pub fn package(&self) -> &'static str {
        self.package
    }

    /// Whether the app wants cell then digit, or digit then cells.
    pub fn input_order(&self) -> EntryOrder {
        self.input
    }

    /// This skin as the look-changing habits draw it: the selected key's look (`key-look`),
    /// jigsaw regions (`jigsaw`), and a board of rounded tiles with gaps, wider between boxes,
    /// and no line anywhere (`tiles`), tinted off the background when the skin's cells match it.
    pub(crate) fn restyled(mut self, habits: &Habits) -> Skin {
        if let Some(look) = habits.key_look {
            self.style.key_look = look;
        }
        self.style.jigsaw |= habits.jigsaw;
        if habits.tiles {
            self.style.tile_dp = 5.0;
            self.style.outer_border = false;
            self.style.corner_dp = 0.0;
            self.style.segmented = false;
            self.style.shades = None;
            self.thin_dp = 2.5;
            self.thick_dp = 8.0;
            let c = &mut self.colors;
            if c.grid_bg == c.background {
                let [r, g, b, _] = c.background.0.map(u32::from);
                let dark = 299 * r + 587 * g + 114 * b < 110_000;
                c.grid_bg = if dark { rgb(0x2A2F37) } else { rgb(0xE9EEF5) };
            }
            c.alt_box_bg = None;
            c.thin_line = c.background;
            c.thick_line = c.background;
        }
        self
    }

    /// This skin with the player's entries drawn exactly as its givens (ink and face), as some
    /// apps draw them: nothing on the screen tells the two apart.
    pub fn entries_drawn_as_givens(mut self) -> Skin {
        self.colors.entry = self.colors.given;
        self.entry_face = self.given_face;
        self
    }

    /// Sudoku.com-like: white, navy givens, blue entries, bare 1x9 digits, ad banner.
    fn light() -> Skin {
        Skin {
            name: "light",
            app_title: "Sudoku",
            package: "app.sim.sudoku.classic",
            level: "Medium",
            input: EntryOrder::CellFirst,
            keypad: KeypadShape::Row9,
            ui_face: Face::RobotoRegular,
            title_face: Face::RobotoMedium,
            given_face: Face::RobotoRegular,
            entry_face: Face::RobotoRegular,
            key_face: Face::RobotoLight,
            thin_dp: 0.7,
            thick_dp: 1.6,
            radius_dp: 8.0,
            ad_banner: true,
            nav: NavBar::Gesture,
            mistakes_label: "Mistakes",
            wood: false,
            style: Style {
                // Sudoku.com rings the key it marks.
                key_look: KeyLook::Outlined,
                ..CLASSIC
            },
            colors: Palette {
                background: rgb(0xFFFFFF),
                status_bg: rgb(0xFFFFFF),
                status_fg: rgb(0x1F1F1F),
                appbar_bg: rgb(0xFFFFFF),
                appbar_fg: rgb(0x344861),
                info_fg: rgb(0x6E7C8C),
                grid_bg: rgb(0xFFFFFF),
                alt_box_bg: None,
                thin_line: rgb(0xBEC6D4),
                thick_line: rgb(0x344861),
                given: rgb(0x344861),
                entry: rgb(0x325AAF),
                note: rgb(0x6E7C8C),
                selected: rgb(0xBBDEFB),
                peer: rgb(0xE2EBF3),
                same_digit: rgb(0xC3D7EA),
                key_bg: None,
                key_border: None,
                key_fg: rgb(0x325AAF),
                key_active_bg: rgb(0xDCE3ED),
                key_active_fg: rgb(0x325AAF),
                tool_fg: rgb(0x6E7C8C),
                accent: rgb(0x325AAF),
                banner_bg: rgb(0x2E7D32),
                banner_fg: rgb(0xFFFFFF),
            },
        }
    }

    /// A dark-mode app: near-black background, light grey givens, pale blue entries, round keys;
    /// the selected digit is orange on orange-tinted cells wherever it stands, givens and entries
    /// alike (a same-number highlight that recolours the ink, as many dark themes do).
    fn dark() -> Skin {
        Skin {
            name: "dark",
            app_title: "Sudoku Night",
            package: "app.sim.sudoku.night",
            level: "Hard",
            input: EntryOrder::CellFirst,
            keypad: KeypadShape::Row9,
            ui_face: Face::DejaVu,
            title_face: Face::DejaVuBold,
            given_face: Face::DejaVu,
            entry_face: Face::DejaVu,
            key_face: Face::DejaVu,
            thin_dp: 0.6,
            thick_dp: 1.4,
            radius_dp: 10.0,
            ad_banner: false,
            nav: NavBar::Gesture,
            mistakes_label: "Mistakes",
            wood: false,
            style: Style {
                highlight_fg: Some(rgb(0xFFA43A)),
                // A dark theme marks its key with a disc behind the digit.
                key_look: KeyLook::Disc,
                ..CLASSIC
            },
            colors: Palette {
                background: rgb(0x121212),
                status_bg: rgb(0x121212),
                status_fg: rgb(0xE6E6E6),
                appbar_bg: rgb(0x1E1E1E),
                appbar_fg: rgb(0xE6E6E6),
                info_fg: rgb(0x9AA0A6),
                grid_bg: rgb(0x1B1B1D),
                alt_box_bg: None,
                thin_line: rgb(0x3C3F44),
                thick_line: rgb(0xA8ADB4),
                given: rgb(0xE6E6E6),
                entry: rgb(0x8AB4F8),
                note: rgb(0x9AA0A6),
                selected: rgb(0x6A4516),
                peer: rgb(0x25292F),
                same_digit: rgb(0x4E3516),
                key_bg: Some(rgb(0x2A2C30)),
                key_border: None,
                key_fg: rgb(0xE6E6E6),
                key_active_bg: rgb(0x8AB4F8),
                key_active_fg: rgb(0x121212),
                tool_fg: rgb(0xB0B4BA),
                accent: rgb(0x8AB4F8),
                banner_bg: rgb(0x1E5B32),
                banner_fg: rgb(0xE6E6E6),
            },
        }
    }

    /// A Fassor-like app: green bars, serif digits, very thick box lines, shaded boxes, 3x3 keys.
    fn thick() -> Skin {
        Skin {
            name: "thick",
            app_title: "Sudoku Classic",
            package: "app.sim.sudoku.bold",
            level: "Expert",
            input: EntryOrder::CellFirst,
            keypad: KeypadShape::Grid3x3,
            ui_face: Face::RobotoRegular,
            title_face: Face::RobotoMedium,
            given_face: Face::SerifBold,
            entry_face: Face::SerifRegular,
            key_face: Face::SerifRegular,
            thin_dp: 1.2,
            thick_dp: 3.6,
            radius_dp: 6.0,
            ad_banner: false,
            nav: NavBar::Buttons,
            mistakes_label: "Mistakes",
            wood: false,
            style: CLASSIC,
            colors: Palette {
                background: rgb(0xFFFFFF),
                status_bg: rgb(0x2E7D32),
                status_fg: rgb(0xFFFFFF),
                appbar_bg: rgb(0x43A047),
                appbar_fg: rgb(0xFFFFFF),
                info_fg: rgb(0x33691E),
                grid_bg: rgb(0xFFFFFF),
                alt_box_bg: Some(rgb(0xF1F8E9)),
                thin_line: rgb(0x7CB342),
                thick_line: rgb(0x1B1B1B),
                given: rgb(0x111111),
                entry: rgb(0x1565C0),
                note: rgb(0x558B2F),
                selected: rgb(0x9CCC65),
                peer: rgb(0xDCEDC8),
                same_digit: rgb(0xC5E1A5),
                key_bg: Some(rgb(0xF1F1F1)),
                key_border: Some(rgb(0xBDBDBD)),
                key_fg: rgb(0x111111),
                key_active_bg: rgb(0x43A047),
                key_active_fg: rgb(0xFFFFFF),
                tool_fg: rgb(0x111111),
                accent: rgb(0x43A047),
                banner_bg: rgb(0x43A047),
                banner_fg: rgb(0xFFFFFF),
            },
        }
    }

    /// A Volcano-like number-first app: pale blue backdrop, black bars, 2x5 grey keys.
    fn numfirst() -> Skin {
        Skin {
            name: "numfirst",
            app_title: "Sudoku Free",
            package: "app.sim.sudokufree",
            level: "Hard #12",
            input: EntryOrder::NumberFirst,
            keypad: KeypadShape::Grid2x5,
            ui_face: Face::RobotoRegular,
            title_face: Face::RobotoMedium,
            given_face: Face::RobotoMedium,
            entry_face: Face::RobotoRegular,
            key_face: Face::RobotoLight,
            thin_dp: 0.8,
            thick_dp: 2.2,
            radius_dp: 6.0,
            ad_banner: false,
            nav: NavBar::Buttons,
            mistakes_label: "Mistakes",
            wood: false,
            style: CLASSIC,
            colors: Palette {
                background: rgb(0xE6EEF6),
                status_bg: rgb(0x000000),
                status_fg: rgb(0xFFFFFF),
                appbar_bg: rgb(0xE6EEF6),
                appbar_fg: rgb(0x222222),
                info_fg: rgb(0x555B61),
                grid_bg: rgb(0xFFFFFF),
                alt_box_bg: Some(rgb(0xEAF1FB)),
                thin_line: rgb(0x9AA5B1),
                thick_line: rgb(0x111111),
                given: rgb(0x111111),
                entry: rgb(0x1E63C4),
                note: rgb(0x5F6B78),
                selected: rgb(0xFFE082),
                peer: rgb(0xEAF1FB),
                same_digit: rgb(0xFFECB3),
                key_bg: Some(rgb(0xF4F5F7)),
                key_border: Some(rgb(0x59606A)),
                key_fg: rgb(0x2B2F33),
                key_active_bg: rgb(0x2F80ED),
                key_active_fg: rgb(0xFFFFFF),
                tool_fg: rgb(0x2B2F33),
                accent: rgb(0x2F80ED),
                banner_bg: rgb(0xF57C00),
                banner_fg: rgb(0xFFFFFF),
            },
        }
    }

    /// A multiplayer-style number-first app: wood backdrop, white grid with bold digits, a row of
    /// white square keys, "Strikes" for mistakes and an ad banner.
    fn wood() -> Skin {
        Skin {
            name: "wood",
            app_title: "Sudoku Duel",
            package: "app.sim.sudokuduel",
            level: "Ranked",
            input: EntryOrder::NumberFirst,
            keypad: KeypadShape::Row9,
            ui_face: Face::SerifBold,
            title_face: Face::SerifBold,
            given_face: Face::DejaVuBold,
            entry_face: Face::DejaVu,
            key_face: Face::DejaVu,
            thin_dp: 1.0,
            thick_dp: 2.6,
            radius_dp: 2.0,
            ad_banner: true,
            nav: NavBar::Gesture,
            mistakes_label: "Strikes",
            wood: true,
            style: CLASSIC,
            colors: Palette {
                background: rgb(0x5A3520),
                status_bg: rgb(0x000000),
                status_fg: rgb(0xFFFFFF),
                appbar_bg: rgb(0x5A3520),
                appbar_fg: rgb(0xFFFFFF),
                info_fg: rgb(0xF3E5D8),
                grid_bg: rgb(0xFFFFFF),
                alt_box_bg: None,
                thin_line: rgb(0x222222),
                thick_line: rgb(0x000000),
                given: rgb(0x222222),
                entry: rgb(0x1F6FD1),
                note: rgb(0x6B4A33),
                selected: rgb(0x9ED0EE),
                peer: rgb(0xEEF6FC),
                same_digit: rgb(0xCFE8F7),
                key_bg: Some(rgb(0xFFFFFF)),
                key_border: None,
                key_fg: rgb(0x222222),
                key_active_bg: rgb(0x9ED0EE),
                key_active_fg: rgb(0x222222),
                tool_fg: rgb(0xFFFFFF),
                accent: rgb(0x7CE07C),
                banner_bg: rgb(0x2E7D32),
                banner_fg: rgb(0xFFFFFF),
            },
        }
    }

    /// A Material Sudoku-like app: blue app bar with the timer as its subtitle, the grid edge to
    /// edge right under it with no outer border, and a grey panel of bare digits in three rows
    /// plus an icon column (pencil for notes, X for erase).
    fn edge() -> Skin {
        Skin {
            name: "edge",
            app_title: "Medium #3",
            package: "app.sim.sudoku.material",
            level: "Medium",
            input: EntryOrder::CellFirst,
            keypad: KeypadShape::IconColumn,
            ui_face: Face::RobotoRegular,
            title_face: Face::RobotoMedium,
            given_face: Face::RobotoRegular,
            entry_face: Face::RobotoRegular,
            key_face: Face::RobotoRegular,
            thin_dp: 0.4,
            thick_dp: 1.0,
            radius_dp: 0.0,
            ad_banner: false,
            nav: NavBar::Buttons,
            mistakes_label: "Mistakes",
            wood: false,
            style: Style {
                edge_to_edge: true,
                outer_border: false,
                digit_em: 0.62,
                panel: Some(rgb(0xF4F4F4)),
                notes_badge: false,
                ..CLASSIC
            },
            colors: Palette {
                background: rgb(0xFFFFFF),
                status_bg: rgb(0x1976D2),
                status_fg: rgb(0xFFFFFF),
                appbar_bg: rgb(0x2196F3),
                appbar_fg: rgb(0xFFFFFF),
                info_fg: rgb(0xBBDEFB),
                grid_bg: rgb(0xFFFFFF),
                alt_box_bg: None,
                thin_line: rgb(0x5F5F5F),
                thick_line: rgb(0x1F1F1F),
                given: rgb(0x212121),
                entry: rgb(0x2196F3),
                note: rgb(0x616161),
                selected: rgb(0xB3D9F7),
                peer: rgb(0xF2F8FD),
                same_digit: rgb(0xE3F2FD),
                key_bg: None,
                key_border: None,
                key_fg: rgb(0x212121),
                key_active_bg: rgb(0xBBDEFB),
                key_active_fg: rgb(0x212121),
                tool_fg: rgb(0x9E9E9E),
                accent: rgb(0x2196F3),
                banner_bg: rgb(0x2196F3),
                banner_fg: rgb(0xFFFFFF),
            },
        }
    }

    /// A Saku-like number-first app: small digits (a quarter of the cell) in grey discs for the
    /// givens, entries bare, the picked digit's cells in teal discs; a rounded grid with broken thin
    /// lines; two centred rows of outlined keys with remaining-count counters, and outlined tool
    /// buttons (undo, erase, notes, redo) further down.
    fn discs() -> Skin {
        Skin {
            name: "discs",
            app_title: "Saku",
            package: "app.sim.sudoku.discs",
            level: "Easy",
            input: EntryOrder::NumberFirst,
            keypad: KeypadShape::Counters,
            ui_face: Face::RobotoRegular,
            title_face: Face::RobotoMedium,
            given_face: Face::RobotoRegular,
            entry_face: Face::RobotoRegular,
            key_face: Face::RobotoRegular,
            thin_dp: 0.7,
            thick_dp: 1.3,
            radius_dp: 12.0,
            ad_banner: false,
            nav: NavBar::Gesture,
            mistakes_label: "Mistakes",
            wood: false,
            style: Style {
                segmented: true,
                corner_dp: 14.0,
                digit_em: 0.36,
                note_em: 0.2,
                disc: Some(rgb(0xDCE4E1)),
                highlight_fg: None,
                peers: false,
                notes_badge: false,
                counter_fg: rgb(0x8A8F8D),
                ..CLASSIC
            },
            colors: Palette {
                background: rgb(0xF8FAF9),
                status_bg: rgb(0xF8FAF9),
                status_fg: rgb(0x1B1B1B),
                appbar_bg: rgb(0xF8FAF9),
                appbar_fg: rgb(0x1B1B1B),
                info_fg: rgb(0x8A8F8D),
                grid_bg: rgb(0xFFFFFF),
                alt_box_bg: None,
                thin_line: rgb(0x8E9491),
                thick_line: rgb(0x111111),
                given: rgb(0x1E2422),
                entry: rgb(0x00897B),
                note: rgb(0x6D7371),
                selected: rgb(0xE0F2EF),
                peer: rgb(0xFFFFFF),
                same_digit: rgb(0x8FD3C9),
                key_bg: Some(rgb(0xF8FAF9)),
                key_border: Some(rgb(0x7A807D)),
                key_fg: rgb(0x1B1B1B),
                key_active_bg: rgb(0x00695C),
                key_active_fg: rgb(0xFFFFFF),
                tool_fg: rgb(0x1B1B1B),
                accent: rgb(0x00695C),
                banner_bg: rgb(0x00695C),
                banner_fg: rgb(0xFFFFFF),
            },
        }
    }

    /// A Good Sudoku-like app: no grid lines at all, cells told apart only by shading (a
    /// checkerboard, lighter in even boxes, givens on grey), bold digits, and a yellow panel with
    /// a column of tool buttons (undo, notes, erase, hint) beside a 3x3 block of square keys.
    fn shaded() -> Skin {
        Skin {
            name: "shaded",
            app_title: "Good Sudoku",
            package: "app.sim.sudoku.shaded",
            level: "Beginner",
            input: EntryOrder::CellFirst,
            keypad: KeypadShape::Panel,
            ui_face: Face::RobotoRegular,
            title_face: Face::DejaVuBold,
            given_face: Face::DejaVuBold,
            entry_face: Face::DejaVuBold,
            key_face: Face::DejaVuBold,
            thin_dp: 0.0,
            thick_dp: 0.0,
            radius_dp: 6.0,
            ad_banner: false,
            nav: NavBar::Gesture,
            mistakes_label: "Mistakes",
            wood: false,
            style: Style {
                digit_em: 0.64,
                note_em: 0.24,
                shades: Some([rgb(0xFFFFFF), rgb(0xF3F3F3), rgb(0xE9E9E9), rgb(0xDFDFDF)]),
                given_cell: Some(rgb(0xD5D5D5)),
                peers: false,
                panel: Some(rgb(0xF6CB45)),
                notes_badge: false,
                ..CLASSIC
            },
            colors: Palette {
                background: rgb(0xC4C4C4),
                status_bg: rgb(0xDADADA),
                status_fg: rgb(0x1B1B1B),
                appbar_bg: rgb(0x33363C),
                appbar_fg: rgb(0xF6CB45),
                info_fg: rgb(0x5A5A5A),
                grid_bg: rgb(0xFFFFFF),
                alt_box_bg: None,
                thin_line: rgb(0xFFFFFF),
                thick_line: rgb(0xFFFFFF),
                given: rgb(0x33363C),
                entry: rgb(0x3A78C2),
                note: rgb(0x707070),
                selected: rgb(0xFBE7A1),
                peer: rgb(0xFFFFFF),
                same_digit: rgb(0xFDF1C8),
                key_bg: Some(rgb(0xFFFFFF)),
                key_border: None,
                key_fg: rgb(0x33363C),
                key_active_bg: rgb(0xFBE7A1),
                key_active_fg: rgb(0x33363C),
                tool_fg: rgb(0x33363C),
                accent: rgb(0x3A9AD9),
                banner_bg: rgb(0x33363C),
                banner_fg: rgb(0xF6CB45),
            },
        }
    }

    /// A Flutter-style dark app: the board is 81 separate rounded tiles with gaps between them
    /// and no line anywhere, the boxes told apart by alternating tile shades; number-first, with
    /// a 2x5 keypad of rounded dark keys.
    fn tiles() -> Skin {
        Skin {
            name: "tiles",
            app_title: "Sudoku Tiles",
            package: "app.sim.sudoku.tiles",
            level: "Medium",
            input: EntryOrder::NumberFirst,
            keypad: KeypadShape::Grid2x5,
            nav: NavBar::Gesture,
            ui_face: Face::RobotoRegular,
            title_face: Face::RobotoMedium,
            given_face: Face::RobotoMedium,
            entry_face: Face::RobotoLight,
            key_face: Face::RobotoMedium,
            thin_dp: 3.0,
            thick_dp: 3.0,
            radius_dp: 10.0,
            ad_banner: false,
            mistakes_label: "Mistakes",
            wood: false,
            style: Style {
                outer_border: false,
                digit_em: 0.6,
                tile_dp: 6.0,
                notes_badge: false,
                ..CLASSIC
            },
            colors: Palette {
                background: rgb(0x121417),
                status_bg: rgb(0x121417),
                status_fg: rgb(0xE4E6EA),
                appbar_bg: rgb(0x121417),
                appbar_fg: rgb(0xE4E6EA),
                info_fg: rgb(0x8E96A3),
                grid_bg: rgb(0x2A2F37),
                alt_box_bg: Some(rgb(0x3A414D)),
                thin_line: rgb(0x121417),
                thick_line: rgb(0x121417),
                given: rgb(0xF1F3F5),
                entry: rgb(0x6FCBA4),
                note: rgb(0x9AA3AE),
                selected: rgb(0x4F6FA3),
                peer: rgb(0x303846),
                same_digit: rgb(0x44546E),
                key_bg: Some(rgb(0x2A2F37)),
                key_border: None,
                key_fg: rgb(0xE4E6EA),
                key_active_bg: rgb(0x6FCBA4),
                key_active_fg: rgb(0x121417),
                tool_fg: rgb(0xB3BAC5),
                accent: rgb(0x6FCBA4),
                banner_bg: rgb(0x2E6B52),
                banner_fg: rgb(0xF1F3F5),
            },
        }
    }

    /// A dark app with the board on a card with rounded corners and no outer line, full thin
    /// lines inside, and a same-number highlight that tints every cell holding the selected
    /// digit, the card's corner cells included (their tint follows the rounded corner). It opens
    /// on a digit that stands in the corners, when one does.
    fn card() -> Skin {
        Skin {
            name: "card",
            app_title: "Sudoku",
            package: "app.sim.sudoku.card",
            level: "Expert",
            input: EntryOrder::CellFirst,
            keypad: KeypadShape::Row9,
            ui_face: Face::RobotoRegular,
            title_face: Face::RobotoMedium,
            given_face: Face::RobotoMedium,
            entry_face: Face::RobotoRegular,
            key_face: Face::RobotoRegular,
            thin_dp: 0.8,
            thick_dp: 1.6,
            radius_dp: 14.0,
            ad_banner: false,
            nav: NavBar::Gesture,
            mistakes_label: "Errors",
            wood: false,
            style: Style {
                outer_border: false,
                corner_dp: 18.0,
                digit_em: 0.62,
                opens_on_corner_digit: true,
                ..CLASSIC
            },
            colors: Palette {
                background: rgb(0x0D1014),
                status_bg: rgb(0x0D1014),
                status_fg: rgb(0xE8EAED),
                appbar_bg: rgb(0x0D1014),
                appbar_fg: rgb(0xE8EAED),
                info_fg: rgb(0x8B93A1),
                grid_bg: rgb(0x1E232B),
                alt_box_bg: None,
                thin_line: rgb(0x323843),
                thick_line: rgb(0x687386),
                given: rgb(0xE8EAED),
                entry: rgb(0x82B1FF),
                note: rgb(0x8B93A1),
                selected: rgb(0x3B5B93),
                peer: rgb(0x262C37),
                same_digit: rgb(0x344A70),
                key_bg: Some(rgb(0x1E232B)),
                key_border: None,
                key_fg: rgb(0xE8EAED),
                key_active_bg: rgb(0x3B5B93),
                key_active_fg: rgb(0xFFFFFF),
                tool_fg: rgb(0xA9B0BC),
                accent: rgb(0x82B1FF),
                banner_bg: rgb(0x2B4A7E),
                banner_fg: rgb(0xE8EAED),
            },
        }
    }
}

#[cfg(test)]
mod tests;
