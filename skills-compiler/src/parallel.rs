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
