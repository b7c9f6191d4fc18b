// The header's drop-down menus (language, preferences, account): a button that opens a short list of
// choices under it. The list is drawn by the header itself (global.css, .fx-header-menu, with the header
// theme's tokens) and placed with CSS under its button, which the sticky header keeps in view, instead of
// antd's Dropdown or Popover: those bring the popup-positioning, menu and form-context code into every
// page's first download for three short lists.
import {
  cloneElement,
  useEffect,
  useId,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type ReactElement,
  type ReactNode,
} from 'react';

export interface HeaderMenuItem {
  key: string;
  label: ReactNode;
  icon?: ReactNode;
  danger?: boolean;
  selected?: boolean;
}

export type HeaderMenuEntry =
  HeaderMenuItem | { divider: true } | { group: ReactNode; items: HeaderMenuItem[] };

interface TriggerProps {
  onClick?: () => void;
  'aria-haspopup'?: 'menu';
  'aria-expanded'?: boolean;
  'aria-controls'?: string;
}

interface HeaderMenuProps {
  entries: readonly HeaderMenuEntry[];
  onSelect: (key: string) => void;
  /** The button that opens the menu. */
  children: ReactElement<TriggerProps>;
  testId?: string;
}

const ITEM_SELECTOR = '[role="menuitem"], [role="menuitemradio"]';

export function HeaderMenu({ entries, onSelect, children, testId }: HeaderMenuProps) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLSpanElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const id = useId();

  // A press anywhere else closes the menu, as clicking beside a drop-down does.
  useEffect(() => {
    if (!open) return;
    const onPress = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPress);
    return () => document.removeEventListener('pointerdown', onPress);
  }, [open]);

  useEffect(() => {
    if (open)
      listRef.current?.querySelector<HTMLButtonElement>(ITEM_SELECTOR)?.focus({ preventScroll: true });
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) rootRef.current?.querySelector<HTMLElement>('[aria-haspopup="menu"]')?.focus();
  };
  // Focus goes back to the menu's button, as after Escape, rather than to the page's start.
  const choose = (key: string) => {
    close(true);
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
    else if (event.key === 'Escape') close(true);
    else return;
    event.preventDefault();
  };
  // Moving the focus out of the menu (Tab) closes it.
  const onBlur = (event: FocusEvent<HTMLSpanElement>) => {
    if (open && !rootRef.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
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
  return (
    <span className="fx-header-menu-anchor" ref={rootRef} onBlur={onBlur}>
      {cloneElement(children, {
        onClick: () => setOpen(!open),
        'aria-haspopup': 'menu',
        'aria-expanded': open,
        'aria-controls': open ? id : undefined,
      })}
      {open && (
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
      )}
    </span>
  );
}
