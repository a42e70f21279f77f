import { filtersFromSearch, filtersToSearch } from './device-filters';

describe('device filters in the address bar', () => {
  it('reads what it understands and drops the rest', () => {
    expect(
      filtersFromSearch('?online=false&board=bread&status=revoked&q=%20a0%3A85&bogus=1&status2=x'),
    ).toEqual({
      online: false,
      board: 'bread',
      status: 'revoked',
      q: 'a0:85',
    });
    expect(filtersFromSearch('?online=maybe&status=lost&dialect=zigbee')).toEqual({});
    expect(filtersFromSearch('?dialect=listenai')).toEqual({ dialect: 'listenai' });
  });

  it('writes back what it reads', () => {
    const filters = { online: true, firmware: '2.4.2', tag: 'lobby' };
    expect(filtersFromSearch(filtersToSearch(filters))).toEqual(filters);
    expect(filtersToSearch({})).toBe('');
  });
});
