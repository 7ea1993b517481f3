import { useEffect, useId, useRef } from 'react';

export interface SearchFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  /** `/` focuses the field from anywhere on the page (UI.md), unless typing elsewhere. */
  slashShortcut?: boolean;
}

function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** A labelled search box (`type="search"`, so Escape clears it in most browsers). */
export function SearchField({ label, value, onChange, placeholder, slashShortcut = true }: SearchFieldProps) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!slashShortcut) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || isTypingTarget(event.target)) return;
      event.preventDefault();
      inputRef.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [slashShortcut]);

  return (
    <div className="field search-field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        ref={inputRef}
        id={id}
        className="input"
        type="search"
        autoComplete="off"
        placeholder={placeholder}
        value={value}
        aria-keyshortcuts={slashShortcut ? '/' : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
