import { createHash } from 'node:crypto';
import { canonicalJson } from '@fleet/domain';

/** An approval binds device, tool and the exact arguments: their hash is what the approver signs off. */
export function argumentsHash(deviceId: string, tool: string, args: unknown): string {
  return createHash('sha256')
    .update(canonicalJson({ deviceId, tool, arguments: args }))
    .digest('hex');
}
