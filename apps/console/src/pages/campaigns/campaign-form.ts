import type { CampaignDraft } from '../../api/campaigns-api';
import type { CampaignAction, CampaignSelector, Dialect } from '@fleet/api-contract';

/** The campaign form as typed: text fields, turned into a spec by `draftOf`. */
export interface CampaignForm {
  name: string;
  board: string;
  firmware: string;
  groups: string;
  tags: string;
  online: '' | 'true' | 'false';
  dialect: '' | Dialect;
  deviceIds: string;
  actionKind: CampaignAction['kind'];
  tool: string;
  argumentsJson: string;
  /** A capability the tool profiles map to each model's tool ("volume"), and the value it is set to. */
  capability: string;
  capabilityValue: string;
  firmwareId: string;
  via: 'mcp' | 'ota';
  batchSize: string;
  maxInFlight: string;
  ratePerMinute: string;
  failurePercent: string;
  minDevices: string;
  deviceTimeoutS: string;
  retries: string;
  skipInSession: boolean;
  doneWhen: CampaignDoneWhen;
}

export type CampaignDoneWhen = 'verified' | 'verified_or_acknowledged';

export const EMPTY_FORM: CampaignForm = {
  name: '',
  board: '',
  firmware: '',
  groups: '',
  tags: '',
  online: '',
  dialect: '',
  deviceIds: '',
  actionKind: 'tool',
  tool: '',
  argumentsJson: '{}',
  capability: '',
  capabilityValue: '',
  firmwareId: '',
  via: 'mcp',
  batchSize: '50',
  maxInFlight: '50',
  ratePerMinute: '',
  failurePercent: '10',
  minDevices: '10',
  deviceTimeoutS: '600',
  retries: '0',
  skipInSession: true,
  doneWhen: 'verified',
};

const list = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** The selector the form describes, or undefined while it names no criterion (the API needs one). */
export function selectorOf(f: CampaignForm): CampaignSelector | undefined {
  const s: CampaignSelector = {};
  if (f.board.trim()) s.board = f.board.trim();
  if (f.firmware.trim()) s.firmware = f.firmware.trim();
  if (list(f.groups).length) s.groups = list(f.groups);
  if (list(f.tags).length) s.tags = list(f.tags);
  if (f.online) s.online = f.online === 'true';
  if (f.dialect) s.dialect = f.dialect;
  if (list(f.deviceIds).length) s.deviceIds = list(f.deviceIds).map((id) => id.toLowerCase());
  return Object.keys(s).length > 0 ? s : undefined;
}

export type ActionResult =
  | { ok: true; action: CampaignAction }
  | { ok: false; problem: 'tool' | 'arguments' | 'firmware' | 'capability' | 'value' };

export function actionOf(f: CampaignForm): ActionResult {
  switch (f.actionKind) {
    case 'reboot':
      return { ok: true, action: { kind: 'reboot' } };
    case 'capability': {
      if (!f.capability.trim()) return { ok: false, problem: 'capability' };
      const value = valueOf(f.capabilityValue);
      if (value === undefined) return { ok: false, problem: 'value' };
      return { ok: true, action: { kind: 'capability', capability: f.capability.trim(), value } };
    }
    case 'announcement':
      // Announcement campaigns are made from the devices list (its selection's compose form) or the API.
      return { ok: false, problem: 'tool' };
    case 'firmware':
      return f.firmwareId
        ? { ok: true, action: { kind: 'firmware', firmwareId: f.firmwareId, via: f.via } }
        : { ok: false, problem: 'firmware' };
    case 'tool': {
      if (!f.tool.trim()) return { ok: false, problem: 'tool' };
      let args: unknown;
      try {
        args = JSON.parse(f.argumentsJson.trim() || '{}');
      } catch {
        return { ok: false, problem: 'arguments' };
      }
      if (typeof args !== 'object' || args === null || Array.isArray(args))
        return { ok: false, problem: 'arguments' };
      return {
        ok: true,
        action: { kind: 'tool', tool: f.tool.trim(), arguments: args as Record<string, unknown> },
      };
    }
  }
}

/**
 * A capability's value as typed: a JSON number, boolean or string where it reads as one (30, true, "x"), else
 * the text itself (dark, 请稍候); nothing typed is no value.
 */
export function valueOf(text: string): string | number | boolean | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return trimmed;
  }
  return typeof parsed === 'string' || typeof parsed === 'number' || typeof parsed === 'boolean'
    ? parsed
    : trimmed;
}

const int = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

/** The spec to POST; the API validates it again and names any field it refuses. */
export function draftOf(f: CampaignForm, selector: CampaignSelector, action: CampaignAction): CampaignDraft {
  const rate = int(f.ratePerMinute);
  return {
    name: f.name.trim(),
    selector,
    action,
    rollout: {
      batchSize: int(f.batchSize) ?? 50,
      maxInFlight: int(f.maxInFlight) ?? 50,
      ...(rate ? { ratePerMinute: rate } : {}),
    },
    abortRule: { failureRate: (int(f.failurePercent) ?? 10) / 100, minDevices: int(f.minDevices) ?? 10 },
    deviceTimeoutS: int(f.deviceTimeoutS) ?? 600,
    retries: int(f.retries) ?? 0,
    skipInSession: f.skipInSession,
    doneWhen: f.doneWhen,
  };
}
