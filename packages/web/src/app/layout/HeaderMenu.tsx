// The header's drop-down menus (language, preferences, account): a button that opens a short list of
// choices. It is drawn with antd's Popover, which the header's tooltips load anyway, and a plain list of
// buttons styled with antd's menu tokens (global.css, .fx-header-menu), instead of antd's Dropdown and Menu:
// those two bring about 20 KB of compressed script into every page's first download for three short lists.
import {
  cloneElement,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactElement,
  type ReactNode,
} from 'react';
import { Popover } from 'antd';

export interface HeaderMenuItem {
  key: string;
  label: ReactNode;
  icon?: ReactNode;
  danger?: boolean;
  selected?: boolean;
}

export type HeaderMenuEntry =
  HeaderMenuItem | { divider: true } | { group: ReactNode; items: HeaderMenuItem[] };

interface HeaderMenuProps {
  entries: readonly HeaderMenuEntry[];
  onSelect: (key: string) => void;
  /** The button that opens the menu. */
  children: ReactElement<{ 'aria-haspopup'?: 'menu'; 'aria-expanded'?: boolean; 'aria-controls'?: string }>;
  testId?: string;
}

const ITEM_SELECTOR = '[role="menuitem"], [role="menuitemradio"]';

export function HeaderMenu({ entries, onSelect, children, testId }: HeaderMenuProps) {
  const [open, setOpen] = useState(false);
  const listRef = useRef<HTMLDivElement>(null);
  const id = useId();
  const choose = (key: string) => {
    setOpen(false);
    onSelect(key);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(listRef.current?.querySelectorAll<HTMLButtonElement>(ITEM_SELECTOR) ?? [])];
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    const move = (index: number) => items[(index + items.length) % items.length]?.focus();
    if (event.key === 'ArrowDown') move(at + 1);
    else if (event.key === 'ArrowUp') move(at < 0 ? -1 : at - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(-1);
    else if (event.key === 'Escape') setOpen(false);
    else return;
    event.preventDefault();
  };
  const item = (entry: HeaderMenuItem, radio: boolean) => (
    <button
      key={entry.key}
      type="button"
      role={radio ? 'menuitemradio' : 'menuitem'}
      aria-checked={radio ? entry.selected === true : undefined}
      className={['fx-header-menu-item', entry.danger && 'is-danger', entry.selected && 'is-selected']
        .filter(Boolean)
        .join(' ')}
      onClick={() => choose(entry.key)}
    >
      {entry.icon}
      <span className="fx-header-menu-label">{entry.label}</span>
    </button>
  );
  const radio = entries.some((entry) => 'key' in entry && entry.selected !== undefined);
  const content = (
    <div
      className="fx-header-menu"
      role="menu"
      id={id}
      ref={listRef}
      onKeyDown={onKeyDown}
      data-testid={testId}
    >
      {entries.map((entry, index) => {
        if ('divider' in entry)
          return <div key={`divider-${index}`} role="separator" className="fx-header-menu-divider" />;
        if ('group' in entry)
          return (
            <div key={`group-${index}`} role="group" className="fx-header-menu-group">
              <div className="fx-header-menu-group-title">{entry.group}</div>
              {entry.items.map((member) => item(member, true))}
            </div>
          );
        return item(entry, radio);
      })}
    </div>
  );
  return (
    <Popover
      content={content}
      trigger="click"
      placement="bottomRight"
      arrow={false}
      open={open}
      onOpenChange={setOpen}
      styles={{ container: { padding: 4 } }}
      afterOpenChange={(visible) => {
        if (visible)
          listRef.current?.querySelector<HTMLButtonElement>(ITEM_SELECTOR)?.focus({ preventScroll: true });
      }}
    >
      {cloneElement(children, {
        'aria-haspopup': 'menu',
        'aria-expanded': open,
        'aria-controls': open ? id : undefined,
      })}
    </Popover>
  );
}
