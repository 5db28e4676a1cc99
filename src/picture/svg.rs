//! A small SVG writer: the few shapes a board picture needs, written the
//! same way every time (fixed decimals, attributes in one order), so that
//! the same position gives the same bytes.

use super::font::{self, fixed, Anchor};

/// A colour as `#rrggbb`.
pub type Colour = &'static str;

/// The stroke of a shape: its colour and width in pixels, and a dash
/// pattern (`None`: solid).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stroke {
    /// The line's colour.
    pub colour: Colour,
    /// Its width in pixels.
    pub width: f32,
    /// Dash and gap lengths in pixels, when dashed.
    pub dash: Option<(f32, f32)>,
}

impl Stroke {
    /// A solid line.
    pub const fn solid(colour: Colour, width: f32) -> Stroke {
        Stroke {
            colour,
            width,
            dash: None,
        }
    }

    /// A dashed line.
    pub const fn dashed(colour: Colour, width: f32, dash: f32, gap: f32) -> Stroke {
        Stroke {
            colour,
            width,
            dash: Some((dash, gap)),
        }
    }

    fn attributes(&self) -> String {
        let mut a = format!(
            " stroke=\"{}\" stroke-width=\"{}\"",
            self.colour,
            fixed(self.width)
        );
        if let Some((dash, gap)) = self.dash {
            a.push_str(&format!(
                " stroke-dasharray=\"{} {}\"",
                fixed(dash),
                fixed(gap)
            ));
        }
        a
    }
}

/// Path data of straight lines through `points`, closed when `close`.
fn points_data(points: &[(f32, f32)], close: bool) -> String {
    let mut d = String::new();
    for (i, (x, y)) in points.iter().enumerate() {
        d.push(if i == 0 { 'M' } else { 'L' });
        d.push_str(&format!("{} {}", fixed(*x), fixed(*y)));
    }
    if close {
        d.push('Z');
    }
    d
}

/// An SVG document being drawn, `width` x `height` pixels.
#[derive(Debug)]
pub struct Svg {
    body: String,
    width: u32,
    height: u32,
    /// The size the picture is shown at when it differs from the size it
    /// is drawn at ([`Svg::fit`]).
    shown: Option<(u32, u32)>,
    /// The glyphs the texts use: each is defined once and placed with
    /// `<use>`, which keeps a board's SVG a fraction of its size.
    glyphs: std::collections::BTreeSet<char>,
}

impl Svg {
    /// A blank picture of `width` x `height` pixels filled with
    /// `background`.
    pub fn new(width: u32, height: u32, background: Colour) -> Svg {
        let mut svg = Svg {
            body: String::with_capacity(16 * 1024),
            width,
            height,
            shown: None,
            glyphs: std::collections::BTreeSet::new(),
        };
        svg.rect(
            0.0,
            0.0,
            width as f32,
            height as f32,
            Some(background),
            None,
        );
        svg
    }

    /// Shows the picture scaled down, whole, to at most `max_side` pixels
    /// a side when it is drawn larger: a large map keeps its drawing and
    /// its proportions, and the renderer scales it.
    pub fn fit(&mut self, max_side: u32) {
        let largest = self.width.max(self.height);
        if largest <= max_side || largest == 0 {
            self.shown = None;
            return;
        }
        let scale =
            |v: u32| ((u64::from(v) * u64::from(max_side)) / u64::from(largest)).max(1) as u32;
        self.shown = Some((scale(self.width), scale(self.height)));
    }

