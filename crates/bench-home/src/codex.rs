//! OpenAI Codex CLI: `~/.codex/sessions/YYYY/MM/DD/rollout-<local time>-<uuid>.jsonl`
//! rollouts (`session_meta`, `turn_context`, `event_msg` user messages, `response_item`
//! records with reasoning, tool calls and their output) and `session_index.jsonl`.
//!
//! Each rollout's mtime is its last record's time. One rollout is resumed on the
//! reference day: it lives in the folder of the day it started and holds a second
//! `session_meta`.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::claude::{self, Places, SessionFacts, When, Written};
use crate::clock::{self, Clock, MINUTE, SECOND};
use crate::files::{self, Counted};
use crate::rng::Rng;
use crate::text::{self, Corpus, Noise, WORDS};
use crate::{Error, Params};

/// One rollout being written.
struct Rollout<'a> {
    corpus: &'a Corpus,
    nested: &'a Corpus,
    noise: &'a Noise,
    rng: Rng,
    id: String,
    cwd: PathBuf,
    record: Vec<u8>,
    out: Counted,
    times: Vec<i64>,
    prompts: Vec<i64>,
}

impl Rollout<'_> {
    fn begin(&mut self, time: i64, kind: &str) {
        self.record.clear();
        self.record.extend_from_slice(b"{\"timestamp\":\"");
        clock::push_iso(&mut self.record, time);
        let _ = write!(self.record, "\",\"type\":\"{kind}\",\"payload\":");
        self.times.push(time);
    }

    fn end(&mut self) -> Result<(), Error> {
        self.record.extend_from_slice(b"}\n");
        self.out.write(&self.record)?;
        Ok(())
    }

    fn cwd_json(&self) -> String {
        text::json_escape(&self.cwd.to_string_lossy())
    }

    fn session_meta(&mut self, time: i64) -> Result<(), Error> {
        let (id, cwd) = (self.id.clone(), self.cwd_json());
        let name = self
            .cwd
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let commit = self.rng.hex(40);
        self.begin(time, "session_meta");
        let _ = write!(
            self.record,
            "{{\"id\":\"{id}\",\"timestamp\":\"{}\",\"cwd\":\"{cwd}\",\"originator\":\"codex_cli_rs\",\"cli_version\":\"0.58.0\",\"instructions\":null,\"source\":\"cli\",\"model_provider\":\"openai\",\"base_instructions\":{{\"text\":\"",
            clock::iso(time)
        );
        let size = self.rng.range_usize(6_000, 12_000);
        self.corpus.push(&mut self.rng, size, &mut self.record);
        let _ = write!(
            self.record,
            "\"}},\"git\":{{\"commit_hash\":\"{commit}\",\"branch\":\"main\",\"repository_url\":\"git@example.invalid:dev/{}.git\"}}}}",
            text::json_escape(&name)
        );
        self.end()
    }

    fn user_item(&mut self, time: i64, text: &str) -> Result<(), Error> {
        self.begin(time, "response_item");
        let _ = write!(
            self.record,
            "{{\"type\":\"message\",\"role\":\"user\",\"content\":[{{\"type\":\"input_text\",\"text\":\"{}\"}}]}}",
            text::json_escape(text)
        );
        self.end()
    }

    fn context(&mut self, time: i64) -> Result<(), Error> {
        let cwd = self.cwd.to_string_lossy().into_owned();
        self.user_item(time, &format!("# AGENTS.md instructions for {cwd}\n\n<INSTRUCTIONS>\nRun the tests before you finish. Keep commits small.\n</INSTRUCTIONS>"))?;
        self.user_item(time + 100, &format!("<environment_context>\n  <cwd>{cwd}</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n</environment_context>"))
    }

    fn turn_context(&mut self, time: i64) -> Result<(), Error> {
        let cwd = self.cwd_json();
        self.begin(time, "turn_context");
        let _ = write!(
            self.record,
            "{{\"cwd\":\"{cwd}\",\"approval_policy\":\"on-request\",\"sandbox_policy\":{{\"mode\":\"workspace-write\"}},\"model\":\"gpt-5-codex\",\"summary\":\"auto\"}}"
        );
        self.end()
    }

    fn prompt(&mut self, time: i64, text: &str) -> Result<(), Error> {
        // The prompt as a model input (not counted) and as the event the user typed.
        self.user_item(time, text)?;
        self.begin(time, "event_msg");
        let _ = write!(
            self.record,
            "{{\"type\":\"user_message\",\"message\":\"{}\",\"images\":[]}}",
            text::json_escape(text)
        );
        self.end()?;
        self.prompts.push(time);
        Ok(())
    }

    fn tool_cycle(&mut self, time: i64, output_time: i64, payload: usize) -> Result<(), Error> {
        self.begin(time, "response_item");
        self.record.extend_from_slice(b"{\"type\":\"reasoning\",\"summary\":[{\"type\":\"summary_text\",\"text\":\"**Inspecting the code**\"}],\"content\":null,\"encrypted_content\":\"gAAAAB");
        let size = self.rng.range_usize(1_000, 6_000);
        self.noise.push(&mut self.rng, size, &mut self.record);
        self.record.extend_from_slice(b"\"}");
        self.end()?;

        let call = self.rng.hex(24);
        let word = self.rng.pick(WORDS);
        let workdir = text::json_escape(&self.cwd_json());
        self.begin(time + 50, "response_item");
        let _ = write!(
            self.record,
            "{{\"type\":\"function_call\",\"name\":\"shell\",\"arguments\":\"{{\\\"command\\\":[\\\"bash\\\",\\\"-lc\\\",\\\"rg -n {word} .\\\"],\\\"workdir\\\":\\\"{workdir}\\\"}}\",\"call_id\":\"call_{call}\"}}"
        );
        self.end()?;

        self.begin(output_time, "response_item");
        let _ = write!(
            self.record,
            "{{\"type\":\"function_call_output\",\"call_id\":\"call_{call}\",\"output\":\"{{\\\"output\\\":\\\""
        );
        self.nested.push(&mut self.rng, payload, &mut self.record);
        self.record.extend_from_slice(
            b"\\\",\\\"metadata\\\":{\\\"exit_code\\\":0,\\\"duration_seconds\\\":0.4}}\"}",
        );
        self.end()
    }

    fn answer(&mut self, time: i64) -> Result<(), Error> {
        let mut text = Vec::new();
        let size = self.rng.range_usize(200, 2_000);
        self.corpus.push(&mut self.rng, size, &mut text);
        self.begin(time, "event_msg");
        self.record.extend_from_slice(b"{\"type\":\"agent_message\",\"message\":\"");
        self.record.extend_from_slice(&text);
        self.record.extend_from_slice(b"\"}");
        self.end()?;
        self.begin(time, "response_item");
        self.record.extend_from_slice(b"{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"");
        self.record.extend_from_slice(&text);
        self.record.extend_from_slice(b"\"}]}");
        self.end()?;
        let tokens = self.rng.range(1_000, 200_000);
        self.begin(time + 500, "event_msg");
        let _ = write!(
            self.record,
            "{{\"type\":\"token_count\",\"info\":{{\"total_token_usage\":{{\"input_tokens\":{tokens},\"cached_input_tokens\":{},\"output_tokens\":{}}}}},\"rate_limits\":null}}",
            tokens / 2,
            tokens / 20
        );
        self.end()
    }

    /// Turns from `start` until `size` bytes are written or `cap` is near; returns the
    /// first prompt and the time after the last record.
    fn turns(&mut self, start: i64, cap: i64, size: usize) -> Result<(Option<String>, i64), Error> {
        let turns = (size / 50_000).clamp(1, 60);
        let per_turn = size / turns;
        let max_turn =
            ((cap - start) / i64::try_from(turns).unwrap_or(1)).clamp(MINUTE, 12 * MINUTE);
        let mut time = start;
        let mut first = None;
        for _ in 0..turns {
            if time >= cap - MINUTE {
                break;
            }
            let duration = self.rng.range_i64(max_turn / 4, max_turn);
            let cycles = self.rng.range_usize(1, 5);
            let step = duration / (i64::try_from(cycles).unwrap_or(1) + 3);
            let at = |k: i64| (time + k * step).min(cap);
            if self.rng.percent(30) {
                self.turn_context(at(0))?;
            }
            let text = text::prompt(&mut self.rng);
            first.get_or_insert_with(|| text.to_owned());
            self.prompt(at(0) + 100, text)?;
            let payload = per_turn.saturating_sub(8_000) / cycles;
            for cycle in 1..=cycles {
                let k = i64::try_from(cycle).unwrap_or(1);
                self.tool_cycle(at(k), at(k) + step / 2, payload.max(200))?;
            }
            self.answer(at(i64::try_from(cycles).unwrap_or(1) + 1))?;
            time = (time + duration + self.rng.range_i64(20 * SECOND, 4 * MINUTE)).min(cap);
        }
        Ok((first, time))
    }
}

