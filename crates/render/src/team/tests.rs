use jiff::tz::TimeZone;
use report_model::{Lang, TEAM_SCHEMA_VERSION, TeamDay, Warning, WarningDetail};

use super::team;
use crate::Format;

fn empty_day() -> TeamDay {
    TeamDay {
        schema_version: TEAM_SCHEMA_VERSION,
        date: "2026-11-27".parse().unwrap(),
        members: Vec::new(),
        warnings: vec![Warning::new(WarningDetail::LedgerFolderUnreadable {
            path: "bob/2026-11-27.json".to_owned(),
            error: "bad".to_owned(),
        })],
        generated_at: "2026-11-27T09:00:00Z".parse().unwrap(),
        time_zone: "UTC".to_owned(),
    }
}

#[test]
fn a_day_nobody_published_says_so_with_its_warnings_in_both_languages() {
    let day = empty_day();
    let en = team(&day, Format::Markdown, Lang::En, &TimeZone::UTC);
    insta::assert_snapshot!(en, @r"
    # Team standup — 2026-11-27 (Fri)

    Nobody published a day for 2026-11-27 (Fri).

    Totals: 0 members · 0 projects · no commits

    - Warning: `ledger_unreadable` cannot read `bob/2026-11-27.json`: bad
    ");
    let ja = team(&day, Format::Markdown, Lang::Ja, &TimeZone::UTC);
    assert!(ja.starts_with("# チームのスタンドアップ — 2026年11月27日（金）\n"), "{ja}");
    assert!(ja.contains("記録 `bob/2026-11-27.json` を読めません: bad"), "{ja}");
    let json: serde_json::Value =
        serde_json::from_str(&team(&day, Format::Json, Lang::En, &TimeZone::UTC)).unwrap();
    assert_eq!(json["warnings"][0]["code"], "ledger_unreadable");
}
