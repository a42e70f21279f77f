import { readFile, rename, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import type { NvsState } from '../device/nvs';

// Only the outer shape is checked: a file written by this simulator holds NVS exactly as it was saved.
const stateFileSchema = z.object({
  version: z.literal(1),
  devices: z.record(
    z.string(),
    z.looseObject({ uuid: z.string(), flash: z.looseObject({ running: z.string() }) }),
  ),
});

/** NVS by MAC from a state file; an absent file is an empty fleet. */
export async function loadStateFile(path: string): Promise<Record<string, NvsState>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  const parsed = stateFileSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${path} is not a device-sim state file: ${parsed.error.message}`);
  return parsed.data.devices as unknown as Record<string, NvsState>;
}

/** Written to a temporary file first, so a crash mid-write leaves the old file intact. */
export async function saveStateFile(path: string, devices: Record<string, NvsState>): Promise<void> {
  await writeFile(`${path}.tmp`, JSON.stringify({ version: 1, devices }));
  await rename(`${path}.tmp`, path);
}
