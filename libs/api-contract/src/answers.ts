import { z } from 'zod';
import { apiErrorSchema } from './common';
import { announcementScheduleListSchema, announcementScheduleSchema } from './announcement-schedules';
import { announcementCreatedSchema } from './announcements';
import { apiKeySchema, createdApiKeySchema } from './api-keys';
import { approvalListSchema, approvalSchema, decisionSchema } from './approvals';
import { meSchema, signedInSchema } from './auth';
import {
  busyOverrideSchema,
  callCancelledSchema,
  callCreatedSchema,
  callListSchema,
  callSchema,
} from './calls';
import {
  campaignListSchema,
  campaignTargetListSchema,
  campaignViewSchema,
  previewSchema,
  releaseCampaignListSchema,
} from './campaigns';
import { catalogDiffSchema, catalogVersionSchema, deviceCatalogSchema, markingSchema } from './catalog';
import {
  deviceDetailSchema,
  deviceListSchema,
  issuedLinkTokenSchema,
  presenceHistorySchema,
  revokedLinkTokensSchema,
  statusChangeSchema,
} from './devices';
import { firmwareSchema, firmwareUploadedSchema } from './firmware';
import { releaseHealthSchema } from './release-health';
import { fleetSummarySchema } from './fleet';
import { deviceTagsSchema, groupSchema } from './groups';
import { healthSchema } from './health';
import { operatorViewSchema } from './operators';
import { quarantineClaimSchema, quarantineListSchema } from './quarantine';
import { auditReportSchema, integrityReportSchema, signingKeySchema } from './reports';
import { serialKeyListSchema, serialKeysImportedSchema } from './serial-keys';
import { proposalAcceptedSchema, toolProfileProposalSchema, toolProfileSchema } from './tool-profiles';
import { voiceTurnSchema, voiceTurnStartedSchema } from './utterances';
import { createdWebhookSchema, deletedSchema, webhookDeliverySchema, webhookSchema } from './webhooks';

/**
 * The success answer of every route, keyed `METHOD /path` as the router names it (under /api/v1 unless the
 * path says otherwise, `:param` for parameters). `null`: the answer is not JSON (204, a redirect, an event
 * stream). The admin API's OpenAPI document and its answer validation read this table, and a test holds it
 * to the routes the API really has, both ways.
 */
