import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { CompactTabs } from './CompactTabs.tsx';

function Counter({ name }: { name: string }) {
  const [count, setCount] = useState(0);
  return (
    <button type="button" onClick={() => setCount(count + 1)}>
      {name} {count}
    </button>
  );
}

function Harness() {
  const [tab, setTab] = useState('a');
  return (
    <CompactTabs
      activeKey={tab}
      onChange={setTab}
      tabs={[
        { key: 'a', label: 'First', children: <Counter name="first" /> },
        { key: 'b', label: 'Second', children: <Counter name="second" /> },
      ]}
    />
  );
}

describe('compact tabs', () => {
  it('shows the chosen tab’s panel and marks its tab', () => {
    render(<Harness />);
    const [first, second] = screen.getAllByRole('tab');
    expect(first!.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').textContent).toBe('first 0');
    expect(screen.queryByText(/second/)).toBeNull();
    fireEvent.click(second!);
    expect(second!.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').textContent).toBe('second 0');
  });

  it('keeps what was done inside a panel when the user comes back to it', () => {
    render(<Harness />);
    fireEvent.click(screen.getByText('first 0'));
    fireEvent.click(screen.getByRole('tab', { name: 'Second' }));
    fireEvent.click(screen.getByRole('tab', { name: 'First' }));
    expect(screen.getByRole('tabpanel').textContent).toBe('first 1');
  });

  it('moves between tabs with the arrow keys', () => {
    render(<Harness />);
    const list = screen.getByRole('tablist');
    fireEvent.keyDown(list, { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'Second' }).getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Second' }));
    fireEvent.keyDown(list, { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'First' }).getAttribute('aria-selected')).toBe('true');
  });
});
