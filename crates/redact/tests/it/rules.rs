//! One true positive and one near miss for every built-in rule, and the token
//! boundaries.

use std::collections::BTreeSet;

use crate::{ALNUM, BASE64, HEX, URLSAFE, builtin, random};

/// A test case for one rule.
struct Case {
    id: &'static str,
    /// Text holding a secret that `id` must mask.
    positive: String,
    /// The secret: it must not survive redaction.
    secret: String,
    /// When the rule matches the secret on its own: test it against every follower.
    bare: bool,
    /// Text that looks close but must come through untouched.
    negative: String,
}

fn case(id: &'static str, positive: &str, secret: &str, negative: &str) -> Case {
    Case {
        id,
        positive: positive.replace("{}", secret),
        secret: secret.to_owned(),
        bare: false,
        negative: negative.to_owned(),
    }
}

/// A bare token: the positive is the token in a sentence.
fn token(id: &'static str, secret: &str, negative: &str) -> Case {
    Case { bare: true, ..case(id, "the token {} was pasted", secret, negative) }
}

/// `prefix` + "FAKE" + random characters, `len` after the prefix.
fn fake(prefix: &str, alphabet: &str, len: usize, seed: u64) -> String {
    format!("{prefix}FAKE{}", random(alphabet, len - 4, seed))
}

fn hex(len: usize, seed: u64) -> String {
    format!("deadbeef{}", random(HEX, len - 8, seed))
}

fn digits(len: usize, seed: u64) -> String {
    random("0123456789", len, seed)
}

const BASE32: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const BECH32_UPPER: &str = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L";
const JWT_HEADER: &str = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9";
const JWT_PAYLOAD: &str =
    "eyJzdWIiOiJmYWtlLXVzZXIiLCJuYW1lIjoiRmFrZSBVc2VyIiwiaWF0IjoxNzAwMDAwMDAwfQ";

const UPPER_ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const LOWER_ALNUM: &str = "abcdefghijklmnopqrstuvwxyz0123456789";

fn uuid(seed: u64) -> String {
    format!(
        "{}-{}-{}-{}-{}",
        random(HEX, 8, seed),
        random(HEX, 4, seed + 1),
        random(HEX, 4, seed + 2),
        random(HEX, 4, seed + 3),
        random(HEX, 12, seed + 4)
    )
}

/// A value next to a service's name: the positive assigns it to `name`; the near miss
/// assigns a 7-character value (shorter than any of these formats) to `<service>_ID`.
fn named(id: &'static str, name: &str, value: &str, seed: u64) -> Case {
    let service = name.split(['_', '.']).next().unwrap_or(name);
    Case {
        id,
        positive: format!("export {name}={value} && ./deploy"),
        secret: value.to_owned(),
        bare: false,
        negative: format!("export {service}_ID={} && ./deploy", random(ALNUM, 7, seed)),
    }
}

