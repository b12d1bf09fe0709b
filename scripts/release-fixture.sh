#!/usr/bin/env bash
# Makes the upgrade test's fixture of a release: the release's migrations applied to an empty
# PostgreSQL database and filled by that release's own demo seed, dumped as plain SQL (inserts,
# no COPY, so the embedded database can load it too) into
# apps/server/src/db/upgrade-fixtures/<version>.sql.gz. Run it once per release, at the release's
# commit, and commit the file:
#   scripts/release-fixture.sh <git ref of the release> <version>
# Needs git, npm, PostgreSQL at DATABASE_SERVER (default postgres://postgres@127.0.0.1:5432) and pg_dump.
set -euo pipefail
ref=${1:?git ref of the release}
version=${2:?version of the release, e.g. 0.1.0}
root=$(cd "$(dirname "$0")/.." && pwd)
server=${DATABASE_SERVER:-postgres://postgres@127.0.0.1:5432}
work=$(mktemp -d)
db="release_fixture_$$"
cleanup() {
  psql "$server/postgres" -qc "drop database if exists $db with (force)" >/dev/null 2>&1 || true
  git -C "$root" worktree remove --force "$work/release" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
git -C "$root" worktree add --detach "$work/release" "$ref" >/dev/null
(cd "$work/release" && npm ci --no-audit --no-fund --ignore-scripts >/dev/null)
psql "$server/postgres" -qc "create database $db"
(cd "$work/release" && DATABASE_URL="$server/$db" DATA_DIR="$work/data" node --import tsx apps/server/src/main.ts seed --demo >/dev/null)
# Loaded as one script in one transaction: its settings are made local to it (and the search_path
# reset dropped), so none outlives it on the connection that loads it; psql's \restrict lines go.
pg_dump --inserts --no-owner --no-privileges --no-comments --no-publications --no-subscriptions --no-security-labels "$server/$db" \
  | grep -v -e "^SELECT pg_catalog.set_config('search_path', '', false);$" -e '^\\restrict ' -e '^\\unrestrict ' \
  | sed -e 's/^SET /SET LOCAL /' \
  | gzip -9n > "$root/apps/server/src/db/upgrade-fixtures/$version.sql.gz"
echo "wrote apps/server/src/db/upgrade-fixtures/$version.sql.gz ($(du -h "$root/apps/server/src/db/upgrade-fixtures/$version.sql.gz" | cut -f1)) from $(git -C "$root" rev-parse --short "$ref")"
