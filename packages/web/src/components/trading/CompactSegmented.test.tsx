import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { CompactSegmented } from './CompactSegmented.tsx';

function Harness() {
  const [value, setValue] = useState<'limit' | 'market' | 'stop'>('limit');
  return (
    <>
      <CompactSegmented
        label="Order type"
        options={['limit', 'market', 'stop'] as const}
        value={value}
        onChange={setValue}
      />
      <output>{value}</output>
    </>
  );
}

describe('compact segmented', () => {
  it('is one radio group with exactly the chosen option checked', () => {
    render(<Harness />);
    expect(screen.getByRole('radiogroup', { name: 'Order type' })).toBeTruthy();
    const checked = () => screen.getAllByRole('radio').map((radio) => radio.getAttribute('aria-checked'));
    expect(checked()).toEqual(['true', 'false', 'false']);
    fireEvent.click(screen.getByRole('radio', { name: 'market' }));
    expect(checked()).toEqual(['false', 'true', 'false']);
    expect(screen.getByRole('status').textContent).toBe('market');
  });

  it('moves the choice with the arrow keys and wraps at the ends', () => {
    render(<Harness />);
    const group = screen.getByRole('radiogroup');
    fireEvent.keyDown(group, { key: 'ArrowLeft' });
    expect(screen.getByRole('status').textContent).toBe('stop');
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'stop' }));
    fireEvent.keyDown(group, { key: 'ArrowRight' });
    expect(screen.getByRole('status').textContent).toBe('limit');
  });
});