/// The rows of the formats taken from gitleaks' default rules.
#[expect(clippy::too_many_lines, reason = "one row per rule")]
fn gitleaks_cases() -> Vec<Case> {
    let teams = format!(
        "{}@{}/IncomingWebhook/{}/{}",
        uuid(200),
        uuid(205),
        fake("", ALNUM, 32, 210),
        uuid(211)
    );
    vec![
        token(
            "1password-secret-key",
            &format!(
                "A3-{}-{}-{}-{}-{}",
                random(UPPER_ALNUM, 6, 101),
                random(UPPER_ALNUM, 11, 102),
                random(UPPER_ALNUM, 5, 103),
                random(UPPER_ALNUM, 5, 104),
                random(UPPER_ALNUM, 5, 105)
            ),
            "A3-ABCDEF-SHORT",
        ),
        token("adobe-client-secret", &fake("p8e-", ALNUM, 32, 106), &fake("p8e-", ALNUM, 20, 106)),
        token(
            "alibaba-access-key-id",
            &fake("LTAI", ALNUM, 20, 107),
            &fake("LTAI", ALNUM, 10, 107),
        ),
        token("artifactory-token", &fake("AKCp", ALNUM, 69, 108), &fake("AKCp", ALNUM, 40, 108)),
        token(
            "authress-access-key",
            &format!(
                "sc_{}.{}.acc_{}.{}",
                random(ALNUM, 10, 109),
                random(ALNUM, 5, 110),
                random(ALNUM, 12, 111),
                fake("", URLSAFE, 40, 112)
            ),
            "sc_abc.def.acc_x.y",
        ),
        token(
            "clickhouse-cloud-api-secret",
            &fake("4b1d", ALNUM, 38, 113),
            &fake("4b1d", ALNUM, 20, 113),
        ),
        token("clojars-api-token", &fake("CLOJARS_", ALNUM, 60, 114), "CLOJARS_FAKE"),
        token(
            "defined-networking-api-token",
            &format!("dnkey-{}-{}", fake("", ALNUM, 26, 115), random(ALNUM, 52, 115)),
            "dnkey-FAKE-short",
        ),
        token("duffel-api-token", &fake("duffel_test_", URLSAFE, 43, 116), "duffel_test_FAKE"),
        token(
            "dynatrace-api-token",
            &format!("dt0c01.{}.{}", fake("", ALNUM, 24, 117), random(ALNUM, 64, 117)),
            "dt0c01.FAKE.short",
        ),
        token("easypost-api-token", &fake("EZAK", ALNUM, 54, 118), &fake("EZAK", ALNUM, 30, 118)),
        token(
            "facebook-page-access-token",
            &fake("EAAM", ALNUM, 120, 119),
            &fake("EAAM", ALNUM, 50, 119),
        ),
        token(
            "flutterwave-secret-key",
            &format!("FLWSECK_TEST-{}-X", hex(32, 120)),
            "FLWSECK_TEST-deadbeef-X",
        ),
        token("frameio-api-token", &fake("fio-u-", URLSAFE, 64, 121), "fio-u-FAKE"),
        token(
            "gitlab-runner-registration-token",
            &fake("GR1348941", URLSAFE, 20, 122),
            "GR1348941FAKE",
        ),
        token(
            "harness-api-key",
            &format!(
                "pat.{}.{}.{}",
                fake("", URLSAFE, 22, 123),
                random(ALNUM, 24, 123),
                random(ALNUM, 20, 124)
            ),
            "pat.FAKE.short.x",
        ),
        token("infracost-api-token", &fake("ico-", ALNUM, 32, 125), &fake("ico-", ALNUM, 10, 125)),
        token(
            "intra42-client-secret",
            &format!("s-s4t2ud-{}", hex(64, 126)),
            &format!("s-s4t2ud-{}", hex(20, 126)),
        ),
        token("jwt-base64", &format!("ZXlK{}", fake("", ALNUM, 60, 127)), "ZXlKshort"),
        token(
            "maxmind-license-key",
            &format!("{}_{}_mmk", random(ALNUM, 6, 128), random(ALNUM, 29, 128)),
            "abc_def_mmk",
        ),
        token(
            "octopus-deploy-api-key",
            &format!("API-{}", random(UPPER_ALNUM, 26, 129)),
            "API-SHORT1",
        ),
        token("openshift-user-token", &fake("sha256~", URLSAFE, 43, 130), "sha256~FAKE"),
        token("planetscale-token", &fake("pscale_tkn_", URLSAFE, 43, 131), "pscale_tkn_FAKE"),
        token("prefect-api-token", &fake("pnu_", ALNUM, 36, 132), "pnu_FAKE"),
        token("readme-api-token", &format!("rdme_{}", random(LOWER_ALNUM, 70, 133)), "rdme_short"),
        token("scalingo-api-token", &fake("tk-us-", URLSAFE, 48, 134), "tk-us-FAKE"),
        token(
            "sendinblue-api-token",
            &format!("xkeysib-{}-{}", hex(64, 135), random(ALNUM, 16, 135)),
            &format!("xkeysib-{}", hex(64, 135)),
        ),
        token("settlemint-token", &fake("sm_pat_", ALNUM, 16, 136), "sm_pat_FAKE"),
        token(
            "shippo-api-token",
            &format!("shippo_live_{}", hex(40, 137)),
            &format!("shippo_live_{}", hex(20, 137)),
        ),
        token("sourcegraph-access-token", &format!("sgp_{}", hex(40, 138)), "sgp_deadbeef"),
        token("typeform-api-token", &fake("tfp_", URLSAFE, 59, 139), "tfp_FAKE"),
        case(
            "gitlab-session-cookie",
            "curl -b '_gitlab_session={}' https://gitlab.example.com/api/v4/user",
            &random(LOWER_ALNUM, 32, 140),
            "curl -b '_gitlab_session=short' https://gitlab.example.com/api/v4/user",
        ),
        case(
            "microsoft-teams-webhook",
            "curl -X POST https://acme.webhook.office.com/webhookb2/{} -d @msg.json",
            &teams,
            "see https://acme.webhook.office.com/webhookb2/ for the setup",
        ),
        named("adafruit-api-key", "ADAFRUIT_IO_KEY", &fake("", URLSAFE, 32, 141), 141),
        named("airtable-api-key", "AIRTABLE_KEY", &fake("", ALNUM, 17, 142), 142),
        named("algolia-api-key", "ALGOLIA_ADMIN_KEY", &fake("", ALNUM, 32, 143), 143),
        named("alibaba-secret-key", "ALIBABA_CLOUD_SECRET", &fake("", ALNUM, 30, 144), 144),
        named("asana-client-secret", "ASANA_SECRET", &fake("", ALNUM, 32, 145), 145),
        named(
            "atlassian-context-token",
            "JIRA_API",
            &format!("{}{}", fake("", ALNUM, 20, 146), random(HEX, 4, 146)),
            146,
        ),
        named("beamer-api-token", "BEAMER_KEY", &format!("b_{}", fake("", URLSAFE, 44, 147)), 147),
        named("bitbucket-client-secret", "BITBUCKET_SECRET", &fake("", URLSAFE, 64, 148), 148),
        named("bittrex-key", "BITTREX_KEY", &fake("", ALNUM, 32, 149), 149),
        named("cisco-meraki-api-key", "MERAKI_DASHBOARD_KEY", &hex(40, 150), 150),
        named("codecov-access-token", "CODECOV_UPLOAD", &fake("", ALNUM, 32, 151), 151),
        named("cohere-api-token", "COHERE_KEY", &fake("", ALNUM, 40, 152), 152),
        named("coinbase-access-token", "COINBASE_KEY", &fake("", URLSAFE, 64, 153), 153),
        named("confluent-key", "CONFLUENT_CLOUD_KEY", &fake("", ALNUM, 16, 154), 154),
        named(
            "contentful-delivery-api-token",
            "CONTENTFUL_DELIVERY",
            &fake("", URLSAFE, 43, 155),
            155,
        ),
        named("discord-secret", "DISCORD_CLIENT_SECRET", &hex(64, 156), 156),
        named("droneci-access-token", "DRONE_SERVER_KEY", &fake("", ALNUM, 32, 157), 157),
        named("dropbox-api-token", "DROPBOX_APP_KEY", &fake("", ALNUM, 15, 158), 158),
        named("etsy-access-token", "ETSY_KEYSTRING", &fake("", ALNUM, 24, 159), 159),
        named("facebook-secret", "FACEBOOK_APP_SECRET", &hex(32, 160), 160),
        named("fastly-api-token", "FASTLY_KEY", &fake("", URLSAFE, 32, 161), 161),
        named("finicity-key", "FINICITY_APP_KEY", &hex(32, 162), 162),
        named("finnhub-access-token", "FINNHUB_KEY", &fake("", ALNUM, 20, 163), 163),
        named("flickr-access-token", "FLICKR_KEY", &fake("", ALNUM, 32, 164), 164),
        named("freshbooks-access-token", "FRESHBOOKS_KEY", &fake("", ALNUM, 64, 165), 165),
        named("gitter-access-token", "GITTER_KEY", &fake("", URLSAFE, 40, 166), 166),
        named(
            "gocardless-api-token",
            "GOCARDLESS_ACCESS",
            &format!("live_{}", fake("", URLSAFE, 40, 167)),
            167,
        ),
        named("hubspot-api-key", "HUBSPOT_KEY", &uuid(168).to_uppercase(), 168),
        named("intercom-api-key", "INTERCOM_ACCESS", &fake("", URLSAFE, 60, 169), 169),
        named("jfrog-api-key", "ARTIFACTORY_KEY", &fake("", ALNUM, 73, 170), 170),
        named(
            "kraken-access-token",
            "KRAKEN_PRIVATE_KEY",
            &format!("FAKE{}==", random(BASE64, 82, 171)),
            171,
        ),
        named("kucoin-key", "KUCOIN_KEY", &hex(24, 172), 172),
        named("launchdarkly-access-token", "LAUNCHDARKLY_ACCESS", &fake("", URLSAFE, 40, 173), 173),
        named("linear-client-secret", "LINEAR_CLIENT", &hex(32, 174), 174),
        named("linkedin-client-secret", "LINKEDIN_CLIENT_KEY", &fake("", ALNUM, 16, 175), 175),
        named("lob-api-key", "LOB_KEY", &format!("live_{}", hex(35, 176)), 176),
        named("mattermost-access-token", "MATTERMOST_ACCESS", &fake("", ALNUM, 26, 177), 177),
        named("messagebird-api-token", "MESSAGEBIRD_KEY", &fake("", ALNUM, 25, 178), 178),
        named("new-relic-user-api-id", "NEWRELIC_USER_ID", &fake("", ALNUM, 64, 179), 179),
        named("nytimes-access-token", "NYTIMES_KEY", &fake("", URLSAFE, 32, 180), 180),
        named("okta-access-token", "OKTA_API", &format!("00{}", fake("", URLSAFE, 40, 181)), 181),
        named("plaid-token", "PLAID_SECRET", &fake("", ALNUM, 30, 182), 182),
        named("privateai-api-token", "PRIVATE_AI_KEY", &fake("", ALNUM, 32, 183), 183),
        named("rapidapi-access-token", "RAPIDAPI_KEY", &fake("", URLSAFE, 50, 184), 184),
        named("sendbird-access-token", "SENDBIRD_API", &hex(40, 185), 185),
        named("sentry-access-token", "SENTRY_AUTH", &hex(64, 186), 186),
        named(
            "sidekiq-secret",
            "BUNDLE_GEMS__CONTRIBSYS__COM",
            &format!("{}:{}", random(HEX, 8, 187), random(HEX, 8, 188)),
            187,
        ),
        named("snyk-api-token", "SNYK_TOKEN", &uuid(189), 189),
        named("sonar-api-token", "SONAR_TOKEN", &fake("", ALNUM, 40, 190), 190),
        named("squarespace-access-token", "SQUARESPACE_KEY", &uuid(191), 191),
        named("sumologic-access-token", "SUMO_ACCESS_KEY", &fake("", ALNUM, 64, 192), 192),
        named("travisci-access-token", "TRAVIS_API", &fake("", ALNUM, 22, 193), 193),
        named("twitch-api-token", "TWITCH_CLIENT_KEY", &fake("", ALNUM, 30, 194), 194),
        named("twitter-token", "TWITTER_CONSUMER_KEY", &fake("", ALNUM, 25, 195), 195),
        named(
            "yandex-token",
            "YANDEX_API_KEY",
            &format!("AQVN{}", fake("", URLSAFE, 36, 196)),
            196,
        ),
        named("zendesk-secret-key", "ZENDESK_API", &fake("", ALNUM, 40, 197), 197),
    ]
}

