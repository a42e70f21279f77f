import { NOT_SENT_VERDICTS } from '@fleet/domain';
import type { CallRecord } from '../calls/call-record';
import type { Conclusion, StageRows } from '../calls/call-writes';
import { decisionOutcomeOf, decisionRow } from './rows/decision-rows';
import { discoveryNotReached } from './rows/discovery-rows';
import { effectNotApplicable } from './rows/effect-rows';
import { parametersNotChecked } from './rows/parameters-rows';
import { responseNotSent } from './rows/response-rows';

/**
 * The one builder of evidence rows (DESIGN §1: discovery, decision, parameters, response, effect; payload shapes
 * in libs/domain evidence-payloads). Every site that writes a row builds it through here; each kind lives in its
 * own file under rows/.
 */
export { announcementDiscovery, discoveryNotReached, discoveryRow } from './rows/discovery-rows';
export { busyLockDecisionRule, decisionOutcomeOf, decisionRow, requestedBy } from './rows/decision-rows';
export {
  announcementParameters,
  checkedParameters,
  parametersNotChecked,
  sentParameters,
} from './rows/parameters-rows';
export {
  alertResponse,
  readbackRecord,
  responseNotSent,
  responseRow,
  spokenResponse,
  systemMessageResponse,
  takenOverRebootResponse,
  takenOverResponse,
  toolOutcomeOf,
} from './rows/response-rows';
export {
  announcementEffect,
  effectNotApplicable,
  effectRow,
  rebootEffect,
  takenOverEffect,
  toolCallEffect,
} from './rows/effect-rows';

/**
 * The five rows of a sealed call: those the conclusion brought, and for each stage that did not happen a row
 * saying why (DESIGN §1: all five, always; the verdict last).
 */
export function completeRows(call: CallRecord, c: Conclusion): Required<StageRows> {
  const notSent = NOT_SENT_VERDICTS.has(c.verdict);
  const why = `${c.verdict}: ${c.reason}`;
  return {
    discovery: c.rows.discovery ?? discoveryNotReached(why),
    decision:
      c.rows.decision ?? decisionRow(call, decisionOutcomeOf(c.verdict, notSent), [], { reason: c.reason }),
    parameters: c.rows.parameters ?? parametersNotChecked(call, why),
    response: c.rows.response ?? responseNotSent(why),
    effect: c.rows.effect ?? effectNotApplicable(notSent ? `not sent (${why})` : c.reason),
  };
}
