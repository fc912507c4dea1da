//! Every environment variable the binary reads, in one place.

/// An RFC 3339 timestamp that replaces the current time: for tests, and for
/// reproducing a report exactly as it was made.
pub(crate) const STANDUP_NOW: &str = "STANDUP_NOW";

/// The time zone when the config sets none (an IANA name such as `Asia/Tokyo`).
pub(crate) const TZ: &str = "TZ";

/// The locale; a value starting with `ja` makes Japanese the default language.
pub(crate) const LANG: &str = "LANG";

/// `LC_ALL` overrides `LANG` for the default language, as in every POSIX program.
pub(crate) const LC_ALL: &str = "LC_ALL";

/// The user's home directory.
pub(crate) const HOME: &str = "HOME";

/// Where the config file lives (`$XDG_CONFIG_HOME/standup/config.toml`).
pub(crate) const XDG_CONFIG_HOME: &str = "XDG_CONFIG_HOME";

/// Where the narrative cache lives (`$XDG_CACHE_HOME/standup/narrative`, else
/// `~/.cache/standup/narrative`).
pub(crate) const XDG_CACHE_HOME: &str = "XDG_CACHE_HOME";

/// Where `standup schedule` puts the scheduled run's log (`$XDG_STATE_HOME/standup`,
/// else `~/.local/state/standup`).
pub(crate) const XDG_STATE_HOME: &str = "XDG_STATE_HOME";

/// Where `standup note` keeps the notes (`$XDG_DATA_HOME/standup/notes`, else
/// `~/.local/share/standup/notes`); also captured for the sources, which read it.
pub(crate) const XDG_DATA_HOME: &str = "XDG_DATA_HOME";

/// The editor `standup note --edit` runs, before `EDITOR`.
pub(crate) const VISUAL: &str = "VISUAL";

/// The editor `standup note --edit` runs when `VISUAL` is not set (else `vi`).
pub(crate) const EDITOR: &str = "EDITOR";

/// Where `standup schedule` looks for `systemctl` and `launchctl`.
pub(crate) const PATH: &str = "PATH";

/// The X11 display `--copy` puts the report on (read by the clipboard library; checked
/// first so that a run without any display says so).
pub(crate) const DISPLAY: &str = "DISPLAY";

/// The Wayland display `--copy` puts the report on (as [`DISPLAY`]).
pub(crate) const WAYLAND_DISPLAY: &str = "WAYLAND_DISPLAY";

/// Variables the sources read (shell histories, agent log roots, atuin): `collect` owns
/// the list, and the binary captures exactly it and passes it through the injected
/// `Env`; the sources never read the process environment themselves.
pub(crate) const SOURCE_VARS: &[&str] = collect::Env::VARS;

/// Set and not empty: no color in diagnostics (no-color.org), unless `--color always`.
pub(crate) const NO_COLOR: &str = "NO_COLOR";

/// `0` turns color off with `--color auto` (bixense.com/clicolors).
pub(crate) const CLICOLOR: &str = "CLICOLOR";

/// Set and not `0`: color even when stderr is not a terminal, with `--color auto`.
pub(crate) const CLICOLOR_FORCE: &str = "CLICOLOR_FORCE";

/// `dumb` means a terminal that cannot move the cursor: no color, no spinner.
pub(crate) const TERM: &str = "TERM";
