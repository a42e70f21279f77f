import { withMarkedSection } from './marked-section';

describe('a marked section of a shared document', () => {
  it('replaces only its own section and keeps what surrounds it', () => {
    const doc =
      '# Title\n\n<!-- a:begin -->\nold a\n<!-- a:end -->\n\n## Kept by hand\n\n<!-- b:begin -->\nb\n<!-- b:end -->\n';
    const next = withMarkedSection(doc, 'a', 'new a\n');
    expect(next).toBe(
      '# Title\n\n<!-- a:begin -->\nnew a\n<!-- a:end -->\n\n## Kept by hand\n\n<!-- b:begin -->\nb\n<!-- b:end -->\n',
    );
  });

  it('appends a section the document does not have yet', () => {
    expect(withMarkedSection('# Title\n', 'c', 'c text')).toBe(
      '# Title\n\n<!-- c:begin -->\nc text\n<!-- c:end -->\n',
    );
  });
});
