//! `cargo xtask bench-home` and `cargo xtask bench`.
//!
//! `bench` times the release binary on the large synthetic home of `bench_home` for its
//! reference day, against a baseline measured in the same run: a shell loop of one
//! `git log --all --numstat` per repository, which is roughly what a tool that reads
//! every repository in full would cost. Wall time comes from `Instant`, peak RSS from
//! `wait4` (the largest of the child and the processes it waited for, such as git).

use std::io;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use bench_home::{Counts, Manifest, Preset};

/// The options both tasks take.
struct Options {
    preset: Preset,
    /// Whether `--preset` was given (`bench` runs every benchmark preset otherwise).
    preset_given: bool,
    out: Option<PathBuf>,
    force: bool,
    runs: usize,
}

fn parse(args: &[String], allow_force: bool, allow_runs: bool) -> anyhow::Result<Options> {
    let mut options =
        Options { preset: Preset::Large, preset_given: false, out: None, force: false, runs: 10 };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || args.next().with_context(|| format!("`{arg}` needs a value"));
        match arg.as_str() {
            "--preset" => {
                options.preset = value()?.parse().map_err(anyhow::Error::msg)?;
                options.preset_given = true;
            }
            "--out" => options.out = Some(PathBuf::from(value()?)),
            "--force" if allow_force => options.force = true,
            "--runs" if allow_runs => {
                options.runs = value()?.parse().context("--runs takes a number")?;
                if options.runs == 0 {
                    bail!("--runs must be at least 1");
                }
            }
            other => bail!("unknown argument `{other}`"),
        }
    }
    Ok(options)
}

/// Cargo's target folder: `$CARGO_TARGET_DIR` (relative to the workspace), else `target`.
pub(crate) fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), |dir| root.join(dir))
}

fn default_out(root: &Path, preset: Preset) -> PathBuf {
    target_dir(root).join(format!("bench-home-{preset}"))
}

/// Generates (or reuses) the home and says how long it took.
fn home(root: &Path, options: &Options) -> anyhow::Result<Manifest> {
    let out = options.out.clone().unwrap_or_else(|| default_out(root, options.preset));
    let reused = !options.force && bench_home::load_manifest(&out).is_ok();
    eprintln!(
        "xtask: {} the {} home in {}",
        if reused { "checking" } else { "generating" },
        options.preset,
        out.display()
    );
    let start = Instant::now();
    let manifest = if options.force {
        bench_home::regenerate(options.preset, &out)
    } else {
        bench_home::generate(options.preset, &out)
    }
    .with_context(|| format!("generating the {} home in `{}`", options.preset, out.display()))?;
    eprintln!("xtask: home ready in {:.1} s", start.elapsed().as_secs_f64());
    Ok(manifest)
}

/// [`home`] in a child process (`xtask bench-home`): a child's peak RSS as `wait4` reports
/// it starts from this process's at the fork, and generating a home takes tens of
/// megabytes that would then be counted against every command measured.
fn home_in_child(root: &Path, options: &Options) -> anyhow::Result<Manifest> {
    let out = options.out.clone().unwrap_or_else(|| default_out(root, options.preset));
    let exe = std::env::current_exe().context("the xtask binary")?;
    let preset = options.preset.to_string();
    let out_text = out.display().to_string();
    let mut args = vec!["bench-home", "--preset", preset.as_str(), "--out", out_text.as_str()];
    if options.force {
        args.push("--force");
    }
    let status = Command::new(exe).args(&args).stdout(Stdio::null()).status()?;
    anyhow::ensure!(status.success(), "xtask bench-home failed");
    bench_home::load_manifest(&out).with_context(|| format!("the manifest of `{}`", out.display()))
}

/// `cargo xtask bench-home [--preset small|large] [--out DIR] [--force]`.
pub(crate) fn bench_home(root: &Path, args: &[String]) -> anyhow::Result<()> {
    let options = parse(args, true, false)?;
    let manifest = home(root, &options)?;
    let bytes = disk_usage(&manifest.home);
    println!("{}", manifest.summary());
    println!("on disk: {:.1} MiB", mib(bytes));
    Ok(())
}