fn pem_body(seed: u64) -> String {
    (0..6).map(|line| random(BASE64, 64, seed + line)).collect::<Vec<_>>().join("\n")
}

fn cases() -> Vec<Case> {
    let mut cases = builtin_cases();
    cases.extend(gitleaks_cases());
    cases
}

#[expect(clippy::too_many_lines, reason = "one row per rule")]
fn builtin_cases() -> Vec<Case> {
    let azure = format!(
        "FAK8Q~{}",
        random("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_~.-", 34, 16)
    );
    let discord = format!(
        "MTA{}.{}.{}",
        random(ALNUM, 23, 36),
        random(URLSAFE, 6, 37),
        random(URLSAFE, 38, 38)
    );
    let private_key =
        format!("-----BEGIN RSA PRIVATE KEY-----\n{}\n-----END RSA PRIVATE KEY-----", pem_body(68));
    let pgp_key = format!(
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{}\n=FAKE\n-----END PGP PRIVATE KEY BLOCK-----",
        pem_body(69)
    );
    vec![
        token("github-pat", &fake("ghp_", ALNUM, 36, 1), &fake("ghp_", ALNUM, 20, 1)),
        token("github-oauth-token", &fake("gho_", ALNUM, 36, 2), &fake("gho_", ALNUM, 30, 2)),
        token("github-app-token", &fake("ghs_", ALNUM, 36, 3), &fake("ghx_", ALNUM, 36, 3)),
        token("github-refresh-token", &fake("ghr_", ALNUM, 76, 4), "ghr_FAKEshort"),
        token(
            "github-fine-grained-pat",
            &format!("{}_{}", fake("github_pat_", ALNUM, 22, 5), random(ALNUM, 59, 5)),
            &fake("github_pat_", ALNUM, 12, 5),
        ),
        token("gitlab-pat", &fake("glpat-", URLSAFE, 20, 6), &fake("glpat-", URLSAFE, 12, 6)),
        token("gitlab-runner-token", &fake("glrt-", URLSAFE, 20, 7), "glrt-FAKEshort"),
        token("gitlab-deploy-token", &fake("gldt-", URLSAFE, 20, 8), "gldt-FAKE"),
        token(
            "gitlab-pipeline-trigger-token",
            &format!("glptt-{}", hex(40, 9)),
            &format!("glptt-{}", hex(12, 9)),
        ),
        token("gitlab-token", &fake("glcbt-64_", URLSAFE, 20, 10), "glcbt-FAKE"),
        case(
            "aws-access-key-id",
            "aws_access_key_id = {}",
            &fake("AKIA", BASE32, 16, 11),
            &format!("aws_access_key_id = {}", fake("AKIA", BASE32, 10, 11)),
        ),
        case(
            "aws-secret-access-key",
            "aws_secret_access_key = {}",
            &format!("FAKE{}", random(BASE64, 36, 12)),
            "rotate the SecretAccessKey every week",
        ),
        token("gcp-api-key", &fake("AIza", URLSAFE, 35, 13), &fake("AIza", URLSAFE, 20, 13)),
        token(
            "google-oauth-client-secret",
            &fake("GOCSPX-", URLSAFE, 28, 14),
            &fake("GOCSPX-", URLSAFE, 10, 14),
        ),
        token("google-oauth-access-token", &fake("ya29.", URLSAFE, 120, 15), "ya29.FAKE"),
        case("azure-ad-client-secret", "client_secret = \"{}\"", &azure, "FAK8Q~tooshort"),
        case(
            "azure-storage-account-key",
            "DefaultEndpointsProtocol=https;AccountName=fake;AccountKey={};EndpointSuffix=core.windows.net",
            &format!("FAKE{}==", random(BASE64, 82, 17)),
            "AccountKey=FAKE;EndpointSuffix=core.windows.net",
        ),
        case(
            "azure-sas-signature",
            "https://fake.blob.core.windows.net/c/b.txt?sv=2022-11-02&se=2030-01-01&sp=r&sig={}&spr=https",
            &format!("FAKE{}%3D", random(ALNUM, 40, 18)),
            "https://fake.blob.core.windows.net/c/b.txt?sv=2022-11-02&sig=FAKE",
        ),
        token(
            "digitalocean-token",
            &format!("dop_v1_{}", hex(64, 19)),
            &format!("dop_v1_{}", hex(16, 19)),
        ),
        token("heroku-api-key", &fake("HRKU-AA", URLSAFE, 58, 20), "HRKU-FAKE"),
        token("flyio-token", &fake("fo1_", URLSAFE, 43, 21), "fo1_FAKE"),
        case(
            "vercel-token",
            "vercel deploy --prod --token {}",
            &fake("", ALNUM, 24, 22),
            "vercel deploy --prod",
        ),
        token("netlify-token", &fake("nfp_", ALNUM, 36, 23), "nfp_FAKE"),
        case(
            "cloudflare-api-key",
            "export CLOUDFLARE_API_TOKEN={}",
            &fake("", URLSAFE, 40, 24),
            "cloudflare dns records updated",
        ),
        token("supabase-token", &format!("sbp_{}", hex(40, 25)), &format!("sbp_{}", hex(20, 25))),
        token("databricks-token", &format!("dapi{}", hex(32, 26)), &format!("dapi{}", hex(16, 26))),
        token("hashicorp-vault-token", &fake("hvs.", URLSAFE, 90, 27), "hvs.FAKE"),
        case(
            "hashicorp-vault-legacy-token",
            "export VAULT_TOKEN={}",
            &format!("s.{}", random(ALNUM, 24, 127)),
            "vault read -field=s.value secret/app",
        ),
        token(
            "terraform-cloud-token",
            &format!("{}.atlasv1.{}", random(ALNUM, 14, 28), fake("", URLSAFE, 67, 28)),
            "terraform login stores an atlasv1 token",
        ),
        token(
            "pulumi-access-token",
            &format!("pul-{}", hex(40, 29)),
            &format!("pul-{}", hex(20, 29)),
        ),
        token("doppler-token", &fake("dp.pt.", ALNUM, 43, 30), "dp.pt.FAKE"),
        token(
            "1password-service-account-token",
            &format!("ops_eyJ{}", fake("", BASE64, 250, 31)),
            "ops_eyJFAKE",
        ),
        token(
            "age-secret-key",
            &format!("AGE-SECRET-KEY-1{}", random(BECH32_UPPER, 58, 32)),
            &format!("AGE-SECRET-KEY-1{}", random(BECH32_UPPER, 20, 32)),
        ),
        token(
            "slack-token",
            &format!("xoxb-{}-{}-{}", digits(12, 33), digits(13, 33), fake("", ALNUM, 24, 33)),
            "xoxb-FAKE",
        ),
        token(
            "slack-app-token",
            &format!("xapp-1-A{}-{}-{}", digits(10, 34), digits(13, 34), hex(64, 34)),
            "xapp-1-FAKE",
        ),
        case(
            "slack-webhook-url",
            "curl -X POST https://hooks.slack.com/services/{}",
            &format!("T0FAKE000/B0FAKE000/{}", fake("", ALNUM, 24, 35)),
            "see https://hooks.slack.com/services/ for the docs",
        ),
        case("discord-bot-token", "DISCORD_TOKEN={}", &discord, "the discord bot restarted"),
        case(
            "discord-webhook-url",
            "https://discord.com/api/webhooks/{}",
            &format!("{}/{}", digits(18, 37), fake("", URLSAFE, 68, 37)),
            "https://discord.com/api/webhooks",
        ),
        case(
            "telegram-bot-token",
            "https://api.telegram.org/bot{}/getMe",
            &format!("{}:AA{}", digits(10, 38), fake("", URLSAFE, 33, 38)),
            "ratio 12:AAFAKE",
        ),
        token("stripe-secret-key", &fake("sk_test_", ALNUM, 24, 39), "sk_test_FAKE"),
        token("stripe-webhook-secret", &fake("whsec_", ALNUM, 32, 40), "whsec_FAKE"),
        token("square-token", &fake("EAAA", URLSAFE, 60, 41), &fake("EAAA", URLSAFE, 20, 41)),
        token(
            "shopify-token",
            &format!("shpat_{}", hex(32, 42)),
            &format!("shpat_{}", hex(16, 42)),
        ),
        token("twilio-api-key", &format!("SK{}", hex(32, 43)), &format!("SK{}", hex(20, 43))),
        case("twilio-auth-token", "TWILIO_AUTH_TOKEN={}", &hex(32, 44), "twilio sms sent"),
        token(
            "sendgrid-api-key",
            &format!("SG.{}.{}", fake("", URLSAFE, 22, 45), random(URLSAFE, 43, 45)),
            "SG.FAKE.short",
        ),
        token("mailgun-api-key", &format!("key-{}", hex(32, 46)), &format!("key-{}", hex(10, 46))),
        token(
            "mailchimp-api-key",
            &format!("{}-us21", hex(32, 47)),
            &format!("{}-usa", hex(32, 47)),
        ),
        token(
            "anthropic-api-key",
            &format!("sk-ant-api03-{}AA", fake("", URLSAFE, 93, 48)),
            "sk-ant-api03-FAKE",
        ),
        token(
            "anthropic-admin-key",
            &format!("sk-ant-admin01-{}AA", fake("", URLSAFE, 93, 49)),
            "sk-ant-admin01-FAKE",
        ),
        token("openai-api-key", &fake("sk-proj-", URLSAFE, 120, 50), "sk-learn is not a key"),
        token("huggingface-token", &fake("hf_", ALNUM, 34, 51), "hf_hub_download"),
        token("groq-api-key", &fake("gsk_", ALNUM, 48, 52), &fake("gsk_", ALNUM, 20, 52)),
        token("replicate-api-token", &fake("r8_", ALNUM, 37, 53), "r8_FAKE"),
        token("perplexity-api-key", &fake("pplx-", ALNUM, 48, 54), "pplx-FAKE"),
        case(
            "npm-token",
            "//registry.npmjs.org/:_authToken={}",
            &fake("npm_", ALNUM, 36, 55),
            "npm_config_cache=/tmp/npm",
        ),
        token(
            "pypi-token",
            &format!("pypi-AgEIcHlwaS5vcmc{}", fake("", URLSAFE, 70, 56)),
            "pypi-AgEIcHlwaS5vcmcFAKE",
        ),
        token(
            "rubygems-api-key",
            &format!("rubygems_{}", hex(48, 57)),
            &format!("rubygems_{}", hex(10, 57)),
        ),
        token("dockerhub-token", &fake("dckr_pat_", URLSAFE, 27, 58), "dckr_pat_FAKE"),
        case(
            "datadog-api-key",
            "DD_API_KEY={} datadog-agent run",
            &hex(32, 59),
            "datadog agent restarted",
        ),
        token(
            "newrelic-key",
            &fake("NRAK-", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 27, 60),
            "NRAK-FAKE",
        ),
        token(
            "sentry-token",
            &format!("sntryu_{}", hex(64, 61)),
            &format!("sntryu_{}", hex(10, 61)),
        ),
        token(
            "grafana-token",
            &format!("{}_{}", fake("glsa_", ALNUM, 32, 62), random(HEX, 8, 62)),
            "glsa_FAKE",
        ),
        token("linear-api-key", &fake("lin_api_", ALNUM, 40, 63), "lin_api_FAKE"),
        token("notion-token", &fake("ntn_", ALNUM, 46, 64), "ntn_FAKE"),
        token("atlassian-api-token", &fake("ATATT3", URLSAFE, 186, 65), "ATATT3FAKE"),
        token(
            "postman-api-key",
            &format!("PMAK-{}-{}", hex(24, 66), hex(34, 66)),
            &format!("PMAK-{}", hex(24, 66)),
        ),
        token(
            "jwt",
            &format!("{JWT_HEADER}.{JWT_PAYLOAD}.{}", fake("", URLSAFE, 43, 67)),
            JWT_HEADER,
        ),
        case(
            "private-key",
            "key: {}",
            &private_key,
            "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAFAKE\n-----END PUBLIC KEY-----",
        ),
        case(
            "pgp-private-key",
            "{}",
            &pgp_key,
            "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBFAKE\n-----END PGP PUBLIC KEY BLOCK-----",
        ),
        case(
            "url-credentials",
            "git clone https://deploy:{}@git.example.com/team/repo.git",
            &format!("Tr0ub4dor-{}", random(ALNUM, 8, 70)),
            "git clone https://git.example.com/team/repo.git",
        ),
        case(
            "url-token-user",
            "git clone https://{}@git.example.com/team/repo.git",
            &fake("", ALNUM, 40, 71),
            "git clone https://deploy@git.example.com/team/repo.git",
        ),
        case(
            "authorization-header",
            "curl -H \"Authorization: Bearer {}\" https://api.example.com/v1/me",
            &fake("", URLSAFE, 40, 72),
            "curl -H \"Authorization: Bearer $API_TOKEN\" https://api.example.com/v1/me",
        ),
        case(
            "api-key-header",
            "curl -H 'X-API-Key: {}' https://api.example.com/v1/items",
            &fake("", ALNUM, 32, 73),
            "curl -H 'X-API-Key: ${API_KEY}' https://api.example.com/v1/items",
        ),
        case(
            "curl-user",
            "curl -u admin:{} https://ci.example.com/api/json",
            &format!("s3cr3t-{}", random(ALNUM, 6, 74)),
            "curl -u admin https://ci.example.com/api/json",
        ),
        case(
            "generic-assignment",
            "export DB_PASSWORD={} && ./migrate",
            &format!("Hunter2-{}", random(ALNUM, 6, 75)),
            "export DB_PASSWORD=$VAULT_DB_PASSWORD && ./migrate",
        ),
        case(
            "generic-key-value",
            "{\"user\": \"app\", \"password\": \"{}\"}",
            &format!("c0rrect horse {}", random(ALNUM, 6, 76)),
            "password: required",
        ),
        case(
            "generic-cli-flag",
            "app login --password {} --user me",
            &format!("Sup3r-{}", random(ALNUM, 6, 77)),
            "app login --password-stdin --user me",
        ),
        case(
            "mysql-password",
            "mysql -u root -p'{}' shop",
            &format!("Sup3r-{}", random(ALNUM, 6, 78)),
            "mysql -u root -p shop",
        ),
        case(
            "sshpass-password",
            "sshpass -p '{}' ssh deploy@host",
            &format!("Sup3r {}", random(ALNUM, 6, 79)),
            "sshpass -e ssh deploy@host",
        ),
        case(
            "registry-login-password",
            "docker login -u me -p {} registry.example.com",
            &format!("hunter{}", random(ALNUM, 8, 80)),
            "docker login -u me --password-stdin registry.example.com",
        ),
        case(
            "password-flag",
            "app login --user me --password {}",
            "correcthorse",
            "feat: add the --password flag to login",
        ),
    ]
}

