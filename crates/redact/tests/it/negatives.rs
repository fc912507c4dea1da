//! Text that looks a little like a secret and must come through untouched.

use std::borrow::Cow;

use crate::builtin;

#[track_caller]
fn check_untouched(texts: &[&str]) {
    let redactor = builtin();
    for &text in texts {
        let (masked, n_masked) = redactor.redact(text);
        assert!(matches!(masked, Cow::Borrowed(_)) && n_masked == 0, "{text:?} became {masked:?}");
    }
}

#[test]
fn git_object_ids() {
    check_untouched(&[
        "3f2a9c8e1b7d4a6f0e5c2b9a8d7f6e5c4b3a2918",
        "git cherry-pick 3f2a9c8e1b7d4a6f0e5c2b9a8d7f6e5c4b3a2918",
        "https://github.com/o/r/commit/3f2a9c8e1b7d4a6f0e5c2b9a8d7f6e5c4b3a2918",
        "Merge 3f2a9c8 into main",
    ]);
}

#[test]
fn uuids() {
    check_untouched(&[
        "550e8400-e29b-41d4-a716-446655440000",
        "request id 7C9E6679-7425-40DE-944B-E07FC1F90AE7 failed",
    ]);
}

#[test]
fn hashes_and_digests() {
    check_untouched(&[
        "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "docker pull ghcr.io/o/app@sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "md5 d41d8cd98f00b204e9800998ecf8427e",
        "integrity sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg==",
    ]);
}

#[test]
fn base64_of_ordinary_words() {
    check_untouched(&[
        "aGVsbG8gd29ybGQsIHRoaXMgaXMgb3JkaW5hcnkgdGV4dA==",
        "echo aGVsbG8= | base64 -d",
    ]);
}

#[test]
fn paths() {
    check_untouched(&[
        "/home/user/projects/standup/crates/redact/src/lib.rs",
        "vim src/auth/token_refresh.rs",
        "cat ~/.config/gh/hosts.yml",
        "ls -la ~/.ssh",
        "C:\\Users\\me\\AppData\\Local\\token-cache\\state.json",
    ]);
}

#[test]
fn versions() {
    check_untouched(&[
        "v1.2.3",
        "1.0.0-beta.1",
        "rustc 1.85.0 (4d91de4e4 2025-02-17)",
        "bump serde from 1.0.219 to 1.0.228",
    ]);
}

#[test]
fn long_identifiers() {
    check_untouched(&[
        "this_is_a_very_long_function_name_with_many_parts",
        "getAccessTokenFromEnvironmentOrConfigFile",
        "AbstractSingletonProxyFactoryBean",
        "test_redacts_password_in_connection_string",
        "hf_hub_download",
    ]);
}

#[test]
fn urls_without_credentials() {
    check_untouched(&[
        "https://github.com/gitleaks/gitleaks/blob/master/config/gitleaks.toml",
        "https://example.com/search?q=token&page=2",
        "curl -s https://api.github.com/repos/o/r | jq .",
        "ssh://git@github.com/o/r.git",
        "git@github.com:o/r.git",
        "https://user@example.com/",
        "http://localhost:8080/health",
    ]);
}

#[test]
fn ssh_public_keys() {
    check_untouched(&[
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHh7Ta1iFAKE0ed25519PublicKeyOnlyForTestsXyz user@host",
        "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7FAKEpublicKeyForTestsOnly+abcdefghijklmnopqrstuvwxyz0123456789/ABCDEFGHIJKLMNOPQRSTUVWXYZ me@laptop",
        "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBFAKE= me@laptop",
    ]);
}

#[test]
fn the_word_password_without_a_value() {
    check_untouched(&[
        "git commit -m \"reset password flow\"",
        "password:",
        "Enter password:",
        "Password: ",
        "forgot password? link added",
        "docs: explain the password reset flow",
        "パスワードをリセットする機能を追加",
        "secret: ",
    ]);
}

#[test]
fn ordinary_shell_history_and_commit_subjects() {
    check_untouched(&[
        "cargo test -p redact",
        "kubectl get secrets -n prod",
        "kubectl create secret generic db --from-literal=password=$DB_PASSWORD",
        "gh auth token",
        "gh auth login",
        "docker login ghcr.io",
        "git log --author=me --since=yesterday",
        "export PATH=$HOME/.cargo/bin:$PATH",
        "npm run build -- --mode=production",
        "aws s3 ls s3://bucket --profile dev",
        "openssl rand -hex 32",
        "fix(auth): refresh token before expiry",
        "feat: add --token flag to login",
        "Merge branch 'feature/api-key-rotation'",
        "refactor: split AuthTokenProvider into two traits",
        "task-runner: skip flaky test",
        "desk-booking: add calendar view",
        "set TZ=Asia/Tokyo",
        "the bot restarted",
        "ratio 16:9 at 12:30",
    ]);
}

#[test]
fn stand_ins_are_not_secrets() {
    check_untouched(&[
        // Positional parameters.
        "curl -u \"$1:$2\" https://ci.example.com",
        "git clone https://$1:$2@git.example.com/r.git",
        "curl -u \"${1}:${2}\" https://ci.example.com",
        "mysql -u root -p\"$1\" shop",
        "export DB_PASSWORD=$1",
        "sshpass -p \"$@\" ssh host",
        // Bracketed stand-ins.
        "https://<user:password>@git.example.com/r.git",
        "curl -u <user:password> https://ci.example.com",
        "curl -u '<user>:<password>' https://ci.example.com",
        "--password [PASSWORD]",
        "password=[PASSWORD]",
        "https://user:[PASSWORD]@host.example",
        "docker login -u me -p [TOKEN] r.example",
        // Words and filler.
        "curl -u user:pass https://ci.example.com",
        "https://user:pass@host.example/db",
        "curl -u xxx:yyy https://ci.example.com",
        "https://xxx:yyy@host.example",
        "postgres://user:password@localhost/db",
        "sshpass -p password ssh host",
        "app --password pass",
        // Documented example keys.
        "AKIAIOSFODNN7EXAMPLE",
        "export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE",
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "AKIAI44QH8DHBEXAMPLE",
    ]);
}
