//! The map as text, in at most 76 columns: a window of hexes with column
//! numbers above and row numbers at the left.
//!
//! Hexes stand in columns and even columns sit half a hex north of odd
//! ones (core/hex.rs), so each map row is drawn as two lines: the even
//! columns' hexes of that row first (they are higher), then the odd
//! columns'. Both lines carry the row number, and a hex is found by its
//! column number above it and its row number at the left. A hex is three
//! characters wide; what they say is the caller's (terrain, a unit).
//!
//! ```text
//!      01  02  03  04
//!  01      .       w
//!  01  .       .
//!  02      .       .
//!  02  A1+     .
//! ```

use crate::games::brothers_at_war::core::Hex;

/// The widest a mail line may be.
pub const MAX_WIDTH: usize = 76;

/// Characters a hex is drawn with.
pub const CELL: usize = 3;

/// From one column's hexes to the next's.
const STRIDE: usize = 4;

/// The row numbers' margin.
const MARGIN: usize = 5;

/// The most columns one drawing holds within [`MAX_WIDTH`].
pub const MAX_COLUMNS: u8 = ((MAX_WIDTH - MARGIN - CELL) / STRIDE + 1) as u8;

/// A rectangle of hexes to draw: columns and rows, both inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// The westmost column.
    pub first_column: u8,
    /// The eastmost column.
    pub last_column: u8,
    /// The northmost row.
    pub first_row: u8,
    /// The southmost row.
    pub last_row: u8,
}

impl Window {
    /// The whole map of `columns` x `rows` hexes (which may be wider than
    /// one drawing: see [`Window::strips`]).
    pub fn whole(columns: u8, rows: u8) -> Window {
        Window {
            first_column: 1,
            last_column: columns.max(1),
            first_row: 1,
            last_row: rows.max(1),
        }
    }

    /// At most `width` columns and `height` rows of a map of `columns` x
    /// `rows`, centred on the hexes of `focus` (the last action, the units
    /// of the brigade to act) as far as the map's edges allow; the map's
    /// north-west corner when `focus` is empty.
    pub fn around(focus: &[Hex], columns: u8, rows: u8, width: u8, height: u8) -> Window {
        let width = width.clamp(1, MAX_COLUMNS).min(columns.max(1));
        let height = height.max(1).min(rows.max(1));
        let span = |lo: u8, hi: u8, size: u8, limit: u8| -> (u8, u8) {
            let centred =
                ((u16::from(lo) + u16::from(hi)) / 2).saturating_sub(u16::from(size - 1) / 2);
            // A focus wider than the window keeps its north-west part.
            let first = centred
                .min(u16::from(lo))
                .clamp(1, u16::from(limit - size + 1)) as u8;
            (first, first + size - 1)
        };
        let (c0, c1, r0, r1) = if focus.is_empty() {
            (1, 1, 1, 1)
        } else {
            (
                focus.iter().map(|h| h.column()).min().unwrap_or(1),
                focus.iter().map(|h| h.column()).max().unwrap_or(1),
                focus.iter().map(|h| h.row()).min().unwrap_or(1),
                focus.iter().map(|h| h.row()).max().unwrap_or(1),
            )
        };
        let (first_column, last_column) = span(c0, c1, width, columns.max(1));
        let (first_row, last_row) = span(r0, r1, height, rows.max(1));
        Window {
            first_column,
            last_column,
            first_row,
            last_row,
        }
    }

    /// The window cut into strips of at most [`MAX_COLUMNS`] columns, west
    /// first, each drawn on its own within [`MAX_WIDTH`].
    pub fn strips(self) -> Vec<Window> {
        let mut out = Vec::new();
        let mut first = self.first_column;
        while first <= self.last_column {
            let last = first.saturating_add(MAX_COLUMNS - 1).min(self.last_column);
            out.push(Window {
                first_column: first,
                last_column: last,
                ..self
            });
            match last.checked_add(1) {
                Some(next) => first = next,
                None => break,
            }
        }
        out
    }

    /// Whether `hex` is inside the window.
    pub fn contains(self, hex: Hex) -> bool {
        (self.first_column..=self.last_column).contains(&hex.column())
            && (self.first_row..=self.last_row).contains(&hex.row())
    }
}

