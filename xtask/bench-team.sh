#!/bin/sh
# Measures `standup team` on a ledger of 1,000 members × 365 days (issue 22: one day
# must render in under a second). Not a test: a measured run. TMPDIR=/dev/shm keeps the
# 365,000 files off a slow disk. Usage:
#   CARGO_TARGET_DIR=… [PROFILE=debug] sh xtask/bench-team.sh [members] [days]
# PROFILE=debug times the unoptimized binary (an upper bound, no release build needed).
set -eu
members=${1:-1000}
days=${2:-365}
target=${CARGO_TARGET_DIR:-target}
if [ "${PROFILE:-release}" = debug ]; then
  cargo build -q -p standup
  bin="$target/debug/standup"
else
  cargo build -q --release -p standup
  bin="$target/release/standup"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One real published day (a home with one commit), copied under every member and date.
home="$work/home"
mkdir -p "$home/src/api"
git -C "$home/src/api" init -q -b main
GIT_AUTHOR_NAME=Me GIT_AUTHOR_EMAIL=me@example.com GIT_COMMITTER_NAME=Me GIT_COMMITTER_EMAIL=me@example.com \
GIT_AUTHOR_DATE=2026-11-27T10:00:00+09:00 GIT_COMMITTER_DATE=2026-11-27T10:00:00+09:00 \
  git -C "$home/src/api" commit -q --allow-empty -m "api: retry on 503"
mkdir -p "$home/.config/standup"
printf '[identity]\nemails = ["me@example.com"]\n' > "$home/.config/standup/config.toml"
env -i HOME="$home" PATH="$PATH" TZ=Asia/Tokyo STANDUP_NOW=2026-11-27T18:00:00+09:00 \
  "$bin" publish --show-what-is-published 2>/dev/null > "$work/day.json"
ledger="$work/ledger"
python3 - "$ledger" "$members" "$days" "$work/day.json" <<'PY'
import datetime, os, sys
ledger, members, days, day = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), open(sys.argv[4]).read()
last = datetime.date(2026, 11, 27)
# The day rendered is a real file per member; the other days (never opened, which is
# the point) are hard links to one other day's entry, so that building the ledger does
# not take longer than the run measured.
os.makedirs(ledger)
other = os.path.join(ledger, ".other-day.json")
with open(other, "w") as f:
    f.write(day.replace("2026-11-27", "2026-11-26"))
for m in range(members):
    folder = os.path.join(ledger, f"member-{m:04d}")
    os.makedirs(folder)
    with open(os.path.join(folder, f"{last.isoformat()}.json"), "w") as f:
        f.write(day)
    for d in range(1, days):
        os.link(other, os.path.join(folder, f"{(last - datetime.timedelta(days=d)).isoformat()}.json"))
PY
echo "ledger: $members members × $days days ($(find "$ledger" -type f | wc -l) files)"
sync
for run in 1 2 3; do
  start=$(date +%s.%N)
  env -i HOME="$home" PATH="$PATH" TZ=Asia/Tokyo STANDUP_NOW=2026-11-27T18:00:00+09:00 \
    "$bin" team --ledger "$ledger" --date 2026-11-27 > "$work/page.md"
  end=$(date +%s.%N)
  echo "run $run: $(echo "$end - $start" | bc) s, $(grep -c '^## ' "$work/page.md") members on the page"
done
