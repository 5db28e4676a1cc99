//! Board pictures: each game draws its board as SVG with [`Svg`], and
//! [`png`] renders it with resvg for the mail's HTML part and its
//! attachment (issue 19; docs/pictures.md).
//!
//! Everything here is deterministic: the SVG is written with fixed
//! decimals, its words are strokes ([`font`]) rather than a machine's
//! fonts, and resvg renders without reading any file, so the same
//! position gives the same bytes on every machine.

pub mod font;
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

/// `pixmap` as a PNG file: RGB, eight bits, no alpha (a board picture
/// paints its whole background, so every pixel is opaque and its
/// premultiplied colour is its colour), compressed with the png crate's
/// balanced setting: its fast one takes a fifth of the time (2 ms against
/// 9.5 for a board) but makes a board of 60 KB, the most a mail should
/// carry, where this one makes about 27 (`cargo bench --bench text --
/// picture`).
pub fn encode(pixmap: &resvg::tiny_skia::Pixmap) -> Result<Vec<u8>, PictureError> {
    let rgb: Vec<u8> = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|p| {
            // A pixel not quite opaque (none in our pictures) is put on
            // white rather than shown darkened by its premultiplication.
            let a = u16::from(p[3]);
            let on_white = |c: u8| (u16::from(c) + (255 - a)).min(255) as u8;
            [on_white(p[0]), on_white(p[1]), on_white(p[2])]
        })
        .collect();
    let mut bytes = Vec::with_capacity(rgb.len() / 16);
    {
        let mut encoder = png::Encoder::new(&mut bytes, pixmap.width(), pixmap.height());
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Balanced);
        let mut writer = encoder
            .write_header()
            .map_err(|e| PictureError::Png(e.to_string()))?;
        writer
            .write_image_data(&rgb)
            .map_err(|e| PictureError::Png(e.to_string()))?;
    }
    Ok(bytes)
}
