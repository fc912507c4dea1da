//! Claude Code: `~/.claude/projects/<encoded-cwd>/<session-id>.jsonl` transcripts with
//! the record shapes Claude Code writes (prompts, assistant turns with thinking and tool
//! use, tool results carrying whole files and command output, `isMeta` records, command
//! wrappers, `ai-title`, snapshots), sub-agent logs under `<session-id>/subagents/`, and
//! `~/.claude/history.jsonl`.
//!
//! Each file's mtime is its last record's time, so only the sessions with records in a
//! window are newer than the window's start.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::clock::{self, Clock, MINUTE, SECOND};
use crate::files::{self, Counted};
use crate::git::{Plan, Role};
use crate::rng::Rng;
use crate::text::{self, Corpus, Noise, WORDS};
use crate::{Error, Params, RepoKind};

/// One agent session as the reports count it.
pub(crate) struct SessionFacts {
    pub(crate) cwd: PathBuf,
    /// Times of the session's timestamped records (sub-agent logs included) from the
    /// start of the previous working day on.
    pub(crate) times: Vec<i64>,
    /// Times of its user prompts, from the same start on.
    pub(crate) prompts: Vec<i64>,
}

/// What a writer produced.
pub(crate) struct Written {
    pub(crate) sessions: Vec<SessionFacts>,
    pub(crate) files: u64,
    pub(crate) bytes: u64,
}

/// The working directories sessions run in.
pub(crate) struct Places {
    today: Vec<PathBuf>,
    repos: Vec<PathBuf>,
    outside: Vec<PathBuf>,
}

impl Places {
    /// The repositories (the broken one left out) and a few folders outside any
    /// repository, which are created.
    pub(crate) fn new(home: &Path, plans: &[Plan]) -> Result<Places, Error> {
        let usable = plans.iter().filter(|plan| plan.kind != RepoKind::BrokenHead);
        let today = usable
            .clone()
            .filter(|plan| plan.role == Role::Today)
            .map(|plan| plan.path.clone())
            .collect();
        let repos = usable.map(|plan| plan.path.clone()).collect();
        let outside: Vec<PathBuf> =
            ["notes", "scratch/exp-1", "scratch/exp-2", "src/scratch", "Downloads"]
                .iter()
                .map(|relative| home.join(relative))
                .collect();
        for folder in &outside {
            fs_err::create_dir_all(folder)?;
        }
        Ok(Places { today, repos, outside })
    }

    /// A working directory: mostly a repository (a quarter of the time one of its
    /// subfolders), sometimes a folder outside any; sessions of the reference day lean
    /// to the repositories with commits that day.
    pub(crate) fn pick(&self, rng: &mut Rng, today: bool) -> PathBuf {
        let repo = match rng.below(100) {
            0..15 => return rng.pick(&self.outside).clone(),
            15..65 if today && !self.today.is_empty() => rng.pick(&self.today).clone(),
            _ => rng.pick(&self.repos).clone(),
        };
        if rng.percent(25) {
            repo.join(*rng.pick(&["src", "crates/core", "web/src/components", "docs", "tests"]))
        } else {
            repo
        }
    }
}

/// When a session runs.
#[derive(Clone, Copy)]
pub(crate) enum When {
    /// On the reference day, ending before the reference time.
    Today,
    /// From late on the previous day into the reference day.
    Crossing,
    /// Within one earlier day.
    Old,
}

/// Start and latest allowed record time of a session.
pub(crate) fn span(rng: &mut Rng, clock: &Clock, when: When) -> (i64, i64) {
    match when {
        When::Today => (clock.at(0, rng.range_i64(8 * 3600, 13 * 3600)), clock.now() - 2 * MINUTE),
        When::Crossing => {
            (clock.at(-1, rng.range_i64(22 * 3600 + 1800, 23 * 3600 + 1200)), clock.at(0, 2 * 3600))
        }
        When::Old => {
            let day = rng.range_i64(-30, -1);
            (clock.at(day, rng.range_i64(9 * 3600, 19 * 3600)), clock.at(day, 23 * 3600 + 50 * 60))
        }
    }
}

