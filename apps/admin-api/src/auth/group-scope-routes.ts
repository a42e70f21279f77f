/**
 * What a group-scoped API key may reach on `/api/v1`, route by route. Anything not listed here spans the fleet
 * (approvals, reports, groups, people, keys, webhooks, the fleet summary, quarantine lists) and is refused to such
 * a key with 403 `outside_key_scope`: a route added later is closed to it until someone decides otherwise.
 *
 * - `device`: `:id` is a device; one outside the key's groups is a 404 exactly as an unknown device.
 * - `call`, `campaign`, `schedule`: `:id` is a call or an announcement schedule (of a device in the groups) or a
 *   campaign (bounded to the key's groups).
 * - `selector`: a campaign body, whose `selector.groups` must name the key's groups and no other.
 * - `filtered`: a list or stream the handler narrows to the key's devices (it reads `actor.deviceGroups`).
 * - `open`: nothing about devices in it.
 */
export type ScopeRule = 'device' | 'call' | 'campaign' | 'schedule' | 'selector' | 'filtered' | 'open';

export const SCOPED_ROUTES: Readonly<Record<string, ScopeRule>> = {
  'GET /auth/me': 'open',
  'GET /devices': 'filtered',
  'GET /calls': 'filtered',
  'GET /calls/:id': 'call',
  'POST /calls/:id/cancel': 'call',
  'POST /calls/:id/busy-override': 'call',
  'POST /campaigns/preview': 'selector',
  'POST /campaigns': 'selector',
  'GET /campaigns/:id': 'campaign',
  'GET /campaigns/:id/targets': 'campaign',
  'POST /campaigns/:id/start': 'campaign',
  'POST /campaigns/:id/approve': 'campaign',
  'POST /campaigns/:id/pause': 'campaign',
  'POST /campaigns/:id/resume': 'campaign',
  'POST /campaigns/:id/cancel': 'campaign',
  'GET /announcement-schedules': 'filtered',
  'GET /announcement-schedules/:id': 'schedule',
  'POST /announcement-schedules/:id/pause': 'schedule',
  'POST /announcement-schedules/:id/resume': 'schedule',
  'POST /announcement-schedules/:id/cancel': 'schedule',
  'GET /events': 'filtered',
  'GET /firmware': 'open',
  'GET /firmware/:id': 'open',
};

/** Every route about one device (`/devices/:id` and below) is bounded by that device, whoever added it. */
const DEVICE_ROUTE = /^\/devices\/:id(\/|$)/;

/** The rule for a route as Fastify names it (`/api/v1/devices/:id`), or undefined: refused to a bounded key. */
export function scopeRuleOf(method: string, url: string, prefix = '/api/v1'): ScopeRule | undefined {
  const path = url.startsWith(`${prefix}/`) ? url.slice(prefix.length) : url;
  return SCOPED_ROUTES[`${method} ${path}`] ?? (DEVICE_ROUTE.test(path) ? 'device' : undefined);
}
