#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL server (issue 10): initdb in a temporary directory,
# start on PG_PORT (5433) on localhost, export DATABASE_URL, run "$@", stop and delete the server.
# Needs Debian's `postgresql` package (apt-get install -y postgresql). As root, the server runs as the
# `postgres` user the package creates.
#   scripts/with-postgres.sh npx vitest run --project server
set -euo pipefail
port="${PG_PORT:-5433}"
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
if [ -z "$bin" ]; then echo "PostgreSQL is not installed (apt-get install -y postgresql)" >&2; exit 1; fi
dir="$(mktemp -d /tmp/sine-bisaya-pg.XXXXXX)"
as_owner=()
if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; as_owner=(runuser -u postgres --); fi
"${as_owner[@]}" "$bin/initdb" -D "$dir/data" -A trust -U postgres >/dev/null
"${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
  -o "-p $port -k $dir -c listen_addresses=localhost -c max_connections=400 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null
stop() { "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$dir"; }
trap stop EXIT
export DATABASE_URL="postgres://postgres@localhost:$port/postgres"
echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on $DATABASE_URL"
"$@"
