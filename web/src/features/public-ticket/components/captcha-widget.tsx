import { createElement, forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';

/** Where the widget fetches its proof-of-work challenge (self-hosted ALTCHA, spec §7 "captcha check"). */
const CAPTCHA_CHALLENGE_URL = '/api/public/captcha';

export type CaptchaState = 'loading' | 'unverified' | 'verifying' | 'verified' | 'expired' | 'error' | 'code';

export interface CaptchaHandle {
  /** The proof once verified; otherwise starts the verification and waits for it. Null on failure. */
  obtainPayload: () => Promise<string | null>;
}

interface WidgetElement extends HTMLElement {
  verify?: () => Promise<{ payload?: string } | null>;
}

/** Loads the web component (and its French texts) once, on first use. */
async function loadAltcha(): Promise<void> {
  await import('altcha');
  await import('altcha/i18n/fr-fr');
}

/**
 * The ALTCHA widget (`<altcha-widget>`, v3: `challenge` is the challenge URL).
 * Verification starts as soon as the visitor enters the form, so it is usually
 * done by the time they send; `obtainPayload` covers the rest.
 */
export const CaptchaWidget = forwardRef<CaptchaHandle, { onStateChange?: (state: CaptchaState) => void; load?: () => Promise<void> }>(
  function CaptchaWidget({ onStateChange, load = loadAltcha }, ref) {
    const elementRef = useRef<WidgetElement | null>(null);
    const payloadRef = useRef<string | null>(null);
    const [loaded, setLoaded] = useState(false);
    const [failed, setFailed] = useState(false);
    const onStateRef = useRef(onStateChange);
    onStateRef.current = onStateChange;

    useEffect(() => {
      let cancelled = false;
      onStateRef.current?.('loading');
      load()
        .then(() => {
          if (cancelled) return;
          setLoaded(true);
          onStateRef.current?.('unverified');
        })
        .catch(() => {
          if (cancelled) return;
          setFailed(true);
          onStateRef.current?.('error');
        });
      return () => {
        cancelled = true;
      };
    }, [load]);

    useEffect(() => {
      const element = elementRef.current;
      if (!loaded || !element) return;
      const onState = (event: Event) => {
        const detail = (event as CustomEvent<{ state?: string; payload?: string | null }>).detail ?? {};
        payloadRef.current = detail.state === 'verified' && detail.payload ? detail.payload : null;
        if (detail.state) onStateRef.current?.(detail.state as CaptchaState);
      };
      element.addEventListener('statechange', onState);
      return () => element.removeEventListener('statechange', onState);
    }, [loaded]);

    useImperativeHandle(
      ref,
      () => ({
        obtainPayload: async () => {
          if (payloadRef.current) return payloadRef.current;
          const element = elementRef.current;
          if (!element || typeof element.verify !== 'function') return null;
          try {
            const result = await element.verify();
            return result?.payload ?? payloadRef.current;
          } catch {
            return null;
          }
        },
      }),
      [],
    );

    if (failed) return null;
    return (
      <div className="captcha">
        {loaded
          ? createElement('altcha-widget', {
              ref: elementRef,
              challenge: CAPTCHA_CHALLENGE_URL,
              language: 'fr-fr',
              auto: 'onfocus',
              name: 'altcha',
            })
          : <p className="muted small">Chargement de la vérification…</p>}
      </div>
    );
  },
);
