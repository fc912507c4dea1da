//! Tests of the Cursor reader (see crates/collect/src/sessions/cursor.rs).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use report_model::Agent;
use rusqlite::{Connection, params};
use serde_json::json;

use crate::support::{Home, en, session, set_mtime, status, times, ts};

fn ms(text: &str) -> i64 {
    ts(text).as_millisecond()
}

/// A database in WAL mode left as a killed program leaves it: rows in the `-wal` file.
fn leave(conn: Connection) {
    conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)
        .expect("no checkpoint on close");
    drop(conn);
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::with_capacity(bytes.len() * 2), |mut hex, byte| {
        let _ = write!(hex, "{byte:02x}");
        hex
    })
}

fn sha256_like(seed: &str) -> [u8; 32] {
    // Content addresses only need to be unique here.
    let mut id = [0u8; 32];
    for (index, byte) in seed.bytes().enumerate() {
        id[index % 32] ^= byte.wrapping_add(u8::try_from(index % 251).expect("small"));
    }
    id[31] = u8::try_from(seed.len() % 256).expect("small");
    id
}

/// A protobuf length-delimited field.
fn field(number: u8, bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut key = u64::from(number) << 3 | 2;
    loop {
        let byte = u8::try_from(key & 0x7f).expect("7 bits");
        key >>= 7;
        if key == 0 {
            out.push(byte);
            break;
        }
        out.push(byte | 0x80);
    }
    out.push(u8::try_from(bytes.len()).expect("short"));
    out.extend_from_slice(bytes);
    out
}

/// A Cursor CLI chat: `store.db` with `meta` (hex JSON) and `blobs` (messages, root).
fn cli_chat(
    home: &Home,
    id: &str,
    cwd: &str,
    name: &str,
    created: &str,
    messages: &[serde_json::Value],
) -> PathBuf {
    let path = home
        .path()
        .join(".cursor/chats/0123456789abcdef0123456789abcdef")
        .join(id)
        .join("store.db");
    let conn = crate::support::wal_database(
        &path,
        "CREATE TABLE blobs (id TEXT PRIMARY KEY, data BLOB); CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);",
    );
    let mut root = Vec::new();
    for (index, message) in messages.iter().enumerate() {
        let data = message.to_string().into_bytes();
        let blob_id = sha256_like(&format!("{id}-{index}"));
        conn.execute("INSERT INTO blobs (id, data) VALUES (?1, ?2)", params![hex(&blob_id), data])
            .expect("blob");
        root.extend(field(1, &blob_id));
    }
    let mut workspace = field(1, cwd.as_bytes());
    workspace.extend(field(2, b"proj"));
    root.extend(field(21, &workspace));
    let root_id = sha256_like(&format!("{id}-root"));
    conn.execute("INSERT INTO blobs (id, data) VALUES (?1, ?2)", params![hex(&root_id), root])
        .expect("root");
    let meta = json!({"agentId": id, "latestRootBlobId": hex(&root_id), "name": name, "mode": "default",
                      "createdAt": ms(created), "lastUsedModel": "gpt-5"});
    conn.execute(
        "INSERT INTO meta (key, value) VALUES ('0', ?1)",
        [hex(meta.to_string().as_bytes())],
    )
    .expect("meta");
    leave(conn);
    path
}

fn user(text: &str) -> serde_json::Value {
    json!({"role": "user", "content": [{"type": "text", "text": text}]})
}

type Snapshot = BTreeMap<PathBuf, (Vec<u8>, std::time::SystemTime)>;

fn snapshot(folder: &Path) -> Snapshot {
    fs_err::read_dir(folder)
        .expect("list")
        .map(|entry| {
            let path = entry.expect("entry").path();
            let bytes = fs_err::read(&path).expect("read");
            let modified = fs_err::metadata(&path).expect("stat").modified().expect("mtime");
            (path, (bytes, modified))
        })
        .collect()
}

