import { CONFIRMATION_PHRASINGS } from './confirmation-phrasings';
import { asksForConfirmation, confirmationAskedIn, normaliseProse } from './confirmation';
import { toolSensitivity } from './tool-access';

/** The same words as a careless or hostile writer might space and case them. */
function respaced(text: string): string {
  return [...text]
    .map((ch, i) => {
      if (ch === ' ') return i % 2 === 0 ? '  ' : '\n';
      // Chinese has no spaces between words: put some in, and a line break.
      if (/\p{Script=Han}/u.test(ch)) return i % 3 === 0 ? `${ch}\n` : `${ch} `;
      return i % 2 === 0 ? ch.toUpperCase() : ch.toLowerCase();
    })
    .join('');
}

const tool = (description: string) => ({ name: 'self.board.tool', description, userOnly: false });

describe('the confirmation table', () => {
  it.each(CONFIRMATION_PHRASINGS.map((p) => [p.phrase, p.example]))(
    'gates "%s" in its example, and in a re-spaced, re-cased copy of it',
    (phrase, example) => {
      expect(asksForConfirmation(example)).toBe(true);
      expect(asksForConfirmation(respaced(example))).toBe(true);
      expect(toolSensitivity(tool(respaced(example)), undefined)).toMatchObject({
        sensitive: true,
        reason: expect.stringContaining("its description asks for the user's confirmation"),
      });
      // The example holds its own phrasing (or an earlier one that already gates it).
      expect(confirmationAskedIn(example)).toBeDefined();
      expect(normaliseProse(example)).toContain(normaliseProse(phrase));
    },
  );

  it.each([
    ['two spaces', 'You must ask the user  to confirm this action.'],
    ['a line break', 'You must ask the user\nto confirm this action.'],
    ['a non-breaking space and a tab', 'Ask\u00a0the user\tto confirm.'],
    ['full-width letters', 'ＡＳＫ ＴＨＥ ＵＳＥＲ ＴＯ ＣＯＮＦＩＲＭ'],
    ['a zero-width space inside a word', 'ask the user to con\u200bfirm'],
    ['Markdown emphasis', 'ask the **user** to `confirm`'],
    ['a curly apostrophe', 'needs the user’s confirmation'],
    ['a request for explicit confirmation', 'Requires explicit confirmation by the user'],
    ['traditional Chinese', '需要用戶確認'],
    ['simplified Chinese asking for consent', '执行前请征得用户同意'],
  ])('gates a description spelt with %s', (_how, description) => {
    expect(asksForConfirmation(description)).toBe(true);
  });

  it.each([
    'Set the volume of the audio speaker.',
    'Provides the real-time information of the device, including the current status of the audio speaker.',
    'Take a precautionary reading of the battery.',
    'Returns whether the user confirmed the last alarm.',
    'Set the brightness of the screen. 设置屏幕亮度。',
    '查询设备状态，无需确认。',
    '顯示使用者設定的主題。',
  ])('leaves an innocent description open: %s', (description) => {
    expect(asksForConfirmation(description)).toBe(false);
    expect(toolSensitivity(tool(description), undefined).sensitive).toBe(false);
  });

  it('names the phrasing it found, so the catalog can say why', () => {
    expect(confirmationAskedIn('Erase.  ASK THE USER\nFOR CONFIRMATION.')).toBe(
      'ask the user for confirmation',
    );
    expect(toolSensitivity(tool('清除数据，须用户确认'), undefined).byDefault).toBe(
      'its description asks for the user\'s confirmation ("须用户确认")',
    );
  });

  it('answers the same for a description it has seen, and for one it has forgotten', () => {
    const gated = 'Erase everything. Requires explicit confirmation by the user.';
    const open = 'Reads the volume.';
    expect(confirmationAskedIn(gated)).toBe('explicit confirmation');
    expect(confirmationAskedIn(open)).toBeUndefined();
    // More descriptions than it remembers: the first ones are worked out again, to the same answers.
    for (let i = 0; i < 1_500; i++) confirmationAskedIn(`Tool ${i}: ${i % 2 ? gated : open}`);
    expect(confirmationAskedIn(gated)).toBe('explicit confirmation');
    expect(confirmationAskedIn(open)).toBeUndefined();
    expect(confirmationAskedIn(`Tool 1: ${gated}`)).toBe('explicit confirmation');
    expect(confirmationAskedIn(`Tool 2: ${open}`)).toBeUndefined();
  });
});