/// Bytes of the files under a folder.
fn disk_usage(dir: &Path) -> u64 {
    let Ok(entries) = fs_err::read_dir(dir) else { return 0 };
    entries
        .filter_map(Result::ok)
        .map(|entry| match entry.file_type() {
            Ok(kind) if kind.is_dir() => disk_usage(&entry.path()),
            Ok(kind) if kind.is_file() => entry.metadata().map_or(0, |meta| meta.len()),
            _ => 0,
        })
        .sum()
}

#[expect(clippy::cast_precision_loss, reason = "sizes and times are far below 2^52")]
fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

/// One measured process: wall time, CPU time (user and system, with the processes it
/// waited for, such as git) and peak RSS.
#[derive(Clone, Copy)]
struct Sample {
    wall: Duration,
    cpu: Duration,
    peak_rss: u64,
}

/// The samples of one command, with its summary.
struct Measured {
    label: String,
    samples: Vec<Sample>,
}

impl Measured {
    fn millis(&self) -> Vec<f64> {
        let mut millis: Vec<f64> =
            self.samples.iter().map(|sample| sample.wall.as_secs_f64() * 1000.0).collect();
        millis.sort_by(f64::total_cmp);
        millis
    }

    fn median(&self) -> f64 {
        let millis = self.millis();
        let middle = millis.len() / 2;
        if millis.len() % 2 == 1 {
            millis[middle]
        } else {
            f64::midpoint(millis[middle - 1], millis[middle])
        }
    }

    fn min_max(&self) -> (f64, f64) {
        let millis = self.millis();
        (millis[0], millis[millis.len() - 1])
    }

    /// The median CPU time in milliseconds.
    fn cpu_median(&self) -> f64 {
        let mut cpu: Vec<f64> =
            self.samples.iter().map(|sample| sample.cpu.as_secs_f64() * 1000.0).collect();
        median(&mut cpu)
    }

    fn peak_rss(&self) -> u64 {
        self.samples.iter().map(|sample| sample.peak_rss).max().unwrap_or(0)
    }

    fn json(&self) -> serde_json::Value {
        let (min, max) = self.min_max();
        serde_json::json!({
            "command": self.label,
            "median_ms": self.median(),
            "min_ms": min,
            "max_ms": max,
            "cpu_median_ms": self.cpu_median(),
            "peak_rss_mb": mib(self.peak_rss()),
            "samples_ms": self.samples.iter().map(|sample| sample.wall.as_secs_f64() * 1000.0).collect::<Vec<_>>(),
        })
    }
}

/// Waits for `child` and returns its exit code (`-1` when a signal ended it), the CPU
/// time it and the processes it waited for used, and its peak resident set size in
/// bytes. std's `Child::wait` does not report resource usage,
/// hence `wait4`; the `Child` must not be waited for again afterwards.
#[expect(
    unsafe_code,
    reason = "wait4 is the one way to read a child's peak RSS; std does not expose rusage"
)]
fn wait_with_rss(child: &Child) -> anyhow::Result<(i32, Duration, u64)> {
    let pid = libc::pid_t::try_from(child.id()).context("process id out of range")?;
    loop {
        let mut status: libc::c_int = 0;
        // SAFETY: `rusage` is a C struct of integers (and timevals of integers), for
        // which all-zero bytes are a valid value.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `pid` is a child of this process that nothing has reaped yet (the
        // caller never calls `Child::wait`), and `status` and `usage` are valid,
        // writable and outlive the call.
        let reaped = unsafe { libc::wait4(pid, &raw mut status, 0, &raw mut usage) };
        if reaped == pid {
            let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { -1 };
            // Linux reports `ru_maxrss` in KiB.
            let peak = u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024;
            let time = |value: libc::timeval| {
                Duration::new(
                    u64::try_from(value.tv_sec).unwrap_or(0),
                    u32::try_from(value.tv_usec).unwrap_or(0) * 1000,
                )
            };
            return Ok((code, time(usage.ru_utime) + time(usage.ru_stime), peak));
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error).context("wait4");
        }
    }
}

/// Runs a command to completion with stdout and stderr discarded, measuring it.
fn sample(mut command: Command) -> anyhow::Result<Sample> {
    command.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
    let start = Instant::now();
    let child = command.spawn().with_context(|| format!("running {command:?}"))?;
    let (code, cpu, peak_rss) = wait_with_rss(&child)?;
    let wall = start.elapsed();
    if code != 0 {
        bail!("{command:?} exited with {code}");
    }
    Ok(Sample { wall, cpu, peak_rss })
}

