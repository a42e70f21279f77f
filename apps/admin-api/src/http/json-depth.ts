/** Where a JSON value nests deeper than allowed: the path to the first value past the limit. */
export interface DepthIssue {
  path: (string | number)[];
  maxDepth: number;
}

/**
 * The first place `value` nests objects or arrays deeper than `maxDepth` levels (the value itself is level 1), or
 * undefined. Iterative, so that a 5,000-deep body costs a loop, not the stack; it stops at the limit.
 */
export function depthIssue(value: unknown, maxDepth: number): DepthIssue | undefined {
  const stack: { value: unknown; depth: number; path: (string | number)[] }[] = [
    { value, depth: 1, path: [] },
  ];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (next.value === null || typeof next.value !== 'object') continue;
    if (next.depth > maxDepth) return { path: next.path, maxDepth };
    const entries = Array.isArray(next.value)
      ? next.value.map((v, i) => [i, v] as const)
      : Object.entries(next.value as Record<string, unknown>);
    for (const [key, child] of entries)
      stack.push({ value: child, depth: next.depth + 1, path: [...next.path, key] });
  }
  return undefined;
}

/** The field a refusal names: the body's top-level field the nesting is under (what a client knows it sent). */
export function depthField(issue: DepthIssue): string {
  return issue.path.length === 0 ? 'body' : `body.${issue.path[0]}`;
}
