//! opencode: not read yet.

use std::path::PathBuf;

use super::{Ctx, Drafts, SessionsConfig, agent_home};
use crate::{Env, SourceStatus};

pub(crate) fn read(env: &Env, config: &SessionsConfig, ctx: &mut Ctx) -> (Drafts, SourceStatus) {
    let _ = ctx;
    let home: PathBuf =
        agent_home(env, config, report_model::Agent::Opencode, || env.data_home().join("opencode"));
    let status =
        SourceStatus { locations: vec![home], ..SourceStatus::new(report_model::Source::Opencode) };
    (Drafts::new(), status)
}
