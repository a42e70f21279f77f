/** The token of a `/welcome#token=…` link, from the location's fragment. */
export function signInToken(hash: string): string | undefined {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token && /^[A-Za-z0-9_-]{20,200}$/.test(token) ? token : undefined;
}
