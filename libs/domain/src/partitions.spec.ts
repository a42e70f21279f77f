import { CALL_PARTITIONS, partitionOf, partitionSql } from './partitions';

describe('partitions', () => {
  it('spread devices over every partition, the same way every time', () => {
    const counts = new Array<number>(CALL_PARTITIONS).fill(0);
    for (let i = 0; i < 1600; i++)
      counts[
        partitionOf(
          `a0:85:e3:00:${(i >> 8).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')}`,
        )
      ]!++;
    expect(Math.min(...counts)).toBeGreaterThan(50);
    expect(partitionOf('a0:85:e3:f4:49:34')).toBe(partitionOf('a0:85:e3:f4:49:34'));
  });

  it('have an SQL twin built on the same digest', () => {
    expect(partitionSql('id')).toContain("sha256(convert_to(id, 'UTF8'))");
  });
});
