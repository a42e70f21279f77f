// `npm run db:import-readbacks -- <file.json>`: turns the orchestrator's old MODEL_READBACKS list (its JSON, as
// the variable or MODEL_READBACKS_FILE held it) into tool profiles, written as the operator ADMIN_EMAIL names and
// audited as that person's tool_profile.put, as the API audits its own.
import { readFileSync } from 'node:fs';
import { legacyModelReadbacksSchema, profilesFromLegacyReadbacks } from '@fleet/domain';
import { createDatabase, createPgPool } from '@fleet/db';
import { loadDbToolsConfig } from './config';
import { importProfiles } from './import-readbacks.repository';

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file)
    throw new Error('usage: npm run db:import-readbacks -- <file.json> (the old MODEL_READBACKS list)');
  const parsed = legacyModelReadbacksSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success)
    throw new Error(parsed.error.issues.map((i) => `entry ${i.path.join('.')}: ${i.message}`).join('; '));
  const config = loadDbToolsConfig();
  const pool = createPgPool(config.appUrl, { max: 1 });
  try {
    const bodies = profilesFromLegacyReadbacks(parsed.data);
    for (const body of await importProfiles(createDatabase(pool), config.adminEmail, bodies)) {
      console.log(
        `${body.model} ${body.tool}: ${body.kind}${body.readback ? ` read back by ${body.readback.tool}` : ''}`,
      );
    }
  } finally {
    await pool.end();
  }
}

main().catch((err: Error) => {
  console.error(`db:import-readbacks failed: ${err.message}`);
  process.exit(1);
});