#[test]
fn every_builtin_rule_compiles_and_has_a_case() {
    let redactor = builtin();
    let ids: BTreeSet<&str> = redactor.rules().map(|rule| rule.id.as_str()).collect();
    let cases = cases();
    let covered: BTreeSet<&str> = cases.iter().map(|case| case.id).collect();
    let missing: Vec<_> = ids.difference(&covered).collect();
    assert!(missing.is_empty(), "built-in rules without a test case: {missing:?}");
    let unknown: Vec<_> = covered.difference(&ids).collect();
    assert!(unknown.is_empty(), "test cases for unknown rules: {unknown:?}");
    assert_eq!(ids.len(), redactor.rules().count(), "rule ids are unique");
    for rule in redactor.rules() {
        assert!(!rule.keywords.is_empty(), "built-in rule `{}` has no keywords", rule.id);
        assert!(!rule.description.is_empty(), "built-in rule `{}` has no description", rule.id);
    }
}

#[test]
fn every_rule_masks_its_true_positive() {
    let redactor = builtin();
    for case in cases() {
        let (masked, n_masked) = redactor.redact(&case.positive);
        let marker = format!("[REDACTED:{}]", case.id);
        assert!(masked.contains(&marker), "{}: {:?} became {masked:?}", case.id, case.positive);
        assert!(!masked.contains(&case.secret), "{}: the secret survived in {masked:?}", case.id);
        assert!(n_masked >= 1);
        let (again, n_again) = redactor.redact(&masked);
        assert_eq!((again.as_ref(), n_again), (masked.as_ref(), 0), "{}: not idempotent", case.id);
    }
}

