import { parseArgs } from 'node:util';

export interface LauncherArgs {
  /** `--demo N`: start N simulated devices against the platform once it is up. */
  demoDevices: number;
}

/** `npm start -- --demo 5`. Refuses what it does not know, naming it. */
export function parseLauncherArgs(argv: string[]): LauncherArgs {
  const { values } = parseArgs({ args: argv, options: { demo: { type: 'string' } }, strict: true });
  const demo = values.demo === undefined ? 0 : Number(values.demo);
  if (!Number.isInteger(demo) || demo < 0 || demo > 10_000) {
    throw new Error(`--demo takes a number of devices from 1 to 10000, not "${values.demo}"`);
  }
  return { demoDevices: demo };
}