    /// The picture's width in pixels, as drawn.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The picture's height in pixels, as drawn.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// A rectangle from (`x`, `y`), `w` x `h`, filled and outlined as given.
    pub fn rect(
        &mut self,
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        fill: Option<Colour>,
        stroke: Option<Stroke>,
    ) {
        self.body.push_str(&format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"{}/>\n",
            fixed(x),
            fixed(y),
            fixed(w),
            fixed(h),
            fill.unwrap_or("none"),
            stroke.map(|s| s.attributes()).unwrap_or_default()
        ));
    }

    /// A rectangle with corners rounded by `r`.
    #[allow(clippy::too_many_arguments)]
    pub fn rounded(
        &mut self,
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        r: f32,
        fill: Option<Colour>,
        stroke: Option<Stroke>,
    ) {
        self.body.push_str(&format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"{}\"{}/>\n",
            fixed(x),
            fixed(y),
            fixed(w),
            fixed(h),
            fixed(r),
            fill.unwrap_or("none"),
            stroke.map(|s| s.attributes()).unwrap_or_default()
        ));
    }

    /// A circle of radius `r` about (`x`, `y`).
    pub fn circle(&mut self, x: f32, y: f32, r: f32, fill: Option<Colour>, stroke: Option<Stroke>) {
        self.body.push_str(&format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"{}/>\n",
            fixed(x),
            fixed(y),
            fixed(r),
            fill.unwrap_or("none"),
            stroke.map(|s| s.attributes()).unwrap_or_default()
        ));
    }

    /// Straight lines through `points`, closed and filled when `fill` is
    /// given.
    pub fn polyline(
        &mut self,
        points: &[(f32, f32)],
        fill: Option<Colour>,
        stroke: Option<Stroke>,
    ) {
        self.path(&points_data(points, fill.is_some()), fill, stroke);
    }

    /// A path from its data.
    pub fn path(&mut self, d: &str, fill: Option<Colour>, stroke: Option<Stroke>) {
        self.path_drawn(d, fill, stroke, "");
    }

    /// A closed shape through `points` drawn without smoothing its edges:
    /// a map's many cells, whose smoothed slanted sides would double the
    /// size of its PNG for a difference the eye barely sees.
    pub fn crisp_polygon(
        &mut self,
        points: &[(f32, f32)],
        fill: Option<Colour>,
        stroke: Option<Stroke>,
    ) {
        self.path_drawn(
            &points_data(points, true),
            fill,
            stroke,
            " shape-rendering=\"crispEdges\"",
        );
    }

    fn path_drawn(&mut self, d: &str, fill: Option<Colour>, stroke: Option<Stroke>, extra: &str) {
        if d.is_empty() {
            return;
        }
        self.body.push_str(&format!(
            "<path d=\"{d}\" fill=\"{}\"{} stroke-linecap=\"round\" stroke-linejoin=\"round\"{extra}/>\n",
            fill.unwrap_or("none"),
            stroke.map(|s| s.attributes()).unwrap_or_default()
        ));
    }

    /// An arrow from (`x1`, `y1`) to (`x2`, `y2`): its shaft in `stroke`
    /// and a filled head of the same colour ending at the point.
    pub fn arrow(&mut self, from: (f32, f32), to: (f32, f32), stroke: Stroke) {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let length = (dx * dx + dy * dy).sqrt();
        if length < 1.0 {
            return;
        }
        let (ux, uy) = (dx / length, dy / length);
        let head = (stroke.width * 3.5).max(8.0);
        let base = (to.0 - ux * head, to.1 - uy * head);
        self.polyline(&[from, base], None, Some(stroke));
        let half = head * 0.55;
        self.polyline(
            &[
                to,
                (base.0 - uy * half, base.1 + ux * half),
                (base.0 + uy * half, base.1 - ux * half),
            ],
            Some(stroke.colour),
            None,
        );
    }

    /// `text` in the stroke font, the top of its capitals at `top`, `size`
    /// pixels high.
    pub fn text(
        &mut self,
        text: &str,
        x: f32,
        top: f32,
        size: f32,
        anchor: Anchor,
        colour: Colour,
    ) {
        let scale = size / 6.0;
        let mut uses = String::new();
        for (at, c) in font::layout(text) {
            if font::glyph(c).is_empty() {
                continue;
            }
            self.glyphs.insert(c);
            uses.push_str(&format!("<use xlink:href=\"#g{:x}\"", u32::from(c)));
            if at != 0.0 {
                uses.push_str(&format!(" x=\"{}\"", fixed(at)));
            }
            uses.push_str("/>");
        }
        if uses.is_empty() {
            return;
        }
        // The strokes are a sixth of a capital wide, never under 0.8 pixel.
        let stroke = ((size / 6.0).max(0.8)) / scale;
        self.body.push_str(&format!(
            "<g transform=\"translate({} {}) scale({})\" stroke=\"{colour}\" stroke-width=\"{}\">{uses}</g>\n",
            fixed(font::left(text, x, size, anchor)),
            fixed(top),
            scale_text(scale),
            scale_text(stroke),
        ));
    }

    /// The finished document.
    pub fn finish(self) -> String {
        let mut defs = String::new();
        if !self.glyphs.is_empty() {
            defs.push_str("<defs>\n");
            for c in &self.glyphs {
                defs.push_str(&format!(
                    "<path id=\"g{:x}\" d=\"{}\" fill=\"none\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n",
                    u32::from(*c),
                    font::glyph(*c)
                ));
            }
            defs.push_str("</defs>\n");
        }
        let (shown_w, shown_h) = self.shown.unwrap_or((self.width, self.height));
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"{shown_w}\" height=\"{shown_h}\" viewBox=\"0 0 {w} {h}\">\n{defs}{}</svg>\n",
            self.body,
            w = self.width,
            h = self.height
        )
    }
}

/// A scale factor with three decimals (a text's size is rarely a whole
/// sixth), written the same way every time.
fn scale_text(v: f32) -> String {
    let thousandths = (v * 1000.0).round() as i64;
    let text = format!("{}.{:03}", thousandths / 1000, thousandths % 1000);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}