#[test]
fn every_rule_leaves_its_near_miss_alone() {
    let redactor = builtin();
    for case in cases() {
        let (masked, n_masked) = redactor.redact(&case.negative);
        assert_eq!(
            (masked.as_ref(), n_masked),
            (case.negative.as_str(), 0),
            "{}: near miss was masked",
            case.id
        );
    }
}

#[test]
fn tokens_are_caught_whatever_follows_them() {
    let redactor = builtin();
    let followers = ["\"", "'", " ", ")", ",", ".", ":", "?", "&", "/", ";", "\n", ""];
    let leaders = ["", " ", "\"", "'", "(", "=", ":", "/", "\n"];
    for case in cases().into_iter().filter(|case| case.bare) {
        for follower in followers {
            for leader in leaders {
                let text = format!("{leader}{}{follower}", case.secret);
                let (masked, _) = redactor.redact(&text);
                assert!(!masked.contains(&case.secret), "{}: {text:?} became {masked:?}", case.id);
                assert!(
                    masked.contains(&format!("[REDACTED:{}]", case.id)),
                    "{}: {text:?} became {masked:?}",
                    case.id
                );
                let text = format!("{leader}{}{follower} and more", case.secret);
                let (masked, _) = redactor.redact(&text);
                assert!(!masked.contains(&case.secret), "{}: {text:?} became {masked:?}", case.id);
            }
        }
    }
}

