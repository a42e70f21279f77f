// DESIGN §1: a verdict is born in one place. In the orchestrator, only verification/ (the verdict table and the
// one `conclude` that asks it) may name a verdict it gives a call; deciding, pre-flight, prerequisites and
// resuming say why a call ends (a cause, an observation). Modelled on the call-state rule in eslint.config.mjs:
// `no-restricted-syntax` selectors, tested by tools/lint/src/verdict-literals.spec.ts.

/** libs/domain VERDICTS, spelled out (a lint config cannot import TypeScript); the spec holds them equal. */
export const VERDICT_VALUES = [
  'verified',
  'acknowledged',
  'effect_mismatch',
  'device_error',
  'no_response',
  'undelivered',
  'rejected',
  'invalid_arguments',
  'expired',
  'cancelled',
];

const VERDICT = `/^(${VERDICT_VALUES.join('|')})$/`;
const MESSAGE =
  'a verdict is given only in apps/orchestrator/src/verification/ (conclude.ts asks the verdict table): ' +
  'return a cause or an observation instead';

export const VERDICT_LITERALS = [
  // { verdict: 'rejected', ... }
  { selector: `Property[key.name='verdict'] > Literal[value=${VERDICT}]`, message: MESSAGE },
  // { verdict: 'rejected' as const } and the like
  { selector: `Property[key.name='verdict'] > TSAsExpression > Literal[value=${VERDICT}]`, message: MESSAGE },
  // call.verdict = 'rejected'
  {
    selector: `AssignmentExpression[left.property.name='verdict'] > Literal[value=${VERDICT}]`,
    message: MESSAGE,
  },
];

/** The orchestrator's files the rule holds to (its verification/ and the specs are where verdicts are named). */
export const VERDICT_LITERAL_FILES = {
  files: ['apps/orchestrator/src/**/*.ts'],
  ignores: ['apps/orchestrator/src/verification/**', '**/*.spec.ts'],
};
