export const QR_MESSAGES = {
  scanLine: 'Scannez pour signaler une panne',
  generateError: 'Erreur lors de la génération des QR codes.',
  exportError: "Erreur lors de l'export des QR codes.",
  loadError: 'Erreur lors du chargement des QR codes.',
  assignError: "Erreur lors de l'affectation du QR code.",
  unassignError: 'Erreur lors du retrait du QR code.',
  imageError: 'Image indisponible',
} as const;
