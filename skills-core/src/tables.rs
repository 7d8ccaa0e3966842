//! The two shapes of data in a skill's tables, borrowed from the binary for
//! compiled skills and owned for loaded ones: one type for both, so that
//! every function over skills serves both.

/// Text in the tables: borrowed from the binary for compiled skills, owned
/// for skills loaded at run time. One type for both, so that every function
/// over skills serves both.
pub type Str = std::borrow::Cow<'static, str>;

/// A list in the tables, borrowed or owned like [`Str`].
pub type List<T> = std::borrow::Cow<'static, [T]>;
