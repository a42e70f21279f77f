import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { ConfigError } from '@fleet/config';
import { modelReadbacksSchema, type ModelReadback } from './model-readback.schema';

/**
 * A config field's transform: the readbacks in a JSON text (MODEL_READBACKS), or in the file a path names
 * (MODEL_READBACKS_FILE, for lists too long for a variable), checked at start with the entry and field at fault.
 */
export function readModelReadbacks(
  source: { text: string } | { file: string | undefined },
  ctx: z.RefinementCtx,
): ModelReadback[] {
  let text: string;
  if ('file' in source) {
    if (source.file === undefined) return [];
    try {
      text = readFileSync(source.file, 'utf8');
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `cannot read ${source.file}: ${(err as Error).message}` });
      return [];
    }
  } else {
    text = source.text;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: `not JSON: ${(err as Error).message}` });
    return [];
  }
  const parsed = modelReadbacksSchema.safeParse(json);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      ctx.addIssue({ code: 'custom', message: `entry ${issue.path.join('.')}: ${issue.message}` });
    }
    return [];
  }
  return parsed.data;
}

/** Both sources as one list; a model's tool given in both is a configuration error, not a silent choice. */
export function combineModelReadbacks(inline: ModelReadback[], fromFile: ModelReadback[]): ModelReadback[] {
  const inlineKeys = new Set(inline.map((e) => `${e.model} ${e.tool}`));
  const twice = fromFile.find((e) => inlineKeys.has(`${e.model} ${e.tool}`));
  if (twice) {
    throw new ConfigError([
      {
        variable: 'MODEL_READBACKS_FILE',
        message: `${twice.model} ${twice.tool} is also in MODEL_READBACKS`,
      },
    ]);
  }
  return [...inline, ...fromFile];
}
