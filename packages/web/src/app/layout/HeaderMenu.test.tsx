import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Button } from 'antd';
import { HeaderMenu, type HeaderMenuEntry } from './HeaderMenu.tsx';

const entries: HeaderMenuEntry[] = [
  { key: 'a', label: 'Assets' },
  { key: 'b', label: 'Settings' },
  { divider: true },
  { key: 'out', label: 'Log out', danger: true },
];

function renderMenu(onSelect = vi.fn(), list: HeaderMenuEntry[] = entries) {
  render(
    <HeaderMenu entries={list} onSelect={onSelect}>
      <Button>Open</Button>
    </HeaderMenu>,
  );
  return { onSelect, trigger: screen.getByRole('button', { name: 'Open' }) };
}

describe('header menu', () => {
  it('opens from its button, says so, and reports the chosen item once', async () => {
    const { onSelect, trigger } = renderMenu();
    expect(trigger.getAttribute('aria-haspopup')).toBe('menu');
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(trigger);
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['Assets', 'Settings', 'Log out']);
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('separator')).toBeTruthy();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Settings' }));
    expect(onSelect).toHaveBeenCalledTimes(1);
    expect(onSelect).toHaveBeenCalledWith('b');
    await waitFor(() => expect(trigger.getAttribute('aria-expanded')).toBe('false'));
    expect(document.activeElement).toBe(trigger);
  });

  it('moves between items with the arrow keys, wraps, and closes on Escape without choosing', async () => {
    const { onSelect, trigger } = renderMenu();
    fireEvent.click(trigger);
    const [assets, settings, logout] = await screen.findAllByRole('menuitem');
    const menu = screen.getByRole('menu');
    assets!.focus();
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(settings);
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(logout);
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(assets);
    fireEvent.keyDown(menu, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(logout);
    fireEvent.keyDown(menu, { key: 'Home' });
    expect(document.activeElement).toBe(assets);
    fireEvent.keyDown(menu, { key: 'Escape' });
    await waitFor(() => expect(trigger.getAttribute('aria-expanded')).toBe('false'));
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(trigger);
    expect(onSelect).not.toHaveBeenCalled();
  });

  it('closes when the user presses elsewhere on the page', async () => {
    const { trigger } = renderMenu();
    fireEvent.click(trigger);
    await screen.findByRole('menu');
    fireEvent.pointerDown(document.body);
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
  });

  it('marks the chosen one of a set of choices, in a named group', async () => {
    renderMenu(vi.fn(), [
      {
        group: 'Price colours',
        items: [
          { key: 'green-up', label: 'Green up', selected: true },
          { key: 'red-up', label: 'Red up', selected: false },
        ],
      },
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    const choices = await screen.findAllByRole('menuitemradio');
    expect(choices.map((choice) => choice.getAttribute('aria-checked'))).toEqual(['true', 'false']);
    expect(screen.getByRole('group').textContent).toContain('Price colours');
  });
});
