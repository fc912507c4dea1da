//! The classes of false positive gitleaks' rule examples showed (issue "Nothing hangs,
//! nothing is lost", item 10, round 9): each near miss comes through untouched, and the
//! real secret next to it is still masked, so each test fails if the rule goes either
//! way. The texts are our own, in the shapes the classes take.

use std::borrow::Cow;

use crate::{ALNUM, builtin, random};

#[track_caller]
fn untouched(text: &str) {
    let (out, n_masked) = builtin().redact(text);
    assert!(matches!(out, Cow::Borrowed(_)) && n_masked == 0, "{text:?} became {out:?}");
}

#[track_caller]
fn masked(text: &str, secret: &str) {
    let (out, n_masked) = builtin().redact(text);
    assert!(n_masked > 0 && !out.contains(secret), "not masked: {text:?} -> {out:?}");
}

#[test]
fn the_alphabet_typed_out_is_a_made_up_value() {
    untouched(r#"stripe_secret = "sk_live_abcdefghijklmnopqrstuvwx01""#);
    untouched("GOOGLE_KEY=AIzaSyQRSTUVWXYZabcd-1234567890_efgh12");
    // Nine letters in a row happen; a random key is still masked.
    let key = format!("AIzaSy{}", random(ALNUM, 33, 91));
    masked(&format!("GOOGLE_KEY={key}"), &key);
    masked(r#"stripe_secret = "sk_live_abcdefghiQ7Lm2Xw9PzK4rT8vB1nYc""#, "sk_live_abcdefghiQ7");
}

#[test]
fn words_after_a_token_prefix_are_a_made_up_value() {
    untouched("SLACK_CONFIG_TOKEN=xoxe.xoxp-1-PutTheConfigurationTokenHere");
    untouched(r#"<xs:attribute name="token" type="ns42:PaymentReferenceCodeType"/>"#);
    // A passphrase without a separator is a secret.
    masked(r#"password = "MarbleOrchidTundraLantern""#, "MarbleOrchidTundraLantern");
}

#[test]
fn nested_quotes_and_markup_are_not_values() {
    // The first quoted "value" is the start of another assignment, or of a tag.
    untouched(r#"api_token = "api_token = ""#);
    untouched(r#"auth_token = "<xs:element name="TokenValue" minOccurs="0"/>""#);
    masked(r#"api_token = "q8Zr2LmX0vT5nWk3Jd7Hs1Fy""#, "q8Zr2LmX0vT5nWk3Jd7Hs1Fy");
}

#[test]
fn the_name_of_a_secret_is_not_a_secret() {
    untouched("GET /v1/users?access_token=ACCESS_TOKEN");
    untouched("  - secretKey: db-password");
    untouched("password=DB_PASSWORD");
    masked("GET /v1/users?access_token=Xk29fLq81ZmN40wPa7Rt", "Xk29fLq81ZmN40wPa7Rt");
    masked("  - secretKey: db-password-7Qx!", "db-password-7Qx!");
}

#[test]
fn public_and_anti_forgery_values_are_not_secrets() {
    untouched(r#"publicToken = "Qm7tR2xK9pL4vN8sW1zY3bH6""#);
    untouched("NEXT_PUBLIC_MAPS_API_KEY=Wq3Lr8Zk2Xp7Tn4Vb9Ms1Yc6");
    untouched(r#"<meta name="csrf-token" content="x"> csrf_token=Hd82kLq0ZpW5mXr9Tn3Bv7Ys"#);
    masked(r#"privateToken = "Qm7tR2xK9pL4vN8sW1zY3bH6""#, "Qm7tR2xK9pL4vN8sW1zY3bH6");
    masked("MAPS_API_KEY=Wq3Lr8Zk2Xp7Tn4Vb9Ms1Yc6", "Wq3Lr8Zk2Xp7Tn4Vb9Ms1Yc6");
}

#[test]
fn slack_prefixes_followed_by_words_or_filler_are_not_tokens() {
    untouched("set SLACK_BOT to xoxb-your-bot-token-goes-here");
    untouched("xoxb-00000-xxxxxxxxxxxxxxxxxxxx");
    untouched("ticket 2019-xoxo-hugs-3.png");
    untouched("xoxp-736291048-736291048-736291048-????????");
    let bot = format!("xoxb-7362910485-8150273649-{}", random(ALNUM, 24, 17));
    masked(&format!("bot {bot}"), &bot);
    let user = format!("xoxp-7362910485-8150273649-5294810637-{}", random(ALNUM, 32, 18));
    masked(&format!("user {user}"), &user);
}

#[test]
fn a_service_name_must_be_a_word_of_the_name() {
    // `sumOf…` is not Sumo Logic.
    let value = random(ALNUM, 64, 23);
    untouched(&format!("sumOfWeights = {value};"));
    masked(&format!("SUMO_ACCESS_KEY={value}"), &value);
}

#[test]
fn a_token_shape_inside_a_longer_name_is_not_a_token() {
    // A file name with an `ico-` stem, an Azure-like secret too long to be one, a
    // Sentry-like token with a 42-character secret, a Telegram-like token with a word
    // glued to it.
    let hex = "4f7a1c9e0b2d8f3a6c5e7b9d1a0f2c4e";
    untouched(&format!("/static/favicon.ico-{hex}.svg"));
    masked(&format!("infracost key ico-{hex} set"), &format!("ico-{hex}"));
    let azure = format!("Ab3{}Q~{}", 7, random(ALNUM, 40, 29));
    untouched(&format!("id={azure},rest"));
    let azure = format!("Ab37Q~{}", random(ALNUM, 34, 29));
    masked(&format!("client_secret: {azure}"), &azure);
    let json = "eyJpYXQiOjE3MDAwMDAwMDAsInVybCI6Imh0dHBzOi8vc2VudHJ5LmlvIiwib3JnIjoiYWNtZSJ9";
    untouched(&format!("sntrys_{json}_{}", random(ALNUM, 42, 31)));
    let sentry = format!("sntrys_{json}_{}", random(ALNUM, 43, 31));
    masked(&format!("SENTRY_AUTH={sentry}"), &sentry);
    let telegram = format!("5829103746:A{}", random(ALNUM, 34, 37));
    untouched(&format!("bot {telegram}-and-more-words"));
    masked(&format!("bot {telegram}"), &telegram);
}

#[test]
fn dotted_tokens_are_not_code_paths() {
    // `pk.<long>.<long>` (a Mapbox token) is a value, `settings.api_key` a reference.
    // Parts starting with a letter, as identifiers do.
    let token = format!("pk.k{}.q{}", random(ALNUM, 59, 41), random(ALNUM, 21, 43));
    masked(&format!("mapbox_token = \"{token}\""), &token);
    untouched("mapbox_token = settings.api_key");
}
