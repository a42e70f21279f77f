import { chmod, readFile, rename, writeFile } from 'node:fs/promises';
import { z } from 'zod';

const tokensSchema = z.record(z.string(), z.string().regex(/^lt_/, 'a link token (lt_…)'));

/** ListenAI link tokens by MAC; an absent file holds none. */
export async function loadTokensFile(path: string): Promise<Record<string, string>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  const parsed = tokensSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${path} is not a tokens file: ${parsed.error.message}`);
  return parsed.data;
}

/** The tokens are secrets: the file is readable by its owner only, and replaced whole. */
export async function saveTokensFile(path: string, tokens: Record<string, string>): Promise<void> {
  await writeFile(`${path}.tmp`, JSON.stringify(tokens, null, 2), { mode: 0o600 });
  await chmod(`${path}.tmp`, 0o600);
  await rename(`${path}.tmp`, path);
}
