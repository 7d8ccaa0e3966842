//! Standard output that survives `| head`: a closed pipe ends the program
//! quietly instead of panicking, as ripgrep and cargo do.

use std::borrow::Cow;
use std::io::Write;

/// A file name, key or value from a skill as printed on one line: the one
/// rule ([`skills_core::printable`]) that keeps a line break from starting
/// a line of its own (a CI log reads `::error` at a line's start as a
/// command) and an ESC from reaching the terminal.
pub fn shown(text: &str) -> Cow<'_, str> {
    skills_core::printable(text)
}

/// Text of several lines from a skill (a body, a catalog): each line
/// [`shown`], the line breaks kept.
pub use skills_compiler::ops::views::printable_lines as shown_lines;

/// Whether diagnostics rendered for stderr get colour: what anstream
/// decided for the stream (`NO_COLOR`, a terminal or not), decided once so
/// that many rendered at once skip its stripping adapter.
pub fn stderr_color() -> skills_compiler::diagnostics::render::Color {
    use skills_compiler::diagnostics::render::Color;
    match anstream::stderr().current_choice() {
        anstream::ColorChoice::Never => Color::Never,
        _ => Color::Always,
    }
}

#[doc(hidden)]
pub fn write(args: std::fmt::Arguments<'_>, newline: bool) {
    let mut stdout = anstream::stdout().lock();
    let result = stdout.write_fmt(args).and_then(|()| {
        if newline {
            stdout.write_all(b"\n")
        } else {
            Ok(())
        }
    });
    if let Err(error) = result
        && error.kind() == std::io::ErrorKind::BrokenPipe
    {
        std::process::exit(0);
    }
}

/// `print!` that exits quietly on a closed pipe.
macro_rules! out {
    ($($arg:tt)*) => { $crate::output::write(format_args!($($arg)*), false) };
}

/// `println!` that exits quietly on a closed pipe.
macro_rules! outln {
    ($($arg:tt)*) => { $crate::output::write(format_args!($($arg)*), true) };
}

pub(crate) use {out, outln};

/// Prints what [`skills_compiler::ops::apply`] says the person should
/// know (signatures broken on purpose, files left because they changed
/// since they were read), and hands its result on.
pub fn applied(applied: skills_compiler::ops::Applied) -> skills_compiler::ops::Applied {
    if !applied.unsigned.is_empty() {
        let folders: Vec<_> = applied
            .unsigned
            .iter()
            .map(|folder| shown(&folder.display().to_string()).into_owned())
            .collect();
        anstream::eprintln!(
            "warning: editing signed skills ({}): their signatures no longer verify; sign them again with `cargo skills sign`",
            folders.join(", ")
        );
    }
    for note in &applied.notes {
        anstream::eprintln!("note: {}", shown(note));
    }
    applied
}
