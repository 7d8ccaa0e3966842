//! `remove`: skills taken out of the root and the lock, all or nothing.

use super::super::error::Error;
use super::super::plan::{Move, Plan};
use super::vendored::{Vendored, lock_change};
use crate::read::discover::display_path;
use crate::vendoring::install::{Package, Staging};
use crate::vendoring::{Prepared, display_path_of};

/// Removes the skills `names` from the root and the lock.
pub fn remove(package: &Package, names: &[String]) -> Result<Vendored, Error> {
    let mut lock = package.lock()?;
    // Every name is checked before anything moves: `''` is the root itself
    // and `../src` is outside it.
    for name in names {
        if let Some(why) = crate::lock::folder_name_problem(name) {
            let hint = match name.trim_end_matches(['/', '\\']) {
                trimmed
                    if trimmed != name && crate::lock::folder_name_problem(trimmed).is_none() =>
                {
                    format!("; did you mean `{trimmed}`?")
                }
                _ => String::new(),
            };
            return Err(Error::Usage(format!(
                "`{name}` is not the name of a skill's folder in `{}`: {why}{hint}",
                display_path(&package.config.dir)
            )));
        }
    }
    for name in names {
        let present = package.root().join(name).is_dir();
        let locked = lock.remove(name);
        if !present && !locked {
            return Err(Error::Usage(format!(
                "`{name}` is neither in `{}` nor in `{}`",
                display_path(&package.config.dir),
                display_path_of(package)
            )));
        }
    }
    let staging = Staging::new(package)?;
    let moves = (names.iter())
        .filter(|name| package.root().join(name).exists())
        .map(|name| Move {
            from: package.root().join(name),
            to: staging.dir.join(name),
            aside: None,
        })
        .collect();
    let plan = Plan {
        changes: vec![lock_change(package, &lock)?],
        moves,
        ..Plan::default()
    };
    Ok(Vendored {
        said: Vec::new(),
        plan,
        refused: None,
        done: names.iter().map(|name| format!("Removed {name}")).collect(),
        prepared: Prepared {
            staged: Vec::new(),
            changes: Vec::new(),
            staging,
            lock: None,
            _fetched: Vec::new(),
        },
        judged: false,
    })
}
