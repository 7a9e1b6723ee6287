//! `solve --gif`: the search written as an animated GIF, checked by decoding it.

use crate::support;
use crate::support::boards::CLASSIC as EASY;

#[test]
fn solve_writes_a_gif_sampled_down_to_the_frame_budget() {
    let (path, stdout) = support::gif_of(
        "gif",
        &[
            "solve",
            "--strategy",
            "naive",
            "--json",
            "--gif-frames",
            "12",
            EASY,
        ],
    );
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let moves = json["sets"].as_u64().unwrap() + json["cancels"].as_u64().unwrap();
    let frames = support::gif_frames(&path);
    assert!(
        moves > 12,
        "the sample search must be longer than the frame budget"
    );
    let expected = 12;
    assert_eq!(frames.len(), expected);
    std::fs::remove_dir_all(path.parent().unwrap()).ok();
}

#[test]
fn gif_is_refused_for_a_list_of_puzzles() {
    let out = support::fed(
        support::agent().args([
            "solve",
            "--gif",
            "/tmp/never-written.gif",
            "--file",
            "/dev/stdin",
        ]),
        &format!("{EASY}\n{EASY}\n"),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("single puzzle"));
}