export const ANSWERS = {
  'POST /auth/login': signedInSchema,
  'POST /auth/sign-in-link': signedInSchema,
  'POST /auth/logout': null,
  'POST /auth/password': null,
  'GET /auth/me': meSchema,
  'GET /auth/oidc/login': null,
  'GET /auth/oidc/callback': signedInSchema,

  'GET /operators': z.array(operatorViewSchema),
  'POST /operators': operatorViewSchema,
  'GET /operators/:id': operatorViewSchema,
  'PATCH /operators/:id': operatorViewSchema,

  'GET /api-keys': z.array(apiKeySchema),
  'POST /api-keys': createdApiKeySchema,
  'DELETE /api-keys/:id': apiKeySchema,

  'GET /devices': deviceListSchema,
  'POST /devices': issuedLinkTokenSchema,
  'GET /devices/:id': deviceDetailSchema,
  'GET /devices/:id/presence': presenceHistorySchema,
  'POST /devices/:id/bind': statusChangeSchema,
  'POST /devices/:id/revoke': statusChangeSchema,
  'POST /devices/:id/reinstate': statusChangeSchema,
  'POST /devices/:id/decommission': statusChangeSchema,
  'POST /devices/:id/link-token': issuedLinkTokenSchema,
  'POST /devices/:id/link-token/revoke': revokedLinkTokensSchema,
  'GET /fleet/summary': fleetSummarySchema,

  'GET /devices/:id/tools': deviceCatalogSchema,
  'PUT /devices/:id/tools/:name': markingSchema,
  'GET /tool-profiles': z.array(toolProfileSchema),
  'PUT /tool-profiles': toolProfileSchema,
  'DELETE /tool-profiles/:id': toolProfileSchema,
  'GET /tool-profiles/proposals': z.array(toolProfileProposalSchema),
  'POST /tool-profiles/proposals/:id/accept': proposalAcceptedSchema,
  'POST /tool-profiles/proposals/:id/reject': toolProfileProposalSchema,
  'GET /devices/:id/catalogs': z.array(catalogVersionSchema),
  'GET /devices/:id/catalogs/diff': catalogDiffSchema,

  'GET /quarantine': quarantineListSchema,
  'POST /devices/:id/quarantine/accept': quarantineClaimSchema,
  'POST /devices/:id/quarantine/reject': quarantineClaimSchema,

  'POST /serial-keys': serialKeysImportedSchema,
  'GET /serial-keys': serialKeyListSchema,

  'GET /groups': z.array(groupSchema),
  'POST /groups': groupSchema,
  'GET /groups/:id': groupSchema,
  'PATCH /groups/:id': groupSchema,
  'DELETE /groups/:id': deletedSchema,
  'PUT /groups/:id/members': groupSchema,
  'PUT /devices/:id/tags': deviceTagsSchema,

  'POST /devices/:id/calls': callCreatedSchema,
  'POST /devices/:id/announcements': announcementCreatedSchema,
  'POST /devices/:id/announcement-schedules': announcementScheduleSchema,
  'GET /announcement-schedules': announcementScheduleListSchema,
  'GET /announcement-schedules/:id': announcementScheduleSchema,
  'POST /announcement-schedules/:id/pause': announcementScheduleSchema,
  'POST /announcement-schedules/:id/resume': announcementScheduleSchema,
  'POST /announcement-schedules/:id/cancel': announcementScheduleSchema,
  'GET /calls/:id': callSchema,
  'GET /calls': callListSchema,
  'POST /calls/:id/cancel': callCancelledSchema,
  'POST /calls/:id/busy-override': busyOverrideSchema,

  'GET /approvals': approvalListSchema,
  'GET /approvals/:id': approvalSchema,
  'POST /approvals/:id/approve': decisionSchema,
  'POST /approvals/:id/reject': decisionSchema,

  'POST /campaigns/preview': previewSchema,
  'POST /campaigns': campaignViewSchema,
  'GET /campaigns': campaignListSchema,
  'GET /campaigns/:id': campaignViewSchema,
  'GET /campaigns/:id/targets': campaignTargetListSchema,
  'POST /campaigns/:id/start': campaignViewSchema,
  'POST /campaigns/:id/approve': campaignViewSchema,
  'POST /campaigns/:id/reapprove': campaignViewSchema,
  'POST /campaigns/:id/pause': campaignViewSchema,
  'POST /campaigns/:id/resume': campaignViewSchema,
  'POST /campaigns/:id/cancel': campaignViewSchema,
  'PATCH /campaigns/:id': campaignViewSchema,
  'POST /campaigns/:id/continue': campaignViewSchema,
  'POST /campaigns/:id/rollback': campaignViewSchema,

  'POST /firmware': firmwareUploadedSchema,
  'GET /firmware': z.array(firmwareSchema),
  'GET /firmware/:id': firmwareSchema,
  'GET /firmware/:id/health': releaseHealthSchema,
  'GET /firmware/:id/campaigns': releaseCampaignListSchema,

  'GET /webhooks': z.array(webhookSchema),
  'POST /webhooks': createdWebhookSchema,
  'PATCH /webhooks/:id': webhookSchema,
  'DELETE /webhooks/:id': deletedSchema,
  'GET /webhooks/:id/deliveries': z.array(webhookDeliverySchema),

  'GET /reports/audit': auditReportSchema,
  'GET /reports/audit/signing-key': signingKeySchema,
  'GET /reports/integrity': integrityReportSchema,

  'GET /events': null,
  'POST /devices/:id/utterances': voiceTurnStartedSchema,
  'GET /utterances/:id': voiceTurnSchema,

  // Outside /api/v1.
  'GET /healthz': healthSchema,
  'GET /metrics': null,
} as const satisfies Record<string, z.ZodType | null>;

export type Route = keyof typeof ANSWERS;
type Schemas = typeof ANSWERS;
/** The JSON a route answers on success: `Answer<'GET /devices'>`. */
export type Answer<R extends Route> = Schemas[R] extends z.ZodType ? z.infer<Schemas[R]> : never;

/** The schema of a route's success answer; `null` when it is not JSON, `undefined` when the route is unknown. */
export function answerSchema(method: string, path: string): z.ZodType | null | undefined {
  return (ANSWERS as Record<string, z.ZodType | null>)[`${method.toUpperCase()} ${path}`];
}

/** Routes whose answer keeps its shape whatever the status: the health report says 503 with its checks. */
const SAME_SHAPE_AT_ANY_STATUS: ReadonlySet<string> = new Set<Route>(['GET /healthz']);

/**
 * The schema an answer of this status must fit: a refusal (4xx, 5xx) the error schema, unless the route keeps
 * its shape; a success the route's answer (`null`: not JSON; `undefined`: the route is not in the contract).
 */
export function answerSchemaAt(method: string, path: string, status: number): z.ZodType | null | undefined {
  const key = `${method.toUpperCase()} ${path}`;
  if (status >= 400 && !SAME_SHAPE_AT_ANY_STATUS.has(key)) return apiErrorSchema;
  return answerSchema(method, path);
}