/// `standup <args>` in the home, with the clock, time zone and environment pinned, and
/// the output folder as git's ceiling ([`Manifest::ceiling`]).
fn standup(binary: &Path, manifest: &Manifest, args: &[&str]) -> Command {
    let mut command = Command::new(binary);
    command
        .args(args)
        .current_dir(&manifest.home)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", &manifest.home)
        .env("STANDUP_NOW", &manifest.now)
        .env("TZ", &manifest.time_zone)
        .env("LANG", "C")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CEILING_DIRECTORIES", manifest.ceiling());
    command
}

/// The git command a user would script: the user's non-merge commits of the reference
/// day with their line counts, on every ref, filtered by git itself.
fn git_log_args(manifest: &Manifest) -> anyhow::Result<Vec<String>> {
    let zone = jiff::tz::TimeZone::get(&manifest.time_zone)?;
    let start = manifest.date.to_zoned(zone.clone())?;
    let end = manifest.date.tomorrow()?.to_zoned(zone)?;
    let mut args: Vec<String> =
        ["log", "--all", "--no-merges", "--numstat"].iter().map(|arg| (*arg).to_owned()).collect();
    args.extend(manifest.emails.iter().map(|email| format!("--author={email}")));
    args.push(format!("--since={}", start.strftime("%Y-%m-%dT%H:%M:%S%:z")));
    args.push(format!("--until={}", end.strftime("%Y-%m-%dT%H:%M:%S%:z")));
    Ok(args)
}

/// The baseline: that `git log` once per repository, sequentially in one shell loop, or
/// two at a time through `xargs -P2`. A repository git refuses (the broken one) does not
/// stop the loop, as it would not stop a user's script.
fn baseline(manifest: &Manifest, log_args: &[String], parallel: bool) -> Command {
    let script = if parallel {
        "n=$1; shift; printf '%s\\0' \"${@:$((n+1))}\" | xargs -0 -P2 -I{} git -C {} \"${@:1:$n}\" >/dev/null 2>&1 || true"
    } else {
        "n=$1; shift; for r in \"${@:$((n+1))}\"; do git -C \"$r\" \"${@:1:$n}\" >/dev/null 2>&1; done"
    };
    let mut command = Command::new("bash");
    command
        .args(["-c", script, "bash", &log_args.len().to_string()])
        .args(log_args)
        .args(manifest.repository_paths())
        .current_dir(&manifest.home)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", &manifest.home)
        .env("LC_ALL", "C")
        .env("GIT_CONFIG_NOSYSTEM", "1");
    command
}

/// Drops the page cache (as root on Linux); false where that is not allowed.
fn drop_caches() -> bool {
    #[expect(clippy::disallowed_methods, reason = "sync flushes dirty pages before the drop")]
    let synced = Command::new("sync").status().is_ok_and(|status| status.success());
    synced && fs_err::write("/proc/sys/vm/drop_caches", "3\n").is_ok()
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    if values.is_empty() {
        f64::NAN
    } else if values.len() % 2 == 1 {
        values[middle]
    } else {
        f64::midpoint(values[middle - 1], values[middle])
    }
}

/// The per-round ratios of the wall-clock times of two measurements taken in turns.
fn pair_ratios(numerator: &Measured, denominator: &Measured) -> Vec<f64> {
    numerator
        .samples
        .iter()
        .zip(&denominator.samples)
        .map(|(a, b)| a.wall.as_secs_f64() / b.wall.as_secs_f64())
        .collect()
}

/// A ratio of two measurements taken in turns: the median of the per-round ratios, with
/// its 95% interval ([`median_interval`]), so that a target missed or met by less than
/// the rounds' spread shows as such.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Ratio {
    median: f64,
    low: f64,
    high: f64,
}

impl Ratio {
    /// The ratio of `numerator`'s wall-clock times to `denominator`'s, round by round.
    fn of(numerator: &Measured, denominator: &Measured) -> Ratio {
        Ratio::from_ratios(&pair_ratios(numerator, denominator))
    }

    fn from_ratios(ratios: &[f64]) -> Ratio {
        let (low, high) = median_interval(ratios);
        Ratio { median: median(&mut ratios.to_vec()), low, high }
    }

