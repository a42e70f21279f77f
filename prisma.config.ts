// Prisma CLI configuration. The platform applies migrations itself (tools/db), because Prisma 7's
// schema engine is a native download this environment cannot reach; `prisma migrate deploy` works
// the same wherever the engine is available, since migrations keep Prisma's own layout.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: {
    url: process.env['DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/fleet',
  },
});
