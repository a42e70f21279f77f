/**
 * The console's page for one approval (`/approvals/<approval id>`): where a second person decides, and the URL an
 * agent's client shows its user (MCP URL-mode elicitation). `base` is the console's public origin.
 */
export function approvalUrl(base: string, approvalId: string): string {
  return `${base.replace(/\/+$/, '')}/approvals/${encodeURIComponent(approvalId)}`;
}

/** The console's page for one call and its evidence. */
export function callUrl(base: string, callId: string): string {
  return `${base.replace(/\/+$/, '')}/calls/${encodeURIComponent(callId)}`;
}