/// `n` file sizes, long-tailed (most a few hundred kB, a few tens of MB), summing to
/// about `total`.
pub(crate) fn sizes(rng: &mut Rng, n: usize, total: u64) -> Vec<u64> {
    const CLASSES: [(u64, u64, u64); 5] = [
        (30, 20_000, 200_000),
        (40, 200_000, 1_000_000),
        (22, 1_000_000, 4_000_000),
        (7, 4_000_000, 15_000_000),
        (1, 15_000_000, 40_000_000),
    ];
    let weights: Vec<u64> = CLASSES.iter().map(|class| class.0).collect();
    let raw: Vec<u64> = (0..n)
        .map(|_| {
            let (_, low, high) = CLASSES[rng.weighted(&weights)];
            rng.range(low, high)
        })
        .collect();
    let sum: u128 = raw.iter().map(|size| u128::from(*size)).sum::<u128>().max(1);
    raw.iter()
        .map(|size| {
            u64::try_from(u128::from(*size) * u128::from(total) / sum)
                .unwrap_or(u64::MAX)
                .max(4_000)
        })
        .collect()
}

/// Claude Code's folder name for a working directory: every character that is not an
/// ASCII letter or digit becomes `-`.
fn encode_cwd(cwd: &Path) -> String {
    cwd.to_string_lossy().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect()
}

/// Shared pieces of every record of one log.
struct Log<'a> {
    corpus: &'a Corpus,
    noise: &'a Noise,
    rng: Rng,
    cwd_json: String,
    session_id: String,
    /// `Some(agent id)` for a sub-agent log.
    agent: Option<String>,
    parent: Option<String>,
    record: Vec<u8>,
    out: Counted,
    /// Every record time written.
    times: Vec<i64>,
    prompts: Vec<i64>,
}

