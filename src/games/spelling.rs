//! Slips of the pen, for every game's reader: which known words a word
//! that is not one may have meant.

/// The candidates within a small edit distance of `word`, nearest first.
/// Only candidates whose length is within that distance are compared: the
/// distance costs the product of the lengths, and a word of any length may
/// come by mail.
pub(crate) fn nearest_words<'a>(
    word: &str,
    candidates: impl Iterator<Item = &'a str>,
) -> Vec<&'a str> {
    let limit = if word.len() <= 3 { 1 } else { 2 };
    let mut scored: Vec<(usize, &str)> = candidates
        .filter(|c| c.len().abs_diff(word.len()) <= limit)
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, _)| *d <= limit)
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().map(|(_, c)| c).collect()
}

/// Optimal string alignment distance: insertions, deletions, substitutions
/// and swaps of two neighbouring letters (the commonest typing slip) each
/// count one.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a = a.as_bytes();
    let b = b.as_bytes();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}
