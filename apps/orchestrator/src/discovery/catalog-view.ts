import type { ListedTool, ToolDefinition } from '@fleet/protocol';

export interface CatalogTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: Record<string, unknown> | undefined;
  /** The device says so (annotations.audience contains "user"); an operator's marking is checked per call. */
  userOnly: boolean;
  listed: ListedTool;
  /** The firmware's own view of the tool, to predict what it does with arguments (absent: not expressible). */
  firmware: ToolDefinition | undefined;
}

export interface OrderingRuleView {
  id: string;
  source: 'config' | 'derived';
  tool: string;
  requires: string;
  maxAgeMs: number;
  action: 'run_first' | 'refuse';
  catalogId?: string;
  /** The description text a derived rule was read from. */
  evidence?: string;
}

/** A device's catalog as discovery found it: one version of one content (shared by devices with the same tools). */
export interface CatalogView {
  versionId: string;
  version: number;
  catalogId: string;
  hash: string;
  discoveredAt: string;
  serverName: string | undefined;
  serverVersion: string | undefined;
  tools: ReadonlyMap<string, CatalogTool>;
  rules: readonly OrderingRuleView[];
}
