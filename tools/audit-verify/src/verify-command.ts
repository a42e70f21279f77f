import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  publicKeyFromText,
  UnreadableExportError,
  verifyAuditExport,
  type ExportProblem,
  type ExportVerification,
} from '@fleet/audit-export';

export interface Output {
  out(line: string): void;
  err(line: string): void;
}

/** Exit codes: every row fits; something does not; the input cannot be checked at all. */
export const VERIFIED = 0;
export const NOT_VERIFIED = 1;
export const UNUSABLE = 2;

const USAGE = 'usage: npm run audit:verify -- <export.json> [--public-key <PEM file | PEM | base64>]';

/**
 * `npm run audit:verify -- <file>`: checks an audit export offline, with no database: its signature (against the
 * platform's public key got out of band, else the one inside the file), every chain link recomputed, every call
 * row against its seal. Names the first row that does not fit.
 */
export function runVerify(argv: string[], io: Output, pathOf: (arg: string) => string = (p) => p): number {
  let file: string;
  let keyText: string | undefined;
  try {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { 'public-key': { type: 'string' } },
    });
    if (positionals.length !== 1) throw new Error('give exactly one export file');
    file = pathOf(positionals[0]!);
    const key = values['public-key'];
    keyText =
      key === undefined || key.startsWith('-----BEGIN') || !existsSync(pathOf(key)) ? key : pathOf(key);
  } catch (err) {
    io.err(`${(err as Error).message}\n${USAGE}`);
    return UNUSABLE;
  }
  let result: ExportVerification;
  try {
    const trusted = keyText === undefined ? undefined : publicKeyFromText(readKey(keyText));
    result = verifyAuditExport(JSON.parse(readFileSync(file, 'utf8')) as unknown, trusted);
  } catch (err) {
    const why =
      err instanceof UnreadableExportError ? err.message : `cannot check ${file}: ${(err as Error).message}`;
    io.err(why);
    return UNUSABLE;
  }
  report(file, result, io);
  return result.ok ? VERIFIED : NOT_VERIFIED;
}

/** A PEM or base64 key given inline, or a file that holds one. */
function readKey(text: string): string {
  return !text.startsWith('-----BEGIN') && existsSync(text) ? readFileSync(text, 'utf8') : text;
}

function report(file: string, r: ExportVerification, io: Output): void {
  io.out(`audit export ${file}`);
  const whose =
    r.key.source === 'given'
      ? `the key given (${r.key.fingerprint})`
      : `the key inside the file (${r.key.fingerprint}): compare it with the platform's fingerprint (npm run audit:public-key)`;
  io.out(
    `  signature: ${r.signature === 'valid' ? 'valid' : 'INVALID: the file is not what the platform signed'}, checked with ${whose}`,
  );
  if (r.key.source === 'given' && r.key.embeddedFingerprint !== r.key.fingerprint) {
    io.out(`  note: the file names another key (${r.key.embeddedFingerprint})`);
  }
  if (!r.rows) {
    io.out('  rows: not in this export (made without evidence=rows): its chains cannot be recomputed');
  } else {
    io.out(
      `  recomputed: ${r.checked.chains} chains, ${r.checked.links} links, ${r.checked.calls} calls, ${r.checked.seals} seals`,
    );
  }
  const first = r.problems[0];
  if (first) {
    io.out(`  FIRST ROW THAT DOES NOT FIT: ${describe(first)}`);
    if (r.problems.length > 1) io.out(`  (${r.problems.length} problems in all)`);
  }
  io.out(r.ok ? 'VERIFIED: the signature holds and every row fits' : 'NOT VERIFIED');
}

function describe(p: ExportProblem): string {
  const where = [
    p.deviceId && `device ${p.deviceId}`,
    p.seq && `seq ${p.seq}`,
    p.stage && p.callId ? `(${p.stage} of call ${p.callId})` : p.callId && `call ${p.callId}`,
    p.field && `field ${p.field}`,
  ]
    .filter(Boolean)
    .join(' ');
  return `${where}: ${p.problem}: ${p.detail}`;
}
