//! The two shapes of data in a skill's tables, borrowed from the binary for
//! compiled skills and owned for loaded ones: one type for both, so that
//! every function over skills serves both.

/// Text in the tables: borrowed from the binary for compiled skills, owned
/// for skills loaded at run time. One type for both, so that every function
/// over skills serves both.
pub type Str = std::borrow::Cow<'static, str>;

/// A list in the tables, borrowed or owned like [`Str`].
pub type List<T> = std::borrow::Cow<'static, [T]>;

/// A value made on first use from the rest of a table (a skill's rendered
/// text, a digest). It says nothing the table does not: two tables are
/// equal whether or not either has made it yet.
#[derive(Debug, Clone, Default)]
pub struct Memo<T>(std::sync::OnceLock<T>);

impl<T> Memo<T> {
    /// Not made yet.
    pub const fn new() -> Self {
        Memo(std::sync::OnceLock::new())
    }

    /// The value, made by `make` the first time.
    pub fn get_or_init(&self, make: impl FnOnce() -> T) -> &T {
        self.0.get_or_init(make)
    }
}

impl<T> PartialEq for Memo<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<T> Eq for Memo<T> {}
