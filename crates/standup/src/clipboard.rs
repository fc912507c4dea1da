//! `--copy`: the rendered report on the clipboard, when there is one.
//!
//! On X11 the clipboard is served by the process that set it, so a CLI that exits at
//! once would take its copy with it. The binary therefore hands the text to a copy of
//! itself (`standup __clipboard`, not part of the CLI) that serves it in the background until
//! something else is copied, as arboard's documentation suggests. Without a display
//! (ssh, CI, a container) the run gets a one-line warning and still succeeds.
//! Built without the default `clipboard` feature, `--copy` only warns.

/// The first argument that makes the binary the clipboard helper.
pub(crate) const HELPER_ARG: &str = "__clipboard";

/// [`copy`] on a thread of its own, given up after `deadline`: a clipboard that does not
/// answer (an X server that accepts the connection and never replies) costs the run
/// `deadline` and a warning, never a hang. The thread left waiting ends with the process.
pub(crate) fn copy_within(
    text: String,
    html: Option<String>,
    deadline: std::time::Duration,
) -> Result<(), String> {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(copy(&text, html.as_deref()));
    });
    receiver.recv_timeout(deadline).unwrap_or_else(|_| {
        Err(format!("the clipboard did not answer within {} s", deadline.as_secs()))
    })
}

/// Puts `text` (and `html`, the rich-text flavour, when given) on the clipboard, or
/// returns why it could not, in one line.
#[cfg(feature = "clipboard")]
pub(crate) fn copy(text: &str, html: Option<&str>) -> Result<(), String> {
    use std::io::Write as _;
    use std::process::Stdio;

    // Fails fast and says why when there is no clipboard at all.
    arboard::Clipboard::new().map_err(|error| one_line(&error.to_string()))?;
    let exe = std::env::current_exe().map_err(|error| error.to_string())?;
    #[expect(clippy::disallowed_methods, reason = "the binary runs a copy of itself, not git")]
    let mut command = std::process::Command::new(exe);
    command.arg(HELPER_ARG);
    if html.is_some() {
        command.arg("--html");
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|error| format!("cannot start the clipboard helper: {error}"))?;
    let mut payload = html.unwrap_or_default().len().to_string();
    payload.push('\n');
    payload.push_str(html.unwrap_or_default());
    payload.push_str(text);
    let mut stdin = child.stdin.take().ok_or("the clipboard helper has no stdin")?;
    stdin.write_all(payload.as_bytes()).map_err(|error| error.to_string())?;
    Ok(())
}

/// Without the `clipboard` feature.
#[cfg(not(feature = "clipboard"))]
pub(crate) fn copy(_text: &str, _html: Option<&str>) -> Result<(), String> {
    Err("this standup was built without the `clipboard` feature".to_owned())
}

/// `standup __clipboard [--html]`: reads `<html length>\n<html><text>` on stdin, sets the
/// clipboard and serves it until it is replaced.
#[cfg(feature = "clipboard")]
pub(crate) fn serve(html: bool) -> Result<(), String> {
    use std::io::Read as _;

    #[cfg(target_os = "linux")]
    use arboard::SetExtLinux as _;

    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).map_err(|error| error.to_string())?;
    let (length, rest) = input.split_once('\n').ok_or("no header")?;
    let length: usize = length.parse().map_err(|_| "bad header")?;
    let (html_text, text) =
        (rest.get(..length).unwrap_or_default(), rest.get(length..).unwrap_or_default());
    let mut clipboard = arboard::Clipboard::new().map_err(|error| error.to_string())?;
    let set = clipboard.set();
    #[cfg(target_os = "linux")]
    let set = set.wait();
    if html {
        set.html(html_text, Some(text)).map_err(|error| error.to_string())
    } else {
        set.text(text).map_err(|error| error.to_string())
    }
}

/// Without the `clipboard` feature.
#[cfg(not(feature = "clipboard"))]
pub(crate) fn serve(_html: bool) -> Result<(), String> {
    copy("", None)
}

#[cfg(feature = "clipboard")]
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
