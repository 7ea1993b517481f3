import { SIGNATURE_CANVAS_HEIGHT_PX, SIGNATURE_STROKE_WIDTH } from '@fsm/contracts';
import { useEffect, useId, useRef } from 'react';
import SignaturePad from 'signature_pad';

export interface SignatureFieldProps {
  label: string;
  /** PNG data URL, or null when not signed. */
  value: string | null;
  onChange: (value: string | null) => void;
  error?: string | null;
}

/**
 * A signature drawn with a finger, a stylus or a mouse (spec §5, §9): canvas
 * 160 px high across the full width, stroke 2, saved as PNG after each
 * stroke. The canvas is sized for the screen's pixel ratio so lines stay
 * sharp, and `touch-action: none` keeps the page from scrolling under the
 * finger. A saved value is drawn back (draft restored after a reload).
 */
export function SignatureField({ label, value, onChange, error }: SignatureFieldProps) {
  const id = useId();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const valueRef = useRef(value);
  valueRef.current = value;
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const pad = new SignaturePad(canvas, {
      minWidth: SIGNATURE_STROKE_WIDTH,
      maxWidth: SIGNATURE_STROKE_WIDTH,
      dotSize: SIGNATURE_STROKE_WIDTH,
      penColor: '#111827',
      backgroundColor: 'rgb(255, 255, 255)',
    });
    padRef.current = pad;

    const restore = () => {
      const saved = valueRef.current;
      if (saved) void pad.fromDataURL(saved, { width: canvas.offsetWidth || undefined, height: SIGNATURE_CANVAS_HEIGHT_PX });
    };
    const resize = () => {
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      const width = canvas.offsetWidth;
      if (!width) return;
      canvas.width = width * ratio;
      canvas.height = SIGNATURE_CANVAS_HEIGHT_PX * ratio;
      canvas.getContext('2d')?.scale(ratio, ratio);
      // Resizing empties a canvas: draw the saved signature back.
      pad.clear();
      restore();
    };
    const onEnd = () => onChangeRef.current(pad.isEmpty() ? null : pad.toDataURL('image/png'));

    resize();
    if (!canvas.offsetWidth) restore();
    pad.addEventListener('endStroke', onEnd);
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      pad.removeEventListener('endStroke', onEnd);
      pad.off();
      padRef.current = null;
    };
  }, []);

  const clear = () => {
    padRef.current?.clear();
    onChange(null);
  };

  return (
    <div className="field signature">
      <div className="signature__head">
        <span className="field__label field__label--required" id={`${id}-label`}>
          {label}
        </span>
        <span className={value ? 'signature__state signature__state--done' : 'signature__state'}>{value ? 'Signé' : 'Non signé'}</span>
      </div>
      <canvas
        ref={canvasRef}
        className={error ? 'signature__canvas signature__canvas--invalid' : 'signature__canvas'}
        style={{ height: SIGNATURE_CANVAS_HEIGHT_PX }}
        role="img"
        aria-labelledby={`${id}-label`}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <div className="signature__foot">
        <span className="field__hint">Signez dans le cadre.</span>
        <button type="button" className="btn btn--ghost btn--small" onClick={clear} disabled={!value} aria-label={`Effacer : ${label}`}>
          Effacer
        </button>
      </div>
      {error ? (
        <p id={`${id}-error`} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
