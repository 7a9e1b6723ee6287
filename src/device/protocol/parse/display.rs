//! `wm size`, `wm density`, `getprop` and the display rotation from `dumpsys window`.

use super::*;

/// What `wm size` or `wm density` reports: the panel's physical value and an optional override
/// (`wm size WxH`, `wm density N`). Sizes are in the display's natural orientation (usually
/// portrait), densities in dots per inch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WmSetting<T> {
    pub physical: T,
    pub overridden: Option<T>,
}

impl<T: Copy> WmSetting<T> {
    /// The value apps and `input` work in: the override when there is one.
    pub fn effective(&self) -> T {
        self.overridden.unwrap_or(self.physical)
    }
}

pub type DisplaySize = WmSetting<Size>;
pub type Density = WmSetting<u32>;

/// Parses `wm size` or `wm density` (`what`): `Physical size: 1080x2340` plus, when overridden,
/// `Override size: 720x1560`.
fn wm_setting<T: std::str::FromStr>(
    text: &str,
    command: &'static str,
    what: &str,
) -> Result<WmSetting<T>, ParseError> {
    let field = |label: String| {
        text.lines()
            .filter_map(|l| l.trim().strip_prefix(label.as_str()))
            .find_map(|v| v.trim().parse().ok())
    };
    let physical = field(format!("Physical {what}:")).ok_or_else(|| unexpected(command, text))?;
    Ok(WmSetting {
        physical,
        overridden: field(format!("Override {what}:")),
    })
}

/// Parses `wm size`: `Physical size: 1080x2340` plus, when overridden, `Override size: 720x1560`.
pub fn wm_size(text: &str) -> Result<DisplaySize, ParseError> {
    wm_setting(text, "wm size", "size")
}

/// Parses `wm density`: `Physical density: 440` plus an optional `Override density: 480`.
pub fn wm_density(text: &str) -> Result<Density, ParseError> {
    wm_setting(text, "wm density", "density")
}

/// The value printed by `getprop NAME`: the trimmed text, `None` when the property is unset
/// (getprop prints an empty line).
pub fn getprop_value(text: &str) -> Option<&str> {
    let v = text.trim();
    (!v.is_empty()).then_some(v)
}

/// Parses the listing printed by a bare `getprop`: lines `[ro.build.version.sdk]: [28]`.
pub fn getprop_listing(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter_map(|l| {
            let (key, value) = l.trim().split_once("]: [")?;
            let key = key.strip_prefix('[')?;
            let value = value.strip_suffix(']')?;
            Some((key.to_string(), value.to_string()))
        })
        .collect()
}

/// Parses `getprop ro.build.version.sdk` (`28`) into the API level.
pub fn sdk_level(text: &str) -> Result<u32, ParseError> {
    getprop_value(text)
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| unexpected("getprop ro.build.version.sdk", text))
}

/// Display rotation, clockwise from the natural orientation (Surface.ROTATION_*).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Rotation {
    #[default]
    R0,
    R90,
    R180,
    R270,
}

impl Rotation {
    /// From quarter turns (0..=3, as in `mRotation=1`) or degrees (90, 180, 270).
    pub fn from_number(n: u32) -> Option<Rotation> {
        match n {
            0 => Some(Rotation::R0),
            1 | 90 => Some(Rotation::R90),
            2 | 180 => Some(Rotation::R180),
            3 | 270 => Some(Rotation::R270),
            _ => None,
        }
    }

    pub fn degrees(self) -> u32 {
        match self {
            Rotation::R0 => 0,
            Rotation::R90 => 90,
            Rotation::R180 => 180,
            Rotation::R270 => 270,
        }
    }

    /// True for 90 and 270: width and height swap.
    pub fn is_sideways(self) -> bool {
        matches!(self, Rotation::R90 | Rotation::R270)
    }

    /// A natural-orientation size as seen in this rotation.
    pub fn apply(self, natural: Size) -> Size {
        if self.is_sideways() {
            Size::new(natural.height, natural.width)
        } else {
            natural
        }
    }
}

/// Finds the display rotation in `dumpsys window displays`: `mCurrentRotation=ROTATION_90` on
/// newer builds, `mCurrentRotation=1` or `mRotation=1` on older ones. The first match wins
/// (the default display is listed first).
pub fn rotation(dumpsys: &str) -> Option<Rotation> {
    for key in ["mCurrentRotation=", "mRotation="] {
        for (i, _) in dumpsys.match_indices(key) {
            // Whole keys only: `mRotation=` must not match inside `mLastRotation=`.
            let before = dumpsys[..i].chars().next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            let rest = &dumpsys[i + key.len()..];
            let token: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let digits = token.strip_prefix("ROTATION_").unwrap_or(&token);
            if let Some(r) = digits.parse().ok().and_then(Rotation::from_number) {
                return Some(r);
            }
        }
    }
    None
}
