import type { CampaignSelector } from '@fleet/domain';
import type { SqlParams } from '../http/sql';

/**
 * The devices a selector matches: active ones meeting every criterion given; within `groups` or `tags`, any
 * one of those listed. Shared by the preview and by the freeze, so both count the same devices.
 */
export function selectorWhere(s: CampaignSelector, p: SqlParams): string {
  const where = [`d.status = 'active'`];
  if (s.deviceIds) where.push(`d.id = ANY (${p.add(s.deviceIds)}::text[])`);
  if (s.board !== undefined) where.push(`d.board = ${p.add(s.board)}`);
  if (s.firmware !== undefined) where.push(`d.firmware_version = ${p.add(s.firmware)}`);
  if (s.online !== undefined) where.push(`d.online = ${p.add(s.online)}`);
  if (s.dialect !== undefined) where.push(`d.dialect = ${p.add(s.dialect)}::"Dialect"`);
  if (s.groups) {
    where.push(`EXISTS (SELECT 1 FROM device_group_member m JOIN device_group g ON g.id = m.group_id
                         WHERE m.device_id = d.id AND g.name = ANY (${p.add(s.groups)}::text[]))`);
  }
  if (s.tags) {
    where.push(
      `EXISTS (SELECT 1 FROM device_tag t WHERE t.device_id = d.id AND t.tag = ANY (${p.add(s.tags)}::text[]))`,
    );
  }
  return where.join(' AND ');
}

/** Firmware goes only where it suits: a known board among the image's boards, not already on that version. */
export function firmwareSkipReason(p: SqlParams, firmware: { boards: string[]; version: string }): string {
  const boards = p.add(firmware.boards);
  const version = p.add(firmware.version);
  return `CASE WHEN d.board IS NULL THEN 'board unknown: the firmware cannot be matched to it'
               WHEN NOT d.board = ANY (${boards}::text[]) THEN 'board ' || d.board || ' is not among the firmware''s boards'
               WHEN d.firmware_version = ${version} THEN 'already runs ' || ${version}
          END`;
}