#[test]
fn generic_rules_keep_the_name() {
    let redactor = builtin();
    let check = |text: &str, expected: &str| {
        assert_eq!(redactor.redact(text).0, expected, "{text:?}");
    };
    check("export DB_PASSWORD=Hunter2-fake", "export DB_PASSWORD=[REDACTED:generic-assignment]");
    check(
        "DB_PASSWORD='Hunter2 fake' ./migrate",
        "DB_PASSWORD='[REDACTED:generic-assignment]' ./migrate",
    );
    check(
        "GITHUB_TOKEN=Fake-t0ken-value cargo run",
        "GITHUB_TOKEN=[REDACTED:generic-assignment] cargo run",
    );
    check("PGPASSWORD=\"pa55-fake\" psql", "PGPASSWORD=\"[REDACTED:generic-assignment]\" psql");
    check("api_key := \"fake-K3y-value\"", "api_key := \"[REDACTED:generic-assignment]\"");
    check("'client_secret' => 'fake-S3cret'", "'client_secret' => '[REDACTED:generic-assignment]'");
    check("app --token=Fake-t0ken-value", "app --token=[REDACTED:generic-assignment]");
    check("{\"password\": \"Fake-pa55\"}", "{\"password\": \"[REDACTED:generic-key-value]\"}");
    check("  password: hunter2", "  password: [REDACTED:generic-key-value]");
    check(
        "db:\n  password: Fake-pa55 # dev only\n",
        "db:\n  password: [REDACTED:generic-key-value] # dev only\n",
    );
    check(
        "app login --password Fake-pa55 --user me",
        "app login --password [REDACTED:generic-cli-flag] --user me",
    );
    check(
        "gh auth login --with-token --token Fake-t0ken-1",
        "gh auth login --with-token --token [REDACTED:generic-cli-flag]",
    );
    check(
        "keytool -list -storepass S3cret-fake",
        "keytool -list -storepass [REDACTED:generic-cli-flag]",
    );
    check("mysql -u root -pSecret shop", "mysql -u root -p[REDACTED:mysql-password] shop");
    check("mysqldump -p\"Fake pa55\" shop", "mysqldump -p\"[REDACTED:mysql-password]\" shop");
    check(
        "curl -u 'admin:Fake pa55' https://ci.example.com",
        "curl -u 'admin:[REDACTED:curl-user]' https://ci.example.com",
    );
    check(
        "curl --user=admin:Fake-pa55 https://ci.example.com",
        "curl --user=admin:[REDACTED:curl-user] https://ci.example.com",
    );
}

#[test]
fn generic_rules_skip_placeholders() {
    let redactor = builtin();
    for text in [
        "export DB_PASSWORD=$DB_PASSWORD",
        "export DB_PASSWORD=${DB_PASSWORD}",
        "DB_PASSWORD=\"$(pass show db)\" ./migrate",
        "token: ${{ secrets.GITHUB_TOKEN }}",
        "password: \"{{ vault_db_password }}\"",
        "--password <your-password>",
        "password=***",
        "PASSWORD=changeme",
        "api_key=xxxxxxxxxxxx",
        "API_KEY=your_api_key_here",
        "SECRET_KEY=example-secret-key",
        "password: \"\"",
        "password: string",
        "token = process.env.GITHUB_TOKEN",
        "token = config.api_token",
        "PASSWORD_FILE=/run/secrets/db_password",
        "token=getToken()",
        "password=abc",
        "TOKEN=aaaaaaaa",
        "git commit -m \"reset password flow\"",
        "password:",
        "Password:",
        "auth: cleanup old sessions",
        "auth: cleanup",
        "token: refresh on expiry",
        "docker login --username me --password-stdin",
        "https://user:password@localhost/db",
        "curl -u \"$USER:$PASS\" https://ci.example.com",
        "Authorization: Bearer <token>",
        "Authorization: Basic ${BASIC_AUTH}",
        "mysql -u root -p shop",
        "bypass=true",
        "author=me",
        "max_tokens=4096",
    ] {
        let (masked, n_masked) = redactor.redact(text);
        assert_eq!((masked.as_ref(), n_masked), (text, 0), "{text:?}");
    }
}

