//! The built-in ruleset.
//!
//! Token shapes follow the gitleaks ruleset (`config/gitleaks.toml` and
//! `cmd/generate/config/rules/*.go` in github.com/gitleaks/gitleaks), widened where a
//! redactor should rather mask too much than too little (longer bodies accepted, any
//! punctuation accepted after a token). Every rule has keywords, so clean text costs
//! one scan of the keyword automaton and nothing else.
//!
//! Tokens end at `\b{end-half}` (no word character after them), so that any punctuation
//! may follow, and the regexes of the token rules have no capture group: the whole match
//! is the secret and only the fast matching engines run.

use crate::Rule;

/// One built-in rule and whether it is generic (a secret-like name followed by a
/// value), which turns on the extra placeholder checks of
/// [`is_generic_placeholder`](crate::filter::is_generic_placeholder).
pub(crate) struct Builtin {
    pub(crate) rule: Rule,
    pub(crate) generic: bool,
    /// A one-pass regex, anchored at the start of a match of the rule's regex, whose
    /// first participating group is the same secret. Resolving capture groups in the
    /// rule's own regex needs the slowest engine (the backtracker), so for the generic
    /// rules, which run often, the engine finds the match with the rule's regex and the
    /// secret with this one. `tests/it/extractors.rs` checks both agree.
    pub(crate) extractor: Option<String>,
}

/// `pattern` as a whole token: no word character just before it or just after it. The
/// whole match is the secret.
fn bounded(pattern: &str) -> String {
    format!(r"(?-u:\b{{start-half}})(?:{pattern})(?-u:\b{{end-half}})")
}

/// A value of shape `value` assigned to a name containing one of `names` (a regex
/// alternation, matched ignoring ASCII case): `DATADOG_API_KEY=…`, `"twilio_token": "…"`,
/// `heroku.key => …`. The value is capture group 1.
fn in_context(names: &str, value: &str) -> String {
    format!(
        r#"(?i-u:{names})[A-Za-z0-9_.-]{{0,30}}["']?[ \t]*(?:=|:=|=>|:)[ \t]*["']?({value})(?-u:\b{{end-half}})"#
    )
}

/// The secret words a generic name ends with. Short words (`pass`, `pwd`, `auth`) must
/// start the name or follow `_`, `-` or `.`, so that `bypass` or `author` are not names.
const SECRET_NAME: &str = r"(?i-u:[A-Za-z0-9_.-]*?(?:password|passwd|passphrase|secret(?:[_.-]?key)?|token|api[_.-]?key|access[_.-]?key|private[_.-]?key|credentials?)|(?:[A-Za-z0-9_.-]*[_.-])?(?:pass|pwd|auth(?:[_.-]?token)?))";

/// A value in escaped double quotes (`\"…\"`, JSON inside a shell string), a
/// double-quoted value (backslash escapes allowed), a single-quoted value.
const QUOTED_VALUE: &str = r#"\\"([^"\\\n]+)\\"|"((?:[^"\\\n]|\\.)+)"|'([^'\n]+)'"#;

/// The quote that may close a secret-like name: none, `"`, `'` or an escaped `\"`.
const NAME_QUOTE: &str = r#"(?:\\?["'])?"#;

/// The names the generic rules look for, as keyword stems: every keyword of those rules
/// is a stem followed by what may come between a name and its value (a closing quote,
/// a space or tab, then the separator). Plain prose ("refresh the token") therefore
/// never runs the generic regexes.
const GENERIC_STEMS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "pass",
    "pwd",
    "secret",
    "secret_key",
    "secret-key",
    "secret.key",
    "secretkey",
    "token",
    "api_key",
    "api-key",
    "api.key",
    "apikey",
    "access_key",
    "access-key",
    "access.key",
    "accesskey",
    "private_key",
    "private-key",
    "private.key",
    "privatekey",
    "credential",
    "credentials",
    "auth",
];

/// The keywords of a generic rule whose names are followed by one of `separators`.
fn generic_keywords(separators: &[&str]) -> Vec<String> {
    let mut keywords = Vec::new();
    for stem in GENERIC_STEMS {
        for quote in ["", "\"", "'", "\\\""] {
            for space in ["", " ", "\t"] {
                for separator in separators {
                    keywords.push(format!("{stem}{quote}{space}{separator}"));
                }
            }
        }
    }
    keywords
}

/// Whether `regex` has a capture group: a `(` outside a class that is neither escaped nor
/// followed by `?`.
fn has_group(regex: &str) -> bool {
    let bytes = regex.as_bytes();
    let mut in_class = false;
    let mut idx = 0;
    while idx < bytes.len() {
        match bytes[idx] {
            b'\\' => idx += 1,
            b'[' if !in_class => {
                in_class = true;
                // A `]` right after `[` or `[^` is a literal.
                if bytes.get(idx + 1) == Some(&b'^') {
                    idx += 1;
                }
                if bytes.get(idx + 1) == Some(&b']') {
                    idx += 1;
                }
            }
            b']' if in_class => in_class = false,
            b'(' if !in_class && bytes.get(idx + 1) != Some(&b'?') => return true,
            _ => {}
        }
        idx += 1;
    }
    false
}

