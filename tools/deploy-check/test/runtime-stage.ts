import { readFileSync } from 'node:fs';
import {
  copyArgs,
  envPairs,
  execForm,
  parseDockerfile,
  runCommand,
  stageNamed,
  type CopyArgs,
} from '../src/dockerfile';
import { DOCKERFILE } from '../src/deploy-files';

/** What deploy/Dockerfile's runtime stage does, read from the file, in the order it does it. */
export interface RuntimeStage {
  env: Record<string, string>;
  workdir: string;
  user: string;
  cmd: string[];
  /** COPY lines before the install (what `npm ci` sees: package.json, the lock). */
  copyBeforeInstall: CopyArgs[];
  /** The install command as argv (`npm ci --omit=dev …`). */
  install: string[];
  /** COPY lines after the install (dist/ from the build stage, migrations from the context). */
  copyAfterInstall: CopyArgs[];
}

export function readRuntimeStage(): RuntimeStage {
  const stage = stageNamed(parseDockerfile(readFileSync(DOCKERFILE, 'utf8')), 'runtime');
  const result: RuntimeStage = {
    env: {},
    workdir: '/',
    user: 'root',
    cmd: [],
    copyBeforeInstall: [],
    install: [],
    copyAfterInstall: [],
  };
  for (const instruction of stage.instructions) {
    switch (instruction.keyword) {
      case 'ENV':
        Object.assign(result.env, envPairs(instruction));
        break;
      case 'WORKDIR':
        result.workdir = instruction.args;
        break;
      case 'USER':
        result.user = instruction.args;
        break;
      case 'CMD':
        result.cmd = execForm(instruction);
        break;
      case 'COPY':
        (result.install.length === 0 ? result.copyBeforeInstall : result.copyAfterInstall).push(
          copyArgs(instruction),
        );
        break;
      case 'RUN': {
        const command = runCommand(instruction);
        if (/^npm (ci|install)\b/.test(command)) {
          if (result.install.length > 0) throw new Error('the runtime stage installs twice');
          result.install = command.split(/\s+/);
        }
        // other RUN lines (apt-get) bring Debian packages, which this machine kind has (env/machines/node-svc.md)
        break;
      }
      case 'ENTRYPOINT':
        throw new Error('an ENTRYPOINT would change what every command means: the checks assume none');
      default:
        break;
    }
  }
  if (result.install.length === 0) throw new Error('the runtime stage does not install dependencies');
  return result;
}