impl Log<'_> {
    /// Starts a record with the envelope fields that come before `message`.
    fn begin(&mut self, kind: &str) {
        self.record.clear();
        self.record.extend_from_slice(b"{\"parentUuid\":");
        match &self.parent {
            Some(parent) => {
                let _ = write!(self.record, "\"{parent}\"");
            }
            None => self.record.extend_from_slice(b"null"),
        }
        let _ = write!(
            self.record,
            ",\"isSidechain\":{},\"userType\":\"external\",\"cwd\":\"{}\",\"sessionId\":\"{}\",\"version\":\"2.0.42\",\"gitBranch\":\"main\",",
            self.agent.is_some(),
            self.cwd_json,
            self.session_id
        );
        if let Some(agent) = &self.agent {
            let _ = write!(self.record, "\"agentId\":\"{agent}\",");
        }
        let _ = write!(self.record, "\"type\":\"{kind}\"");
    }

    /// Ends a record: `extra` (starting with `,` when not empty), uuid and timestamp.
    fn end(&mut self, time: i64, extra: &str) -> Result<(), Error> {
        let uuid = self.rng.uuid();
        let _ = write!(self.record, "{extra},\"uuid\":\"{uuid}\",\"timestamp\":\"");
        clock::push_iso(&mut self.record, time);
        self.record.extend_from_slice(b"\"}\n");
        self.out.write(&self.record)?;
        self.parent = Some(uuid);
        self.times.push(time);
        Ok(())
    }

    /// Writes a record without a timestamp (titles, snapshots, bookmarks).
    fn untimed(&mut self, json: &str) -> Result<(), Error> {
        self.out.write(json.as_bytes())?;
        self.out.write(b"\n")?;
        Ok(())
    }

    fn user_text(&mut self, time: i64, text: &str, extra: &str) -> Result<(), Error> {
        self.begin("user");
        let text = text::json_escape(text);
        if self.rng.percent(30) {
            let _ = write!(
                self.record,
                ",\"message\":{{\"role\":\"user\",\"content\":[{{\"type\":\"text\",\"text\":\"{text}\"}}]}}"
            );
        } else {
            let _ =
                write!(self.record, ",\"message\":{{\"role\":\"user\",\"content\":\"{text}\"}}");
        }
        self.end(time, extra)
    }

    fn prompt(&mut self, time: i64, text: &str) -> Result<(), Error> {
        self.user_text(time, text, "")?;
        if self.agent.is_none() {
            self.prompts.push(time);
        }
        Ok(())
    }

    fn assistant_open(&mut self) {
        self.begin("assistant");
        let id = self.rng.hex(22);
        let _ = write!(
            self.record,
            ",\"message\":{{\"id\":\"msg_01{id}\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":["
        );
    }

    fn assistant_close(&mut self, time: i64) -> Result<(), Error> {
        let (input, output) = (self.rng.range(3, 40_000), self.rng.range(10, 4_000));
        let _ = write!(
            self.record,
            "],\"stop_reason\":null,\"usage\":{{\"input_tokens\":{input},\"cache_read_input_tokens\":{},\"output_tokens\":{output}}}}}",
            input * 4
        );
        let request = self.rng.hex(21);
        self.end(time, &format!(",\"requestId\":\"req_011{request}\""))
    }

    fn thinking(&mut self, time: i64) -> Result<(), Error> {
        self.assistant_open();
        self.record.extend_from_slice(b"{\"type\":\"thinking\",\"thinking\":\"");
        let size = self.rng.range_usize(200, 1500);
        self.corpus.push(&mut self.rng, size, &mut self.record);
        self.record.extend_from_slice(b"\",\"signature\":\"");
        let size = self.rng.range_usize(200, 800);
        self.noise.push(&mut self.rng, size, &mut self.record);
        self.record.extend_from_slice(b"\"}");
        self.assistant_close(time)
    }

    fn reply(&mut self, time: i64, size: usize) -> Result<(), Error> {
        self.assistant_open();
        self.record.extend_from_slice(b"{\"type\":\"text\",\"text\":\"");
        self.corpus.push(&mut self.rng, size, &mut self.record);
        self.record.extend_from_slice(b"\"}");
        self.assistant_close(time)
    }

    /// An assistant tool call and the user record with its result, `payload` bytes of
    /// output (Read results carry it twice, as Claude Code does).
    fn tool_cycle(&mut self, time: i64, result_time: i64, payload: usize) -> Result<(), Error> {
        let tool_id = format!("toolu_01{}", self.rng.hex(22));
        let file =
            format!("{}/src/{}_{}.rs", self.cwd_json, self.rng.pick(WORDS), self.rng.pick(WORDS));
        let tool = self.rng.below(3);
        self.assistant_open();
        match tool {
            0 => {
                let _ = write!(
                    self.record,
                    "{{\"type\":\"tool_use\",\"id\":\"{tool_id}\",\"name\":\"Read\",\"input\":{{\"file_path\":\"{file}\"}}}}"
                );
            }
            1 => {
                let _ = write!(
                    self.record,
                    "{{\"type\":\"tool_use\",\"id\":\"{tool_id}\",\"name\":\"Bash\",\"input\":{{\"command\":\"cargo test -p {} 2>&1 | tail -200\",\"description\":\"Run the tests\"}}}}",
                    self.rng.pick(WORDS)
                );
            }
            _ => {
                let _ = write!(
                    self.record,
                    "{{\"type\":\"tool_use\",\"id\":\"{tool_id}\",\"name\":\"Edit\",\"input\":{{\"file_path\":\"{file}\",\"old_string\":\""
                );
                let size = self.rng.range_usize(100, 1200);
                self.corpus.push(&mut self.rng, size, &mut self.record);
                self.record.extend_from_slice(b"\",\"new_string\":\"");
                let size = self.rng.range_usize(100, 1500);
                self.corpus.push(&mut self.rng, size, &mut self.record);
                self.record.extend_from_slice(b"\"}}");
            }
        }
        self.assistant_close(time)?;

        self.begin("user");
        let _ = write!(
            self.record,
            ",\"message\":{{\"role\":\"user\",\"content\":[{{\"tool_use_id\":\"{tool_id}\",\"type\":\"tool_result\",\"content\":\""
        );
        let size = if tool == 0 { payload / 2 } else { payload };
        let start = self.record.len();
        self.corpus.push(&mut self.rng, size, &mut self.record);
        let end = self.record.len();
        self.record.extend_from_slice(b"\"}]}");
        match tool {
            0 => {
                let _ = write!(self.record, ",\"toolUseResult\":{{\"type\":\"text\",\"file\":{{\"filePath\":\"{file}\",\"content\":\"");
                self.record.extend_from_within(start..end);
                let _ = write!(self.record, "\",\"numLines\":{},\"startLine\":1}}}}", size / 40);
            }
            1 => self.record.extend_from_slice(b",\"toolUseResult\":{\"stdout\":\"\",\"stderr\":\"\",\"interrupted\":false,\"isImage\":false}"),
            _ => {
                let _ = write!(self.record, ",\"toolUseResult\":{{\"filePath\":\"{file}\",\"userModified\":false}}");
            }
        }
        self.end(result_time, "")
    }

    /// The start of a session: a `/clear` as Claude Code logs it (a meta caveat and
    /// command wrappers, none of them prompts).
    fn command_wrappers(&mut self, time: i64) -> Result<(), Error> {
        self.begin("user");
        self.record.extend_from_slice(b",\"message\":{\"role\":\"user\",\"content\":\"Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.\"}");
        self.end(time, ",\"isMeta\":true")?;
        self.user_text(time + SECOND, "<command-name>/clear</command-name>\n            <command-message>clear</command-message>\n            <command-args></command-args>", "")?;
        self.user_text(time + 2 * SECOND, "<local-command-stdout></local-command-stdout>", "")
    }

    fn turn_duration(&mut self, time: i64, millis: i64) -> Result<(), Error> {
        self.begin("system");
        let _ = write!(
            self.record,
            ",\"subtype\":\"turn_duration\",\"durationMs\":{millis},\"isMeta\":true"
        );
        self.end(time, "")
    }

    fn finish(self) -> Result<(u64, Vec<i64>, Vec<i64>), Error> {
        let bytes = self.out.finish()?;
        Ok((bytes, self.times, self.prompts))
    }
}

