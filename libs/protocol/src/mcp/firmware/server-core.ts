import type { CJsonValue } from '../../json/cjson-value';
import { assertNever } from '../../result';
import type { ToolDefinition } from '../tool-definition';
import type { ArgumentNote } from './argument-note';
import type { BoundArguments } from './bind-arguments';
import { FIRMWARE_ERRORS } from './errors';
import {
  firmwareErrorReply,
  firmwareInitializeResult,
  firmwareResultReply,
  firmwareToolResultJson,
  type ToolReturnValue,
} from './replies';
import { readFirmwareRequest, type FirmwareDropReason } from './request';
import { prepareFirmwareToolCall } from './tool-call';
import { firmwareToolsListPage } from './tools-list';

export interface McpServerIdentity {
  /** BOARD_NAME, the build variant (serverInfo.name). */
  readonly boardName: string;
  /** esp_app_desc.version (serverInfo.version). */
  readonly firmwareVersion: string;
  /** Only a board with a camera takes capabilities.vision from initialize. */
  readonly hasCamera: boolean;
}

/** Work a tool put on the main task; the reply to its call is queued behind it (xiaozhi §3.3). */
export type ScheduledTask =
  | { readonly kind: 'reboot' }
  | { readonly kind: 'upgrade_firmware'; readonly url: string }
  | { readonly kind: 'board'; readonly name: string };

/** The firmware's main-task queue, in order: run a scheduled task, or publish a reply. */
export type MainTaskItem =
  | { readonly kind: 'run'; readonly task: ScheduledTask }
  | { readonly kind: 'send'; readonly payload: string };

export type McpServerStep =
  | { readonly kind: 'silent'; readonly reason: FirmwareDropReason; readonly message: string }
  | {
      readonly kind: 'reply';
      readonly id: number;
      readonly payload: string;
      readonly vision?: { readonly url: string; readonly token: string };
    }
  | {
      readonly kind: 'call';
      readonly id: number;
      readonly tool: ToolDefinition;
      readonly arguments: BoundArguments;
      readonly notes: readonly ArgumentNote[];
    };

export type CallStep = Extract<McpServerStep, { kind: 'call' }>;

export type ToolCallbackOutcome =
  | {
      readonly kind: 'returned';
      readonly value: ToolReturnValue;
      readonly scheduled?: readonly ScheduledTask[];
    }
  | { readonly kind: 'threw'; readonly message: string };

/** The simulator's side effects for one tool call; the core only turns the outcome into the firmware's bytes. */
export type ToolCallback = (call: CallStep) => ToolCallbackOutcome;

/**
 * The firmware's McpServer without its side effects: one request in, what the firmware would do out.
 * `receive` decides (no reply, an immediate reply, or a tool to run); `finishCall` turns a callback's outcome into
 * main-task items; `handle` does both for synchronous callbacks. Stateless apart from the tool list.
 */
export class McpServerCore {
  constructor(
    readonly identity: McpServerIdentity,
    readonly tools: readonly ToolDefinition[],
  ) {}

  receive(request: string | Uint8Array | CJsonValue): McpServerStep {
    const req = readFirmwareRequest(request);
    switch (req.kind) {
      case 'dropped':
        return { kind: 'silent', reason: req.reason, message: req.message };
      case 'initialize': {
        const payload = firmwareResultReply(
          req.id,
          firmwareInitializeResult(this.identity.boardName, this.identity.firmwareVersion),
        );
        return req.vision && this.identity.hasCamera
          ? { kind: 'reply', id: req.id, payload, vision: req.vision }
          : { kind: 'reply', id: req.id, payload };
      }
      case 'tools/list': {
        const page = firmwareToolsListPage(this.tools, req.cursor, req.withUserTools);
        const payload =
          page.kind === 'page'
            ? firmwareResultReply(req.id, page.resultJson)
            : firmwareErrorReply(req.id, page.message);
        return { kind: 'reply', id: req.id, payload };
      }
      case 'tools/call': {
        const call = prepareFirmwareToolCall(this.tools, req.params);
        if (call.kind === 'error') {
          return { kind: 'reply', id: req.id, payload: firmwareErrorReply(req.id, call.message) };
        }
        return { kind: 'call', id: req.id, tool: call.tool, arguments: call.arguments, notes: call.notes };
      }
      case 'not_implemented':
        return {
          kind: 'reply',
          id: req.id,
          payload: firmwareErrorReply(req.id, FIRMWARE_ERRORS.methodNotImplemented(req.method)),
        };
      default:
        return assertNever(req, 'firmware request');
    }
  }

  /** The callback ran on the main task; what it scheduled runs before its reply is published. */
  finishCall(step: CallStep, outcome: ToolCallbackOutcome): MainTaskItem[] {
    switch (outcome.kind) {
      case 'returned':
        return [
          ...(outcome.scheduled ?? []).map((task): MainTaskItem => ({ kind: 'run', task })),
          { kind: 'send', payload: firmwareResultReply(step.id, firmwareToolResultJson(outcome.value)) },
        ];
      case 'threw':
        return [{ kind: 'send', payload: firmwareErrorReply(step.id, outcome.message) }];
      default:
        return assertNever(outcome, 'callback outcome');
    }
  }

  handle(
    request: string | Uint8Array | CJsonValue,
    callback: ToolCallback,
  ): { step: McpServerStep; queue: MainTaskItem[] } {
    const step = this.receive(request);
    switch (step.kind) {
      case 'silent':
        return { step, queue: [] };
      case 'reply':
        return { step, queue: [{ kind: 'send', payload: step.payload }] };
      case 'call':
        return { step, queue: this.finishCall(step, callback(step)) };
      default:
        return assertNever(step, 'server step');
    }
  }
}
