//! The kinds of secret gitleaks' examples showed the rules letting through (issue
//! "Nothing hangs, nothing is lost", item 10): each is masked, in the forms it comes in.

use crate::{ALNUM, BASE64, HEX, URLSAFE, builtin, random};

/// `text` with `{}` replaced by `secret` must lose the secret, and come out as `expected`
/// (with `{}` as the mask) when given.
#[track_caller]
fn masks(text: &str, secret: &str, expected: Option<&str>) {
    let input = text.replace("{}", secret);
    let (out, n_masked) = builtin().redact(&input);
    assert!(n_masked > 0 && !out.contains(secret), "not masked: {input:?} -> {out:?}");
    if let Some(expected) = expected {
        assert_eq!(out, expected, "{input:?}");
    }
}

#[test]
fn groq_keys() {
    let key = format!("gsk_{}", random(ALNUM, 48, 101));
    masks("GROQ_API_KEY={}", &key, Some("GROQ_API_KEY=[REDACTED:groq-api-key]"));
    masks("client = Groq(api_key=\"{}\")", &key, None);
    masks("groqToken := `{}`", &key, None);
}

#[test]
fn discord_bot_tokens() {
    let token = format!(
        "MT{}.{}.{}",
        random(URLSAFE, 24, 102),
        random(URLSAFE, 6, 103),
        random(URLSAFE, 38, 104)
    );
    masks("DISCORD_BOT_TOKEN={}", &token, None);
    masks("Authorization: Bot {}", &token, None);
    masks("discordToken := `{}`", &token, None);
    masks("<discordToken>\n    {}\n</discordToken>", &token, None);
}

#[test]
fn aws_secret_access_keys_in_environment_and_config_forms() {
    let key = random(BASE64, 40, 105);
    masks("export AWS_SECRET_ACCESS_KEY={}", &key, None);
    masks("aws_secret_access_key = {}", &key, None);
    masks(
        "[default]\naws_access_key_id = AKIAQWERTYUIOPASDFGH\naws_secret_access_key={}\n",
        &key,
        None,
    );
    masks("\"SecretAccessKey\": \"{}\",", &key, None);
    masks("AWS_SECRET_KEY: {}", &key, None);
    masks("var awsSecretKey string = \"{}\"", &key, None);
}

#[test]
fn password_cli_flags_and_config_literals() {
    masks("psql --password {} -h db", "Xk9#mQ2vL7pR", None);
    masks("app --password={} --verbose", "Xk9mQ2vL7pR", None);
    masks("keytool -storepass {} -list", "Xk9mQ2vL7pR", None);
    masks("DB_PASSWORD ?= \"{}\"", "Xk9mQ2vL7pR", None);
    masks("$password .= \"{}\";", "Xk9mQ2vL7pR", None);
    masks("password: \"{}\"", "Xk9mQ2vL7pR", None);
    masks("<add key=\"x\" password=\"{}\" />", "Xk9mQ2vL7pR", None);
}

#[test]
fn cloudflare_api_tokens() {
    let token = random(URLSAFE, 40, 106);
    masks("CLOUDFLARE_API_TOKEN={}", &token, None);
    masks("cf_api_token: \"{}\"", &token, None);
    masks("System.setProperty(\"CLOUDFLARE_API_KEY\", \"{}\")", &token, None);
    masks("<cloudflareToken>\n    {}\n</cloudflareToken>", &token, None);
}

#[test]
fn credentials_in_https_urls() {
    masks(
        "git clone https://deploy:{}@git.example.com/repo.git",
        "Xk9mQ2vL7pRz",
        Some("git clone https://deploy:[REDACTED:url-credentials]@git.example.com/repo.git"),
    );
    masks("DATABASE_URL=postgres://app:{}@db:5432/app", "Xk9mQ2vL7pRz", None);
    masks("https://{}@github.com/org/repo", &format!("ghp_{}", random(ALNUM, 36, 107)), None);
}

#[test]
fn curl_user_in_every_quoting() {
    for text in [
        "curl -u admin:{} https://api.example.com",
        "curl -u 'admin:{}' https://api.example.com",
        "curl -u \"admin:{}\" https://api.example.com",
        "curl --user admin:{} https://api.example.com",
        "curl --user=admin:{} https://api.example.com",
        "curl --user 'admin:{}' https://api.example.com",
        "curl --user \"admin:{}\" https://api.example.com",
        "curl -sS -X POST -uadmin:{} https://api.example.com",
    ] {
        masks(text, "Xk9mQ2vL7pRz", None);
    }
}

#[test]
fn authorization_headers() {
    let token = random(URLSAFE, 32, 108);
    for scheme in ["Basic", "Bearer", "Token", "Api-Token", "bearer"] {
        masks(&format!("curl -H \"Authorization: {scheme} {{}}\" https://x"), &token, None);
        masks(&format!("Authorization: {scheme} {{}}"), &token, None);
    }
    masks("headers = {\"Authorization\": \"Bearer {}\"}", &token, None);
}

#[test]
fn facebook_and_meta_tokens() {
    let token = format!("EAAC{}", random(ALNUM, 120, 109));
    masks("FB_ACCESS_TOKEN={}", &token, None);
    masks("graph.facebook.com/me?access_token={}", &token, None);
    let app_secret = random(HEX, 32, 110);
    masks("facebook_app_secret = \"{}\"", &app_secret, None);
}

#[test]
fn sourcegraph_tokens() {
    masks(
        "SRC_ACCESS_TOKEN={}",
        &format!("sgp_{}", random(HEX, 40, 111)),
        Some("SRC_ACCESS_TOKEN=[REDACTED:sourcegraph-access-token]"),
    );
    masks("token {}", &format!("sgp_{}_{}", random(HEX, 16, 112), random(HEX, 40, 113)), None);
}

#[test]
fn vault_tokens() {
    masks("VAULT_TOKEN={}", &format!("hvs.{}", random(URLSAFE, 90, 114)), None);
    masks("vault login {}", &format!("hvs.{}", random(URLSAFE, 24, 115)), None);
    masks("export VAULT_TOKEN={}", &format!("s.{}", random(ALNUM, 24, 116)), None);
    masks("vault_token: {}", &format!("s.{}", random(ALNUM, 24, 117)), None);
}

#[test]
fn random_values_assigned_to_secret_like_names() {
    masks(
        "export TOKEN_4={}",
        &random(ALNUM, 16, 118),
        Some("export TOKEN_4=[REDACTED:generic-assignment]"),
    );
    masks("API_SECRET_2={} ./run", &random(ALNUM, 24, 119), None);
    masks("nonMatchingToken := \"{}\"", &random(ALNUM, 32, 120), None);
    // Not random-looking: left alone.
    for text in
        ["export TOKEN_4=$(cat token.txt)", "TOKEN_FILE=/run/secrets/token", "token = changeme"]
    {
        assert_eq!(builtin().redact(text).0, text);
    }
}
