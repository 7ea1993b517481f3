// The package ships the French texts without a declaration for this entry.
declare module 'altcha/i18n/fr-fr';
