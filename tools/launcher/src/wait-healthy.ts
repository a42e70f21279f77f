/** Polls a service's /healthz until it answers 200; returns the last reason when it never does. */
export async function waitHealthy(url: string, timeoutMs: number): Promise<{ ok: boolean; detail: string }> {
  const deadline = Date.now() + timeoutMs;
  let detail = 'no answer';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(3_000) });
      if (response.status === 200) return { ok: true, detail: 'ok' };
      detail = describeUnhealthy(await response.text());
    } catch (err) {
      detail = (err as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { ok: false, detail };
}

function describeUnhealthy(body: string): string {
  try {
    const report = JSON.parse(body) as {
      checks?: Record<string, { ok: boolean; error?: string; hint?: string }>;
    };
    return Object.entries(report.checks ?? {})
      .filter(([, c]) => !c.ok)
      .map(([name, c]) => `${name}: ${c.error ?? 'failed'}${c.hint ? ` (${c.hint})` : ''}`)
      .join('; ');
  } catch {
    return body.slice(0, 200);
  }
}
