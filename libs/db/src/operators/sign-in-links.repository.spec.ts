import { createTestDatabase, type TestDatabase } from '@fleet/testing';
import { createPgPool, type Pool } from '../client/pg-pool';
import { SignInLinksRepository } from './sign-in-links.repository';

describe('one-time sign-in links', () => {
  let db: TestDatabase;
  let pool: Pool;
  let links: SignInLinksRepository;
  let operatorId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    pool = createPgPool(db.url, { max: 2 });
    links = new SignInLinksRepository(pool);
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO operator (id, email, name, role) VALUES (gen_random_uuid(), 'a@localhost', 'A', 'admin') RETURNING id`,
    );
    operatorId = rows[0]!.id;
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  it('signs its person in once, and never again', async () => {
    const { token } = await links.issue(operatorId);
    expect(await links.redeem(token)).toBe(operatorId);
    expect(await links.redeem(token)).toBeUndefined();
  });

  it('does nothing once expired, nor for a token it never issued', async () => {
    const { token } = await links.issue(operatorId, -1_000);
    expect(await links.redeem(token)).toBeUndefined();
    expect(await links.redeem('x'.repeat(43))).toBeUndefined();
  });
});
