//! Work on every core, with the `parallel` feature (the CLI's): skills are
//! read and validated each on its own, so large collections use every core.

/// `items` mapped by `f`, results in input order. Skills are read and
/// validated each on its own, so with the `parallel` feature (the CLI's)
/// large collections use every core.
#[cfg(feature = "parallel")]
pub(crate) fn map_in_order<T: Send, R: Send>(
    items: Vec<T>,
    f: impl Fn(T) -> R + Sync + Send,
) -> Vec<R> {
    use rayon::prelude::*;
    // Below this, starting threads costs more than it saves.
    const PARALLEL_FROM: usize = 64;
    if items.len() < PARALLEL_FROM {
        return items.into_iter().map(f).collect();
    }
    items.into_par_iter().map(f).collect()
}

#[cfg(not(feature = "parallel"))]
pub(crate) fn map_in_order<T, R>(items: Vec<T>, f: impl Fn(T) -> R) -> Vec<R> {
    items.into_iter().map(f).collect()
}

/// `items` mapped by `f`, results in input order, on every core when they
/// weigh `bytes` in all, enough that reading them costs more than starting
/// threads: the files of one skill, where a few fonts or archives can be
/// most of a set's bytes.
#[cfg(feature = "parallel")]
pub(crate) fn map_heavy_in_order<T: Send, R: Send>(
    items: Vec<T>,
    bytes: u64,
    f: impl Fn(T) -> R + Sync + Send,
) -> Vec<R> {
    use rayon::prelude::*;
    const PARALLEL_FROM_BYTES: u64 = 1 << 20;
    if bytes < PARALLEL_FROM_BYTES || items.len() < 2 {
        return items.into_iter().map(f).collect();
    }
    items.into_par_iter().map(f).collect()
}

#[cfg(not(feature = "parallel"))]
pub(crate) fn map_heavy_in_order<T, R>(items: Vec<T>, _bytes: u64, f: impl Fn(T) -> R) -> Vec<R> {
    items.into_iter().map(f).collect()
}