/// Draws `window` (at most [`MAX_COLUMNS`] wide: wider ones are cut, see
/// [`Window::strips`]), each hex as the three characters `cell` gives it.
pub fn draw(window: Window, cell: impl Fn(Hex) -> [char; CELL]) -> String {
    let last_column = window
        .last_column
        .min(window.first_column.saturating_add(MAX_COLUMNS - 1));
    let columns = window.first_column..=last_column;
    let x = |column: u8| MARGIN + usize::from(column - window.first_column) * STRIDE;
    let mut out = String::new();
    let mut header = " ".repeat(MARGIN);
    for column in columns.clone() {
        pad_to(&mut header, x(column));
        header.push_str(&format!("{column:02}"));
    }
    out.push_str(header.trim_end());
    out.push('\n');
    for row in window.first_row..=window.last_row {
        // Even columns are half a hex higher: their line comes first.
        for even in [true, false] {
            let mut line = format!(" {row:02}");
            for column in columns.clone().filter(|c| (c % 2 == 0) == even) {
                let Some(hex) = Hex::new(column, row) else {
                    continue;
                };
                pad_to(&mut line, x(column));
                line.extend(cell(hex));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out
}

fn pad_to(line: &mut String, width: usize) {
    let have = line.chars().count();
    if have < width {
        line.push_str(&" ".repeat(width - have));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(name: &str) -> Hex {
        name.parse().unwrap()
    }

    /// Where `hex` is drawn: (line index, first character's column).
    fn spot(drawing: &str, window: Window, hex: Hex) -> (usize, usize) {
        let mark = format!("{}", hex);
        let label: String = mark.chars().skip(1).take(3).collect();
        drawing
            .lines()
            .enumerate()
            .find_map(|(i, l)| l.find(&label).map(|at| (i, at)))
            .unwrap_or_else(|| panic!("{hex} not drawn in {window:?}:\n{drawing}"))
    }

    #[test]
    fn the_widest_drawing_fits_a_mail_line() {
        let window = Window::whole(99, 3);
        for strip in window.strips() {
            let drawing = draw(strip, |_| ['w', 'w', 'w']);
            assert!(
                drawing.lines().all(|l| l.chars().count() <= MAX_WIDTH),
                "{drawing}"
            );
        }
        assert_eq!(MAX_COLUMNS, 18);
        let strips = window.strips();
        assert_eq!(strips.len(), 6);
        assert_eq!(strips[0].first_column, 1);
        assert_eq!(strips[0].last_column, 18);
        assert_eq!(strips[5].last_column, 99);
    }

    #[test]
    fn neighbours_are_drawn_next_to_each_other() {
        let window = Window::whole(15, 14);
        // Each hex shows the last three digits of its name.
        let drawing = draw(window, |h| {
            let n = h.to_string();
            let c: Vec<char> = n.chars().skip(1).collect();
            [c[0], c[1], c[2]]
        });
        let (line, x) = spot(&drawing, window, hex("0712"));
        for n in hex("0712").neighbours() {
            let (l, nx) = spot(&drawing, window, n);
            // Up or down a line (or two in the same column), one column
            // stride east or west.
            if n.column() == 7 {
                assert_eq!(x, nx, "{n}");
                assert_eq!(l.abs_diff(line), 2, "{n}");
            } else {
                assert_eq!(l.abs_diff(line), 1, "{n}");
                assert_eq!(nx.abs_diff(x), STRIDE, "{n}");
            }
        }
    }

    #[test]
    fn a_window_centres_on_the_action_within_the_map() {
        let w = Window::around(&[hex("0707")], 15, 12, 9, 7);
        assert_eq!((w.first_column, w.last_column), (3, 11));
        assert_eq!((w.first_row, w.last_row), (4, 10));
        // At an edge it stays on the map.
        let w = Window::around(&[hex("0101")], 15, 12, 9, 7);
        assert_eq!(
            (w.first_column, w.last_column, w.first_row, w.last_row),
            (1, 9, 1, 7)
        );
        let w = Window::around(&[hex("1512")], 15, 12, 9, 7);
        assert_eq!(
            (w.first_column, w.last_column, w.first_row, w.last_row),
            (7, 15, 6, 12)
        );
        // A map smaller than the window is drawn whole.
        let w = Window::around(&[hex("0202")], 4, 3, 9, 7);
        assert_eq!(w, Window::whole(4, 3));
        // Every focus hex is inside when the focus fits.
        let focus = [hex("0304"), hex("0908")];
        let w = Window::around(&focus, 15, 12, 9, 7);
        assert!(focus.iter().all(|&h| w.contains(h)), "{w:?}");
    }

    #[test]
    fn rows_and_columns_are_labelled() {
        let drawing = draw(Window::whole(4, 2), |_| ['.', ' ', ' ']);
        let lines: Vec<&str> = drawing.lines().collect();
        assert_eq!(lines[0], "     01  02  03  04");
        assert_eq!(lines[1], " 01      .       .");
        assert_eq!(lines[2], " 01  .       .");
        assert_eq!(lines.len(), 5);
    }
}
