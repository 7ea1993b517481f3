import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'react-router';
import type { ManagementScreen } from '../../../lib/access';

/**
 * The 'Gestion' dropdown: a menu button (aria-haspopup, aria-expanded) with
 * link menu items. Arrow keys, Home and End move between items; Escape closes
 * and returns focus to the button; Tab, an outside click or a route change
 * close it.
 */
export function GestionMenu({ entries }: { entries: readonly ManagementScreen[] }) {
  const location = useLocation();
  // Open "at" a location: navigating anywhere (even to the same path with a new
  // query) gives a new key, which closes the menu without an effect.
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === location.key;
  const [focusIndex, setFocusIndex] = useState(0);

  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const itemRefs = useRef<(HTMLAnchorElement | null)[]>([]);
  const menuId = useId();
  const buttonId = useId();

  const active = entries.some((e) => location.pathname === e.path || location.pathname.startsWith(`${e.path}/`));

  const openMenu = (index: number) => {
    setFocusIndex(index);
    setOpenAt(location.key);
  };
  const close = (returnFocus: boolean) => {
    setOpenAt(null);
    if (returnFocus) buttonRef.current?.focus();
  };

  // Focus follows the active item while open.
  useEffect(() => {
    if (open) itemRefs.current[focusIndex]?.focus();
  }, [open, focusIndex]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent | MouseEvent) => {
      if (!containerRef.current?.contains(event.target as Node)) setOpenAt(null);
    };
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpenAt(null);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      openMenu(0);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      openMenu(entries.length - 1);
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const last = entries.length - 1;
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        setFocusIndex((i) => (i >= last ? 0 : i + 1));
        break;
      case 'ArrowUp':
        event.preventDefault();
        setFocusIndex((i) => (i <= 0 ? last : i - 1));
        break;
      case 'Home':
        event.preventDefault();
        setFocusIndex(0);
        break;
      case 'End':
        event.preventDefault();
        setFocusIndex(last);
        break;
      case 'Tab':
        close(false);
        break;
      default:
        break;
    }
  };

  return (
    <div className="menu" ref={containerRef}>
      <button
        ref={buttonRef}
        id={buttonId}
        type="button"
        className={active ? 'navbar__link navbar__link--active' : 'navbar__link'}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : openMenu(0))}
        onKeyDown={onButtonKeyDown}
      >
        Gestion
        <span className="menu__caret" aria-hidden="true">
          ▾
        </span>
      </button>
      {open ? (
        <ul id={menuId} role="menu" aria-labelledby={buttonId} className="menu__list" onKeyDown={onMenuKeyDown}>
          {entries.map((entry, index) => (
            <li key={entry.path} role="none">
              <Link
                ref={(el) => {
                  itemRefs.current[index] = el;
                }}
                to={entry.path}
                role="menuitem"
                tabIndex={index === focusIndex ? 0 : -1}
                className="menu__item"
                aria-current={location.pathname === entry.path ? 'page' : undefined}
                onClick={() => {
                  // Same-path clicks do not change the location; close anyway.
                  if (location.pathname === entry.path) close(false);
                }}
              >
                {entry.label}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
