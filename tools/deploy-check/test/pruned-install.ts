import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, parse, resolve } from 'node:path';
import { ROOT } from '../src/deploy-files';
import { readRuntimeStage, type RuntimeStage } from './runtime-stage';

/**
 * The image's runtime stage, rebuilt in a folder of its own: the files its COPY lines bring, node_modules from its
 * exact `npm ci` line (with NODE_ENV from its ENV line), dist/ as the build stage leaves it.
 *
 * The install is cached by its inputs (the lock, package.json, the npm flags, the Node version) under the system's
 * temporary folder, NOT in a git-ignored folder of the repository: from anywhere under the repository, Node would
 * find missing packages in the repository's own node_modules (dev dependencies included) and `findWorkspaceRoot`
 * would find its nx.json, and the test would prove nothing about the image.
 */
export interface PrunedInstall {
  /** The image's WORKDIR. */
  dir: string;
  /** Where node_modules really is (dir/node_modules links to it). */
  modulesDir: string;
  stage: RuntimeStage;
  /** How long `npm ci` took when this install was made. */
  installMs: number;
  /** Whether this run made it (false: it came from the cache). */
  installedNow: boolean;
  /** The uid and gid of the image's USER when the test may switch to it (running as root), else undefined. */
  user: { uid: number; gid: number } | undefined;
  remove(): void;
}

const CACHE = join(tmpdir(), 'voice-fleet-deploy-check');
const DAY_MS = 24 * 3600_000;
/** node:20-*-slim images create the user `node` as uid/gid 1000. */
const IMAGE_USERS: Record<string, { uid: number; gid: number }> = { node: { uid: 1000, gid: 1000 } };

export function preparePrunedInstall(): PrunedInstall {
  const stage = readRuntimeStage();
  for (const copy of stage.copyBeforeInstall) {
    if (copy.from) throw new Error('the install must only depend on files from the build context');
  }
  const inputs = stage.copyBeforeInstall.flatMap((c) => c.sources);
  const key = createHash('sha256')
    .update(JSON.stringify({ install: stage.install, env: stage.env, node: process.version }))
    .update(inputs.map((f) => readFileSync(join(ROOT, f))).join('\0'))
    .digest('hex')
    .slice(0, 24);
  mkdirSync(CACHE, { recursive: true });
  assertIsolated(CACHE);
  removeStale();

  const modulesDir = join(CACHE, key);
  let installedNow = false;
  if (!existsSync(join(modulesDir, 'install-ms'))) {
    const staging = `${modulesDir}.staging-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging);
    copyInto(staging, fromContext(stage.copyBeforeInstall));
    const [command, ...args] = stage.install;
    const started = Date.now();
    const result = spawnSync(command!, [...args, '--prefer-offline'], {
      cwd: staging,
      encoding: 'utf8',
      env: { PATH: process.env['PATH'], HOME: process.env['HOME'], ...stage.env },
      timeout: 300_000,
    });
    if (result.status !== 0) {
      throw new Error(
        `${stage.install.join(' ')} failed (${result.status}):\n${result.stderr}\n${result.stdout}`,
      );
    }
    writeFileSync(join(staging, 'install-ms'), String(Date.now() - started));
    try {
      renameSync(staging, modulesDir);
      installedNow = true;
    } catch {
      // another run made the same install meanwhile: use theirs
      rmSync(staging, { recursive: true, force: true });
    }
  }
  const installMs = Number(readFileSync(join(modulesDir, 'install-ms'), 'utf8'));
  const now = new Date();
  utimesSync(modulesDir, now, now); // in use: not stale

  const dir = mkdtempSync(join(CACHE, 'app-'));
  chmodSync(dir, 0o755);
  copyInto(dir, fromContext(stage.copyBeforeInstall));
  symlinkSync(join(modulesDir, 'node_modules'), join(dir, 'node_modules'), 'dir');
  copyInto(dir, fromContext(stage.copyAfterInstall));
  const user = process.getuid?.() === 0 ? IMAGE_USERS[stage.user] : undefined;
  return {
    dir,
    modulesDir,
    stage,
    installMs,
    installedNow,
    user,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

type Copy = [source: string, destination: string];

/**
 * Where each COPY source is on this machine: the build context is the repository; the build stage (WORKDIR /src)
 * leaves its outputs where `npm run build` leaves them here, which the global test setup has just run.
 */
function fromContext(copies: RuntimeStage['copyBeforeInstall']): Copy[] {
  return copies.flatMap((c) =>
    c.sources.map((s): Copy => [
      join(ROOT, c.from === 'build' ? s.replace(/^\/src\/?/, '') : s),
      c.destination,
    ]),
  );
}

/** COPY semantics for what this Dockerfile uses: files into a folder (`./`), a folder onto a folder path. */
function copyInto(workdir: string, copies: Copy[]): void {
  for (const [source, destination] of copies) {
    const target = resolve(workdir, destination);
    if (statSync(source).isDirectory()) {
      cpSync(source, target, { recursive: true });
    } else {
      const file = destination.endsWith('/') ? join(target, parse(source).base) : target;
      mkdirSync(dirname(file), { recursive: true });
      cpSync(source, file);
    }
  }
}

/** No folder above the install may hold node_modules or nx.json: they would answer for what the image lacks. */
function assertIsolated(folder: string): void {
  for (let dir = folder; ; dir = dirname(dir)) {
    for (const name of ['node_modules', 'nx.json', 'package.json']) {
      if (existsSync(join(dir, name)))
        throw new Error(`${join(dir, name)} would leak into the pruned install`);
    }
    if (dirname(dir) === dir) return;
  }
}

/** Installs of older locks, and app folders of runs that died, after a day. */
function removeStale(): void {
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    if (Date.now() - statSync(path).mtimeMs > DAY_MS) rmSync(path, { recursive: true, force: true });
  }
}
