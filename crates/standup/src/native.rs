//! What a native CLI ships besides itself: shell completions, the man page and the JSON
//! Schema of `--format json`, all generated from the definitions they describe.

use clap::CommandFactory as _;

use crate::cli::Cli;

/// Completions for `shell`, from the clap definition.
pub(crate) fn completions(shell: clap_complete::Shell) -> Vec<u8> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "standup", &mut out);
    out
}

/// The man page (section 1) as roff, with one section per sub-command.
pub(crate) fn man() -> anyhow::Result<Vec<u8>> {
    let command = Cli::command();
    let mut out = Vec::new();
    let man = clap_mangen::Man::new(command.clone());
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    man.render_description_section(&mut out)?;
    man.render_options_section(&mut out)?;
    man.render_subcommands_section(&mut out)?;
    man.render_extra_section(&mut out)?;
    man.render_version_section(&mut out)?;
    Ok(out)
}

/// The JSON Schema (draft 2020-12) of the `Report`, pretty-printed with a newline.
pub(crate) fn schema() -> String {
    let schema = schemars::schema_for!(report_model::Report);
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}
