import { useEffect, useRef } from 'react';
import { FieldFrame } from './field-frame';

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
    <FieldFrame label={label} className="search-field">
      {(control) => (
        <input
          {...control}
          ref={inputRef}
          className="input"
          type="search"
          autoComplete="off"
          placeholder={placeholder}
          value={value}
          aria-keyshortcuts={slashShortcut ? '/' : undefined}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </FieldFrame>
  );
}
