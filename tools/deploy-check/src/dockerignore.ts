// .dockerignore as Docker reads it (moby/patternmatcher): one pattern a line, `#` comments, `!` re-includes, the last
// matching line wins, `*` and `?` stay within a path segment, `**` spans any number of them, and a pattern that
// matches a folder excludes everything under it.

interface Rule {
  exclude: boolean;
  regex: RegExp;
}

function toRegex(pattern: string): RegExp {
  let source = '';
  const p = pattern.replace(/^\/+/, '').replace(/\/+$/, '');
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '*' && p[i + 1] === '*') {
      // `**/` matches zero or more whole segments; a trailing `**` matches the rest
      if (p[i + 2] === '/') {
        source += '(?:.*/)?';
        i += 2;
      } else {
        source += '.*';
        i += 1;
      }
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  // a folder excludes its contents
  return new RegExp(`^${source}(?:/.*)?$`);
}

export function parseDockerignore(text: string): Rule[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) =>
      line.startsWith('!')
        ? { exclude: false, regex: toRegex(line.slice(1).trim()) }
        : { exclude: true, regex: toRegex(line) },
    );
}

/** Whether a path (relative to the build context, `/`-separated) stays out of the context. */
export function isIgnored(rules: Rule[], path: string): boolean {
  let ignored = false;
  for (const rule of rules) if (rule.regex.test(path)) ignored = rule.exclude;
  return ignored;
}
