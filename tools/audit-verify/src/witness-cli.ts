#!/usr/bin/env node
// A witness for the evidence log (DESIGN §6), run by someone other than the platform with a key of their own:
//   witness --generate-key <key file> --name <witness name>      a new key; prints its verifier key string
//   witness --dir <checkpoint dir> --log-key <log verifier key> --key <key file> --name <name> --state <state file>
// Cosigns the directory's checkpoint when it extends the last one this witness cosigned, writes the cosigned note
// to <dir>/cosigned/<name>.<size> and prints it; refuses (exit 1) a log that forked.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { parseLogEntries, privateKeyFromText } from '@fleet/audit-export';
import { cosignatureSigner, verifierFromKey } from '@fleet/transparency';
import { invocationDir } from './config';
import { witnessCheckpoint, WitnessRefusal, type WitnessState } from './witness';

function main(argv: string[]): number {
  const { values } = parseArgs({
    args: argv,
    options: {
      dir: { type: 'string' },
      'log-key': { type: 'string' },
      key: { type: 'string' },
      name: { type: 'string' },
      state: { type: 'string' },
      'generate-key': { type: 'string' },
    },
  });
  const at = (p: string) => resolve(invocationDir(), p);
  const name = values.name;
  if (!name) throw new Error('give --name <witness name>');
  if (values['generate-key']) {
    const seed = randomBytes(32).toString('base64');
    writeFileSync(at(values['generate-key']), `${seed}\n`, { flag: 'wx', mode: 0o600 });
    console.log(cosignatureSigner(name, privateKeyFromText(seed)).verifier.text);
    return 0;
  }
  const { dir, key, state: statePath } = values;
  const logKey = values['log-key'];
  if (!dir || !logKey || !key || !statePath) throw new Error('give --dir, --log-key, --key and --state');
  const witness = cosignatureSigner(name, privateKeyFromText(readFileSync(at(key), 'utf8')));
  const state = readState(at(statePath));
  try {
    const result = witnessCheckpoint({
      note: readFileSync(join(at(dir), 'checkpoint'), 'utf8'),
      entries: parseLogEntries(readFileSync(join(at(dir), 'entries.jsonl'), 'utf8')),
      logKey: verifierFromKey(logKey),
      witness,
      state,
    });
    mkdirSync(join(at(dir), 'cosigned'), { recursive: true });
    writeFileSync(
      join(at(dir), 'cosigned', `${name.replace(/[^A-Za-z0-9._-]/g, '_')}.${result.state.size}`),
      result.cosigned,
    );
    writeAtomically(at(statePath), `${JSON.stringify(result.state)}\n`);
    process.stdout.write(result.cosigned);
    return 0;
  } catch (err) {
    if (!(err instanceof WitnessRefusal)) throw err;
    console.error(`REFUSED: ${err.message}`);
    return 1;
  }
}

const stateSchema = z.strictObject({ origin: z.string().min(1), size: z.int().min(0), root: z.base64() });

function readState(path: string): WitnessState | null {
  try {
    return stateSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

function writeAtomically(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (err) {
  console.error(`witness: ${(err as Error).message}`);
  process.exitCode = 2;
}