#[test]
fn a_cli_chat_is_read_from_its_store_and_wal() {
    let home = Home::new();
    let path = cli_chat(
        &home,
        "0b1f7c3e-1111-4c55-9e8a-123456789abc",
        "/work/api",
        "Speed up the importer",
        "2026-05-04T09:00:00Z",
        &[
            json!({"role": "system", "content": "You are an AI coding assistant."}),
            user("<user_info>\nOS Version: linux 6.8\nWorkspace Path: /work/api\n</user_info>"),
            user(
                "<user_info>OS Version: linux</user_info>\n<user_query>\nwhy is the importer slow?\n</user_query>",
            ),
            json!({"role": "assistant", "id": "1", "content": [{"type": "text", "text": "Profiling."},
                   {"type": "tool-call", "toolCallId": "t1", "toolName": "Shell", "args": {"command": "ls"}}]}),
            json!({"role": "tool", "content": [{"type": "tool-result", "toolCallId": "t1", "result": "ok"}]}),
            user("<user_query>\nmake it stream\n</user_query>"),
        ],
    );
    let wal = PathBuf::from(format!("{}-wal", path.display()));
    assert!(fs_err::metadata(&wal).expect("wal").len() > 0, "the rows are in the -wal file");
    set_mtime(&path, ts("2026-05-04T09:30:00Z"));
    set_mtime(&wal, ts("2026-05-04T09:30:00Z"));
    let folder = path.parent().expect("folder").to_path_buf();
    let before = snapshot(&folder);

    let output = home.read(Agent::Cursor, ts("2026-05-04T00:00:00Z"));

    let after = snapshot(&folder);
    assert_eq!(
        after.keys().collect::<Vec<_>>(),
        before.keys().collect::<Vec<_>>(),
        "no file created"
    );
    for name in ["store.db", "store.db-wal"] {
        assert!(after[&folder.join(name)] == before[&folder.join(name)], "{name} changed");
    }
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let event = session(&output, Agent::Cursor, "0b1f7c3e-1111-4c55-9e8a-123456789abc");
    assert_eq!(event.title, "Speed up the importer");
    assert_eq!(event.cwd.as_deref(), Some(Path::new("/work/api")));
    // No time per message: the two typed prompts are spread from `createdAt` to the file's time.
    assert_eq!(event.prompts, times(&["2026-05-04T09:00:00Z", "2026-05-04T09:30:00Z"]));
    assert_eq!(event.activity, times(&["2026-05-04T09:00:00Z", "2026-05-04T09:30:00Z"]));
    assert_eq!(event.models, vec!["gpt-5".to_owned()]);
    assert_eq!(status(&output, Agent::Cursor).files, 1);
}

#[test]
fn an_unnamed_cli_chat_is_titled_by_its_first_query() {
    let home = Home::new();
    let path = cli_chat(
        &home,
        "c2",
        "/work/api",
        "New Agent",
        "2026-05-04T09:00:00Z",
        &[user("<user_info>x</user_info><user_query>add a retry</user_query>")],
    );
    set_mtime(&path, ts("2026-05-04T09:00:00Z"));
    let output = home.read(Agent::Cursor, ts("2026-05-04T00:00:00Z"));
    assert_eq!(session(&output, Agent::Cursor, "c2").title, "add a retry");
}

