import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkpointNote, EvidenceLog, formatLogEntries, type LogEntry } from '@fleet/audit-export';
import { cosignatureVerifierFromKey, ed25519Signer, openNote } from '@fleet/transparency';

const BUNDLED_WITNESS = join(__dirname, '../../../dist/audit-verify/witness.cjs');
const origin = 'voice-fleet.test/evidence';
const log = ed25519Signer(origin, generateKeyPairSync('ed25519').privateKey);
const seal = (n: number): LogEntry => ({
  deviceId: 'a0:85:e3:00:00:01',
  seq: String(6 * n),
  hash: String(n % 10).repeat(64),
});

/** The log directory as the admin API publishes it (CheckpointStore): entries, then the signed checkpoint. */
function publish(dir: string, entries: LogEntry[]): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'entries.jsonl'), formatLogEntries(entries));
  writeFileSync(join(dir, 'checkpoint'), checkpointNote(new EvidenceLog(entries), origin, log));
}

describe('the bundled witness, run with plain node away from the repository', () => {
  const away = mkdtempSync(join(tmpdir(), 'witness-'));
  copyFileSync(BUNDLED_WITNESS, join(away, 'witness.cjs'));
  const { INIT_CWD: _cwd, ...env } = process.env;
  const witness = (...args: string[]) =>
    spawnSync(process.execPath, ['witness.cjs', ...args], { cwd: away, env, encoding: 'utf8' });
  const dir = join(away, 'checkpoints');
  const args = [
    '--dir',
    dir,
    '--log-key',
    log.verifier.text,
    '--key',
    'w.key',
    '--name',
    'witness.example/w1',
  ];

  it('makes its own key, cosigns a checkpoint and one that extends it, and refuses a fork', () => {
    const made = witness('--generate-key', 'w.key', '--name', 'witness.example/w1');
    expect(made.status).toBe(0);
    const witnessKey = cosignatureVerifierFromKey(made.stdout.trim());

    const first = Array.from({ length: 5 }, (_, i) => seal(i + 1));
    publish(dir, first);
    expect(witness(...args, '--state', 'state.json')).toMatchObject({ status: 0 });
    publish(dir, [...first, seal(6), seal(7)]);
    const second = witness(...args, '--state', 'state.json');
    expect(second.status).toBe(0);
    const opened = openNote(second.stdout, [log.verifier, witnessKey]);
    expect(opened.by.map((v) => v.name)).toEqual([origin, 'witness.example/w1']);
    expect(readFileSync(join(dir, 'cosigned', 'witness.example_w1.7'), 'utf8')).toBe(second.stdout);

    // The log rewrites its second seal and signs a new, larger checkpoint over the rewrite.
    publish(dir, [
      first[0]!,
      { ...first[1]!, hash: 'f'.repeat(64) },
      ...first.slice(2),
      seal(6),
      seal(7),
      seal(8),
    ]);
    const forked = witness(...args, '--state', 'state.json');
    expect(forked.status).toBe(1);
    expect(forked.stderr).toContain(
      'REFUSED: the tree of 8 does not extend the tree of 7 this witness cosigned: the log forked',
    );
    expect(JSON.parse(readFileSync(join(away, 'state.json'), 'utf8'))).toMatchObject({ size: 7 });
  });
});
