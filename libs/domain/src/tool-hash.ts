import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json';

/** A tool's definition as an approval was given under (DESIGN §4: a changed tool voids the approval). */
export function toolHash(tool: {
  name: string;
  description: string;
  inputSchema: unknown;
  annotations?: unknown;
}): string {
  return createHash('sha256')
    .update(
      canonicalJson({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
        annotations: tool.annotations ?? null,
      }),
    )
    .digest('hex');
}
