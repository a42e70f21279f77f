// The console's pages an agent's results point at. `base` is the console's public origin.

function page(base: string, section: string, id: string): string {
  return `${base.replace(/\/+$/, '')}/${section}/${encodeURIComponent(id)}`;
}

/**
 * The console's page for one approval (`/approvals/<approval id>`): where a second person decides, and the URL an
 * agent's client shows its user (MCP URL-mode elicitation).
 */
export function approvalUrl(base: string, approvalId: string): string {
  return page(base, 'approvals', approvalId);
}

/** The console's page for one call and its evidence. */
export function callUrl(base: string, callId: string): string {
  return page(base, 'calls', callId);
}

/** The console's page for one campaign: its progress, and its approval while it waits for one. */
export function campaignUrl(base: string, campaignId: string): string {
  return page(base, 'campaigns', campaignId);
}
