//! How diagnostics look on stderr: whether warnings and errors are colored, whether a
//! spinner may be drawn, and clearing a spinner's line when Ctrl-C stops the run.

use std::io::IsTerminal as _;
use std::sync::OnceLock;

use crate::cli::ColorArg;
use crate::env_vars;

/// Decided once at start-up.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Diagnostics {
    /// Color `standup: warning:` and `standup: error:`.
    pub(crate) color: bool,
    /// Draw the spinner (stderr is a terminal that can move the cursor).
    pub(crate) spinner: bool,
    /// Print warnings at all (`--quiet` turns them off).
    pub(crate) warnings: bool,
}

static DIAGNOSTICS: OnceLock<Diagnostics> = OnceLock::new();

/// Decides from `--color`, `--quiet`, the environment and whether stderr is a terminal.
pub(crate) fn init(choice: ColorArg, quiet: bool) {
    let var = |name: &str| std::env::var(name).ok();
    let terminal = std::io::stderr().is_terminal();
    let decided = decide(choice, quiet, terminal, &var);
    let _ = DIAGNOSTICS.set(decided);
}

/// The decision, from explicit inputs (unit-tested below).
fn decide(
    choice: ColorArg,
    quiet: bool,
    terminal: bool,
    var: &dyn Fn(&str) -> Option<String>,
) -> Diagnostics {
    let set = |name: &str| var(name).is_some_and(|value| !value.is_empty());
    let dumb = var(env_vars::TERM).as_deref() == Some("dumb");
    let color = match choice {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => {
            if set(env_vars::NO_COLOR) {
                false
            } else if var(env_vars::CLICOLOR_FORCE)
                .is_some_and(|value| !value.is_empty() && value != "0")
            {
                true
            } else if var(env_vars::CLICOLOR).as_deref() == Some("0") {
                false
            } else {
                terminal && !dumb
            }
        }
    };
    Diagnostics { color, spinner: terminal && !dumb, warnings: !quiet }
}

/// The current decision (defaults before `init`: no color, no spinner, warnings on).
pub(crate) fn get() -> Diagnostics {
    DIAGNOSTICS.get().copied().unwrap_or(Diagnostics {
        color: false,
        spinner: false,
        warnings: true,
    })
}

/// `standup: warning:` or `standup: error:`, colored when allowed (yellow, red; bold).
pub(crate) fn prefix(kind: &str) -> String {
    if !get().color {
        return format!("standup: {kind}:");
    }
    let code = if kind == "error" { "1;31" } else { "1;33" };
    format!("standup: \x1b[{code}m{kind}:\x1b[0m")
}

/// From now on, Ctrl-C first clears the spinner's line, then ends the process as
/// SIGINT would have (the default action, so the exit status says "interrupted").
pub(crate) fn clear_line_on_interrupt() {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        let Ok(mut signals) = signal_hook::iterator::Signals::new([signal_hook::consts::SIGINT])
        else {
            return;
        };
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                crate::print_progress("\r\x1b[2K");
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                std::process::exit(130);
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let vars: Vec<(String, String)> =
            vars.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        move |name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    }

    #[test]
    fn color_follows_the_conventions() {
        let auto = |terminal, vars: &[(&str, &str)]| {
            decide(ColorArg::Auto, false, terminal, &with(vars)).color
        };
        assert!(auto(true, &[]));
        assert!(!auto(false, &[]));
        assert!(!auto(true, &[("NO_COLOR", "1")]));
        assert!(auto(true, &[("NO_COLOR", "")]), "an empty NO_COLOR is unset");
        assert!(!auto(true, &[("CLICOLOR", "0")]));
        assert!(auto(false, &[("CLICOLOR_FORCE", "1")]));
        assert!(!auto(false, &[("CLICOLOR_FORCE", "0")]));
        assert!(!auto(false, &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]));
        assert!(!auto(true, &[("TERM", "dumb")]));
        assert!(decide(ColorArg::Always, false, false, &with(&[("NO_COLOR", "1")])).color);
        assert!(!decide(ColorArg::Never, false, true, &with(&[("CLICOLOR_FORCE", "1")])).color);
    }

    #[test]
    fn no_spinner_on_a_dumb_terminal_or_a_pipe() {
        assert!(decide(ColorArg::Auto, false, true, &with(&[])).spinner);
        assert!(!decide(ColorArg::Auto, false, true, &with(&[("TERM", "dumb")])).spinner);
        assert!(!decide(ColorArg::Always, false, false, &with(&[])).spinner);
        assert!(!decide(ColorArg::Auto, true, true, &with(&[])).warnings);
    }
}