/// Writes every transcript and `history.jsonl`.
pub(crate) fn write(
    home: &Path,
    params: &Params,
    clock: &Clock,
    places: &Places,
    seed: u64,
) -> Result<Written, Error> {
    let root = home.join(".claude");
    let projects = root.join("projects");
    fs_err::create_dir_all(&projects)?;
    let corpus = Corpus::new(seed, 6000, 1);
    let noise = Noise::new(seed);
    let mut rng = Rng::derive(seed, "claude");
    let n = params.claude_sessions;
    let sizes = sizes(&mut rng, n, params.claude_bytes);
    let since = clock.day_start(-1);
    let mut written = Written { sessions: Vec::with_capacity(n), files: 0, bytes: 0 };
    let mut history: Vec<(i64, String, PathBuf, String)> = Vec::new();
    for (index, size) in sizes.into_iter().enumerate() {
        let when = if index < params.claude_today {
            When::Today
        } else if index < params.claude_today + params.claude_crossing {
            When::Crossing
        } else {
            When::Old
        };
        let subagents = index == 0 || rng.below(n as u64) < params.claude_subagent_sessions as u64;
        let cwd = places.pick(&mut rng, matches!(when, When::Today | When::Crossing));
        let session_id = rng.uuid();
        let (start, cap) = span(&mut rng, clock, when);
        let session_rng = Rng::derive(rng.next_u64(), "session");
        let folder = projects.join(encode_cwd(&cwd));
        let path = folder.join(format!("{session_id}.jsonl"));
        let mut log = Log {
            corpus: &corpus,
            noise: &noise,
            rng: session_rng,
            cwd_json: text::json_escape(&cwd.to_string_lossy()),
            session_id: session_id.clone(),
            agent: None,
            parent: None,
            record: Vec::with_capacity(1 << 16),
            out: Counted::create(&path)?,
            times: Vec::new(),
            prompts: Vec::new(),
        };
        let prompt_texts = session(&mut log, start, cap, size)?;
        let (bytes, mut times, mut prompts) = log.finish()?;
        let last = times.iter().copied().max().unwrap_or(start);
        files::set_mtime(&path, last)?;
        written.files += 1;
        written.bytes += bytes;
        for (time, text) in prompt_texts {
            history.push((time, text, cwd.clone(), session_id.clone()));
        }
        if subagents {
            let (sub_bytes, sub_times) =
                subagent(&corpus, &noise, &mut rng, &folder, &cwd, &session_id, &times, size / 10)?;
            written.files += 1;
            written.bytes += sub_bytes;
            times.extend(sub_times);
        }
        times.retain(|time| *time >= since);
        prompts.retain(|time| *time >= since);
        written.sessions.push(SessionFacts { cwd, times, prompts });
    }
    write_history(&root.join("history.jsonl"), &mut rng, clock, places, history)?;
    Ok(written)
}

