import type { CampaignState, CampaignTargetState } from '@fleet/api-contract';
import { request } from './http';
import type {
  Campaign,
  CampaignAction,
  CampaignSelector,
  CampaignSpec,
  CampaignTarget,
  CampaignView,
  Firmware,
  Page,
  Preview,
} from '@fleet/api-contract';

/** What the form sends: the API fills the defaults (rollout, abort rule, timeout) it does not get. */
export type CampaignDraft = Pick<CampaignSpec, 'name' | 'selector' | 'action'> &
  Partial<Omit<CampaignSpec, 'name' | 'selector' | 'action'>>;

export type CampaignStep = 'start' | 'pause' | 'resume' | 'cancel';

export const campaignsApi = {
  preview: (selector: CampaignSelector, action?: CampaignAction, signal?: AbortSignal) =>
    request<Preview>('POST', '/campaigns/preview', {
      body: action ? { selector, action } : { selector },
      ...(signal ? { signal } : {}),
    }),
  /** Newest first; rows without progress (GET one campaign for its counts). */
  list: (state?: CampaignState, limit = 50) =>
    request<Page<Campaign>>('GET', '/campaigns', { query: { state, limit } }),
  get: (id: string) => request<CampaignView>('GET', `/campaigns/${id}`),
  targets: (id: string, state?: CampaignTargetState, limit = 200) =>
    request<Page<CampaignTarget>>('GET', `/campaigns/${id}/targets`, { query: { state, limit } }),
  create: (draft: CampaignDraft) =>
    request<CampaignView>('POST', '/campaigns', { body: draft, idempotent: true }),
  /** start (idempotent), pause, resume, cancel; each takes an optional reason. */
  step: (id: string, step: CampaignStep, reason?: string) =>
    request<CampaignView>('POST', `/campaigns/${id}/${step}`, {
      body: reason ? { reason } : {},
      idempotent: step === 'start',
    }),
  /** A new campaign asking approval again for the devices rejected because their tool changed (DESIGN §4). */
  reapprove: (id: string) =>
    request<CampaignView>('POST', `/campaigns/${id}/reapprove`, { body: {}, idempotent: true }),
  /** Roll a firmware campaign back in one step: a new campaign, linked to it, back to the previous image. */
  rollback: (id: string) =>
    request<CampaignView>('POST', `/campaigns/${id}/rollback`, { body: {}, idempotent: true }),
  /** A person lets a campaign paused by a failed phase gate go on, saying why. */
  continuePastGate: (id: string, reason: string) =>
    request<CampaignView>('POST', `/campaigns/${id}/continue`, { body: { reason } }),
  /** The firmware registry, newest first (the whole list: registries are small). */
  firmware: () => request<Firmware[]>('GET', '/firmware'),
};
