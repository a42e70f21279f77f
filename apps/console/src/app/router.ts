// Routes of the console: pure matching (unit-tested), the React side is in navigation.tsx.

export type Route =
  | { name: 'overview' }
  | { name: 'devices' }
  | { name: 'device_register' }
  | { name: 'device'; id: string }
  | { name: 'call'; id: string }
  | { name: 'approvals' }
  | { name: 'approval'; id: string }
  | { name: 'campaigns' }
  | { name: 'campaign_new' }
  | { name: 'campaign'; id: string }
  | { name: 'release'; firmwareId: string }
  | { name: 'audit' }
  | { name: 'keys' }
  | { name: 'tool_profiles' }
  | { name: 'schedules' }
  | { name: 'not_found' };

export function matchRoute(pathname: string): Route {
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const [first, second, ...rest] = parts;
  if (rest.length > 0) return { name: 'not_found' };
  switch (first) {
    case undefined:
    case 'welcome': // the first start's sign-in link, once signed in
      return { name: 'overview' };
    case 'devices':
      if (second === undefined) return { name: 'devices' };
      // "register" is never a device id: ids are MACs.
      return second === 'register' ? { name: 'device_register' } : { name: 'device', id: second };
    case 'calls':
      return second === undefined ? { name: 'not_found' } : { name: 'call', id: second };
    case 'approvals':
      // One approval's page: where an agent's client sends its user (MCP URL-mode elicitation).
      return second === undefined ? { name: 'approvals' } : { name: 'approval', id: second };
    case 'campaigns':
      if (second === undefined) return { name: 'campaigns' };
      return second === 'new' ? { name: 'campaign_new' } : { name: 'campaign', id: second };
    case 'releases':
      return second === undefined ? { name: 'not_found' } : { name: 'release', firmwareId: second };
    case 'audit':
      return second === undefined ? { name: 'audit' } : { name: 'not_found' };
    case 'keys':
      return second === undefined ? { name: 'keys' } : { name: 'not_found' };
    case 'tool-profiles':
      return second === undefined ? { name: 'tool_profiles' } : { name: 'not_found' };
    case 'announcement-schedules':
      return second === undefined ? { name: 'schedules' } : { name: 'not_found' };
    default:
      return { name: 'not_found' };
  }
}

export const paths = {
  overview: () => '/',
  devices: () => '/devices',
  registerDevice: () => '/devices/register',
  device: (id: string) => `/devices/${encodeURIComponent(id)}`,
  call: (id: string) => `/calls/${encodeURIComponent(id)}`,
  approvals: () => '/approvals',
  approval: (id: string) => `/approvals/${encodeURIComponent(id)}`,
  campaigns: () => '/campaigns',
  newCampaign: () => '/campaigns/new',
  campaign: (id: string) => `/campaigns/${encodeURIComponent(id)}`,
  release: (firmwareId: string) => `/releases/${encodeURIComponent(firmwareId)}`,
  audit: () => '/audit',
  keys: () => '/keys',
  toolProfiles: () => '/tool-profiles',
  schedules: () => '/announcement-schedules',
};
