/**
 * Replaces the part of a document between `<!-- name:begin -->` and `<!-- name:end -->` (the markers kept), or
 * appends the section with its markers. Several generators write one document (docs/RELIABILITY.md: the fault
 * suite, the fuzz suite) and each must leave the others' sections as they were.
 */
export function withMarkedSection(document: string, name: string, section: string): string {
  const begin = `<!-- ${name}:begin -->`;
  const end = `<!-- ${name}:end -->`;
  const marked = `${begin}\n${section.trim()}\n${end}`;
  const from = document.indexOf(begin);
  const to = document.indexOf(end);
  if (from >= 0 && to > from) return document.slice(0, from) + marked + document.slice(to + end.length);
  return `${document.trimEnd()}\n\n${marked}\n`;
}
