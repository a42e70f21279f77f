import { createDatabase, ToolProfileProposalsRepository } from '@fleet/db';
import { proposeReadbacks } from '@fleet/domain';
import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';
import { insertCatalog } from '../../test/fixtures';

const number = { type: 'object', properties: { value: { type: 'number' } }, required: ['value'] };

describe('tool profiles', () => {
  let h: Harness;
  let viewer: Person;
  let operator: Person;

  beforeAll(async () => {
    h = await startHarness();
    [viewer, operator] = [await h.person('viewer'), await h.person('operator')];
  });
  afterAll(() => h.stop());

  it('are written by an operator for a model, audited, listed to a viewer, and refused to a viewer', async () => {
    const body = {
      model: 'arcs-mini',
      tool: 'set_volume',
      kind: 'action',
      readback: { tool: 'get_volume', argument: 'value', path: 'value' },
    };
    expect((await h.request('PUT', '/api/v1/tool-profiles', { key: viewer.key, body })).status).toBe(403);
    const put = await h.request('PUT', '/api/v1/tool-profiles', { key: operator.key, body });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      model: 'arcs-mini',
      catalogHash: '',
      tool: 'set_volume',
      doneWhen: 'verified',
    });
    const again = await h.request('PUT', '/api/v1/tool-profiles', {
      key: operator.key,
      body: { ...body, doneWhen: 'verified_or_acknowledged' },
    });
    expect(again.body.id).toBe(put.body.id); // one profile per model, catalog and tool
    const listed = await h.request('GET', '/api/v1/tool-profiles?model=arcs-mini', { key: viewer.key });
    expect(listed.body).toEqual([
      expect.objectContaining({ tool: 'set_volume', doneWhen: 'verified_or_acknowledged' }),
    ]);
    const { rows } = await h.pool.query(
      `SELECT action, operator_id FROM audit_event WHERE action = 'tool_profile.put' ORDER BY at`,
    );
    expect(rows).toEqual(
      [1, 2].map(() => ({ action: 'tool_profile.put', operator_id: operator.operatorId })),
    );
    const bad = await h.request('PUT', '/api/v1/tool-profiles', {
      key: operator.key,
      body: { ...body, readback: { tool: 'get_volume', argument: 'value', value: 3 } },
    });
    expect(bad.status).toBe(400);
    expect(
      (await h.request('DELETE', `/api/v1/tool-profiles/${put.body.id}`, { key: operator.key })).status,
    ).toBe(200);
    expect((await h.request('GET', '/api/v1/tool-profiles', { key: viewer.key })).body).toEqual([]);
  });

  it('lists the pairings discovery recorded for a catalog, and applies one only when a person accepts it', async () => {
    const [device] = await insertDevices(h.pool, 1, { start: 500, board: 'arcs-lite' });
    const tools = [
      { name: 'set_volume', inputSchema: number },
      { name: 'get_volume' },
      { name: 'self.light.turn_on' },
      { name: 'self.light.get_power' },
    ];
    const { catalogId } = await insertCatalog(h.pool, device!, tools);
    // What the orchestrator's discovery records when it stores a catalog (discovery/readback-proposals).
    await new ToolProfileProposalsRepository(createDatabase(h.pool)).record(
      { model: 'arcs-lite', catalogHash: `hash-${catalogId}` },
      proposeReadbacks(tools.map((t) => ({ name: t.name, inputSchema: t.inputSchema ?? {} }))),
    );
    const pending = await h.request('GET', '/api/v1/tool-profiles/proposals', { key: viewer.key });
    expect(pending.body.map((p: { tool: string; readerTool: string }) => [p.tool, p.readerTool])).toEqual([
      ['self.light.turn_on', 'self.light.get_power'],
      ['set_volume', 'get_volume'],
    ]);
    expect((await h.request('GET', '/api/v1/tool-profiles', { key: viewer.key })).body).toEqual([]);
    const [light, volume] = pending.body as { id: string }[];
    const accepted = await h.request('POST', `/api/v1/tool-profiles/proposals/${volume!.id}/accept`, {
      key: operator.key,
      body: {},
    });
    expect(accepted.status).toBe(201);
    expect(accepted.body.profiles).toEqual([
      expect.objectContaining({
        tool: 'set_volume',
        kind: 'action',
        readback: expect.objectContaining({ tool: 'get_volume', argument: 'value', path: 'value' }),
      }),
      expect.objectContaining({ tool: 'get_volume', kind: 'read' }),
    ]);
    const rejected = await h.request('POST', `/api/v1/tool-profiles/proposals/${light!.id}/reject`, {
      key: operator.key,
    });
    expect(rejected.body.state).toBe('rejected');
    const twice = await h.request('POST', `/api/v1/tool-profiles/proposals/${light!.id}/accept`, {
      key: operator.key,
      body: {},
    });
    expect(twice.status).toBe(409);
    expect((await h.request('GET', '/api/v1/tool-profiles/proposals', { key: viewer.key })).body).toEqual([]);
  });
});
