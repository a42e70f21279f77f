import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { TurnBatcher } from '@fleet/db';
import type { Logger } from '@fleet/telemetry';
import type { Actor, RequestOrigin } from '../http/actor';
import { storableJson, visibleText } from '../http/unstorable-text';
import { LOGGER } from '../infra/tokens';
import { AuditRepository, type AuditRow } from './audit.repository';

export interface AuditEntry {
  action: string;
  targetType: string;
  targetId: string | null;
  details?: Record<string, unknown>;
}

const SECRET_KEYS = /password|secret|token/i;
const MAX_BODY_CHARS = 8_192;
/** Deeper than this, a body is kept as a marker: its audit row must not cost the stack what the body holds. */
const MAX_BODY_DEPTH = 64;

/**
 * Who did what to which target, when and from where: one `audit_event` row per mutating request. The rows of
 * requests that finish at about the same time are group-committed (one INSERT, DESIGN §6's group commit): a
 * statement per request was a round trip, a parse and a commit each, a large part of a call creation's cost.
 * Each caller still resolves only once its own row is committed, and a row Postgres refuses is retried alone, so
 * it fails only its own request's record.
 */
@Injectable()
export class AuditService {
  private readonly rows: TurnBatcher<AuditRow, undefined>;

  constructor(
    repository: AuditRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.rows = new TurnBatcher(async (rows) => {
      await repository.insertMany(rows);
      return rows.map(() => undefined);
    });
  }

  async record(actor: Actor | undefined, origin: RequestOrigin, entry: AuditEntry): Promise<void> {
    try {
      await this.rows.submit(auditRowOf(actor, origin, entry));
    } catch (err) {
      // The request's own work is already done; losing its audit row must at least be loud.
      this.logger.error({ err, audit: entry }, 'audit event could not be written');
    }
  }
}

/** The row an audit event is written as. */
export function auditRowOf(actor: Actor | undefined, origin: RequestOrigin, entry: AuditEntry): AuditRow {
  return {
    operatorId: actor?.operatorId ?? null,
    apiKeyId: actor?.apiKeyId ?? null,
    action: entry.action,
    targetType: entry.targetType,
    // A refused request's path, query or body may hold what Postgres cannot store (a NUL): kept visible.
    targetId: entry.targetId === null ? null : visibleText(entry.targetId),
    details: entry.details ? (storableJson(entry.details) as Record<string, unknown>) : null,
    ip: origin.ip ?? null,
    userAgent: origin.userAgent ?? null,
  };
}

/** A request body as an audit event keeps it: secrets blanked, binaries by size and hash, long or deep ones cut. */
export function auditableBody(body: unknown): unknown {
  if (body === undefined || body === null) return undefined;
  if (Buffer.isBuffer(body)) {
    return { bytes: body.length, sha256: createHash('sha256').update(body).digest('hex') };
  }
  const redacted = redact(body);
  const text = JSON.stringify(redacted);
  return text.length > MAX_BODY_CHARS ? { truncated: text.slice(0, MAX_BODY_CHARS) } : redacted;
}

function redact(value: unknown, depth = 1): unknown {
  if (!value || typeof value !== 'object') return value;
  if (depth > MAX_BODY_DEPTH) return `[nested deeper than ${MAX_BODY_DEPTH} levels]`;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, SECRET_KEYS.test(k) ? '[redacted]' : redact(v, depth + 1)]),
  );
}
