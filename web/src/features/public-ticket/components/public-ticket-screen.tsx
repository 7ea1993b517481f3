import { publicTicketFormSchema, TICKET_LABELS, TICKET_MESSAGES } from '@fsm/contracts';
import { useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner';
import { isImageFile, PhotoField } from '../../../components/ui/photo-field';
import { TextField } from '../../../components/ui/text-field';
import { TextareaField } from '../../../components/ui/textarea-field';
import { NetworkError, errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useQrKeyCheck } from '../api/check-qr-key';
import { useCreatePublicTicket } from '../api/create-public-ticket';
import { PhotoCompressionError, preparePhoto } from '../photo-compression';
import { CaptchaWidget, type CaptchaHandle, type CaptchaState } from './captcha-widget';

const INVALID_LINK_MESSAGE = TICKET_MESSAGES.invalidLink;

/**
 * iPhones and iPads offer camera or library themselves; forcing the camera
 * there hides the library. Elsewhere `capture` opens the rear camera at once.
 */
export function isAppleDevice(nav: Pick<Navigator, 'userAgent' | 'platform' | 'maxTouchPoints'> = navigator): boolean {
  return /iPhone|iPad|iPod|Macintosh|Mac OS X/i.test(nav.userAgent) || (nav.platform === 'MacIntel' && nav.maxTouchPoints > 1);
}

/**
 * Public breakdown request 'Demande de dépannage', reached from a QR code
 * (`/ticket?key=…`): a visitor on a phone, once, in a hurry (UI.md).
 */
export function PublicTicketScreen() {
  useDocumentTitle(TICKET_LABELS.publicFormTitle);
  const [params] = useSearchParams();
  const key = params.get('key')?.trim();

  return (
    <main className="public-page">
      <section className="card public-card" aria-labelledby="public-ticket-title">
        <h1 id="public-ticket-title">{TICKET_LABELS.publicFormTitle}</h1>
        {key ? <CheckedPublicTicketForm qrKey={key} /> : <Banner tone="error">{INVALID_LINK_MESSAGE}</Banner>}
      </section>
    </main>
  );
}

/**
 * The form once its key is known to lead somewhere (issue 32, item 6): an
 * unknown key, or one whose installation was deleted, shows the invalid-link
 * message at once instead of a form that fails after being filled in. The
 * form shows while the check runs (it is one short request, and the creation
 * checks the key again), so a valid link never waits for it.
 */
function CheckedPublicTicketForm({ qrKey }: { qrKey: string }) {
  const check = useQrKeyCheck(qrKey);
  if (check.data === 'invalide') return <Banner tone="error">{INVALID_LINK_MESSAGE}</Banner>;
  return <PublicTicketForm qrKey={qrKey} />;
}

interface Fields {
  nom: string;
  prenom: string;
  email: string;
  telephone: string;
  probleme: string;
}

const EMPTY: Fields = { nom: '', prenom: '', email: '', telephone: '', probleme: '' };

function PublicTicketForm({ qrKey }: { qrKey: string }) {
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [photo, setPhoto] = useState<File | null>(null);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [processing, setProcessing] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [showMissing, setShowMissing] = useState(false);
  const [captchaState, setCaptchaState] = useState<CaptchaState>('loading');
  const [checkingCaptcha, setCheckingCaptcha] = useState(false);
  const [sent, setSent] = useState(false);
  const [resetKey, setResetKey] = useState(0);
  const captchaRef = useRef<CaptchaHandle>(null);
  const photoRun = useRef(0);
  const mutation = useCreatePublicTicket();
  const [capture] = useState<'environment' | undefined>(() => (typeof navigator !== 'undefined' && !isAppleDevice() ? 'environment' : undefined));

  const pickPhoto = async (file: File | null) => {
    const run = ++photoRun.current;
    setPhotoError(null);
    setPhoto(null);
    if (!file) return;
    if (!isImageFile(file)) {
      setPhotoError(TICKET_MESSAGES.notAnImage);
      setResetKey((k) => k + 1);
      return;
    }
    setProcessing(true);
    try {
      const ready = await preparePhoto(file);
      if (run === photoRun.current) setPhoto(ready);
    } catch (error) {
      if (run !== photoRun.current) return;
      setPhotoError(error instanceof PhotoCompressionError ? error.message : TICKET_MESSAGES.photoCompressionFailed);
      setResetKey((k) => k + 1);
    } finally {
      if (run === photoRun.current) setProcessing(false);
    }
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (processing || mutation.isPending || checkingCaptcha) return;
    const parsed = publicTicketFormSchema.safeParse(fields);
    if (!parsed.success) {
      // The message itself is derived from the fields (fieldsProblem), so it goes once they are filled.
      setShowMissing(true);
      setProblem(null);
      return;
    }
    if (captchaState === 'error' || !captchaRef.current) {
      setProblem(TICKET_MESSAGES.captchaError);
      return;
    }
    setProblem(null);
    setCheckingCaptcha(true);
    const payload = await captchaRef.current.obtainPayload();
    setCheckingCaptcha(false);
    if (!payload) {
      setProblem(TICKET_MESSAGES.captchaFailed);
      return;
    }
    mutation.mutate(
      { key: qrKey, ...parsed.data, captcha: payload, photo },
      { onSuccess: () => setSent(true) },
    );
  };

  if (sent) {
    return (
      <div className="public-success" role="status">
        <span className="public-success__icon" aria-hidden="true">
          ✓
        </span>
        <p className="public-success__text">{TICKET_MESSAGES.publicSuccess}</p>
      </div>
    );
  }

  const serverError = mutation.isError
    ? mutation.error instanceof NetworkError
      ? TICKET_MESSAGES.publicNetworkError
      : errorMessage(mutation.error, TICKET_MESSAGES.publicSaveError)
    : null;
  const missing = (value: string) => showMissing && value.trim() === '';
  const fieldsCheck = showMissing ? publicTicketFormSchema.safeParse(fields) : null;
  const fieldsProblem = fieldsCheck && !fieldsCheck.success ? (fieldsCheck.error.issues[0]?.message ?? TICKET_MESSAGES.requiredFields) : null;
  const set = (key: keyof Fields) => (e: { target: { value: string } }) => setFields((f) => ({ ...f, [key]: e.target.value }));
  const busy = mutation.isPending || checkingCaptcha;

  return (
    <form className="stack public-form" onSubmit={(e) => void onSubmit(e)} noValidate>
      <p className="muted">Décrivez la panne : un technicien vous recontacte.</p>
      {fieldsProblem || problem ? <Banner tone="error">{fieldsProblem ?? problem}</Banner> : null}
      {serverError ? <Banner tone="error">{serverError}</Banner> : null}
      <div className="form-grid form-grid--pair">
        <TextField label="Nom" required autoComplete="family-name" value={fields.nom} onChange={set('nom')} invalid={missing(fields.nom)} />
        <TextField label="Prénom" required autoComplete="given-name" value={fields.prenom} onChange={set('prenom')} invalid={missing(fields.prenom)} />
      </div>
      <TextField label="Email" type="email" required autoComplete="email" inputMode="email" value={fields.email} onChange={set('email')} invalid={missing(fields.email)} />
      <TextField label="Téléphone" type="tel" required autoComplete="tel" inputMode="tel" value={fields.telephone} onChange={set('telephone')} invalid={missing(fields.telephone)} />
      <TextareaField label="Problème" required rows={3} value={fields.probleme} onChange={set('probleme')} invalid={missing(fields.probleme)} />
      <PhotoField
        label="Photo (facultative)"
        file={photo}
        onChange={(file) => void pickPhoto(file)}
        error={photoError}
        capture={capture}
        disabled={processing}
        resetKey={resetKey}
        hint={processing ? 'Traitement de la photo…' : undefined}
      />
      <CaptchaWidget ref={captchaRef} onStateChange={setCaptchaState} />
      <button type="submit" className="btn btn--primary btn--block btn--large" disabled={processing || busy} aria-busy={busy || undefined}>
        {processing ? 'Traitement de la photo…' : busy ? 'Envoi...' : 'Envoyer la demande'}
      </button>
    </form>
  );
}
