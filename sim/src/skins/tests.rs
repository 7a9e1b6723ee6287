//! The skins' own checks: names, packages, and what each skin draws.
use super::*;

#[test]
fn every_listed_name_builds_a_skin_of_that_name() {
    for name in Skin::names() {
        assert_eq!(Skin::named(name).map(|s| s.name()), Some(*name));
    }
    assert!(Skin::named("neon").is_none());
    assert_eq!(Skin::default().name(), "light");
}

#[test]
fn skins_cover_both_input_orders_and_all_keypad_shapes() {
    let skins: Vec<Skin> = Skin::names()
        .iter()
        .filter_map(|n| Skin::named(n))
        .collect();
    assert!(skins.iter().any(|s| s.input == EntryOrder::NumberFirst));
    assert!(skins.iter().any(|s| s.input == EntryOrder::CellFirst));
    for shape in [
        KeypadShape::Row9,
        KeypadShape::Grid3x3,
        KeypadShape::Grid2x5,
        KeypadShape::IconColumn,
        KeypadShape::Counters,
        KeypadShape::Panel,
    ] {
        assert!(skins.iter().any(|s| s.keypad == shape));
    }
}

#[test]
fn givens_and_entries_differ_in_colour_on_every_skin() {
    for name in Skin::names() {
        let c = Skin::named(name).unwrap().colors;
        assert_ne!(c.given, c.entry, "{name}");
    }
}
