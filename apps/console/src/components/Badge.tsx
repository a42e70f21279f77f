import type { ReactNode } from 'react';
import type { Tone } from '../domain/constants';

export function Badge({ tone, title, children }: { tone: Tone; title?: string; children: ReactNode }) {
  return (
    <span className={`badge tone-${tone}`} title={title}>
      {children}
    </span>
  );
}