#[test]
fn url_credentials_mask_password_and_token_users() {
    let redactor = builtin();
    let check = |text: &str, expected: &str| {
        assert_eq!(redactor.redact(text).0, expected, "{text:?}");
    };
    check(
        "postgres://app:Fake-pa55@db.internal:5432/app",
        "postgres://app:[REDACTED:url-credentials]@db.internal:5432/app",
    );
    check("redis://:Fake-pa55@cache:6379", "redis://:[REDACTED:url-credentials]@cache:6379");
    check(
        "amqp://guest:p@ss-fake@mq.example/vhost",
        "amqp://guest:[REDACTED:url-credentials]@mq.example/vhost",
    );
    let token = fake("ghp_", ALNUM, 36, 90);
    check(
        &format!("https://{token}:x-oauth-basic@github.com/o/r.git"),
        "https://[REDACTED:github-pat]:[REDACTED:url-credentials]@github.com/o/r.git",
    );
    check(
        &format!("https://x-access-token:{token}@github.com/o/r.git"),
        "https://x-access-token:[REDACTED:github-pat]@github.com/o/r.git",
    );
    let opaque = fake("", ALNUM, 40, 91);
    check(
        &format!("https://{opaque}@git.example.com/r.git"),
        "https://[REDACTED:url-token-user]@git.example.com/r.git",
    );
}

#[test]
fn private_keys_on_one_line_and_unterminated() {
    let redactor = builtin();
    let body = pem_body(92).replace('\n', "\\n");
    let one_line = format!(
        "{{\"private_key\": \"-----BEGIN PRIVATE KEY-----\\n{body}\\n-----END PRIVATE KEY-----\\n\", \"type\": \"service_account\"}}"
    );
    // The generic rule covers the whole quoted value; the merged mask takes the label of
    // the more specific rule.
    assert_eq!(
        redactor.redact(&one_line).0,
        "{\"private_key\": \"[REDACTED:private-key]\", \"type\": \"service_account\"}"
    );
    let bare = format!("key=-----BEGIN PRIVATE KEY-----\\n{body}\\n-----END PRIVATE KEY-----\\n");
    assert_eq!(
        redactor.redact(&bare).0,
        "key=-----BEGIN PRIVATE KEY-----[REDACTED:private-key]-----END PRIVATE KEY-----\\n"
    );

    let openssh = format!(
        "-----BEGIN OPENSSH PRIVATE KEY-----\n{}\n-----END OPENSSH PRIVATE KEY-----\n",
        pem_body(93)
    );
    assert_eq!(
        redactor.redact(&openssh).0,
        "-----BEGIN OPENSSH PRIVATE KEY-----[REDACTED:private-key]-----END OPENSSH PRIVATE KEY-----\n"
    );

    let cut = format!("-----BEGIN EC PRIVATE KEY-----\n{}", pem_body(94));
    assert_eq!(redactor.redact(&cut).0, "-----BEGIN EC PRIVATE KEY-----[REDACTED:private-key]");
}

#[test]
fn headers() {
    let redactor = builtin();
    let value = fake("", ALNUM, 32, 95);
    for (text, id) in [
        (format!("Authorization: Basic {value}"), "authorization-header"),
        (format!("authorization: token {value}"), "authorization-header"),
        (format!("{{\"Authorization\": \"Bearer {value}\"}}"), "authorization-header"),
        (format!("X-API-Key: {value}"), "api-key-header"),
        (format!("PRIVATE-TOKEN: {value}"), "api-key-header"),
    ] {
        let (masked, _) = redactor.redact(&text);
        assert!(!masked.contains(&value), "{text:?} became {masked:?}");
        assert!(masked.contains(&format!("[REDACTED:{id}]")), "{text:?} became {masked:?}");
    }
}

#[test]
fn specific_rules_win_over_generic_ones() {
    let redactor = builtin();
    let token = fake("ghp_", ALNUM, 36, 96);
    assert_eq!(
        redactor.redact(&format!("export GITHUB_TOKEN={token}")).0,
        "export GITHUB_TOKEN=[REDACTED:github-pat]"
    );
    assert_eq!(
        redactor.redact(&format!("password: \"{token}\"")).0,
        "password: \"[REDACTED:github-pat]\""
    );
    let key = fake("sk-ant-api03-", URLSAFE, 95, 97);
    assert_eq!(
        redactor.redact(&format!("ANTHROPIC_API_KEY={key}")).0,
        "ANTHROPIC_API_KEY=[REDACTED:anthropic-api-key]"
    );
}

#[test]
fn aws_key_ids_with_any_digit() {
    let redactor = builtin();
    for id in ["AKIA0189ABCD0189EFGH", "ASIA01890189XYZW0189", "AKIAFAKE01890189AB12"] {
        assert_eq!(redactor.redact(id).0, "[REDACTED:aws-access-key-id]", "{id}");
    }
    // Lower case, or too short, is not a key id.
    for text in ["akia0189abcd0189efgh", "AKIA0189ABCD0189EFG"] {
        assert_eq!(redactor.redact(text).1, 0, "{text}");
    }
}

