import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CancelledNotificationSchema,
  type Implementation,
  type JSONRPCMessage,
  type LoggingLevel,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestCaller } from './tool-results';

const MAX_CANCELLATIONS = 256;

/** What a tool handler may ask of the session it runs in. */
export interface McpSessionContext {
  readonly id: string;
  /** What the client said it is in `initialize`. */
  clientInfo(): Implementation | undefined;
  /** Who sent the session's latest request (a session belongs to one credential; its role may change). */
  caller(): RequestCaller;
  /** Set when the client sent `notifications/cancelled` for the request (not when the session merely closed). */
  cancellationOf(requestId: RequestId): { reason?: string } | undefined;
  /** A log message on the request's own stream (open after a cancellation: no response is sent); best effort. */
  tell(requestId: RequestId, level: LoggingLevel, data: Record<string, unknown>): Promise<void>;
  /** Ends the request's stream (a cancelled request gets no response, so the transport would keep it open). */
  endRequestStream(requestId: RequestId): void;
  /** Runs a tool call; the session is not expired for idleness while one runs. */
  busy<T>(work: () => Promise<T>): Promise<T>;
}

/** One MCP session: its transport, its server, the credential it belongs to. Lives in the process that opened it. */
export class McpSession implements McpSessionContext {
  lastUsedAt = Date.now();
  private inflight = 0;
  private server?: Server;
  private latestCaller?: RequestCaller;
  private readonly cancellations = new Map<RequestId, { reason?: string }>();

  constructor(
    readonly transport: StreamableHTTPServerTransport,
    /** The API key (or session token) that opened it: another credential may not use it. */
    readonly owner: string,
  ) {
    // Set before the server connects, which chains its own handler after this one: the mark is there by the
    // time the SDK aborts the handler's signal, so a tool can tell a cancellation from a closing session.
    transport.onmessage = (message: JSONRPCMessage) => {
      const cancelled = CancelledNotificationSchema.safeParse(message);
      if (cancelled.success && cancelled.data.params.requestId !== undefined) {
        const reason = cancelled.data.params.reason;
        this.cancellations.set(cancelled.data.params.requestId, reason ? { reason } : {});
        // A cancellation may name a request already answered: keep only the latest few.
        if (this.cancellations.size > MAX_CANCELLATIONS) {
          this.cancellations.delete(this.cancellations.keys().next().value!);
        }
      }
    };
  }

  get id(): string {
    return this.transport.sessionId ?? '';
  }

  get idle(): boolean {
    return this.inflight === 0;
  }

  async connect(server: Server): Promise<void> {
    this.server = server;
    await server.connect(this.transport);
  }

  handle(request: IncomingMessage & { auth?: AuthInfo }, response: ServerResponse, body: unknown) {
    this.lastUsedAt = Date.now();
    this.latestCaller = request.auth?.extra?.['caller'] as RequestCaller | undefined;
    return this.transport.handleRequest(request, response, body);
  }

  clientInfo(): Implementation | undefined {
    return this.server?.getClientVersion();
  }

  caller(): RequestCaller {
    if (!this.latestCaller) throw new Error('no request has reached this MCP session yet');
    return this.latestCaller;
  }

  /** A device's catalog changed: what list_device_tools answers may have (best effort, as any notification). */
  async toolsChanged(): Promise<void> {
    await this.server?.sendToolListChanged().catch(() => undefined);
  }

  cancellationOf(requestId: RequestId): { reason?: string } | undefined {
    return this.cancellations.get(requestId);
  }

  async tell(requestId: RequestId, level: LoggingLevel, data: Record<string, unknown>): Promise<void> {
    await this.server
      ?.notification(
        { method: 'notifications/message', params: { level, logger: 'fleet', data } },
        { relatedRequestId: requestId },
      )
      .catch(() => undefined); // the client may have gone with its stream; the record says it all the same
  }

  endRequestStream(requestId: RequestId): void {
    this.transport.closeSSEStream(requestId);
    this.cancellations.delete(requestId);
  }

  async busy<T>(work: () => Promise<T>): Promise<T> {
    this.inflight++;
    try {
      return await work();
    } finally {
      this.inflight--;
      this.lastUsedAt = Date.now();
    }
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}
