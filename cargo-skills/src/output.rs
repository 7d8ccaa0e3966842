//! Standard output that survives `| head`: a closed pipe ends the program
//! quietly instead of panicking, as ripgrep and cargo do.

use std::io::Write;

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
