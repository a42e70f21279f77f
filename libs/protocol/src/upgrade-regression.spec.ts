import { mayRevealRegression, regressesFrom } from './upgrade-regression';

describe('regressions after an upgrade', () => {
  it('counts a version lower than the one the upgrade reached, compared as the device compares', () => {
    expect(regressesFrom('2.5.0', '2.4.2')).toBe(true);
    expect(regressesFrom('2.10.0', '2.9.9')).toBe(true);
    expect(regressesFrom('2.5', '2.5.0')).toBe(false); // more segments is newer
    expect(regressesFrom('2.5.0', '2.5')).toBe(true);
  });

  it('does not count the same or a newer version, nor one the device could not compare', () => {
    expect(regressesFrom('2.5.0', '2.5.0')).toBe(false);
    expect(regressesFrom('2.5.0', '2.6.0')).toBe(false);
    expect(regressesFrom('2.5.0', 'beta')).toBe(false);
  });

  it('looks a report up only when it is lower than what the device ran before', () => {
    expect(mayRevealRegression('2.5.0', '2.4.2')).toBe(true);
    expect(mayRevealRegression(null, '2.4.2')).toBe(false);
    expect(mayRevealRegression('2.5.0', '2.5.0')).toBe(false);
    expect(mayRevealRegression('2.4.2', '2.5.0')).toBe(false);
    expect(mayRevealRegression('2.5.0', undefined)).toBe(false);
  });
});
