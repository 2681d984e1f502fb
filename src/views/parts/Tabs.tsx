/**
 * Tabs as the WAI-ARIA Authoring Practices draw them (tabs with automatic activation): a tablist of
 * buttons, one in the Tab order (the selected one), the arrows, Home and End move and select, and only
 * the selected panel is shown and exposed. Written here instead of Ark UI's Tabs for the subscription
 * page's budget (issue 20: the page is ≤ 150 KB in both languages; Ark's tabs machine cost ~3 KB of it for
 * two tabs), with the same roles, names, `data-selected` and panel focus Ark gave.
 */
import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface TabItem {
  value: string;
  label: string;
  panel: ReactNode;
}

const STEPS: Record<string, (index: number, last: number) => number> = {
  ArrowRight: (index, last) => (index === last ? 0 : index + 1),
  ArrowLeft: (index, last) => (index === 0 ? last : index - 1),
  Home: () => 0,
  End: (_, last) => last,
};

export function Tabs({ items, label, defaultValue, listClassName, tabClassName }: {
  items: readonly TabItem[];
  /** The tablist's accessible name. */
  label: string;
  defaultValue?: string;
  listClassName?: string;
  tabClassName?: string;
}) {
  const [selected, setSelected] = useState(defaultValue ?? items[0]?.value);
  const id = useId();
  const tabs = useRef<Array<HTMLButtonElement | null>>([]);

  function onKeyDown(event: KeyboardEvent, index: number) {
    const step = STEPS[event.key];
    if (!step) return;
    event.preventDefault();
    const next = step(index, items.length - 1);
    setSelected(items[next]!.value);
    tabs.current[next]?.focus();
  }

  return (
    <>
      <div role="tablist" aria-label={label} aria-orientation="horizontal" className={listClassName}>
        {items.map((item, index) => {
          const isSelected = item.value === selected;
          return (
            <button
              key={item.value}
              ref={(element) => { tabs.current[index] = element; }}
              type="button"
              role="tab"
              id={`${id}-tab-${item.value}`}
              aria-controls={`${id}-panel-${item.value}`}
              aria-selected={isSelected}
              tabIndex={isSelected ? 0 : -1}
              data-selected={isSelected ? '' : undefined}
              className={tabClassName}
              onClick={() => setSelected(item.value)}
              onKeyDown={(event) => onKeyDown(event, index)}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      {items.map((item) => (
        <div
          key={item.value}
          role="tabpanel"
          id={`${id}-panel-${item.value}`}
          aria-labelledby={`${id}-tab-${item.value}`}
          tabIndex={0}
          hidden={item.value !== selected}
        >
          {item.value === selected ? item.panel : null}
        </div>
      ))}
    </>
  );
}
