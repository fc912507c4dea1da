//! Aider: not read yet.

use std::path::PathBuf;

use super::{Ctx, Drafts, SessionsConfig};
use crate::{Env, SourceStatus};

pub(crate) fn read(
    env: &Env,
    config: &SessionsConfig,
    work_trees: &[PathBuf],
    ctx: &mut Ctx,
) -> (Drafts, SourceStatus) {
    let _ = (env, config, work_trees, ctx);
    (Drafts::new(), SourceStatus::new(report_model::Source::Aider))
}