    /// How the ratio stands against the target `at_most`: met, missed, or missed by its
    /// median while its interval still reaches the target (within the rounds' noise).
    fn against(self, at_most: f64) -> Standing {
        if self.median <= at_most {
            Standing::Met
        } else if self.low <= at_most {
            Standing::MissedWithinNoise
        } else {
            Standing::Missed
        }
    }

    /// `0.409 (0.392–0.431)`.
    fn cell(self) -> String {
        format!("{:.3} ({:.3}–{:.3})", self.median, self.low, self.high)
    }

    fn json(self) -> serde_json::Value {
        serde_json::json!({ "median": self.median, "interval_95": [self.low, self.high] })
    }
}

/// A figure against its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Standing {
    Met,
    MissedWithinNoise,
    Missed,
}

/// A 95% interval for the median of `values`: the 2.5th and 97.5th percentiles of the
/// medians of 2,000 resamples drawn with replacement (a percentile bootstrap). The draws
/// come from a fixed seed, so the same samples give the same interval.
fn median_interval(values: &[f64]) -> (f64, f64) {
    if values.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut draw = || {
        // xorshift64*: plenty for picking indexes.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let len = values.len();
    let mut resample = vec![0.0; len];
    let mut medians: Vec<f64> = (0..2000)
        .map(|_| {
            for slot in &mut resample {
                *slot = values[usize::try_from(draw() % len as u64).unwrap_or(0)];
            }
            median(&mut resample)
        })
        .collect();
    medians.sort_by(f64::total_cmp);
    (medians[50], medians[1949])
}

/// Runs a report once with `--format json` and compares its totals and warnings with
/// the manifest. Returns whether they match, and prints each difference.
fn verify(
    binary: &Path,
    manifest: &Manifest,
    report: &str,
    expected: &Counts,
) -> anyhow::Result<bool> {
    let output = standup(binary, manifest, &[report, "--no-llm", "--format", "json"])
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("running standup {report}"))?;
    if !output.status.success() {
        println!(
            "standup {report}: MISMATCH (exit {}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        return Ok(false);
    }
    let json: serde_json::Value =
        serde_json::from_slice(&output.stdout).context("parsing the report's JSON")?;
    let expected_json = serde_json::to_value(expected)?;
    let mut ok = true;
    for (key, want) in expected_json.as_object().into_iter().flatten() {
        let got = &json["totals"][key];
        if got != want {
            println!("standup {report}: MISMATCH totals.{key}: report {got}, manifest {want}");
            ok = false;
        }
    }
    let mut codes: Vec<String> = json["warnings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|warning| warning["code"].as_str().map(str::to_owned))
        .collect();
    codes.sort();
    let mut want: Vec<String> =
        manifest.expected_warnings.iter().map(|warning| warning.code.clone()).collect();
    want.sort();
    if codes != want {
        println!("standup {report}: MISMATCH warnings: report {codes:?}, manifest {want:?}");
        ok = false;
    }
    println!(
        "standup {report} --format json: {}",
        if ok { "OK (totals and warnings match the manifest)" } else { "MISMATCH" }
    );
    Ok(ok)
}

/// The cold-cache pair: `daily` and the sequential loop, the page cache dropped before
/// each run; `None` where it cannot be dropped (not root, not Linux).
fn cold_pairs(
    runs: usize,
    daily: &dyn Fn() -> Command,
    sequential: &dyn Fn() -> Command,
) -> anyhow::Result<Option<(Measured, Measured, Ratio)>> {
    if !drop_caches() {
        println!("cold cache: not measured (/proc/sys/vm/drop_caches is not writable here)");
        return Ok(None);
    }
    eprintln!("xtask: cold cache: {runs} pairs, the page cache dropped before each run");
    let mut cold_daily =
        Measured { label: "cold: standup daily --no-llm".to_owned(), samples: Vec::new() };
    let mut cold_sequential =
        Measured { label: "cold: baseline, sequential".to_owned(), samples: Vec::new() };
    for pair in 0..runs {
        // Each goes first in every other pair: the first run after the warm rounds also
        // meets whatever the host still caches below the guest.
        let mut order = [(&mut cold_daily, daily), (&mut cold_sequential, sequential)];
        if pair % 2 == 1 {
            order.reverse();
        }
        for (measured, command) in order {
            drop_caches();
            measured.samples.push(sample(command())?);
        }
    }
    let ratio = Ratio::of(&cold_daily, &cold_sequential);
    println!(
        "cold cache ({runs} pairs): daily {:.0} ms, sequential loop {:.0} ms, ratio {}",
        cold_daily.median(),
        cold_sequential.median(),
        ratio.cell()
    );
    Ok(Some((cold_daily, cold_sequential, ratio)))
}

/// The presets `cargo xtask bench` runs when none is named: every shape made for
/// benchmarking (`small` is the smoke test's home, too small to time).
const BENCH_PRESETS: [Preset; 5] =
    [Preset::Large, Preset::LargeDoubleHistory, Preset::Busy, Preset::Pulled, Preset::Fetched];

/// One preset's figures, for the closing table.
struct Summary {
    preset: Preset,
    daily_ms: f64,
    to_sequential: Ratio,
    to_parallel: Ratio,
    cold: Option<Ratio>,
    standup_to_daily: Ratio,
    peak_rss: u64,
    verified: bool,
}

/// `cargo xtask bench [--runs N] [--out DIR] [--preset small|large|large-2x|busy|pulled]`:
/// one preset, or every one of [`BENCH_PRESETS`] in turn with a closing table of the
/// targets (daily ≤ 0.40× the sequential loop and ≤ 1.0× the `xargs -P2` one, cold ≤ 0.5×,
/// standup ≤ 1.5× daily, peak RSS ≤ 100 MB).
pub(crate) fn bench(root: &Path, args: &[String]) -> anyhow::Result<()> {
    let options = parse(args, false, true)?;
    crate::run(root, "cargo", &["build", "--release", "--quiet", "-p", "standup"], &[])?;
    let binary = target_dir(root).join("release").join("standup");
    let presets: Vec<Preset> =
        if options.preset_given { vec![options.preset] } else { BENCH_PRESETS.to_vec() };
    if options.out.is_some() && presets.len() > 1 {
        bail!("--out needs --preset (each preset has a home of its own)");
    }
    let mut summaries = Vec::new();
    for preset in presets {
        let options = Options { preset, out: options.out.clone(), ..options };
        summaries.push(bench_preset(root, &binary, &options)?);
    }
    println!(
        "\n| preset | daily ms | daily / sequential (≤ 0.40) | daily / xargs -P2 (≤ 1.0) | cold (≤ 0.5) | standup / daily (≤ 1.5) | peak RSS MB (≤ 100) | verified |\n|---|---:|---:|---:|---:|---:|---:|---|"
    );
    for summary in &summaries {
        let cold = summary.cold.map_or_else(|| "n/a".to_owned(), Ratio::cell);
        println!(
            "| {} | {:.0} | {} | {} | {cold} | {} | {:.1} | {} |",
            summary.preset,
            summary.daily_ms,
            summary.to_sequential.cell(),
            summary.to_parallel.cell(),
            summary.standup_to_daily.cell(),
            mib(summary.peak_rss),
            if summary.verified { "yes" } else { "NO" }
        );
    }
    println!("\n(each ratio: the median of the per-round ratios, and its 95% bootstrap interval)");
    let (missed, within_noise) = missed_targets(&summaries);
    if missed.is_empty() && within_noise.is_empty() {
        println!("\nevery target met on every preset");
    }
    if !missed.is_empty() {
        println!("\ntargets missed: {}", missed.join(", "));
    }
    if !within_noise.is_empty() {
        println!(
            "targets missed by the median, with the interval reaching the target: {}",
            within_noise.join(", ")
        );
    }
    if summaries.iter().any(|summary| !summary.verified) {
        bail!("the reports do not match the manifest (see MISMATCH above)");
    }
    Ok(())
}

/// The targets each preset misses, named `preset: figure (median, interval)`: those
/// missed, and those missed by the median only (the interval reaches the target).
fn missed_targets(summaries: &[Summary]) -> (Vec<String>, Vec<String>) {
    let (mut missed, mut within_noise) = (Vec::new(), Vec::new());
    for summary in summaries {
        let ratios = [
            (Some(summary.to_sequential), 0.40, "daily / sequential"),
            (Some(summary.to_parallel), 1.0, "daily / xargs -P2"),
            (summary.cold, 0.5, "cold"),
            (Some(summary.standup_to_daily), 1.5, "standup / daily"),
        ];
        for (ratio, at_most, what) in ratios {
            let Some(ratio) = ratio else { continue };
            let named = format!("{}: {what} {}", summary.preset, ratio.cell());
            match ratio.against(at_most) {
                Standing::Met => {}
                Standing::MissedWithinNoise => within_noise.push(named),
                Standing::Missed => missed.push(named),
            }
        }
        if summary.peak_rss > 100 * 1024 * 1024 {
            missed.push(format!("{}: peak RSS {:.1} MB", summary.preset, mib(summary.peak_rss)));
        }
    }
    (missed, within_noise)
}

/// The table of each command's times and peak memory.
fn print_results(results: &[Measured]) {
    println!("\n| command | median ms | min–max ms | peak RSS MB |\n|---|---:|---:|---:|");
    for measured in results {
        let (min, max) = measured.min_max();
        println!(
            "| {} | {:.0} | {:.0}–{:.0} | {:.1} |",
            measured.label,
            measured.median(),
            min,
            max,
            mib(measured.peak_rss())
        );
    }
}

/// Times one preset; see [`bench()`].
fn bench_preset(root: &Path, binary: &Path, options: &Options) -> anyhow::Result<Summary> {
    let binary = binary.to_path_buf();
    let manifest = home_in_child(root, options)?;
    println!("{}\n", manifest.summary());

    let daily_ok = verify(&binary, &manifest, "daily", &manifest.expected.daily)?;
    let standup_ok = verify(&binary, &manifest, "standup", &manifest.expected.standup)?;

    let repositories = manifest.repositories.len();
    let log_args = git_log_args(&manifest)?;
    let commands: [(String, Box<dyn Fn() -> Command>); 4] = [
        (
            "standup daily --no-llm".to_owned(),
            Box::new(|| standup(&binary, &manifest, &["daily", "--no-llm"])),
        ),
        (
            "standup standup --no-llm".to_owned(),
            Box::new(|| standup(&binary, &manifest, &["standup", "--no-llm"])),
        ),
        (
            format!("baseline: filtered git log × {repositories} repos, sequential"),
            Box::new(|| baseline(&manifest, &log_args, false)),
        ),
        (
            format!("baseline: filtered git log × {repositories} repos, xargs -P2"),
            Box::new(|| baseline(&manifest, &log_args, true)),
        ),
    ];
    eprintln!("xtask: baseline: git {}", log_args.join(" "));
    eprintln!(
        "xtask: 1 warm-up + {} rounds, the {} commands alternating",
        options.runs,
        commands.len()
    );
    for (_, make) in &commands {
        sample(make())?;
    }
    let mut results: Vec<Measured> = commands
        .iter()
        .map(|(label, _)| Measured { label: label.clone(), samples: Vec::new() })
        .collect();
    for round in 0..options.runs {
        // Alternate the order too, so no command always runs right after the same one.
        let mut order: Vec<usize> = (0..commands.len()).collect();
        if round % 2 == 1 {
            order.reverse();
        }
        for index in order {
            let sample = sample((commands[index].1)())?;
            results[index].samples.push(sample);
        }
    }

    print_results(&results);
    let daily_to_sequential = Ratio::of(&results[0], &results[2]);
    let daily_to_parallel = Ratio::of(&results[0], &results[3]);
    let standup_to_daily = Ratio::of(&results[1], &results[0]);
    println!(
        "\nmedians of per-round ratios ({} rounds), with 95% intervals:\n  daily / sequential filtered loop: {}\n  daily / xargs -P2 filtered loop:  {}\n  standup / daily:                  {}",
        options.runs,
        daily_to_sequential.cell(),
        daily_to_parallel.cell(),
        standup_to_daily.cell(),
    );

    let cold = cold_pairs(options.runs.clamp(1, 5), &*commands[0].1, &*commands[2].1)?;
    let report = serde_json::json!({
        "preset": manifest.preset,
        "home": manifest.home,
        "now": manifest.now,
        "runs": options.runs,
        "sizes": manifest.sizes,
        "baseline_git_args": log_args,
        "results": results.iter().map(Measured::json).collect::<Vec<_>>(),
        "ratio_daily_to_sequential_loop": daily_to_sequential.median,
        "ratio_daily_to_parallel_loop": daily_to_parallel.median,
        "ratio_standup_to_daily": standup_to_daily.median,
        "ratios": {
            "daily_to_sequential_loop": daily_to_sequential.json(),
            "daily_to_parallel_loop": daily_to_parallel.json(),
            "standup_to_daily": standup_to_daily.json(),
        },
        "cold": cold.as_ref().map(|(daily, sequential, ratio)| serde_json::json!({
            "results": [daily.json(), sequential.json()],
            "ratio_daily_to_sequential_loop": ratio.median,
            "ratio": ratio.json(),
        })),
        "verified": { "daily": daily_ok, "standup": standup_ok },
    });
    let path = target_dir(root).join("bench").join(format!("bench-{}.json", manifest.preset));
    fs_err::create_dir_all(path.parent().unwrap_or(root))?;
    fs_err::write(&path, serde_json::to_string_pretty(&report)? + "\n")?;
    println!("wrote {}", path.display());
    Ok(Summary {
        preset: manifest.preset,
        daily_ms: results[0].median(),
        to_sequential: daily_to_sequential,
        to_parallel: daily_to_parallel,
        cold: cold.as_ref().map(|(_, _, ratio)| *ratio),
        standup_to_daily,
        peak_rss: results[0].peak_rss().max(results[1].peak_rss()),
        verified: daily_ok && standup_ok,
    })
}

/// `cargo xtask bench-scale [--runs N] [--large DIR] [--large-2x DIR]`: whether the time
/// follows the day's activity rather than the history. `daily` on the `large` home and
/// on `large-2x` (the same day, twice the inactive history: repositories, transcript
/// folders and transcripts, a `history.jsonl` twice the size) alternate in one run,
/// and the median of the per-round ratios is the figure (the target is at most 1.10).
pub(crate) fn bench_scale(root: &Path, args: &[String]) -> anyhow::Result<()> {
    let mut runs = 21;
    let mut outs: [Option<PathBuf>; 2] = [None, None];
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || args.next().with_context(|| format!("`{arg}` needs a value"));
        match arg.as_str() {
            "--runs" => {
                runs = value()?.parse().context("--runs takes a number")?;
                if runs == 0 {
                    bail!("--runs must be at least 1");
                }
            }
            "--large" => outs[0] = Some(PathBuf::from(value()?)),
            "--large-2x" => outs[1] = Some(PathBuf::from(value()?)),
            other => bail!("unknown argument `{other}`"),
        }
    }
    crate::run(root, "cargo", &["build", "--release", "--quiet", "-p", "standup"], &[])?;
    let binary = target_dir(root).join("release").join("standup");
    let presets = [Preset::Large, Preset::LargeDoubleHistory];
    let mut manifests = Vec::new();
    let mut verified = true;
    for (preset, out) in presets.into_iter().zip(outs) {
        let manifest =
            home(root, &Options { preset, preset_given: true, out, force: false, runs })?;
        verified &= verify(&binary, &manifest, "daily", &manifest.expected.daily)?;
        manifests.push(manifest);
    }
    let daily = |manifest: &Manifest| standup(&binary, manifest, &["daily", "--no-llm"]);
    eprintln!("xtask: 1 warm-up + {runs} rounds, `daily --no-llm` on both homes alternating");
    let mut results: Vec<Measured> = presets
        .iter()
        .map(|preset| Measured { label: format!("daily --no-llm, {preset}"), samples: Vec::new() })
        .collect();
    for manifest in &manifests {
        sample(daily(manifest))?;
    }
    for round in 0..runs {
        let mut order = [0, 1];
        if round % 2 == 1 {
            order.reverse();
        }
        for index in order {
            results[index].samples.push(sample(daily(&manifests[index]))?);
        }
    }
    println!(
        "\n| home | median ms | min–max ms | CPU ms (median) | peak RSS MB |\n|---|---:|---:|---:|---:|"
    );
    for measured in &results {
        let (min, max) = measured.min_max();
        println!(
            "| {} | {:.1} | {:.0}–{:.0} | {:.1} | {:.1} |",
            measured.label,
            measured.median(),
            min,
            max,
            measured.cpu_median(),
            mib(measured.peak_rss())
        );
    }
    let Ratio { median: ratio, low, high } = Ratio::of(&results[1], &results[0]);
    println!(
        "\nlarge-2x / large, median of per-round ratios ({runs} rounds): {ratio:.3}, 95% interval {low:.3}–{high:.3} (target: at most 1.10)"
    );
    let report = serde_json::json!({
        "runs": runs,
        "homes": manifests.iter().map(|manifest| serde_json::json!({
            "preset": manifest.preset,
            "home": manifest.home,
            "sizes": manifest.sizes,
        })).collect::<Vec<_>>(),
        "results": results.iter().map(Measured::json).collect::<Vec<_>>(),
        "ratio_large_2x_to_large": ratio,
        "ratio_interval_95": [low, high],
        "verified": verified,
    });
    let path = target_dir(root).join("bench").join("bench-scale.json");
    fs_err::create_dir_all(path.parent().unwrap_or(root))?;
    fs_err::write(&path, serde_json::to_string_pretty(&report)? + "\n")?;
    println!("wrote {}", path.display());
    if !verified {
        bail!("the reports do not match the manifests (see MISMATCH above)");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{Ratio, Standing, Summary, median, median_interval, missed_targets};
    use bench_home::Preset;

    #[test]
    fn a_ratio_stands_against_its_target_by_its_median_and_its_interval() {
        let met = Ratio::from_ratios(&[0.35, 0.36, 0.38, 0.37, 0.39]);
        assert!((met.median - 0.37).abs() < 1e-12, "{met:?}");
        assert_eq!(met.against(0.40), Standing::Met);
        assert_eq!(met.against(0.37), Standing::Met, "the target itself is met");
        let noisy = Ratio::from_ratios(&[0.38, 0.41, 0.42, 0.43, 0.39, 0.44, 0.41]);
        assert!(noisy.median > 0.40 && noisy.low <= 0.40, "{noisy:?}");
        assert_eq!(noisy.against(0.40), Standing::MissedWithinNoise);
        let missed = Ratio::from_ratios(&[0.50, 0.52, 0.51, 0.53, 0.55]);
        assert_eq!(missed.against(0.40), Standing::Missed);
        assert!(missed.cell().starts_with("0.520 (0.5"), "{}", missed.cell());
    }

    #[test]
    fn missed_targets_are_named_with_their_figures_and_told_apart_from_noise() {
        let ratio = |values: &[f64]| Ratio::from_ratios(values);
        let summary = Summary {
            preset: Preset::Busy,
            daily_ms: 120.0,
            to_sequential: ratio(&[0.38, 0.41, 0.42, 0.43, 0.39, 0.44, 0.41]),
            to_parallel: ratio(&[0.8, 0.82, 0.81]),
            cold: Some(ratio(&[0.6, 0.62, 0.61, 0.63, 0.65])),
            standup_to_daily: ratio(&[1.2, 1.3, 1.25]),
            peak_rss: 200 * 1024 * 1024,
            verified: true,
        };
        let (missed, within_noise) = missed_targets(&[summary]);
        assert_eq!(missed.len(), 2, "{missed:?}");
        assert!(missed[0].starts_with("busy: cold 0.620 ("), "{missed:?}");
        assert_eq!(missed[1], "busy: peak RSS 200.0 MB");
        assert_eq!(within_noise.len(), 1, "{within_noise:?}");
        assert!(
            within_noise[0].starts_with("busy: daily / sequential 0.410 ("),
            "{within_noise:?}"
        );
    }

    #[test]
    fn the_interval_of_a_median_holds_it_and_narrows_with_agreeing_samples() {
        assert_eq!(median_interval(&[1.1; 15]), (1.1, 1.1));
        let spread: Vec<f64> = (0..41).map(|index| 1.0 + f64::from(index) / 100.0).collect();
        let (low, high) = median_interval(&spread);
        let middle = median(&mut spread.clone());
        assert!(low < middle && middle < high, "{low} {middle} {high}");
        assert!(low >= 1.0 && high <= 1.4, "{low} {high}");
        // The same samples, the same interval.
        assert_eq!(median_interval(&spread), (low, high));
        assert!(median_interval(&[]).0.is_nan());
    }
}
