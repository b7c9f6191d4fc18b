import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { arrowTarget } from './arrow-keys.ts';

// Tabs for the orders panel: a tab list with an ink bar under the chosen tab and one panel, as antd's small
// Tabs draws them (spot.css, .fx-tabs), without antd's Tabs, which brings its overflow menu and drop-down
// code into the trading page's first download.

export interface CompactTab {
  key: string;
  label: ReactNode;
  children: ReactNode;
}

interface CompactTabsProps {
  tabs: readonly CompactTab[];
  activeKey: string;
  onChange: (key: string) => void;
}

export function CompactTabs({ tabs, activeKey, onChange }: CompactTabsProps) {
  const id = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const active = tabs.find((tab) => tab.key === activeKey) ?? tabs[0];
  // As antd's Tabs do, a panel is drawn the first time its tab is chosen and then kept (hidden while another
  // tab is chosen), so that what was chosen inside it, such as a sub-tab, stays.
  const [visited, setVisited] = useState<ReadonlySet<string>>(() => new Set(active ? [active.key] : []));
  if (active !== undefined && !visited.has(active.key)) setVisited(new Set([...visited, active.key]));
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = arrowTarget(
      event.key,
      tabs.findIndex((tab) => tab.key === active?.key),
      tabs.length,
    );
    const next = target === null ? undefined : tabs[target];
    if (next === undefined) return;
    event.preventDefault();
    onChange(next.key);
    listRef.current?.querySelector<HTMLButtonElement>(`[data-key="${next.key}"]`)?.focus();
  };
  return (
    <div className="fx-tabs">
      <div className="fx-tabs-list" role="tablist" ref={listRef} onKeyDown={onKeyDown}>
        {tabs.map((tab) => {
          const selected = tab.key === active?.key;
          return (
            <button
              key={tab.key}
              type="button"
              role="tab"
              id={`${id}-tab-${tab.key}`}
              data-key={tab.key}
              aria-selected={selected}
              aria-controls={`${id}-panel-${tab.key}`}
              tabIndex={selected ? 0 : -1}
              className={selected ? 'fx-tabs-tab is-active' : 'fx-tabs-tab'}
              onClick={() => onChange(tab.key)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      {tabs
        .filter((tab) => tab.key === active?.key || visited.has(tab.key))
        .map((tab) => (
          <div
            key={tab.key}
            role="tabpanel"
            id={`${id}-panel-${tab.key}`}
            aria-labelledby={`${id}-tab-${tab.key}`}
            hidden={tab.key !== active?.key}
            className="fx-tabs-panel"
          >
            {tab.children}
          </div>
        ))}
    </div>
  );
}
