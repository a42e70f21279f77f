import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  DuplicateKeyError,
  fingerprintAnchor,
  keyAnchor,
  StrictJsonError,
  UnreadableExportError,
  verifyAuditExportFile,
  type ExportProblem,
  type ExportVerification,
  type TrustAnchor,
} from '@fleet/audit-export';

export interface Output {
  out(line: string): void;
  err(line: string): void;
}

/**
 * Exit codes: every row fits under a trusted key; something does not; the input cannot be checked at all; the
 * checks ran but no trusted key was given, so nothing is proven.
 */
export const VERIFIED = 0;
export const NOT_VERIFIED = 1;
export const UNUSABLE = 2;
export const NO_TRUSTED_KEY = 3;

const USAGE =
  'usage: npm run audit:verify -- <export.json> --public-key <key file | PEM | base64>\n' +
  '       npm run audit:verify -- <export.json> --fingerprint sha256:<hex>\n' +
  'The key file is what GET /api/v1/reports/audit/signing-key answers or what npm run audit:public-key prints.';

/**
 * `npm run audit:verify -- <file>`: checks an audit export offline, with no database: the file read strictly
 * (UTF-8, no name twice in an object), its signature against the platform's public key got out of band (or the
 * file's key, when its fingerprint was got out of band), every chain link recomputed, every call row against its
 * seal. Names the first row that does not fit. Without a trusted key it never says VERIFIED: a forger re-signs
 * with a key of their own and puts it in the file.
 */
export function runVerify(argv: string[], io: Output, pathOf: (arg: string) => string = (p) => p): number {
  let file: string;
  let anchor: TrustAnchor | undefined;
  try {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { 'public-key': { type: 'string' }, fingerprint: { type: 'string' } },
    });
    if (positionals.length !== 1) throw new Error('give exactly one export file');
    file = pathOf(positionals[0]!);
    const key = values['public-key'];
    const fingerprint = values.fingerprint;
    if (key !== undefined && fingerprint !== undefined) throw new Error('give --public-key or --fingerprint');
    if (key !== undefined) anchor = keyAnchor(readKey(key, pathOf));
    if (fingerprint !== undefined) anchor = fingerprintAnchor(fingerprint);
  } catch (err) {
    io.err(`${(err as Error).message}\n${USAGE}`);
    return UNUSABLE;
  }
  let result: ExportVerification;
  try {
    result = verifyAuditExportFile(readFileSync(file), anchor);
  } catch (err) {
    if (err instanceof DuplicateKeyError) {
      io.out(`audit export ${file}`);
      io.out(`  REFUSED: ${err.message}: readers disagree on which one the file says`);
      io.out('not verified: the file is not one document');
      return NOT_VERIFIED;
    }
    const why =
      err instanceof UnreadableExportError || err instanceof StrictJsonError
        ? err.message
        : `cannot check ${file}: ${(err as Error).message}`;
    io.err(why);
    return UNUSABLE;
  }
  report(file, result, io);
  if (result.ok) return VERIFIED;
  return result.key.source === 'embedded' ? NO_TRUSTED_KEY : NOT_VERIFIED;
}

/** A key given inline (PEM, base64) or a file that holds one in any form the platform publishes. */
function readKey(arg: string, pathOf: (arg: string) => string): string {
  if (arg.startsWith('-----BEGIN')) return arg;
  const path = pathOf(arg);
  return existsSync(path) ? readFileSync(path, 'utf8') : arg;
}

function report(file: string, r: ExportVerification, io: Output): void {
  io.out(`audit export ${file}`);
  const whose = {
    given: `the key given (${r.key.fingerprint})`,
    fingerprint: r.trusted
      ? `the key inside the file, whose fingerprint is the one given (${r.key.fingerprint})`
      : `the key inside the file (${r.key.fingerprint}), which is NOT the key whose fingerprint was given`,
    embedded: `the key inside the file (${r.key.fingerprint}), which proves nothing: anyone can re-sign a file with a key of their own`,
  }[r.key.source];
  io.out(
    `  signature: ${r.signature === 'valid' ? 'valid' : 'INVALID: the file is not what that key signed'}, checked with ${whose}`,
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
    const c = r.checkpoint;
    if (c) {
      const since =
        c.previousSize === null ? 'the first checkpoint' : `extends the checkpoint of ${c.previousSize}`;
      io.out(
        `  checkpoint: ${c.origin}, tree of ${c.size} (${since}); ${c.signedSeals} seals signed by a listed orchestrator key, ${c.included} shown in the tree`,
      );
    }
  }
  const first = r.problems[0];
  if (first) {
    io.out(`  FIRST ROW THAT DOES NOT FIT: ${describe(first)}`);
    if (r.problems.length > 1) io.out(`  (${r.problems.length} problems in all)`);
  }
  io.out(r.ok ? 'VERIFIED: the signature holds under a trusted key and every row fits' : verdictLine(r));
}

/** Lower case on purpose: only a verified export prints the word VERIFIED in capitals. */
function verdictLine(r: ExportVerification): string {
  if (!r.trusted) {
    return r.key.source === 'embedded'
      ? 'not verified: no trusted key given (--public-key <the platform key file> or --fingerprint sha256:<hex>)'
      : 'not verified: the file was not signed with the key whose fingerprint was given';
  }
  if (r.signature === 'invalid') return 'not verified: the signature does not hold';
  if (!r.rows) return 'not verified: the export carries no rows to recompute';
  return 'not verified: a row does not fit';
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
  return where ? `${where}: ${p.problem}: ${p.detail}` : `${p.problem}: ${p.detail}`;
}
