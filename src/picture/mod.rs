//! Board pictures: each game draws its board as SVG with [`Svg`], and
//! [`png`] renders it with resvg for the mail's HTML part and its
//! attachment (issue 19; docs/pictures.md).
//!
//! Everything here is deterministic: the SVG is written with fixed
//! decimals, its words are strokes ([`font`]) rather than a machine's
//! fonts, and resvg renders without reading any file, so the same
//! position gives the same bytes on every machine.

pub mod font;
pub mod shapes;
pub mod svg;

pub use font::Anchor;
pub use svg::{Colour, Stroke, Svg};

/// The largest picture rendered, in pixels a side: a bound on the memory a
/// picture may take, whatever SVG it is given.
pub const MAX_SIDE: u32 = 2048;

/// Why a picture could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    /// The SVG did not parse.
    #[error("the picture's SVG is not valid: {0}")]
    Svg(String),
    /// The picture is empty or larger than [`MAX_SIDE`] a side.
    #[error("the picture is {0} x {1} pixels; at most {MAX_SIDE} a side is drawn")]
    Size(u32, u32),
    /// The PNG could not be written.
    #[error("the picture could not be written as PNG: {0}")]
    Png(String),
}

/// A rendered picture: the PNG file and its size in pixels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Png {
    /// The PNG file's bytes.
    pub bytes: Vec<u8>,
    /// Its width in pixels.
    pub width: u32,
    /// Its height in pixels.
    pub height: u32,
}

/// `svg` rendered as a PNG at its own size (one SVG unit a pixel).
pub fn png(svg: &str) -> Result<Png, PictureError> {
    let pixmap = rasterise(svg)?;
    let bytes = encode(&pixmap)?;
    Ok(Png {
        bytes,
        width: pixmap.width(),
        height: pixmap.height(),
    })
}

/// `svg` drawn into pixels at its own size.
pub fn rasterise(svg: &str) -> Result<resvg::tiny_skia::Pixmap, PictureError> {
    let options = resvg::usvg::Options::default();
    let tree =
        resvg::usvg::Tree::from_str(svg, &options).map_err(|e| PictureError::Svg(e.to_string()))?;
    let size = tree.size().to_int_size();
    let (width, height) = (size.width(), size.height());
    if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
        return Err(PictureError::Size(width, height));
    }
    let mut pixmap =
        resvg::tiny_skia::Pixmap::new(width, height).ok_or(PictureError::Size(width, height))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// The most colours a PNG palette holds.
const PALETTE: usize = 256;

/// `pixmap` as a PNG file: eight-bit indexed colour, compressed with the
/// png crate's balanced setting (`cargo bench --bench text -- picture`).
///
/// A board is a few dozen flat colours and the blends its smoothed edges
/// make; stored as RGB, the blends of a hex map's slanted sides and small
/// print made a 130 KB file, over twice what a mail should carry (60 KB).
/// The palette is the picture's 256 most frequent colours (ties by colour,
/// so the same picture gives the same palette): every flat colour is kept
/// exactly, and a rarer blend takes the nearest colour of the palette,
/// which the eye does not see at an edge. Every pixel is opaque (a board
/// paints its whole background); one that were not is put on white rather
/// than shown darkened by its premultiplication.
pub fn encode(pixmap: &resvg::tiny_skia::Pixmap) -> Result<Vec<u8>, PictureError> {
    let pixels: Vec<[u8; 3]> = pixmap
        .data()
        .chunks_exact(4)
        .map(|p| {
            let a = u16::from(p[3]);
            let on_white = |c: u8| (u16::from(c) + (255 - a)).min(255) as u8;
            [on_white(p[0]), on_white(p[1]), on_white(p[2])]
        })
        .collect();
    let (palette, indices) = indexed(&pixels);
    let mut bytes = Vec::with_capacity(indices.len() / 8);
    {
        let mut encoder = png::Encoder::new(&mut bytes, pixmap.width(), pixmap.height());
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_palette(palette.concat());
        encoder.set_compression(png::Compression::Balanced);
        let mut writer = encoder
            .write_header()
            .map_err(|e| PictureError::Png(e.to_string()))?;
        writer
            .write_image_data(&indices)
            .map_err(|e| PictureError::Png(e.to_string()))?;
    }
    Ok(bytes)
}

/// The palette of `pixels` (its [`PALETTE`] most frequent colours) and
/// each pixel's index in it: its own colour's, or the nearest one's.
fn indexed(pixels: &[[u8; 3]]) -> (Vec<[u8; 3]>, Vec<u8>) {
    let mut counts: std::collections::HashMap<[u8; 3], u32> = std::collections::HashMap::new();
    for p in pixels {
        *counts.entry(*p).or_insert(0) += 1;
    }
    let mut by_use: Vec<([u8; 3], u32)> = counts.into_iter().collect();
    by_use.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    by_use.truncate(PALETTE);
    let palette: Vec<[u8; 3]> = by_use.into_iter().map(|(c, _)| c).collect();
    let mut index: std::collections::HashMap<[u8; 3], u8> = palette
        .iter()
        .enumerate()
        .map(|(i, c)| (*c, i as u8))
        .collect();
    let distance = |a: &[u8; 3], b: &[u8; 3]| -> u32 {
        a.iter()
            .zip(b)
            .map(|(x, y)| u32::from(x.abs_diff(*y)).pow(2))
            .sum()
    };
    let indices = pixels
        .iter()
        .map(|p| {
            *index.entry(*p).or_insert_with(|| {
                palette
                    .iter()
                    .enumerate()
                    .min_by_key(|(i, c)| (distance(p, c), *i))
                    .map_or(0, |(i, _)| i as u8)
            })
        })
        .collect();
    (palette, indices)
}
