//! A stroke font: every glyph a few straight strokes on a 4 x 6 grid.
//!
//! Pictures carry their words as paths, not as SVG text: a renderer draws
//! text with whatever fonts the machine has, so the same board would give
//! different bytes on different machines. Strokes give the same pixels
//! everywhere and need no font file (issue 19: the same position, the same
//! bytes).

/// The strokes of `c` on the glyph grid (x 0-4 from the left, y 0-6 from
/// the top): each stroke a polyline written `x,y x,y ...`, strokes parted by
/// `;`. Lower case is drawn as upper case; a character without a glyph is
/// drawn as a small box, so it shows rather than vanishes.
fn strokes(c: char) -> &'static str {
    match c.to_ascii_uppercase() {
        'A' => "0,6 0,2 2,0 4,2 4,6;0,3.5 4,3.5",
        'B' => "0,0 0,6 3,6 4,5 4,4 3,3 0,3;0,0 3,0 4,1 4,2 3,3",
        'C' => "4,1 3,0 1,0 0,1 0,5 1,6 3,6 4,5",
        'D' => "0,0 0,6 2,6 4,4 4,2 2,0 0,0",
        'E' => "4,0 0,0 0,6 4,6;0,3 3,3",
        'F' => "4,0 0,0 0,6;0,3 3,3",
        'G' => "4,1 3,0 1,0 0,1 0,5 1,6 3,6 4,5 4,3 2,3",
        'H' => "0,0 0,6;4,0 4,6;0,3 4,3",
        'I' => "1,0 3,0;2,0 2,6;1,6 3,6",
        'J' => "4,0 4,5 3,6 1,6 0,5",
        'K' => "0,0 0,6;4,0 0,4;1,3 4,6",
        'L' => "0,0 0,6 4,6",
        'M' => "0,6 0,0 2,3 4,0 4,6",
        'N' => "0,6 0,0 4,6 4,0",
        'O' => "1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0",
        'P' => "0,6 0,0 3,0 4,1 4,2 3,3 0,3",
        'Q' => "1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0;2,4 4,6",
        'R' => "0,6 0,0 3,0 4,1 4,2 3,3 0,3;2,3 4,6",
        'S' => "4,1 3,0 1,0 0,1 0,2 1,3 3,3 4,4 4,5 3,6 1,6 0,5",
        'T' => "0,0 4,0;2,0 2,6",
        'U' => "0,0 0,5 1,6 3,6 4,5 4,0",
        'V' => "0,0 2,6 4,0",
        'W' => "0,0 1,6 2,3 3,6 4,0",
        'X' => "0,0 4,6;4,0 0,6",
        'Y' => "0,0 2,3 4,0;2,3 2,6",
        'Z' => "0,0 4,0 0,6 4,6",
        '0' => "1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0;4,1 0,5",
        '1' => "1,1 2,0 2,6;1,6 3,6",
        '2' => "0,1 1,0 3,0 4,1 4,2 0,6 4,6",
        '3' => "0,0 4,0 2,2 3,2 4,3 4,5 3,6 1,6 0,5",
        '4' => "3,6 3,0 0,4 4,4",
        '5' => "4,0 0,0 0,3 3,3 4,4 4,5 3,6 0,6",
        '6' => "3,0 1,0 0,1 0,5 1,6 3,6 4,5 4,4 3,3 0,3",
        '7' => "0,0 4,0 1,6",
        '8' => "1,3 0,2 0,1 1,0 3,0 4,1 4,2 3,3 1,3 0,4 0,5 1,6 3,6 4,5 4,4 3,3",
        '9' => "4,3 1,3 0,2 0,1 1,0 3,0 4,1 4,5 3,6 1,6",
        '+' => "2,2 2,6;0,4 4,4",
        '-' => "0.5,3.5 3.5,3.5",
        '>' => "0.5,1.5 4,3.5 0.5,5.5",
        '<' => "3.5,1.5 0,3.5 3.5,5.5",
        '_' => "0,6.5 4,6.5",
        '~' => "0,4 1,3 3,4 4,3",
        '(' => "2.5,0 1.5,1 1.5,5 2.5,6",
        ')' => "1.5,0 2.5,1 2.5,5 1.5,6",
        '.' => "2,6 2,6",
        ',' => "2,5.5 1.5,7",
        ':' => "2,2 2,2;2,5.5 2,5.5",
        ';' => "2,2 2,2;2,5.5 1.5,7",
        '/' => "0,6 4,0",
        '\'' => "2,0 2,1.5",
        '*' => "2,1 2,5;0.5,2 3.5,4;0.5,4 3.5,2",
        '^' => "0,3 2,1 4,3",
        '=' => "0,2.5 4,2.5;0,4.5 4,4.5",
        '?' => "0,1 1,0 3,0 4,1 4,2 2,3.5 2,4.5;2,6 2,6",
        '!' => "2,0 2,4;2,6 2,6",
        '#' => "1,0 1,6;3,0 3,6;0,2 4,2;0,4 4,4",
        '&' => "4,6 1,2 1,1 2,0 3,1 3,2 0,4 0,5 1,6 2,6 4,4",
        ' ' => "",
        _ => "0.5,1 3.5,1 3.5,6 0.5,6 0.5,1",
    }
}