#[test]
fn look_alike_letters_are_matched_and_the_original_is_masked() {
    let redactor = builtin();
    let check = |text: &str, expected: &str| {
        assert_eq!(redactor.redact(text).0, expected, "{text:?}");
        let (again, n_again) = redactor.redact(expected);
        assert_eq!((again.as_ref(), n_again), (expected, 0), "{expected:?} is not stable");
    };
    // Cyrillic а (U+0430) in the name; the name keeps its look-alike letter.
    check(
        "export p\u{430}ssword=Hunter2-fake9",
        "export p\u{430}ssword=[REDACTED:generic-assignment]",
    );
    check(
        "P\u{410}SSWORD=Hunter2-fake9 ./run",
        "P\u{410}SSWORD=[REDACTED:generic-assignment] ./run",
    );
    // A full-width token, and a token after full-width text.
    let token = fake("ghp_", ALNUM, 36, 98);
    let wide: String =
        token.chars().map(|c| char::from_u32(u32::from(c) + 0xfee0).unwrap()).collect();
    check(&format!("トークン：{wide} です"), "トークン：[REDACTED:github-pat] です");
    check(&format!("（{token}）"), "（[REDACTED:github-pat]）");
    // Greek omicron in `token`, mathematical bold in `password`.
    check("t\u{3bf}ken: \"Fake-t0ken-v4lue\"", "t\u{3bf}ken: \"[REDACTED:generic-key-value]\"");
    check(
        "\u{1d429}\u{1d41a}\u{1d42c}\u{1d42c}\u{1d430}\u{1d428}\u{1d42b}\u{1d41d}=Hunter2-fake9",
        "\u{1d429}\u{1d41a}\u{1d42c}\u{1d42c}\u{1d430}\u{1d428}\u{1d42b}\u{1d41d}=[REDACTED:generic-assignment]",
    );
    // Several masks in one folded text, with look-alikes between and after them, and a
    // token glued to a generic value (a second pass).
    check(
        &format!(
            "日本 p\u{430}ss=Hunter2-fake9 \u{ff08}x\u{ff09} t\u{3bf}ken={token} \u{430}\u{ff01}"
        ),
        "日本 p\u{430}ss=[REDACTED:generic-assignment] \u{ff08}x\u{ff09} t\u{3bf}ken=[REDACTED:github-pat] \u{430}\u{ff01}",
    );
    let twice = format!("\u{ff41} {wide} \u{ff41} {wide}");
    let (masked, n_masked) = redactor.redact(&twice);
    assert_eq!(masked, "\u{ff41} [REDACTED:github-pat] \u{ff41} [REDACTED:github-pat]");
    assert_eq!(n_masked, 2);
    // Text with look-alikes and nothing secret is returned as it was.
    let plain = "p\u{430}ssword reset flow for \u{ff21}\u{ff22}\u{ff23}";
    assert!(matches!(redactor.redact(plain).0, std::borrow::Cow::Borrowed(_)));
}

#[test]
fn escaped_json_inside_a_command() {
    let redactor = builtin();
    let check = |text: &str, expected: &str| {
        assert_eq!(redactor.redact(text).0, expected, "{text:?}");
    };
    check(
        r#"curl -d "{\"user\":\"me\",\"password\":\"Hunter2-fake9\"}" https://api.example.com"#,
        r#"curl -d "{\"user\":\"me\",\"password\":\"[REDACTED:generic-key-value]\"}" https://api.example.com"#,
    );
    check(
        r#"echo "{\"api_key\": \"Fake-K3y-value\"}" > cfg.json"#,
        r#"echo "{\"api_key\": \"[REDACTED:generic-key-value]\"}" > cfg.json"#,
    );
    check(
        r#"run "{\"token\"=\"Fake-t0ken-v4lue\"}""#,
        r#"run "{\"token\"=\"[REDACTED:generic-assignment]\"}""#,
    );
}

#[test]
fn password_flags_and_login_commands() {
    let redactor = builtin();
    let check = |text: &str, expected: &str| {
        assert_eq!(redactor.redact(text).0, expected, "{text:?}");
    };
    check("sshpass -p hunterfake ssh host", "sshpass -p [REDACTED:sshpass-password] ssh host");
    check("sshpass -pHunter2fake ssh host", "sshpass -p[REDACTED:sshpass-password] ssh host");
    check("sshpass -p \"Hunter 2\" scp a b", "sshpass -p \"[REDACTED:sshpass-password]\" scp a b");
    check(
        "docker login --username me --password hunterpass ghcr.io",
        "docker login --username me --password [REDACTED:registry-login-password] ghcr.io",
    );
    check(
        "podman login -u me --password=Hunter2fake quay.io",
        "podman login -u me --password=[REDACTED:generic-assignment] quay.io",
    );
    check(
        "helm registry login -u me -p Hunter2fake r.example",
        "helm registry login -u me -p [REDACTED:registry-login-password] r.example",
    );
    check("app --password hunterpass", "app --password [REDACTED:password-flag]");
    check("app --db-password hunterpass -v", "app --db-password [REDACTED:password-flag] -v");
    check("app --password=hunterpass", "app --password=[REDACTED:generic-assignment]");
    check("app --password 'hunter pass'", "app --password '[REDACTED:generic-cli-flag]'");
    check("app --passwd=Hunter2", "app --passwd=[REDACTED:generic-assignment]");
    for text in [
        "sshpass -f ~/.pw ssh host",
        "sshpass -p \"$SSHPASS\" ssh host",
        "docker login -u me -p \"$(cat token)\" r",
        "docker login --password-stdin",
        "echo $PW | docker login -u me --password-stdin r",
        "add a --password option",
        "the --password flag is gone",
        "app --password",
    ] {
        assert_eq!(redactor.redact(text).1, 0, "{text:?}");
    }
}

#[test]
fn percent_encoded_credentials_in_urls() {
    let redactor = builtin();
    let check = |text: &str, expected: &str| {
        assert_eq!(redactor.redact(text).0, expected, "{text:?}");
    };
    check("postgres://u:p%40ss-fake@db/x", "postgres://u:[REDACTED:url-credentials]@db/x");
    check(
        "psql postgresql://app%40corp:Fake%3Apa55%2F@db.internal:5432/app",
        "psql postgresql://app%40corp:[REDACTED:url-credentials]@db.internal:5432/app",
    );
    check(
        "mongodb+srv://u:%21Fake%23pw@c.example/x",
        "mongodb+srv://u:[REDACTED:url-credentials]@c.example/x",
    );
}

#[test]
fn heroku_uuid_in_context() {
    let redactor = builtin();
    let text = "heroku config:set HEROKU_API_KEY: 0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0";
    assert_eq!(
        redactor.redact(text).0,
        "heroku config:set HEROKU_API_KEY: [REDACTED:heroku-api-key]"
    );
}
