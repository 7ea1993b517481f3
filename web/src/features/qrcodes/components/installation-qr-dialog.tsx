import type { Installation, QrCode } from '@fsm/contracts';
import { useEffect, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Dialog } from '../../../components/ui/dialog';
import { CloseActions } from '../../../components/ui/form-dialog';
import { PrintSheet } from '../../../components/ui/print-sheet';
import { RowAction } from '../../../components/ui/row-action';
import { SelectField } from '../../../components/ui/select-field';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { editConflictMessage, isEditConflict } from '../../../lib/edit-conflict';
import { useAssignQrCode } from '../api/assign-qr-code';
import { useInstallationQrCodes } from '../api/get-installation-qr-codes';
import { useUnusedQrCodes } from '../api/get-unused-qr-codes';
import { QR_MESSAGES } from '../api/qrcode-messages';
import { useUnassignQrCode } from '../api/unassign-qr-code';
import { QrCodeImage } from './qr-code-image';
import { QrLabelSheet } from './qr-label-sheet';

export interface QrDialogContext {
  installation: Installation;
  siteNom: string;
  clientNom: string;
  agenceNom: string | null;
}

/**
 * An installation's QR codes (§2): the codes stuck on it with their image;
 * with clients.edit, assign a free code of the agency or take one off; print
 * its labels with the installation, site and client on them.
 */
export function InstallationQrDialog({ context, canEdit, onClose }: { context: QrDialogContext; canEdit: boolean; onClose: () => void }) {
  const { installation, siteNom, clientNom, agenceNom } = context;
  const toast = useToast();
  const codes = useInstallationQrCodes(installation.id);
  const unused = useUnusedQrCodes(canEdit);
  const assign = useAssignQrCode();
  const unassign = useUnassignQrCode();
  const [choice, setChoice] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [printing, setPrinting] = useState(false);
  const assigned = codes.data ?? [];
  const free = unused.data ?? [];

  useEffect(() => {
    if (!printing) return;
    // Let the print copy's images get their object URLs before the dialog opens.
    const timer = setTimeout(() => {
      if (typeof window.print === 'function') window.print();
      setPrinting(false);
    }, 300);
    return () => clearTimeout(timer);
  }, [printing]);

  /** A code that changed since it was listed: say so and show the lists as they are now. */
  const failed = (error: unknown, fallback: string) => {
    if (!isEditConflict(error)) return setFailure(errorMessage(error, fallback));
    setFailure(editConflictMessage(error));
    void codes.refetch();
    void unused.refetch();
  };

  const onAssign = () => {
    if (!choice) return;
    setFailure(null);
    assign.mutate(
      { qrCodeId: choice, installationId: installation.id, version: free.find((code) => code.id === choice)?.version },
      {
        onSuccess: () => {
          setChoice('');
          toast.show('QR code affecté.', { tone: 'success' });
        },
        onError: (error) => failed(error, QR_MESSAGES.assignError),
      },
    );
  };

  const onUnassign = (code: QrCode) => {
    setFailure(null);
    unassign.mutate(
      { qrCodeId: code.id, version: code.version },
      {
        onSuccess: () => toast.show('QR code retiré.', { tone: 'success' }),
        onError: (error) => failed(error, QR_MESSAGES.unassignError),
      },
    );
  };

  return (
    <Dialog open title={`QR codes — ${installation.nom}`} onClose={onClose} className="dialog--wide">
      <p className="muted">
        {siteNom} · {clientNom}
      </p>
      {codes.isError ? <Banner tone="error">{errorMessage(codes.error, QR_MESSAGES.loadError)}</Banner> : null}
      {codes.isPending ? (
        <p className="muted" role="status">
          Chargement…
        </p>
      ) : assigned.length === 0 ? (
        <p className="muted">Aucun QR code affecté à cette installation.</p>
      ) : (
        <ul className="qr-list" aria-label="QR codes affectés">
          {assigned.map((code) => (
            <li key={code.id} className="qr-list__item">
              <QrCodeImage code={code} />
              <div className="qr-list__text">
                <code className="slug">{code.qr_key}</code>
                <a href={code.url} target="_blank" rel="noreferrer" className="qr-list__url">
                  {code.url}
                </a>
              </div>
              {canEdit ? (
                <RowAction label={`Retirer le QR code ${code.qr_key}`} onClick={() => onUnassign(code)} danger disabled={unassign.isPending}>Retirer</RowAction>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {canEdit ? (
        <div className="qr-assign">
          {unused.isPending ? (
            <p className="muted">Chargement…</p>
          ) : free.length === 0 ? (
            <p className="muted">Aucun QR code libre : générez-en depuis l'écran QR Codes.</p>
          ) : (
            <>
              <SelectField label="QR code libre" value={choice} onChange={(event) => setChoice(event.target.value)}>
                <option value="">Choisir un QR code</option>
                {free.map((code) => (
                  <option key={code.id} value={code.id}>
                    {code.qr_key}
                  </option>
                ))}
              </SelectField>
              <button type="button" className="btn btn--primary" onClick={onAssign} disabled={!choice || assign.isPending} aria-busy={assign.isPending || undefined}>
                Affecter
              </button>
            </>
          )}
        </div>
      ) : null}
      {failure ? <Banner tone="error">{failure}</Banner> : null}
      <CloseActions onClose={onClose}>
        {assigned.length > 0 ? (
          <button type="button" className="btn" onClick={() => setPrinting(true)} disabled={printing}>
            Imprimer les étiquettes
          </button>
        ) : null}
      </CloseActions>
      {printing ? (
        <PrintSheet screenHidden label="Étiquettes à imprimer">
          <QrLabelSheet
            labels={assigned.map((code) => ({ code, installation: installation.nom, site: siteNom, client: clientNom }))}
            agence={agenceNom}
            decorative
          />
        </PrintSheet>
      ) : null}
    </Dialog>
  );
}
