import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_POSTGRES_URL } from '@fleet/testing';
import { DEPLOY } from './deploy-files';

// deploy/sql/app-role.sql is what compose's db-roles one-shot and the Kubernetes migration Job run with psql before
// the migrations. It runs here inside a transaction that is rolled back: the machine's Postgres is shared.

const sql = readFileSync(join(DEPLOY, 'sql/app-role.sql'), 'utf8');

function psqlRolledBack(script: string, password: string): string {
  const result = spawnSync(
    'psql',
    ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-v', `app_password=${password}`, TEST_POSTGRES_URL],
    { input: `BEGIN;\n${script}\nROLLBACK;\n`, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`psql failed: ${result.stderr}`);
  return result.stdout.trim();
}

describe('deploy/sql/app-role.sql', () => {
  it('creates the role with its password when missing, and only sets the password when it exists', () => {
    const role = `deploy_check_${process.pid}`;
    const script = sql.replaceAll('fleet_app', role);
    const check = `SELECT rolcanlogin, rolpassword IS NOT NULL FROM pg_authid WHERE rolname = '${role}';`;
    // twice in one transaction: the second run finds the role and only sets its password again
    expect(psqlRolledBack(`${script}\n${check}\n${script}\n${check}`, "it's-a-secret")).toBe('t|t\nt|t');
  });

  it('runs as written against the application role', () => {
    expect(psqlRolledBack(`${sql}\nSELECT rolcanlogin FROM pg_roles WHERE rolname = 'fleet_app';`, 'x')).toBe(
      't',
    );
  });
});