/// Writes one session's turns; returns its prompts (time and text) for `history.jsonl`.
fn session(
    log: &mut Log<'_>,
    start: i64,
    cap: i64,
    size: u64,
) -> Result<Vec<(i64, String)>, Error> {
    let size = usize::try_from(size).unwrap_or(usize::MAX);
    let turns = (size / 60_000).clamp(2, 80);
    let per_turn = size / turns;
    let max_turn = ((cap - start) / i64::try_from(turns).unwrap_or(1)).clamp(MINUTE, 10 * MINUTE);
    let mut time = start;
    let mut prompts = Vec::new();
    if log.rng.percent(30) {
        log.command_wrappers(time)?;
        time += 5 * SECOND;
    }
    for turn in 0..turns {
        // Prompts get strictly increasing times (standup counts a session's prompts by
        // distinct time), so a session that reaches its cap ends early.
        if time >= cap - MINUTE {
            break;
        }
        let duration = log.rng.range_i64(max_turn / 4, max_turn);
        let cycles = log.rng.range_usize(1, 4);
        // Record times inside the turn, capped so that nothing is later than `cap`.
        let step = duration / (i64::try_from(cycles).unwrap_or(1) * 2 + 4);
        let at = |k: i64| (time + k * step).min(cap);
        if log.rng.percent(50) {
            let message_id = log.rng.uuid();
            let mut snapshot = format!(
                "{{\"type\":\"file-history-snapshot\",\"messageId\":\"{message_id}\",\"snapshot\":{{\"messageId\":\"{message_id}\",\"trackedFileBackups\":{{}},\"timestamp\":\""
            );
            snapshot.push_str(&clock::iso(at(0)));
            snapshot.push_str("\"},\"isSnapshotUpdate\":false}");
            log.untimed(&snapshot)?;
        }
        let text = text::prompt(&mut log.rng);
        log.prompt(at(0), text)?;
        prompts.push((at(0), text.to_owned()));
        let mut k = 1;
        if log.rng.percent(40) {
            log.thinking(at(k))?;
        }
        let payload = per_turn.saturating_sub(3_000) / cycles;
        for _ in 0..cycles {
            log.tool_cycle(at(k), at(k + 1), payload.max(200))?;
            k += 2;
        }
        let reply = log.rng.range_usize(300, 3_000);
        log.reply(at(k + 1), reply)?;
        if log.rng.percent(30) {
            log.turn_duration(at(k + 2), duration)?;
        }
        if turn == 0 || log.rng.percent(8) {
            let title = format!(
                "{} the {} {}",
                capitalize(log.rng.pick_str(&["fix", "add", "refactor", "debug", "review"])),
                log.rng.pick(WORDS),
                log.rng.pick(WORDS)
            );
            let session_id = log.session_id.clone();
            log.untimed(&format!(
                "{{\"type\":\"ai-title\",\"aiTitle\":\"{title}\",\"sessionId\":\"{session_id}\"}}"
            ))?;
        }
        if log.rng.percent(4) {
            log.user_text(at(k + 3), "[Request interrupted by user]", "")?;
        }
        time = (time + duration + log.rng.range_i64(10 * SECOND, 3 * MINUTE)).min(cap);
    }
    if let Some((_, last)) = prompts.last() {
        let leaf = log.parent.clone().unwrap_or_default();
        let last = text::json_escape(last);
        log.untimed(&format!(
            "{{\"type\":\"last-prompt\",\"lastPrompt\":\"{last}\",\"leafUuid\":\"{leaf}\"}}"
        ))?;
    }
    Ok(prompts)
}

fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}

/// A sub-agent log of a session, its records between two of the session's own.
#[expect(
    clippy::too_many_arguments,
    reason = "the pieces of one log; a struct would only rename them"
)]
fn subagent(
    corpus: &Corpus,
    noise: &Noise,
    rng: &mut Rng,
    folder: &Path,
    cwd: &Path,
    session_id: &str,
    parent_times: &[i64],
    size: u64,
) -> Result<(u64, Vec<i64>), Error> {
    let agent = rng.hex(8);
    let path = folder.join(session_id).join("subagents").join(format!("agent-{agent}.jsonl"));
    let mut sorted = parent_times.to_vec();
    sorted.sort_unstable();
    let first = rng.index(sorted.len().max(1));
    let low = sorted.get(first).copied().unwrap_or_default();
    let high = sorted.get((first + 6).min(sorted.len().saturating_sub(1))).copied().unwrap_or(low);
    let mut log = Log {
        corpus,
        noise,
        rng: Rng::derive(rng.next_u64(), "subagent"),
        cwd_json: text::json_escape(&cwd.to_string_lossy()),
        session_id: session_id.to_owned(),
        agent: Some(agent),
        parent: None,
        record: Vec::with_capacity(1 << 16),
        out: Counted::create(&path)?,
        times: Vec::new(),
        prompts: Vec::new(),
    };
    let cycles: i64 = 4;
    let step = (high - low) / (cycles * 2 + 3);
    log.user_text(
        low,
        "Search the code base for every caller of the function and report their files",
        "",
    )?;
    let payload = usize::try_from(size).unwrap_or(usize::MAX) / 4;
    for cycle in 0..cycles {
        log.tool_cycle(
            low + step * (cycle * 2 + 1),
            low + step * (cycle * 2 + 2),
            payload.max(200),
        )?;
    }
    log.reply(low + step * (cycles * 2 + 1), 800)?;
    let (bytes, times, _) = log.finish()?;
    files::set_mtime(&path, times.iter().copied().max().unwrap_or(low))?;
    Ok((bytes, times))
}

/// `history.jsonl`: one line per prompt of every session, in time order, after a few
/// old entries without `sessionId` whose transcripts are long gone.
fn write_history(
    path: &Path,
    rng: &mut Rng,
    clock: &Clock,
    places: &Places,
    mut entries: Vec<(i64, String, PathBuf, String)>,
) -> Result<(), Error> {
    let mut out = Counted::create(path)?;
    for _ in 0..10 {
        let time = clock.at(rng.range_i64(-70, -45), rng.range_i64(9 * 3600, 20 * 3600));
        let project = text::json_escape(&places.pick(rng, false).to_string_lossy());
        let display = text::json_escape(text::prompt(rng));
        out.write(format!("{{\"display\":\"{display}\",\"pastedContents\":{{}},\"timestamp\":{time},\"project\":\"{project}\"}}\n").as_bytes())?;
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.3.cmp(&b.3)));
    let mut last = 0;
    for (time, display, project, session_id) in &entries {
        let display = text::json_escape(display);
        let project = text::json_escape(&project.to_string_lossy());
        out.write(format!("{{\"display\":\"{display}\",\"pastedContents\":{{}},\"timestamp\":{time},\"project\":\"{project}\",\"sessionId\":\"{session_id}\"}}\n").as_bytes())?;
        last = *time;
    }
    out.finish()?;
    files::set_mtime(path, last)?;
    Ok(())
}
