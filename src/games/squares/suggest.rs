//! The legal orders nearest to a refused one.