/// `keywords` as owned strings.
fn strs(keywords: &[&str]) -> Vec<String> {
    keywords.iter().map(|&keyword| keyword.to_owned()).collect()
}

#[expect(clippy::too_many_lines, reason = "the table reads best as one list")]
pub(crate) fn builtin() -> Vec<Builtin> {
    let mut rules = Vec::new();
    // A rule whose regex holds the secret in group 1 (when it has groups) or in the whole
    // match (when it has none, as `bounded` patterns).
    let mut token =
        |id: &str, description: &str, keywords: &[&str], regex: String, entropy: f64| {
            rules.push(Builtin {
                rule: Rule {
                    id: id.to_owned(),
                    secret_group: has_group(&regex).then_some(1),
                    regex,
                    keywords: strs(keywords),
                    entropy: Some(entropy),
                    description: description.to_owned(),
                },
                generic: false,
                extractor: None,
            });
        };

    // Code hosts.
    token(
        "github-pat",
        "GitHub personal access token (classic): `ghp_` + 36 letters and digits",
        &["ghp_"],
        bounded("ghp_[A-Za-z0-9]{36,251}"),
        3.0,
    );
    token(
        "github-oauth-token",
        "GitHub OAuth access token: `gho_` + 36 letters and digits",
        &["gho_"],
        bounded("gho_[A-Za-z0-9]{36,251}"),
        3.0,
    );
    token(
        "github-app-token",
        "GitHub App user-to-server (`ghu_`) and server-to-server (`ghs_`) token + 36 letters and digits",
        &["ghu_", "ghs_"],
        bounded("gh[us]_[A-Za-z0-9]{36,251}"),
        3.0,
    );
    token(
        "github-refresh-token",
        "GitHub refresh token: `ghr_` + 36 or more letters and digits",
        &["ghr_"],
        bounded("ghr_[A-Za-z0-9]{36,251}"),
        3.0,
    );
    token(
        "github-fine-grained-pat",
        "GitHub fine-grained personal access token: `github_pat_` + 82 letters, digits and `_`",
        &["github_pat_"],
        bounded("github_pat_[A-Za-z0-9_]{50,251}"),
        3.0,
    );
    token(
        "gitlab-pat",
        "GitLab personal, project or group access token: `glpat-` + 20 or more of `[A-Za-z0-9_-]`, with the routable `.xxxxxxxxx` suffix when present",
        &["glpat-"],
        bounded(r"glpat-[A-Za-z0-9_-]{20,300}(?:\.[0-9a-z]{9})?"),
        3.0,
    );
    token(
        "gitlab-runner-token",
        "GitLab runner authentication token: `glrt-` (routable `glrt-t1_`) + 20 or more of `[A-Za-z0-9_-]`",
        &["glrt-"],
        bounded(r"glrt-[A-Za-z0-9_-]{20,300}(?:\.[0-9a-z]{9})?"),
        3.0,
    );
    token(
        "gitlab-deploy-token",
        "GitLab deploy token: `gldt-` + 20 or more of `[A-Za-z0-9_-]`",
        &["gldt-"],
        bounded("gldt-[A-Za-z0-9_-]{20,300}"),
        3.0,
    );
    token(
        "gitlab-pipeline-trigger-token",
        "GitLab pipeline trigger token: `glptt-` + 20 or more of `[A-Za-z0-9_-]` (40 hex digits today)",
        &["glptt-"],
        bounded("glptt-[A-Za-z0-9_-]{20,300}"),
        3.0,
    );
    token(
        "gitlab-token",
        "Other GitLab tokens: CI job (`glcbt-`), feed (`glft-`), incoming mail (`glimt-`), agent (`glagent-`), OAuth app secret (`gloas-`), SCIM (`glsoat-`), feature flag (`glffct-`)",
        &["glcbt-", "glft-", "glimt-", "glagent-", "gloas-", "glsoat-", "glffct-"],
        bounded("gl(?:cbt|ft|imt|agent|oas|soat|ffct)-[A-Za-z0-9_-]{20,300}"),
        3.0,
    );

    // Cloud providers.
    token(
        "aws-access-key-id",
        "AWS access key id: `AKIA`, `ASIA`, `ABIA`, `ACCA` or `A3T?` + 16 upper-case letters and digits (the documented `…EXAMPLE` keys are left alone)",
        &["akia", "asia", "abia", "acca", "a3t"],
        bounded("(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}"),
        3.0,
    );
    token(
        "aws-secret-access-key",
        "AWS secret access key (40 base64 characters) assigned to `aws_secret_access_key`, `SecretAccessKey`, `AWS_SECRET_KEY` and the like",
        &[
            "secret_access_key",
            "secretaccesskey",
            "secret-access-key",
            "aws_secret",
            "aws-secret",
            "awssecret",
        ],
        in_context(
            r"aws[_.-]?secret(?:[_.-]?access)?[_.-]?key|secret[_.-]?access[_.-]?key",
            "[A-Za-z0-9/+]{40}",
        ),
        3.0,
    );
    token(
        "gcp-api-key",
        "Google API key: `AIza` + 35 of `[A-Za-z0-9_-]`",
        &["aiza"],
        bounded("AIza[A-Za-z0-9_-]{35}"),
        3.5,
    );
    token(
        "google-oauth-client-secret",
        "Google OAuth client secret: `GOCSPX-` + 28 of `[A-Za-z0-9_-]`",
        &["gocspx-"],
        bounded("GOCSPX-[A-Za-z0-9_-]{28}"),
        3.0,
    );
    token(
        "google-oauth-access-token",
        "Google OAuth access token: `ya29.` + 20 or more of `[A-Za-z0-9_-]`",
        &["ya29."],
        bounded(r"ya29\.[A-Za-z0-9_-]{20,}"),
        3.0,
    );
    token(
        "azure-ad-client-secret",
        "Azure AD (Entra ID) client secret: 3 characters, a digit, `Q~`, then 31 to 34 of `[A-Za-z0-9_~.-]`",
        &["q~"],
        r"(?-u:\b{start-half})[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}(?-u:\b{end-half})"
            .to_owned(),
        3.0,
    );
    token(
        "azure-storage-account-key",
        "Azure storage account key in a connection string: `AccountKey=` + base64",
        &["accountkey"],
        r"(?i-u:accountkey)[ \t]*=[ \t]*([A-Za-z0-9+/]{40,100}={0,2})(?-u:\b{end-half})".to_owned(),
        3.5,
    );
    token(
        "azure-sas-signature",
        "Azure shared access signature: the `sig=` parameter of a SAS URL or token",
        &["sig="],
        r"(?-u:\b)sig=([A-Za-z0-9%+/_-]{20,}={0,2})(?-u:\b{end-half})".to_owned(),
        3.5,
    );
    token(
        "digitalocean-token",
        "DigitalOcean personal (`dop_v1_`), OAuth (`doo_v1_`) and refresh (`dor_v1_`) token + 64 hex digits",
        &["dop_v1_", "doo_v1_", "dor_v1_"],
        bounded("do[por]_v1_[a-f0-9]{64}"),
        3.0,
    );
    token(
        "heroku-api-key",
        "Heroku API key: `HRKU-` + 50 to 70 of `[A-Za-z0-9_-]`, or a UUID assigned to a name containing `heroku`",
        &["hrku-", "heroku"],
        format!(
            "(?:{}|{})",
            bounded("HRKU-[A-Za-z0-9_-]{50,70}"),
            in_context(
                "heroku",
                "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
            )
        ),
        3.0,
    );
    token(
        "flyio-token",
        "Fly.io token: `fo1_` + 43 of `[A-Za-z0-9_-]`, or a `fm1a_`, `fm1r_`, `fm2_` macaroon",
        &["fo1_", "fm1a_", "fm1r_", "fm2_"],
        format!(
            "(?:{}|{})",
            bounded("fo1_[A-Za-z0-9_-]{43}"),
            bounded("fm(?:1[ar]|2)_[A-Za-z0-9+/]{100,}={0,3}")
        ),
        3.5,
    );
    token(
        "vercel-token",
        "Vercel access token (24 or more letters and digits) assigned to a name containing `vercel`, or passed to `vercel --token`",
        &["vercel"],
        format!(
            r#"(?:{}|(?-u:\b)vercel(?-u:\b)[^\n|;&]*?[ \t](?:--token|-t)(?:[ \t]+|=)["']?([A-Za-z0-9_-]{{24,64}})(?-u:\b{{end-half}}))"#,
            in_context("vercel", "[A-Za-z0-9_-]{24,64}")
        ),
        3.0,
    );
    token(
        "netlify-token",
        "Netlify personal access token: `nfp_` + 36 or more letters and digits, or 40 to 46 characters assigned to a name containing `netlify`",
        &["nfp_", "netlify"],
        format!(
            "(?:{}|{})",
            bounded("nfp_[A-Za-z0-9]{36,64}"),
            in_context("netlify", "[A-Za-z0-9_-]{40,46}")
        ),
        3.0,
    );
    token(
        "cloudflare-api-key",
        "Cloudflare API token or global API key (37 to 40 characters) assigned to a name containing `cloudflare` or `cf_api`, or an origin CA key `v1.0-` + hex",
        &["cloudflare", "cf_api", "cf-api", "v1.0-"],
        format!(
            "(?:{}|{})",
            in_context("cloudflare|cf[_-]api", "[A-Za-z0-9_-]{37,40}"),
            bounded(r"v1\.0-[a-f0-9]{24}-[a-f0-9]{146}")
        ),
        3.0,
    );
    token(
        "supabase-token",
        "Supabase personal access token (`sbp_` + 40 hex digits) and secret API key (`sb_secret_`)",
        &["sbp_", "sb_secret_"],
        bounded("sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_-]{20,}"),
        3.0,
    );
    token(
        "databricks-token",
        "Databricks personal access token: `dapi` + 32 hex digits (and an optional `-N`)",
        &["dapi"],
        bounded("dapi[a-f0-9]{32}(?:-[0-9])?"),
        3.0,
    );
    token(
        "hashicorp-vault-token",
        "HashiCorp Vault service (`hvs.`), batch (`hvb.`) and recovery (`hvr.`) token",
        &["hvs.", "hvb.", "hvr."],
        bounded(r"hv[sbr]\.[A-Za-z0-9_-]{24,}"),
        3.5,
    );
    token(
        "terraform-cloud-token",
        "Terraform Cloud / Enterprise API token: 14 characters, `.atlasv1.`, then 60 to 70 more",
        &["atlasv1"],
        bounded(r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}"),
        3.5,
    );
    token(
        "pulumi-access-token",
        "Pulumi access token: `pul-` + 40 hex digits",
        &["pul-"],
        bounded("pul-[a-f0-9]{40}"),
        3.0,
    );
    token(
        "doppler-token",
        "Doppler personal (`dp.pt.`), service (`dp.st.`), CLI (`dp.ct.`), service account (`dp.sa.`), SCIM and audit token + 40 to 44 letters and digits",
        &["dp.pt.", "dp.st.", "dp.ct.", "dp.sa.", "dp.scim.", "dp.audit."],
        bounded(r"dp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{40,44}"),
        3.0,
    );
    token(
        "1password-service-account-token",
        "1Password service account token: `ops_eyJ` + base64",
        &["ops_ey"],
        bounded("ops_eyJ[A-Za-z0-9+/]{100,}={0,3}"),
        3.5,
    );
    token(
        "age-secret-key",
        "age encryption secret key: `AGE-SECRET-KEY-1` + 58 bech32 characters",
        &["age-secret-key-1"],
        bounded("AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
        3.0,
    );

    // Chat.
    token(
        "slack-token",
        "Slack bot (`xoxb-`), user (`xoxp-`), workspace (`xoxa-`, `xoxr-`), legacy (`xoxo-`, `xoxs-`) and configuration (`xoxe-`, `xoxe.xoxp-`) token",
        &["xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxo-", "xoxs-", "xoxe-", "xoxe."],
        bounded(r"xox(?:[abposr]|e(?:\.xox[bp])?)-[A-Za-z0-9-]{10,250}"),
        3.0,
    );
    token(
        "slack-app-token",
        "Slack app-level token: `xapp-1-` + ids and a secret",
        &["xapp-"],
        bounded("xapp-[0-9]-[A-Za-z0-9]+-[0-9]+-[A-Za-z0-9]+"),
        3.0,
    );
    token(
        "slack-webhook-url",
        "Slack incoming webhook, workflow or trigger URL: the path after `hooks.slack.com/services/`",
        &["hooks.slack.com"],
        r"hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9+/_-]{20,})".to_owned(),
        3.0,
    );
    token("discord-bot-token", "Discord bot token (three dot-separated base64 parts, the first starting with `M`, `N` or `O`) assigned to a name containing `discord` or after `Bot `", &["discord", "bot "], r#"(?:(?i-u:discord)[A-Za-z0-9_.-]{0,30}["']?[ \t]*(?:=|:=|=>|:)[ \t]*["']?|(?i-u:\bbot)[ \t]+)([MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40})(?-u:\b{end-half})"#.to_owned(), 3.5);
    token(
        "discord-webhook-url",
        "Discord webhook URL: the id and token after `discord.com/api/webhooks/`",
        &["discord"],
        r"discord(?:app)?\.com/api(?:/v[0-9]+)?/webhooks/([0-9]{17,20}/[A-Za-z0-9_-]{60,68})"
            .to_owned(),
        3.0,
    );
    token(
        "telegram-bot-token",
        "Telegram bot token: a numeric bot id, `:AA`, then 33 of `[A-Za-z0-9_-]`",
        &[":aa"],
        r"(?:(?-u:\b)|bot)([0-9]{5,16}:AA[A-Za-z0-9_-]{33})(?-u:\b{end-half})".to_owned(),
        3.0,
    );

    // Payment and commerce.
    token(
        "stripe-secret-key",
        "Stripe secret (`sk_`) and restricted (`rk_`) key, live, test or prod",
        &["sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_"],
        bounded("[sr]k_(?:live|test|prod)_[A-Za-z0-9]{10,247}"),
        3.0,
    );
    token(
        "stripe-webhook-secret",
        "Stripe (and Svix) webhook signing secret: `whsec_` + 24 or more base64 characters",
        &["whsec_"],
        bounded("whsec_[A-Za-z0-9+/=]{24,}"),
        3.0,
    );
    token(
        "square-token",
        "Square access token (`EAAA` + 60, `sq0atp-` + 22) and OAuth secret (`sq0csp-` + 43)",
        &["eaaa", "sq0atp-", "sq0csp-"],
        bounded("EAAA[A-Za-z0-9_-]{60}|sq0atp-[A-Za-z0-9_-]{22}|sq0csp-[A-Za-z0-9_-]{43}"),
        3.0,
    );
    token(
        "shopify-token",
        "Shopify access (`shpat_`), custom app (`shpca_`), private app (`shppa_`) token and shared secret (`shpss_`) + 32 hex digits",
        &["shpat_", "shpca_", "shppa_", "shpss_"],
        bounded("shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"),
        3.0,
    );

    // Messaging and e-mail.
    token(
        "twilio-api-key",
        "Twilio API key SID: `SK` + 32 hex digits",
        &[
            "sk0", "sk1", "sk2", "sk3", "sk4", "sk5", "sk6", "sk7", "sk8", "sk9", "ska", "skb",
            "skc", "skd", "ske", "skf",
        ],
        bounded("SK[0-9a-fA-F]{32}"),
        3.0,
    );
    token(
        "twilio-auth-token",
        "Twilio auth token (32 hex digits) assigned to a name containing `twilio`",
        &["twilio"],
        in_context("twilio", "[a-f0-9]{32}"),
        3.0,
    );
    token(
        "sendgrid-api-key",
        "SendGrid API key: `SG.` + 22, `.`, 43 of `[A-Za-z0-9_-]`",
        &["sg."],
        bounded(r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}"),
        3.0,
    );
    token(
        "mailgun-api-key",
        "Mailgun private API key (`key-` + 32 hex digits) and signing key assigned to a name containing `mailgun`",
        &["key-", "mailgun"],
        format!(
            "(?:{}|{})",
            bounded("key-[a-f0-9]{32}"),
            in_context("mailgun", "[a-f0-9]{32}-[a-f0-9]{8}-[a-f0-9]{8}")
        ),
        3.0,
    );
    token(
        "mailchimp-api-key",
        "Mailchimp API key: 32 hex digits, `-us`, the data-center number",
        &["-us"],
        bounded("[a-f0-9]{32}-us[0-9]{1,2}"),
        3.0,
    );

    // AI providers.
    token(
        "anthropic-api-key",
        "Anthropic API key (`sk-ant-api03-`) and OAuth token (`sk-ant-oat01-`, `sk-ant-ort01-`)",
        &["sk-ant-api", "sk-ant-oat", "sk-ant-ort", "sk-ant-sid"],
        bounded("sk-ant-(?:api|oat|ort|sid)[0-9]{2}-[A-Za-z0-9_-]{32,}"),
        3.0,
    );
    token(
        "anthropic-admin-key",
        "Anthropic Admin API key: `sk-ant-admin01-`",
        &["sk-ant-admin"],
        bounded("sk-ant-admin[0-9]{2}-[A-Za-z0-9_-]{32,}"),
        3.0,
    );
    token(
        "openai-api-key",
        "OpenAI API key: `sk-proj-`, `sk-svcacct-`, `sk-admin-`, or legacy `sk-` + 32 or more letters and digits (with or without the `T3BlbkFJ` marker)",
        &["sk-"],
        bounded(
            "sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|[A-Za-z0-9]{32,})",
        ),
        3.0,
    );
    token(
        "huggingface-token",
        "Hugging Face user (`hf_`) and organization (`api_org_`) token + 34 or more letters and digits",
        &["hf_", "api_org_"],
        bounded("(?:hf|api_org)_[A-Za-z0-9]{34,40}"),
        3.0,
    );
    token(
        "groq-api-key",
        "Groq API key: `gsk_` + 48 letters and digits",
        &["gsk_"],
        bounded("gsk_[A-Za-z0-9]{48}"),
        3.0,
    );
    token(
        "replicate-api-token",
        "Replicate API token: `r8_` + 37 letters and digits",
        &["r8_"],
        bounded("r8_[A-Za-z0-9]{37}"),
        3.0,
    );
    token(
        "perplexity-api-key",
        "Perplexity API key: `pplx-` + 48 letters and digits",
        &["pplx-"],
        bounded("pplx-[A-Za-z0-9]{48}"),
        3.0,
    );

    // Package registries.
    token(
        "npm-token",
        "npm access token: `npm_` + 36 letters and digits",
        &["npm_"],
        bounded("npm_[A-Za-z0-9]{36}"),
        3.0,
    );
    token(
        "pypi-token",
        "PyPI and TestPyPI upload token: `pypi-` + the base64 macaroon header for pypi.org or test.pypi.org",
        &["pypi-ageichlwas5vcmc", "pypi-agendgvzdc5wexbplm9yzw"],
        bounded("pypi-(?:AgEIcHlwaS5vcmc|AgENdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{50,}"),
        3.0,
    );
    token(
        "rubygems-api-key",
        "RubyGems API key: `rubygems_` + 48 hex digits",
        &["rubygems_"],
        bounded("rubygems_[a-f0-9]{48}"),
        3.0,
    );
    token(
        "dockerhub-token",
        "Docker Hub personal (`dckr_pat_`) and organization (`dckr_oat_`) access token",
        &["dckr_pat_", "dckr_oat_"],
        bounded("dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}"),
        3.0,
    );

    // Observability and developer tools.
    token(
        "datadog-api-key",
        "Datadog API key (32 hex digits) or application key (40) assigned to a name containing `datadog`, `dd_api_key` or `dd_app_key`",
        &[
            "datadog",
            "dd_api_key",
            "dd-api-key",
            "dd_app_key",
            "dd-app-key",
            "dd_application_key",
            "dd-application-key",
        ],
        in_context(
            r"datadog|dd[_-]api[_-]key|dd[_-]app(?:lication)?[_-]key",
            "[a-f0-9]{32}(?:[a-f0-9]{8})?",
        ),
        3.0,
    );
    token(
        "newrelic-key",
        "New Relic user API key (`NRAK-`), admin (`NRAA-`), insert (`NRII-`) and browser (`NRJS-`) key",
        &["nrak-", "nraa-", "nrii-", "nrjs-"],
        bounded("NR(?:AK|AA|II|JS)-[A-Za-z0-9-]{19,40}"),
        3.0,
    );
    token(
        "sentry-token",
        "Sentry user auth token (`sntryu_` + 64 hex digits) and organization token (`sntrys_eyJ…`)",
        &["sntryu_", "sntrys_"],
        format!(
            "(?:{}|{})",
            bounded("sntryu_[a-f0-9]{64}"),
            bounded("sntrys_eyJ[A-Za-z0-9+/=_]{50,}")
        ),
        3.0,
    );
    token(
        "grafana-token",
        "Grafana service account token (`glsa_`), Grafana Cloud token (`glc_`) and legacy API key (`eyJrIjoi…`)",
        &["glsa_", "glc_", "eyjrijoi"],
        format!(
            "(?:{}|{})",
            bounded("glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"),
            bounded("glc_[A-Za-z0-9+/]{32,400}={0,3}|eyJrIjoi[A-Za-z0-9]{70,400}={0,3}")
        ),
        3.0,
    );
    token(
        "linear-api-key",
        "Linear API key: `lin_api_` (or `lin_oauth_`) + 40 letters and digits",
        &["lin_api_", "lin_oauth_"],
        bounded("lin_(?:api|oauth)_[A-Za-z0-9]{40}"),
        3.0,
    );
    token(
        "notion-token",
        "Notion integration token: `ntn_` + 40 or more letters and digits, or legacy `secret_` + 43",
        &["ntn_", "secret_"],
        bounded("ntn_[A-Za-z0-9]{40,50}|secret_[A-Za-z0-9]{43}"),
        3.0,
    );
    token(
        "atlassian-api-token",
        "Atlassian (Jira, Confluence) API token: `ATATT3` + 150 or more characters",
        &["atatt3"],
        bounded("ATATT3[A-Za-z0-9_=-]{150,250}"),
        3.5,
    );
    token(
        "postman-api-key",
        "Postman API key: `PMAK-` + 24 hex, `-`, 34 hex",
        &["pmak-"],
        bounded("PMAK-[a-f0-9]{24}-[a-f0-9]{34}"),
        3.0,
    );

    // Structured secrets.
    token(
        "jwt",
        "JSON Web Token: base64url `eyJ…` header and payload and a signature, dot-separated",
        &["eyj"],
        bounded(r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"),
        3.0,
    );
    let mut block = |id: &str, description: &str, keywords: &[&str], regex: &str| {
        rules.push(Builtin {
            rule: Rule {
                id: id.to_owned(),
                regex: regex.to_owned(),
                keywords: strs(keywords),
                entropy: Some(3.5),
                secret_group: Some(2),
                description: description.to_owned(),
            },
            generic: false,
            extractor: None,
        });
    };
    block(
        "private-key",
        "PEM private key block (`-----BEGIN … PRIVATE KEY-----`, RSA, EC, DSA, PKCS#8, encrypted, OpenSSH), also on one line with literal `\\n`; the body is masked, the BEGIN and END lines stay",
        &["private key"],
        r"(-----BEGIN[ A-Z0-9_-]{0,64}PRIVATE KEY-----)((?s:.)*?)(?:-----END[ A-Z0-9_-]{0,64}PRIVATE KEY-----|\z)",
    );
    block(
        "pgp-private-key",
        "PGP private key block (`-----BEGIN PGP PRIVATE KEY BLOCK-----`); the body is masked",
        &["private key block"],
        r"(-----BEGIN PGP PRIVATE KEY BLOCK-----)((?s:.)*?)(?:-----END PGP PRIVATE KEY BLOCK-----|\z)",
    );

    let mut generic = |id: &str,
                       description: &str,
                       keywords: Vec<String>,
                       regex: String,
                       entropy: Option<f64>| {
        rules.push(Builtin {
            rule: Rule {
                id: id.to_owned(),
                regex,
                keywords,
                entropy,
                secret_group: Some(1),
                description: description.to_owned(),
            },
            generic: true,
            extractor: None,
        });
    };
    generic("url-credentials", "The password in `scheme://user:password@host`, for any scheme (a password with `[` or `]`, which URLs percent-encode, is not recognised)", strs(&["://"]), r#"(?-u:\b)[A-Za-z][A-Za-z0-9+.-]{1,30}://[^\s:@/?#"'<>`\[\]]{0,128}:([^\s/?#"'<>`\[\]]+)@"#.to_owned(), None);
    generic(
        "url-token-user",
        "The user in `scheme://user@host` or `scheme://user:x@host` when it is itself a token (20 or more of `[A-Za-z0-9_-]` with high entropy)",
        strs(&["://"]),
        r#"(?-u:\b)[A-Za-z][A-Za-z0-9+.-]{1,30}://([A-Za-z0-9_-]{20,})(?::[^\s/?#"'<>`@\[\]]*)?@"#
            .to_owned(),
        Some(3.5),
    );
    generic("authorization-header", "The credentials of an `Authorization:` header (`Bearer`, `Basic`, `Token`, `Bot` or none)", strs(&["authorization"]), r#"(?i-u:authorization)["']?[ \t]*[:=][ \t]*["']?(?:(?i-u:bearer|basic|token|bot)[ \t]+)?([A-Za-z0-9._~+/=:-]{8,})"#.to_owned(), Some(3.0));
    generic("api-key-header", "The value of an API key header: `X-API-Key`, `X-Auth-Token`, `X-Access-Token`, `Private-Token`, `X-Goog-Api-Key`, `Ocp-Apim-Subscription-Key`, `Api-Key`", strs(&["x-api-key", "x-auth-token", "x-access-token", "private-token", "x-goog-api-key", "subscription-key", "api-key"]), r#"(?i-u:x-api-key|x-auth-token|x-access-token|private-token|x-goog-api-key|ocp-apim-subscription-key|api-key)["']?[ \t]*:[ \t]*["']?([A-Za-z0-9._~+/=-]{8,})"#.to_owned(), Some(3.0));
    generic("curl-user", "The password of `curl -u user:password` / `--user user:password`", strs(&["-u"]), r#"(?-u:\b)curl(?-u:\b)[^\n|;&]*?[ \t](?:-u[ \t]*|--user(?:[ \t]+|=))(?:"[^":\n]*:([^"\n]+)"|'[^':\n]*:([^'\n]+)'|[^\s:"']*:([^\s"']+))"#.to_owned(), None);
    generic(
        "generic-assignment",
        "A value assigned with `=`, `:=` or `=>` to a secret-like name (`password`, `passwd`, `pwd`, `pass`, `secret`, `token`, `api_key`, `access_key`, `auth`, `client_secret`, `private_key`, `credentials`, with any prefix such as `DB_` or `GITHUB_`): shell, env files, code, `--flag=value`; the name is kept",
        generic_keywords(&["=", ":="]),
        format!(
            r#"(?-u:\b){SECRET_NAME}{NAME_QUOTE}[ \t]?(?:=|:=|=>)[ \t]*(?:{QUOTED_VALUE}|([^\s"'`;,&|<>(){{}}\[\]]{{4,}})(?:[\s"'`;,&|<>)}}\]]|$))"#
        ),
        Some(2.0),
    );
    generic(
        "generic-key-value",
        "A value after `:` for a secret-like name, as in JSON (`\"password\": \"…\"`) and YAML (`token: …`); an unquoted value must end the line and hold a digit or symbol, so prose such as `auth: cleanup` is left alone; the name must start a line or follow a space, `{`, `,`, a quote or a bracket",
        generic_keywords(&[":"]),
        format!(
            r#"(?m)(?:^|[\s{{,"'(\[]){SECRET_NAME}{NAME_QUOTE}[ \t]?:[ \t]*(?:{QUOTED_VALUE}|([A-Za-z]*[^\sA-Za-z"'`,;{{}}\[\]()<>#][^\s"'`,;{{}}\[\]()<>#]*)[ \t]*(?:$|[,}}#]))"#
        ),
        Some(2.6),
    );
    generic(
        "generic-cli-flag",
        "The value of a secret-like command-line flag (`--password x`, `--token x`, `--api-key x`, `-storepass x`); an unquoted value must hold a digit or symbol, so `--token flag` in prose is left alone",
        strs(&[
            "-pass",
            "-pwd",
            "-token",
            "-api-key",
            "-apikey",
            "-access-key",
            "-secret-key",
            "-client-secret",
            "storepass",
            "keypass",
        ]),
        format!(
            r#"(?:^|[ \t])--?(?i-u:(?:[a-z0-9]+-)*(?:password|passwd|pass|passphrase|pwd|token|api-?key|access-?key|secret-?key|client-?secret|auth-?token|storepass|keypass|srcstorepass|deststorepass))[ \t]+(?:{QUOTED_VALUE}|((?:[A-Za-z]+[^\sA-Za-z"'`;&|<>]|[^\sA-Za-z"'`;&|<>-])[^\s"'`;&|<>]*))"#
        ),
        Some(2.0),
    );
    generic(
        "mysql-password",
        "The password attached to `-p` in a MySQL or MariaDB client command (`mysql -pSecret`, `mysqldump -p'…'`); `-p` alone, which prompts, is left alone",
        strs(&["mysql", "mariadb"]),
        format!(
            r#"(?-u:\b)(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlsh|mariadb|mariadb-dump|mariadb-admin)(?-u:\b)[^\n|;&]*?[ \t]-p(?:{QUOTED_VALUE}|([^\s"'`;&|<>]+))"#
        ),
        Some(2.0),
    );
    generic(
        "sshpass-password",
        "The password given to `sshpass -p` (`sshpass -p secret ssh host`, `sshpass -p'…'`)",
        strs(&["sshpass"]),
        format!(
            r#"(?-u:\b)sshpass(?-u:\b)[^\n|;&]*?[ \t]-p[ \t]*(?:{QUOTED_VALUE}|([^\s"'`;&|<>]+))"#
        ),
        None,
    );
    generic(
        "registry-login-password",
        "The password given to `docker login` (and `podman`, `nerdctl`, `buildah`, `skopeo`, `helm registry`, `oras`) with `-p` or `--password`",
        strs(&["docker", "podman", "nerdctl", "buildah", "skopeo", "helm", "oras"]),
        format!(
            r#"(?-u:\b)(?:docker|podman|nerdctl|buildah|skopeo|helm[ \t]+registry|oras)[ \t]+login(?-u:\b)[^\n|;&]*?[ \t](?:-p|--password)(?:[ \t]+|=)(?:{QUOTED_VALUE}|([^\s"'`;&|<>-][^\s"'`;&|<>]*))"#
        ),
        None,
    );
    generic(
        "password-flag",
        "A letters-only value after `--password`, `--passwd` or `--passphrase` in a command (values with a digit or symbol are `generic-cli-flag`'s); words that follow a flag in prose (`flag`, `option`, …) are left alone",
        strs(&["-password", "-passwd", "-passphrase"]),
        r"(?:^|[ \t])--?(?i-u:(?:[a-z0-9]+-)*(?:password|passwd|passphrase))[ \t]+([A-Za-z]{4,64})(?:[ \t]|$)".to_owned(),
        None,
    );
    let extractors = [
        (
            "generic-assignment",
            format!(
                r#"^[A-Za-z0-9_.-]+{NAME_QUOTE}[ \t]?(?:=|:=|=>)[ \t]*(?:{QUOTED_VALUE}|([^\s"'`;,&|<>(){{}}\[\]]{{4,}}))"#
            ),
        ),
        (
            "generic-key-value",
            format!(
                r#"^[\s{{,"'(\[]?[A-Za-z0-9_.-]+{NAME_QUOTE}[ \t]?:[ \t]*(?:{QUOTED_VALUE}|([A-Za-z]*[^\sA-Za-z"'`,;{{}}\[\]()<>#][^\s"'`,;{{}}\[\]()<>#]*))"#
            ),
        ),
        (
            "generic-cli-flag",
            format!(
                r#"^[ \t]?-[A-Za-z0-9-]+[ \t]+(?:{QUOTED_VALUE}|((?:[A-Za-z]+[^\sA-Za-z"'`;&|<>]|[^\sA-Za-z"'`;&|<>-])[^\s"'`;&|<>]*))"#
            ),
        ),
    ];
    for (id, extractor) in extractors {
        if let Some(builtin) = rules.iter_mut().find(|builtin| builtin.rule.id == id) {
            builtin.extractor = Some(extractor);
        }
    }
    rules
}
