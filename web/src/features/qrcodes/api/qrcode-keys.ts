/**
 * Query keys of QR codes: the generator's counter and unused list, an
 * installation's codes (the clients screen's modal) and each code's image.
 * The `qrcode` stream category invalidates `lists()` and the counter; images
 * never change (a code's URL is fixed when it is made), so they are left out.
 */
export const qrCodeKeys = {
  all: ['qrcodes'] as const,
  lists: () => [...qrCodeKeys.all, 'list'] as const,
  unused: () => [...qrCodeKeys.lists(), 'unused'] as const,
  byInstallation: (installationId: string) => [...qrCodeKeys.lists(), 'installation', installationId] as const,
  unusedCount: () => [...qrCodeKeys.all, 'unused-count'] as const,
  image: (id: string) => [...qrCodeKeys.all, 'image', id] as const,
};
