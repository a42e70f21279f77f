import { diffCatalogs } from '../device-tools/catalog-diff';
import type { ToolThenAndNow } from './approvals.repository';

/**
 * Why approving a call would not apply because its tool changed since pre-flight saw it (DESIGN §4: an approval
 * binds the tool's definition), in words for the approver; undefined when the tool is as it was.
 */
export function toolChangeSince(seen: ToolThenAndNow): string | undefined {
  if (seen.then === null) return undefined; // a platform tool (system.reboot): no catalog definition to change
  const versions = `catalog v${seen.versionThen ?? '?'} → v${seen.versionNow ?? '?'}`;
  if (seen.now === null) return `the device no longer declares ${seen.tool} (${versions})`;
  const [changed] = diffCatalogs([seen.then], [seen.now]).changed;
  if (!changed) return undefined;
  return `the device's ${seen.tool} changed since this call was asked for: its ${changed.fields.join(', ')} (${versions})`;
}
