//! Shapes the boards of several games draw alike: many straight lines as
//! one path, an arrow's ends drawn clear of the centres it joins, and a
//! star (a key city, a key hex).

use super::font::fixed;
use super::svg::{Colour, Stroke, Svg};

/// A point in pixels.
pub type Point = (f32, f32);

/// A straight line's two ends.
pub type Segment = (Point, Point);

/// Path data of straight segments, each `M x y L x y`: one path for many
/// lines keeps the SVG small.
pub fn segments(pairs: &[Segment]) -> String {
    let mut d = String::new();
    for (a, b) in pairs {
        d.push_str(&format!(
            "M{} {}L{} {}",
            fixed(a.0),
            fixed(a.1),
            fixed(b.0),
            fixed(b.1)
        ));
    }
    d
}

/// The line from `from` to `to` with `by` pixels taken off each end, so
/// that an arrow between two centres leaves their counters readable.
pub fn shorten(from: Point, to: Point, by: f32) -> Segment {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let length = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / length, dy / length);
    (
        (from.0 + ux * by, from.1 + uy * by),
        (to.0 - ux * by, to.1 - uy * by),
    )
}

/// A five-pointed star of radius `r` about (`cx`, `cy`), point up.
pub fn star(svg: &mut Svg, cx: f32, cy: f32, r: f32, fill: Colour, stroke: Stroke) {
    let points: Vec<Point> = (0..10)
        .map(|i| {
            let radius = if i % 2 == 0 { r } else { r * 0.45 };
            let angle = std::f32::consts::PI * (i as f32 / 5.0 - 0.5);
            (cx + radius * angle.cos(), cy + radius * angle.sin())
        })
        .collect();
    svg.polyline(&points, Some(fill), Some(stroke));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shortened_line_keeps_its_direction() {
        let ((x1, y1), (x2, y2)) = shorten((0.0, 0.0), (10.0, 0.0), 2.0);
        assert_eq!((x1, y1, x2, y2), (2.0, 0.0, 8.0, 0.0));
        assert_eq!(
            segments(&[((0.0, 0.0), (1.5, 2.0))]),
            "M0 0L1.5 2".to_string()
        );
    }
}
