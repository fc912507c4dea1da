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

/// Whether `regex` has a capture group: a `(` outside a class (classes may nest) that is
/// neither escaped nor followed by `?`.
fn has_group(regex: &str) -> bool {
    let bytes = regex.as_bytes();
    // How many classes the current byte is in.
    let mut depth = 0_usize;
    let mut idx = 0;
    while idx < bytes.len() {
        match bytes[idx] {
            b'\\' => idx += 1,
            b'[' => {
                depth += 1;
                // A `]` right after `[` or `[^` is a literal.
                if bytes.get(idx + 1) == Some(&b'^') {
                    idx += 1;
                }
                if bytes.get(idx + 1) == Some(&b']') {
                    idx += 1;
                }
            }
            b']' if depth > 0 => depth -= 1,
            b'(' if depth == 0 && bytes.get(idx + 1) != Some(&b'?') => return true,
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

/// Token formats with a distinctive prefix, from gitleaks' default rules: id,
/// description, keywords, pattern (the whole token), entropy floor.
type Prefixed = (&'static str, &'static str, &'static [&'static str], &'static str, f64);

const PREFIXED: &[Prefixed] = &[
    (
        "1password-secret-key",
        "1Password account secret key: `A3-` and six dash-separated groups",
        &["a3-"],
        "A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}",
        3.5,
    ),
    (
        "adobe-client-secret",
        "Adobe OAuth client secret: `p8e-` + 32 letters and digits",
        &["p8e-"],
        "p8e-[A-Za-z0-9]{32}",
        3.0,
    ),
    (
        "alibaba-access-key-id",
        "Alibaba Cloud AccessKey id: `LTAI` + 20 letters and digits",
        &["ltai"],
        "LTAI[A-Za-z0-9]{20}",
        3.0,
    ),
    (
        "artifactory-token",
        "JFrog Artifactory API key (`AKCp` + 69) and reference token (`cmVmd` + 59)",
        &["akcp", "cmvmd"],
        "AKCp[A-Za-z0-9]{69}|cmVmd[A-Za-z0-9]{59}",
        4.0,
    ),
    (
        "authress-access-key",
        "Authress service client access key: `sc_`, `ext_`, `scauth_` or `authress_` + id, region, `acc_` account and key",
        &[".acc_", ".acc-"],
        r"(?:sc|ext|scauth|authress)_[A-Za-z0-9]{5,30}\.[A-Za-z0-9]{4,6}\.acc[_-][A-Za-z0-9-]{10,32}\.[A-Za-z0-9+/_=-]{30,120}",
        3.0,
    ),
    (
        "clickhouse-cloud-api-secret",
        "ClickHouse Cloud API secret key: `4b1d` + 38 letters and digits",
        &["4b1d"],
        "4b1d[A-Za-z0-9]{38}",
        3.0,
    ),
    (
        "clojars-api-token",
        "Clojars deploy token: `CLOJARS_` + 60 letters and digits",
        &["clojars_"],
        "CLOJARS_[A-Za-z0-9]{60}",
        3.0,
    ),
    (
        "defined-networking-api-token",
        "Defined Networking (Nebula) API key: `dnkey-` + 26, `-`, 52",
        &["dnkey-"],
        "dnkey-[A-Za-z0-9=_-]{26}-[A-Za-z0-9=_-]{52}",
        3.0,
    ),
    (
        "duffel-api-token",
        "Duffel API token: `duffel_test_` or `duffel_live_` + 43",
        &["duffel_"],
        "duffel_(?:test|live)_[A-Za-z0-9_=-]{43}",
        3.0,
    ),
    (
        "dynatrace-api-token",
        "Dynatrace API token: `dt0c01.` + 24, `.`, 64",
        &["dt0c01."],
        r"dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}",
        3.5,
    ),
    (
        "easypost-api-token",
        "EasyPost production (`EZAK`) and test (`EZTK`) API key + 54 letters and digits",
        &["ezak", "eztk"],
        "EZ[AT]K[A-Za-z0-9]{54}",
        3.0,
    ),
    (
        "facebook-page-access-token",
        "Facebook (Meta) page or user access token: `EAAM` or `EAAC` + 100 or more letters and digits",
        &["eaam", "eaac"],
        "EAA[MC][A-Za-z0-9]{100,}",
        3.5,
    ),
    (
        "flutterwave-secret-key",
        "Flutterwave secret (`FLWSECK_TEST-` + 32 hex + `-X`) and encryption (`FLWSECK_TEST` + 12 hex) key",
        &["flwseck_test"],
        "FLWSECK_TEST-[A-Fa-f0-9]{32}-X|FLWSECK_TEST[A-Fa-f0-9]{12}",
        3.0,
    ),
    (
        "frameio-api-token",
        "Frame.io developer token: `fio-u-` + 64",
        &["fio-u-"],
        "fio-u-[A-Za-z0-9_=-]{64}",
        3.0,
    ),
    (
        "gitlab-runner-registration-token",
        "GitLab runner registration token (legacy): `GR1348941` + 20",
        &["gr1348941"],
        "GR1348941[A-Za-z0-9_-]{20}",
        3.0,
    ),
    (
        "harness-api-key",
        "Harness personal (`pat.`) and service account (`sat.`) token",
        &["pat.", "sat."],
        r"(?:pat|sat)\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}",
        3.0,
    ),
    (
        "infracost-api-token",
        "Infracost API key: `ico-` + 32 letters and digits",
        &["ico-"],
        "ico-[A-Za-z0-9]{32}",
        3.0,
    ),
    (
        "intra42-client-secret",
        "42 Intra API client secret: `s-s4t2ud-` or `s-s4t2af-` + 64 hex digits",
        &["s-s4t2ud-", "s-s4t2af-"],
        "s-s4t2(?:ud|af)-[a-f0-9]{64}",
        3.0,
    ),
    (
        "jwt-base64",
        "A JSON Web Token itself base64-encoded: `ZXlK…`",
        &["zxlk"],
        "ZXlK[A-Za-z0-9+/_-]{40,}={0,2}",
        3.5,
    ),
    (
        "maxmind-license-key",
        "MaxMind license key: 6, `_`, 29, `_mmk`",
        &["_mmk"],
        "[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk",
        4.0,
    ),
    (
        "octopus-deploy-api-key",
        "Octopus Deploy API key: `API-` + 26 upper-case letters and digits",
        &["api-"],
        "API-[A-Z0-9]{26}",
        3.0,
    ),
    (
        "openshift-user-token",
        "OpenShift user (OAuth) token: `sha256~` + 43",
        &["sha256~"],
        "sha256~[A-Za-z0-9_-]{43}",
        3.5,
    ),
    (
        "planetscale-token",
        "PlanetScale API (`pscale_tkn_`), OAuth (`pscale_oauth_`) token and password (`pscale_pw_`)",
        &["pscale_tkn_", "pscale_oauth_", "pscale_pw_"],
        "pscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}",
        3.0,
    ),
    (
        "prefect-api-token",
        "Prefect Cloud API key: `pnu_` + 36 letters and digits",
        &["pnu_"],
        "pnu_[A-Za-z0-9]{36}",
        3.0,
    ),
    (
        "readme-api-token",
        "ReadMe API key: `rdme_` + 70 letters and digits",
        &["rdme_"],
        "rdme_[a-z0-9]{70}",
        3.0,
    ),
    (
        "scalingo-api-token",
        "Scalingo API token: `tk-us-` + 48",
        &["tk-us-"],
        "tk-us-[A-Za-z0-9_-]{48}",
        3.0,
    ),
    (
        "sendinblue-api-token",
        "Brevo (Sendinblue) API key: `xkeysib-` + 64 hex, `-`, 16",
        &["xkeysib-"],
        "xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}",
        3.0,
    ),
    (
        "settlemint-token",
        "SettleMint application (`sm_aat_`), personal (`sm_pat_`) and service (`sm_sat_`) access token",
        &["sm_aat_", "sm_pat_", "sm_sat_"],
        "sm_(?:aat|pat|sat)_[A-Za-z0-9]{16}",
        3.0,
    ),
    (
        "shippo-api-token",
        "Shippo API token: `shippo_live_` or `shippo_test_` + 40 hex digits",
        &["shippo_"],
        "shippo_(?:live|test)_[a-fA-F0-9]{40}",
        3.0,
    ),
    (
        "sourcegraph-access-token",
        "Sourcegraph access token: `sgp_` (+ 16 hex or `local`, `_`) + 40 hex digits",
        &["sgp_"],
        "sgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}",
        3.0,
    ),
    (
        "typeform-api-token",
        "Typeform personal access token: `tfp_` + 59",
        &["tfp_"],
        "tfp_[A-Za-z0-9_.=-]{59}",
        3.0,
    ),
];

/// Formats gitleaks finds only next to the service's name (`ALGOLIA_ADMIN_KEY=…`,
/// `"twitter_secret": "…"`): id, description, keywords, the name (a regex alternation,
/// ASCII case ignored), the value, entropy floor. Client ids, which are public, and
/// publishable keys are left out (`docs/decisions.md`).
type InContext =
    (&'static str, &'static str, &'static [&'static str], &'static str, &'static str, f64);

const UUID: &str = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

const IN_CONTEXT: &[InContext] = &[
    (
        "adafruit-api-key",
        "Adafruit IO key (32) next to `adafruit`",
        &["adafruit"],
        "adafruit",
        "[A-Za-z0-9_-]{32}",
        3.0,
    ),
    (
        "airtable-api-key",
        "Airtable API key (17) or personal access token (`pat…`) next to `airtable`",
        &["airtable"],
        "airtable",
        r"pat[A-Za-z0-9]{14}\.[a-f0-9]{64}|[A-Za-z0-9]{17}",
        3.0,
    ),
    (
        "algolia-api-key",
        "Algolia API key (32) next to `algolia`",
        &["algolia"],
        "algolia",
        "[A-Za-z0-9]{32}",
        3.0,
    ),
    (
        "alibaba-secret-key",
        "Alibaba Cloud AccessKey secret (30) next to `alibaba`",
        &["alibaba"],
        "alibaba",
        "[A-Za-z0-9]{30}",
        3.0,
    ),
    (
        "asana-client-secret",
        "Asana client secret or personal access token next to `asana`",
        &["asana"],
        "asana",
        "[0-9]/[0-9]{16}:[A-Za-z0-9]{32}|[0-9]/[0-9]{13,16}/[0-9]{13,16}:[a-f0-9]{32}|[A-Za-z0-9]{32}",
        3.0,
    ),
    (
        "atlassian-context-token",
        "Atlassian, Jira or Confluence API token (24) next to its name",
        &["atlassian", "jira", "confluence"],
        "atlassian|jira|confluence",
        "[A-Za-z0-9]{20}[A-Fa-f0-9]{4}",
        3.5,
    ),
    (
        "beamer-api-token",
        "Beamer API key (`b_` + 44) next to `beamer`",
        &["beamer"],
        "beamer",
        "b_[A-Za-z0-9=_-]{44}",
        3.0,
    ),
    (
        "bitbucket-client-secret",
        "Bitbucket OAuth client secret (64) next to `bitbucket`",
        &["bitbucket"],
        "bitbucket",
        "[A-Za-z0-9=_-]{64}",
        3.0,
    ),
    (
        "bittrex-key",
        "Bittrex access or secret key (32) next to `bittrex`",
        &["bittrex"],
        "bittrex",
        "[A-Za-z0-9]{32}",
        3.0,
    ),
    (
        "cisco-meraki-api-key",
        "Cisco Meraki API key (40 hex digits) next to `meraki`",
        &["meraki"],
        "meraki",
        "[0-9a-f]{40}",
        3.0,
    ),
    (
        "codecov-access-token",
        "Codecov upload or API token (32) next to `codecov`",
        &["codecov"],
        "codecov",
        "[A-Za-z0-9-]{32,36}",
        3.0,
    ),
    (
        "cohere-api-token",
        "Cohere API key (40) next to `cohere` or `co_api_key`",
        &["cohere", "co_api_key"],
        "cohere|co_api_key",
        "[A-Za-z0-9]{40}",
        3.5,
    ),
    (
        "coinbase-access-token",
        "Coinbase access token (64) next to `coinbase`",
        &["coinbase"],
        "coinbase",
        "[A-Za-z0-9_-]{64}",
        3.0,
    ),
    (
        "confluent-key",
        "Confluent Cloud API key (16) or secret (64) next to `confluent`",
        &["confluent"],
        "confluent",
        "[A-Za-z0-9+/]{64}|[A-Za-z0-9]{16}",
        3.0,
    ),
    (
        "contentful-delivery-api-token",
        "Contentful delivery API token (43) next to `contentful`",
        &["contentful"],
        "contentful",
        "[A-Za-z0-9=_-]{43}",
        3.0,
    ),
    (
        "discord-secret",
        "Discord API token (64 hex digits) or client secret (32) next to `discord`",
        &["discord"],
        "discord",
        "[a-f0-9]{64}|[A-Za-z0-9=_-]{32}",
        3.0,
    ),
    (
        "droneci-access-token",
        "Drone CI access token (32) next to `drone`",
        &["drone"],
        "drone",
        "[A-Za-z0-9]{32}",
        3.0,
    ),
    (
        "dropbox-api-token",
        "Dropbox app secret (15), long-lived (`…AAAAAAAAAA…`) or short-lived (`sl.…`) token next to `dropbox`",
        &["dropbox"],
        "dropbox",
        "sl\\.[A-Za-z0-9_=-]{135,}|[A-Za-z0-9]{11}AAAAAAAAAA[A-Za-z0-9_=-]{43}|[A-Za-z0-9]{15}",
        3.0,
    ),
    (
        "etsy-access-token",
        "Etsy API key (24) next to `etsy`",
        &["etsy"],
        "etsy",
        "[A-Za-z0-9]{24}",
        3.0,
    ),
    (
        "facebook-secret",
        "Facebook app secret (32 hex digits) or app access token (`id|secret`) next to `facebook`",
        &["facebook"],
        "facebook",
        "[0-9]{15,16}(?:\\||%7C)[A-Za-z0-9_-]{27,40}|[a-f0-9]{32}",
        3.0,
    ),
    (
        "fastly-api-token",
        "Fastly API token (32) next to `fastly`",
        &["fastly"],
        "fastly",
        "[A-Za-z0-9=_-]{32}",
        3.0,
    ),
    (
        "finicity-key",
        "Finicity API token (32 hex) or client secret (20) next to `finicity`",
        &["finicity"],
        "finicity",
        "[a-f0-9]{32}|[A-Za-z0-9]{20}",
        3.0,
    ),
    (
        "finnhub-access-token",
        "Finnhub API key (20) next to `finnhub`",
        &["finnhub"],
        "finnhub",
        "[A-Za-z0-9]{20}",
        3.0,
    ),
    (
        "flickr-access-token",
        "Flickr API key (32) next to `flickr`",
        &["flickr"],
        "flickr",
        "[A-Za-z0-9]{32}",
        3.0,
    ),
    (
        "freshbooks-access-token",
        "FreshBooks access token (64) next to `freshbooks`",
        &["freshbooks"],
        "freshbooks",
        "[A-Za-z0-9]{64}",
        3.0,
    ),
    (
        "gitter-access-token",
        "Gitter access token (40) next to `gitter`",
        &["gitter"],
        "gitter",
        "[A-Za-z0-9_-]{40}",
        3.0,
    ),
    (
        "gocardless-api-token",
        "GoCardless access token (`live_` or `sandbox_` + 40) next to `gocardless`",
        &["gocardless"],
        "gocardless",
        "(?:live|sandbox)_[A-Za-z0-9=_-]{40}",
        3.0,
    ),
    (
        "hubspot-api-key",
        "HubSpot API key (a UUID) or private app token (`pat-…`) next to `hubspot`",
        &["hubspot"],
        "hubspot",
        r"pat-[a-z0-9]{2,3}-[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}",
        3.0,
    ),
    (
        "intercom-api-key",
        "Intercom access token (60) next to `intercom`",
        &["intercom"],
        "intercom",
        "[A-Za-z0-9=_-]{60}",
        3.0,
    ),
    (
        "jfrog-api-key",
        "JFrog API key (73) or identity token (64) next to `jfrog`, `artifactory`, `bintray` or `xray`",
        &["jfrog", "artifactory", "bintray", "xray"],
        "jfrog|artifactory|bintray|xray",
        "[A-Za-z0-9]{73}|[A-Za-z0-9]{64}",
        3.5,
    ),
    (
        "kraken-access-token",
        "Kraken API secret (80 to 90 base64 characters) next to `kraken`",
        &["kraken"],
        "kraken",
        "[A-Za-z0-9/=_+-]{80,90}",
        3.5,
    ),
    (
        "kucoin-key",
        "KuCoin API key (24 hex) or secret (a UUID) next to `kucoin`",
        &["kucoin"],
        "kucoin",
        "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[a-f0-9]{24}",
        3.0,
    ),
    (
        "launchdarkly-access-token",
        "LaunchDarkly access token (40, `api-…` or `sdk-…`) next to `launchdarkly`",
        &["launchdarkly"],
        "launchdarkly",
        "[A-Za-z0-9=_-]{40}",
        3.0,
    ),
    (
        "linear-client-secret",
        "Linear OAuth client secret (32 hex digits) next to `linear`",
        &["linear"],
        "linear",
        "[a-f0-9]{32}",
        3.0,
    ),
    (
        "linkedin-client-secret",
        "LinkedIn client secret (16) next to `linkedin`",
        &["linkedin", "linked_in", "linked-in"],
        "linked[_-]?in",
        "[A-Za-z0-9]{16}",
        3.0,
    ),
    (
        "lob-api-key",
        "Lob secret API key (`live_` or `test_` + 35 hex digits) next to `lob`",
        &["lob"],
        "lob",
        "(?:live|test)_[a-f0-9]{35}",
        3.0,
    ),
    (
        "mattermost-access-token",
        "Mattermost access token (26) next to `mattermost`",
        &["mattermost"],
        "mattermost",
        "[A-Za-z0-9]{26}",
        3.0,
    ),
    (
        "messagebird-api-token",
        "MessageBird API key (25) next to `messagebird`",
        &["messagebird", "message-bird", "message_bird"],
        "message[_-]?bird",
        "[A-Za-z0-9]{25}",
        3.0,
    ),
    (
        "new-relic-user-api-id",
        "New Relic user API id (64) next to `newrelic`",
        &["newrelic", "new-relic", "new_relic"],
        "new[_-]?relic",
        "[A-Za-z0-9]{64}",
        3.0,
    ),
    (
        "nytimes-access-token",
        "New York Times API key (32) next to `nytimes`",
        &["nytimes", "newyorktimes", "new-york-times"],
        "nytimes|newyorktimes|new-york-times",
        "[A-Za-z0-9=_-]{32}",
        3.0,
    ),
    (
        "okta-access-token",
        "Okta API token (`00` + 40) next to `okta`",
        &["okta"],
        "okta",
        "00[A-Za-z0-9=_-]{40}",
        3.5,
    ),
    (
        "plaid-token",
        "Plaid access token (`access-<env>-<uuid>`) or secret (30) next to `plaid`",
        &["plaid"],
        "plaid",
        r"access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[A-Za-z0-9]{30}",
        3.0,
    ),
    (
        "privateai-api-token",
        "Private AI API key (32) next to `private_ai`",
        &["privateai", "private_ai", "private-ai"],
        "private[_-]?ai",
        "[A-Za-z0-9]{32}",
        3.0,
    ),
    (
        "rapidapi-access-token",
        "RapidAPI key (50) next to `rapidapi`",
        &["rapidapi"],
        "rapidapi",
        "[A-Za-z0-9_-]{50}",
        3.0,
    ),
    (
        "sendbird-access-token",
        "Sendbird API token (40 hex digits) next to `sendbird`",
        &["sendbird"],
        "sendbird",
        "[a-f0-9]{40}",
        3.0,
    ),
    (
        "sentry-access-token",
        "Sentry auth token, old format (64 hex digits), next to `sentry`",
        &["sentry"],
        "sentry",
        "[a-f0-9]{64}",
        3.0,
    ),
    (
        "sidekiq-secret",
        "Sidekiq Pro / Enterprise credentials (`hex8:hex8`) in `BUNDLE_GEMS__CONTRIBSYS__COM` or `BUNDLE_ENTERPRISE__CONTRIBSYS__COM`",
        &["contribsys__com"],
        "bundle_(?:gems|enterprise)__contribsys__com",
        "[a-f0-9]{8}:[a-f0-9]{8}",
        2.5,
    ),
    (
        "snyk-api-token",
        "Snyk API token (a UUID) next to `snyk_token`, `snyk_api_key` and the like",
        &["snyk"],
        r"snyk[_.-]?(?:(?:api|oauth)[_.-]?)?(?:key|token)",
        UUID,
        3.0,
    ),
    (
        "sonar-api-token",
        "SonarQube / SonarCloud token (40, `squ_…`, `sqp_…`) next to `sonar_token` or `sonar.login`",
        &["sonar"],
        r"sonar[_.-]?(?:login|token)",
        "(?:sq[upa]_)?[A-Za-z0-9=_-]{40}",
        3.0,
    ),
    (
        "squarespace-access-token",
        "Squarespace API key (a UUID) next to `squarespace`",
        &["squarespace"],
        "squarespace",
        UUID,
        3.0,
    ),
    (
        "sumologic-access-token",
        "Sumo Logic access id (`su` + 12) or key (64) next to `sumo`",
        &["sumo"],
        "sumo",
        "[A-Za-z0-9]{64}|su[A-Za-z0-9]{12}",
        3.0,
    ),
    (
        "travisci-access-token",
        "Travis CI access token (22) next to `travis`",
        &["travis"],
        "travis",
        "[A-Za-z0-9]{22}",
        3.0,
    ),
    (
        "twitch-api-token",
        "Twitch API token (30) next to `twitch`",
        &["twitch"],
        "twitch",
        "[A-Za-z0-9]{30}",
        3.0,
    ),
    (
        "twitter-token",
        "Twitter (X) API key (25), secret (50), access token (`id-…`), access secret (45) or bearer token (`AAAA…`) next to `twitter`",
        &["twitter"],
        "twitter",
        "A{22}[A-Za-z0-9%]{80,100}|[0-9]{15,25}-[A-Za-z0-9]{20,40}|[A-Za-z0-9]{50}|[A-Za-z0-9]{45}|[A-Za-z0-9]{25}",
        3.0,
    ),
    (
        "yandex-token",
        "Yandex Cloud access token (`t1.…`), API key (`AQVN…`) or static access key (`YC…`) next to `yandex`",
        &["yandex"],
        "yandex",
        r"t1\.[A-Za-z0-9_-]+={0,2}\.[A-Za-z0-9_-]{86}={0,2}|AQVN[A-Za-z0-9_-]{35,38}|YC[A-Za-z0-9_-]{38}",
        3.0,
    ),
    (
        "zendesk-secret-key",
        "Zendesk API token (40) next to `zendesk`",
        &["zendesk"],
        "zendesk",
        "[A-Za-z0-9]{40}",
        3.0,
    ),
];

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
            "[a-f0-9]{32}(?:[a-f0-9]{8})?|[a-z0-9]{40}",
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

    // More token formats of gitleaks' default rules, each with a distinctive prefix.
    for &(id, description, keywords, pattern, entropy) in PREFIXED {
        token(id, description, keywords, bounded(pattern), entropy);
    }
    token(
        "gitlab-session-cookie",
        "GitLab session cookie: `_gitlab_session=` + 32 letters and digits",
        &["_gitlab_session="],
        r"_gitlab_session=([0-9a-z]{32})(?-u:\b{end-half})".to_owned(),
        3.0,
    );
    token(
        "microsoft-teams-webhook",
        "Microsoft Teams incoming webhook URL: the ids and key after `webhook.office.com/webhookb2/`",
        &["webhook.office.com"],
        r"webhook\.office\.com/webhookb2/([0-9a-fA-F-]{36}@[0-9a-fA-F-]{36}/IncomingWebhook/[0-9a-zA-Z]{32}/[0-9a-fA-F-]{36}(?:/[A-Za-z0-9_-]+)?)".to_owned(),
        3.0,
    );
    // And the formats gitleaks finds only next to the service's name.
    for &(id, description, keywords, names, value, entropy) in IN_CONTEXT {
        token(id, description, keywords, in_context(names, value), entropy);
    }

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

#[cfg(test)]
mod tests {
    use super::has_group;

    #[test]
    fn has_group_agrees_with_the_regex_crate() {
        for (pattern, expected) in [
            ("abc", false),
            ("(abc)", true),
            ("a(b)", true),
            ("(?:abc)", false),
            ("a(?:b)", false),
            (r"(?-u:\b)x", false),
            (r"\(x\)", false),
            (r"\\(x)", true),
            ("[(]x", false),
            ("[a](x)", true),
            ("[^a](x)", true),
            ("[]()]", false),
            ("[^]()]", false),
            (r"[\]()]", false),
            (r"[\]](x)", true),
            ("a](x)", true),
            ("a]", false),
            ("[a[]()]]", false),
            ("[a[]()]](x)", true),
            ("[a[b]()]", false),
            ("[a[^]b]()]", false),
            ("[[:alpha:]](x)", true),
            ("[[:alpha:](]", false),
        ] {
            let regex = regex::Regex::new(pattern).unwrap();
            assert_eq!(regex.captures_len() > 1, expected, "{pattern:?} (the table)");
            assert_eq!(has_group(pattern), expected, "{pattern:?}");
        }
    }
}