#[test]
fn an_old_chat_store_is_not_opened() {
    let home = Home::new();
    let path = home.write(".cursor/chats/aa/c3/store.db", b"garbage, not a database");
    set_mtime(&path, ts("2026-04-01T00:00:00Z"));
    let output = home.read(Agent::Cursor, ts("2026-05-04T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    set_mtime(&path, ts("2026-05-04T01:00:00Z"));
    let output = home.read(Agent::Cursor, ts("2026-05-04T00:00:00Z"));
    assert_eq!(output.warnings.len(), 1, "{:?}", output.warnings);
    assert!(en(&output.warnings[0]).contains("store.db"));
}

fn slug_of(path: &Path) -> String {
    path.to_string_lossy()
        .trim_start_matches('/')
        .chars()
        .map(|character| if character.is_ascii_alphanumeric() { character } else { '-' })
        .collect()
}

#[test]
fn agent_transcripts_are_read_with_the_cwd_from_the_slug() {
    let home = Home::new();
    let project = home.path().join("work/my.proj-x");
    fs_err::create_dir_all(&project).expect("project folder");
    let folder = format!(".cursor/projects/{}/agent-transcripts", slug_of(&project));
    let line = |role: &str, text: &str| {
        json!({"role": role, "message": {"content": [{"type": "text", "text": text}]}}).to_string()
            + "\n"
    };
    let jsonl = [
        line("user", "<user_info>\nOS: linux\n</user_info>\n<user_query>\nadd a health check\n</user_query>"),
        line("assistant", "Adding it."),
        json!({"role": "user", "message": {"content": [{"type": "tool_result", "tool_use_id": "t", "content": "ok"}]}})
            .to_string()
            + "\n",
        "{not json\n".to_owned(),
        line("user", "<user_query>now test it</user_query>"),
    ]
    .concat();
    let path = home.write(&format!("{folder}/t1.jsonl"), &jsonl);
    set_mtime(&path, ts("2026-05-04T10:00:00Z"));
    // The same session as plain text: not read again.
    let txt =
        home.write(&format!("{folder}/t1.txt"), "user:\n<user_query>\nother\n</user_query>\n");
    set_mtime(&txt, ts("2026-05-04T10:00:00Z"));
    let nested = home.write(
        &format!("{folder}/t2/t2.jsonl"),
        line("user", "<user_query>rename the crate</user_query>"),
    );
    set_mtime(&nested, ts("2026-05-04T11:00:00Z"));
    let plain = home.write(
        &format!("{folder}/t3.txt"),
        "user:\n<user_query>\nexplain the lexer\n</user_query>\n\nassistant:\n[Thinking] hmm\nIt tokenizes.\n\nuser:\n<user_query>\nthanks\n</user_query>\n",
    );
    set_mtime(&plain, ts("2026-05-04T12:00:00Z"));

    let output = home.read(Agent::Cursor, ts("2026-05-04T00:00:00Z"));

    let t1 = session(&output, Agent::Cursor, "t1");
    assert_eq!(t1.title, "add a health check");
    assert_eq!(t1.cwd.as_deref(), Some(project.as_path()), "decoded from the slug");
    assert_eq!(t1.activity, times(&["2026-05-04T10:00:00Z"]), "the file's time");
    assert_eq!(session(&output, Agent::Cursor, "t2").title, "rename the crate");
    assert_eq!(session(&output, Agent::Cursor, "t3").title, "explain the lexer");
    assert_eq!(output.events.len(), 3);
    assert_eq!(output.warnings.len(), 1, "the malformed line: {:?}", output.warnings);
    assert!(en(&output.warnings[0]).contains("t1.jsonl"));
    // One transcript per session id, the `.txt` of `t1` not counted again.
    assert_eq!(status(&output, Agent::Cursor).files, 3);
}

#[test]
fn old_transcripts_are_not_opened() {
    let home = Home::new();
    let path = home.write(".cursor/projects/x/agent-transcripts/t9.jsonl", "{broken\n{broken\n");
    set_mtime(&path, ts("2026-04-01T00:00:00Z"));
    let output = home.read(Agent::Cursor, ts("2026-05-04T00:00:00Z"));
    assert!(output.warnings.is_empty() && output.events.is_empty(), "{:?}", output.warnings);
}

const TOKEN: &str = "eyJhbGciOiJIUzI1NiJ9.secret-cursor-access-token";

const KV_SCHEMA: &str = "CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);";

fn ide_home() -> Home {
    let home = Home::new();
    let user = home.path().join(".config/Cursor/User");
    let workspace =
        crate::support::wal_database(&user.join("workspaceStorage/5f2a/state.vscdb"), KV_SCHEMA);
    workspace
        .execute(
            "INSERT INTO ItemTable (key, value) VALUES ('composer.composerData', ?1)",
            [json!({"allComposers": [{"composerId": "cmp-1", "name": "From the workspace",
                    "createdAt": ms("2026-05-04T09:00:00Z"), "lastUpdatedAt": ms("2026-05-04T09:20:00Z")}],
                    "selectedComposerIds": ["cmp-1"]}).to_string()],
        )
        .expect("workspace composers");
    leave(workspace);
    home.write(
        ".config/Cursor/User/workspaceStorage/5f2a/workspace.json",
        json!({"folder": "file:///work/ide%20proj"}).to_string(),
    );
    let global = crate::support::wal_database(&user.join("globalStorage/state.vscdb"), KV_SCHEMA);
    global
        .execute(
            "INSERT INTO ItemTable (key, value) VALUES ('cursorAuth/accessToken', ?1)",
            [TOKEN],
        )
        .expect("token");
    let put = |key: &str, value: serde_json::Value| {
        global
            .execute(
                "INSERT INTO cursorDiskKV (key, value) VALUES (?1, ?2)",
                params![key, value.to_string()],
            )
            .expect("kv");
    };
    put(
        "composerData:cmp-1",
        json!({"_v": 10, "composerId": "cmp-1", "name": "Add OAuth login",
               "createdAt": ms("2026-05-04T09:00:00Z"), "lastUpdatedAt": ms("2026-05-04T09:20:00Z"),
               "modelConfig": {"modelName": "claude-4.5-sonnet", "maxMode": false},
               "fullConversationHeadersOnly": [{"bubbleId": "b1", "type": 1}, {"bubbleId": "b2", "type": 2},
                                               {"bubbleId": "b3", "type": 1}]}),
    );
    put(
        "bubbleId:cmp-1:b1",
        json!({"_v": 3, "type": 1, "bubbleId": "b1", "text": "add oauth login",
                                    "createdAt": "2026-05-04T09:00:05.000Z", "attachedCodeChunks": []}),
    );
    put(
        "bubbleId:cmp-1:b2",
        json!({"_v": 3, "type": 2, "bubbleId": "b2", "text": "Done.",
                                    "createdAt": "2026-05-04T09:01:00.000Z",
                                    "modelInfo": {"modelName": "default"}}),
    );
    // A reply from before the window: neither its time nor its model is today's.
    put(
        "bubbleId:cmp-1:b0",
        json!({"_v": 3, "type": 2, "bubbleId": "b0", "text": "Earlier.",
               "createdAt": "2026-05-03T09:01:00.000Z", "modelInfo": {"modelName": "gpt-4.1"}}),
    );
    put(
        "bubbleId:cmp-1:b3",
        json!({"_v": 3, "type": 1, "bubbleId": "b3", "text": "and logout",
                                    "createdAt": "2026-05-04T09:19:00.000Z"}),
    );
    put(
        "composerData:cmp-old",
        json!({"composerId": "cmp-old", "name": "Last month", "createdAt": ms("2026-04-01T09:00:00Z"),
               "lastUpdatedAt": ms("2026-04-01T10:00:00Z")}),
    );
    put(
        "bubbleId:cmp-old:b1",
        json!({"type": 1, "text": "old", "createdAt": "2026-04-01T09:00:00.000Z"}),
    );
    global
        .execute(
            "INSERT INTO cursorDiskKV (key, value) VALUES ('composerData:cmp-bad', ?1)",
            ["{not json"],
        )
        .expect("bad row");
    put(
        "composerData:cmp-2",
        json!({"composerId": "cmp-2", "createdAt": ms("2026-05-04T11:00:00Z"),
               "conversation": [{"type": 1, "bubbleId": "x", "text": "inline prompt",
                                 "createdAt": "2026-05-04T11:00:01.000Z"}]}),
    );
    leave(global);
    home
}

#[test]
fn ide_composers_are_read_from_the_global_and_workspace_databases() {
    let home = ide_home();
    let output = home.read(Agent::Cursor, ts("2026-05-04T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let event = session(&output, Agent::Cursor, "cmp-1");
    assert_eq!(event.title, "Add OAuth login");
    assert_eq!(event.cwd.as_deref(), Some(Path::new("/work/ide proj")));
    assert_eq!(event.prompts, times(&["2026-05-04T09:00:05Z", "2026-05-04T09:19:00Z"]));
    assert_eq!(
        event.activity,
        times(&[
            "2026-05-04T09:00:00Z",
            "2026-05-04T09:00:05Z",
            "2026-05-04T09:01:00Z",
            "2026-05-04T09:19:00Z",
            "2026-05-04T09:20:00Z"
        ])
    );
    assert_eq!(event.models, vec!["claude-4.5-sonnet".to_owned()]);
    let inline = session(&output, Agent::Cursor, "cmp-2");
    assert_eq!(inline.title, "inline prompt");
    assert_eq!(inline.prompts, times(&["2026-05-04T11:00:01Z"]));
    assert!(output.events.iter().all(|event| event.session_id != "cmp-old"));
    assert_eq!(status(&output, Agent::Cursor).files, 1, "the global database");
}

#[test]
fn the_login_token_never_comes_out() {
    let home = ide_home();
    let output = home.read(Agent::Cursor, ts("2020-01-01T00:00:00Z"));
    let everything = format!("{output:?}");
    assert!(!everything.contains("secret-cursor-access-token"), "the token leaked: {everything}");
    assert!(!everything.contains("cursorAuth"));
    // Even an unreadable global database names only its path.
    let global = home.path().join(".config/Cursor/User/globalStorage/state.vscdb");
    fs_err::write(&global, format!("not sqlite {TOKEN}")).expect("corrupt");
    let _ = fs_err::remove_file(PathBuf::from(format!("{}-wal", global.display())));
    let _ = fs_err::remove_file(PathBuf::from(format!("{}-shm", global.display())));
    let output = home.read(Agent::Cursor, ts("2020-01-01T00:00:00Z"));
    let everything = format!("{output:?}");
    assert!(!everything.contains("secret-cursor-access-token"), "the token leaked: {everything}");
    assert!(output.warnings.iter().any(|warning| en(warning).contains("state.vscdb")));
}

#[test]
fn an_old_global_database_is_not_opened() {
    let home = Home::new();
    let path = home.write(".config/Cursor/User/globalStorage/state.vscdb", b"garbage");
    set_mtime(&path, ts("2026-04-01T00:00:00Z"));
    // A workspace's database as old is not opened either.
    let workspace = home.write(".config/Cursor/User/workspaceStorage/5f2a/state.vscdb", b"garbage");
    set_mtime(&workspace, ts("2026-04-01T00:00:00Z"));
    let output = home.read(Agent::Cursor, ts("2026-05-04T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert!(status(&output, Agent::Cursor).found);
}

#[test]
fn a_missing_cursor_is_silent() {
    let home = Home::new();
    let output = home.read(Agent::Cursor, ts("2026-05-04T00:00:00Z"));
    assert!(output.events.is_empty() && output.warnings.is_empty());
    assert!(!status(&output, Agent::Cursor).found);
}

#[test]
fn a_chat_whose_store_is_old_and_its_wal_fresh_is_read_until_the_wal() {
    let home = Home::new();
    let path = cli_chat(
        &home,
        "c4",
        "/work/api",
        "Port the importer",
        "2026-05-04T09:00:00Z",
        &[user("<user_query>first</user_query>"), user("<user_query>second</user_query>")],
    );
    // The database file last written before the window; the rows since, in the `-wal`.
    set_mtime(&path, ts("2026-05-03T12:00:00Z"));
    set_mtime(&PathBuf::from(format!("{}-wal", path.display())), ts("2026-05-04T10:00:00Z"));
    let output = home.read(Agent::Cursor, ts("2026-05-04T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let event = session(&output, Agent::Cursor, "c4");
    assert_eq!(event.prompts, times(&["2026-05-04T09:00:00Z", "2026-05-04T10:00:00Z"]));
    let cursor = status(&output, Agent::Cursor);
    assert_eq!((cursor.files, cursor.entries), (1, 1));
}

#[test]
fn a_global_database_without_composers_is_read_as_none() {
    let home = Home::new();
    let user = home.path().join(".config/Cursor/User");
    // An install that never opened a composer: no `cursorDiskKV` table yet.
    let global = crate::support::wal_database(
        &user.join("globalStorage/state.vscdb"),
        "CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);",
    );
    leave(global);
    let output = home.read(Agent::Cursor, ts("2026-05-04T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert!(output.events.is_empty());
    assert_eq!(status(&output, Agent::Cursor).files, 1);
}