/// How far one glyph moves the pen, in grid units: 4 for the glyph, 2 of
/// space.
const ADVANCE: f32 = 6.0;

/// Where a text stands against its x.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// x is the text's left edge.
    Start,
    /// x is the text's middle.
    Middle,
    /// x is the text's right edge.
    End,
}

/// The width in pixels of `text` drawn `size` pixels high (the height of a
/// capital).
pub fn width(text: &str, size: f32) -> f32 {
    let n = text.chars().count() as f32;
    if n == 0.0 {
        return 0.0;
    }
    // The space after the last glyph is no part of the text.
    (n * ADVANCE - 2.0) * size / 6.0
}

/// The path data of `c` on its own grid (capitals 6 units high, the glyph
/// 4 wide), as one SVG `<path>` of strokes; empty for a space.
pub fn glyph(c: char) -> String {
    let mut d = String::new();
    for stroke in strokes(c).split(';').filter(|s| !s.is_empty()) {
        for (j, point) in stroke.split(' ').enumerate() {
            let (x, y) = point.split_once(',').unwrap_or(("0", "0"));
            d.push(if j == 0 { 'M' } else { 'L' });
            d.push_str(x);
            d.push(' ');
            d.push_str(y);
        }
    }
    d
}

/// The glyph that draws `c`: its upper case (the font has no lower case).
pub fn drawn_as(c: char) -> char {
    c.to_ascii_uppercase()
}

/// Where the glyphs of `text` start, in grid units from the text's start
/// ([`ADVANCE`] apart), with the glyph each draws; spaces take room but
/// draw nothing.
pub fn layout(text: &str) -> impl Iterator<Item = (f32, char)> + '_ {
    text.chars()
        .enumerate()
        .filter(|(_, c)| *c != ' ')
        .map(|(i, c)| (i as f32 * ADVANCE, drawn_as(c)))
}

/// The left edge of `text` drawn `size` high and placed by `anchor`
/// against `x`.
pub fn left(text: &str, x: f32, size: f32, anchor: Anchor) -> f32 {
    match anchor {
        Anchor::Start => x,
        Anchor::Middle => x - width(text, size) / 2.0,
        Anchor::End => x - width(text, size),
    }
}

/// `v` with one decimal, and no `-0.0`.
pub fn fixed(v: f32) -> String {
    let tenths = (v * 10.0).round() as i64;
    if tenths % 10 == 0 {
        format!("{}", tenths / 10)
    } else {
        let sign = if tenths < 0 { "-" } else { "" };
        let a = tenths.abs();
        format!("{sign}{}.{}", a / 10, a % 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_glyph_parses_on_its_grid() {
        for c in (' '..='~').chain(['é']) {
            for stroke in strokes(c).split(';').filter(|s| !s.is_empty()) {
                for point in stroke.split(' ') {
                    let (x, y) = point.split_once(',').expect("x,y");
                    let x: f32 = x.parse().expect("x is a number");
                    let y: f32 = y.parse().expect("y is a number");
                    assert!((0.0..=4.0).contains(&x), "{c:?}: {point}");
                    assert!((0.0..=7.0).contains(&y), "{c:?}: {point}");
                }
            }
        }
    }

    #[test]
    fn a_text_is_placed_by_its_anchor() {
        assert_eq!(width("AB", 6.0), 10.0);
        assert_eq!(left("AB", 10.0, 6.0, Anchor::Start), 10.0);
        assert_eq!(left("AB", 10.0, 6.0, Anchor::Middle), 5.0);
        assert_eq!(left("AB", 10.0, 6.0, Anchor::End), 0.0);
        let placed: Vec<(f32, char)> = layout("a b").collect();
        assert_eq!(placed, vec![(0.0, 'A'), (12.0, 'B')]);
        assert_eq!(glyph(' '), "");
        assert_eq!(glyph('L'), "M0 0L0 6L4 6");
    }

    #[test]
    fn numbers_are_written_the_same_way_every_time() {
        assert_eq!(fixed(1.0), "1");
        assert_eq!(fixed(-0.04), "0");
        assert_eq!(fixed(2.25), "2.3");
        assert_eq!(fixed(-1.5), "-1.5");
    }
}
