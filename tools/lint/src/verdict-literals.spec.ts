import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VERDICTS } from '@fleet/domain';

const root = join(__dirname, '../../..');

describe('the verdict-literals lint rule', () => {
  it('knows exactly the verdicts libs/domain knows', () => {
    // Jest cannot load the ES module itself: its list is read as the text it is.
    const text = readFileSync(join(root, 'tools/lint/rules/verdict-literals.mjs'), 'utf8');
    const list = /VERDICT_VALUES = \[([^\]]*)\]/.exec(text)![1]!;
    expect([...list.matchAll(/'([a-z_]+)'/g)].map((m) => m[1])).toEqual([...VERDICTS]);
  });
});
