#!/usr/bin/env bash
# Writes prisma/migrations/<timestamp>_<name>/migration.sql: the SQL that takes the schema as committed at
# REV (default HEAD) to prisma/schema.prisma as it is in the working tree.
#
# The committed schema is what the existing migrations produce: a test (schema-matches-migrations) proves it
# on every commit. Prisma 7's schema engine is a native download this environment cannot reach, so the diff
# runs in Prisma 6.19's WebAssembly engine, fetched once from the npm registry into a cache folder. (Its
# database-reading modes fail on Postgres here, so the diff is schema to schema.) Review the SQL before
# committing it; never edit a migration that landed.
set -euo pipefail
name="${1:?usage: tools/db/new-migration.sh <verb_object> [REV]}"
rev="${2:-HEAD}"
[[ "$name" =~ ^[a-z0-9_]+$ ]] || { echo "name must be lower_snake_case" >&2; exit 2; }
root="$(cd "$(dirname "$0")/../.." && pwd)"
tool="${XDG_CACHE_HOME:-$HOME/.cache}/voice-fleet/prisma-6.19"
# The engine opens a connection through the adapter even for a schema-to-schema diff; it reads nothing.
pg_url="${POSTGRES_URL:-postgresql://postgres@127.0.0.1:5432/postgres}"

if [ ! -x "$tool/node_modules/.bin/prisma" ]; then
  mkdir -p "$tool"
  npm install --prefix "$tool" --no-audit --no-fund --silent prisma@6.19.3 @prisma/adapter-pg@6.19.3 pg@8 >/dev/null
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Prisma 6 wants a url in the datasource block; Prisma 7's schema has none. It is never connected to.
with_url() { sed 's#^  provider = "postgresql"$#  provider = "postgresql"\n  url      = "postgresql://unused@127.0.0.1/unused"#'; }
git -C "$root" show "$rev:prisma/schema.prisma" | with_url > "$work/from.prisma"
with_url < "$root/prisma/schema.prisma" > "$work/to.prisma"
cat > "$work/prisma.config.ts" <<CONFIG
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';
// engine "js" keeps the CLI away from the native engines; it insists on an adapter.
export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  adapter: async () => new PrismaPg({ connectionString: '${pg_url}' }),
} as never);
CONFIG
ln -s "$tool/node_modules" "$work/node_modules"

sql="$(cd "$work" && PRISMA_QUERY_ENGINE_LIBRARY=/bin/true PRISMA_SCHEMA_ENGINE_BINARY=/bin/true \
  ./node_modules/.bin/prisma migrate diff --from-schema-datamodel from.prisma --to-schema-datamodel to.prisma \
  --script 2>"$work/stderr")" || { cat "$work/stderr" >&2; exit 1; }
if [ -z "$(echo "$sql" | grep -v '^--' | tr -d '[:space:]')" ]; then
  echo "schema.prisma has not changed since $rev: nothing to write"
  exit 0
fi
dir="$root/prisma/migrations/$(date -u +%Y%m%d%H%M%S)_${name}"
mkdir -p "$dir"
printf '%s\n' "$sql" > "$dir/migration.sql"
echo "wrote ${dir#"$root"/}/migration.sql"
