import {
  bodyOf,
  EMPTY_ANNOUNCE_FORM,
  problemOf,
  scheduleBodyOf,
  selectionCampaign,
  textBytes,
} from './announce-form';

describe('the announcement compose form', () => {
  const form = {
    ...EMPTY_ANNOUNCE_FORM,
    text: '  Fire drill at noon ',
    title: 'Notice',
    how: 'both' as const,
  };

  it('counts the text in UTF-8 bytes, as the API limit does', () => {
    expect(textBytes('abc')).toBe(3);
    expect(textBytes('电梯停用')).toBe(12);
  });

  it('names what is missing or wrong before sending', () => {
    expect(problemOf(EMPTY_ANNOUNCE_FORM)).toBe('text');
    expect(problemOf({ ...form, deadlineS: '2' })).toBe('deadline');
    expect(problemOf({ ...form, when: 'at', at: 'not a time' })).toBe('at');
    expect(problemOf({ ...form, when: 'cron', cron: '* * *' })).toBe('cron');
    expect(problemOf({ ...form, when: 'cron', cron: '0 9 * * mon-fri' })).toBeUndefined();
  });

  it('sends the trimmed text and only the fields given', () => {
    expect(bodyOf(form)).toEqual({
      text: 'Fire drill at noon',
      language: 'en',
      how: 'both',
      title: 'Notice',
    });
    expect(bodyOf({ ...form, deadlineS: '60', reason: 'drill' })).toMatchObject({
      deadlineS: 60,
      reason: 'drill',
    });
  });

  it('schedules at an instant or on a cron expression, without a reason', () => {
    const at = scheduleBodyOf({ ...form, reason: 'x', when: 'at', at: '2030-01-02T09:00:00Z' });
    expect(at).toMatchObject({ text: 'Fire drill at noon', at: '2030-01-02T09:00:00.000Z' });
    expect(at).not.toHaveProperty('reason');
    expect(scheduleBodyOf({ ...form, when: 'cron', cron: ' 0 9 * * * ' })).toMatchObject({
      cron: '0 9 * * *',
    });
  });

  it('announces to a selection as a campaign over exactly those devices', () => {
    const spec = selectionCampaign(['02:00:00:00:00:01', '02:00:00:00:00:02'], form);
    expect(spec.selector).toEqual({ deviceIds: ['02:00:00:00:00:01', '02:00:00:00:00:02'] });
    expect(spec.action).toEqual({
      kind: 'announcement',
      text: 'Fire drill at noon',
      language: 'en',
      how: 'both',
      title: 'Notice',
      deadlineS: 3600,
    });
    expect(spec.name).toMatch(/^Announcement to 2 devices: Fire drill at noon$/);
  });
});