/// Writes every rollout and `session_index.jsonl`.
pub(crate) fn write(
    home: &Path,
    params: &Params,
    clock: &Clock,
    places: &Places,
    seed: u64,
) -> Result<Written, Error> {
    let root = home.join(".codex");
    fs_err::create_dir_all(root.join("sessions"))?;
    let corpus = Corpus::new(seed ^ 1, 4000, 1);
    let nested = Corpus::new(seed ^ 2, 4000, 2);
    let noise = Noise::new(seed ^ 3);
    let mut rng = Rng::derive(seed, "codex");
    let n = params.codex_sessions;
    let sizes = claude::sizes(&mut rng, n, params.codex_bytes);
    let since = clock.day_start(-1);
    let mut written = Written { sessions: Vec::with_capacity(n), files: 0, bytes: 0 };
    let mut index: Vec<(i64, String, String)> = Vec::new();
    for (number, size) in sizes.into_iter().enumerate() {
        let resumed = number == params.codex_today;
        let when = if number < params.codex_today { When::Today } else { When::Old };
        let cwd = places.pick(&mut rng, matches!(when, When::Today));
        let id = rng.uuid();
        let (start, cap) = if resumed {
            (clock.at(-3, 15 * 3600), clock.at(-3, 23 * 3600))
        } else {
            claude::span(&mut rng, clock, when)
        };
        let (year, month, day) = clock.local_date(start);
        let path = root
            .join("sessions")
            .join(format!("{year:04}"))
            .join(format!("{month:02}"))
            .join(format!("{day:02}"))
            .join(format!("rollout-{}-{id}.jsonl", clock.local_file_time(start)));
        let mut rollout = Rollout {
            corpus: &corpus,
            nested: &nested,
            noise: &noise,
            rng: Rng::derive(rng.next_u64(), "rollout"),
            id: id.clone(),
            cwd: cwd.clone(),
            record: Vec::with_capacity(1 << 16),
            out: Counted::create(&path)?,
            times: Vec::new(),
            prompts: Vec::new(),
        };
        let size = usize::try_from(size).unwrap_or(usize::MAX);
        rollout.session_meta(start)?;
        rollout.context(start + 200)?;
        rollout.turn_context(start + 300)?;
        // The last turn may move to a subfolder: the session's folder is the one in
        // force at its latest record.
        let (first, _) = rollout.turns(start + SECOND, cap, size)?;
        if resumed {
            let again = clock.at(0, 10 * 3600);
            rollout.session_meta(again)?;
            rollout.turns(again + SECOND, clock.now() - 2 * MINUTE, size / 4)?;
        }
        if rollout.rng.percent(20) && rollout.cwd.starts_with(home.join("src")) {
            rollout.cwd = rollout.cwd.join("services/web");
            let last = rollout.times.iter().copied().max().unwrap_or(start);
            rollout.turn_context(last + SECOND)?;
        }
        let Rollout { out, mut times, mut prompts, cwd: final_cwd, .. } = rollout;
        let bytes = out.finish()?;
        let last = times.iter().copied().max().unwrap_or(start);
        files::set_mtime(&path, last)?;
        written.files += 1;
        written.bytes += bytes;
        if rng.percent(60) {
            let name = first.unwrap_or_default();
            let name: String = name.lines().next().unwrap_or_default().chars().take(60).collect();
            index.push((last, id.clone(), name));
        }
        times.retain(|time| *time >= since);
        prompts.retain(|time| *time >= since);
        written.sessions.push(SessionFacts { cwd: final_cwd, times, prompts });
    }
    index.sort();
    let path = root.join("session_index.jsonl");
    let mut out = Counted::create(&path)?;
    for (updated, id, name) in &index {
        let name = text::json_escape(name);
        out.write(
            format!(
                "{{\"id\":\"{id}\",\"thread_name\":\"{name}\",\"updated_at\":\"{}\"}}\n",
                clock::iso(*updated)
            )
            .as_bytes(),
        )?;
    }
    out.finish()?;
    files::set_mtime(&path, index.last().map_or(clock.at(-30, 0), |entry| entry.0))?;
    Ok(written)
}
