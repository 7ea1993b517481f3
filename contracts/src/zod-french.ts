import { z } from 'zod';

// zod's own messages (for checks without a message of ours) in French,
// wherever a schema of this package is parsed: the API, the deciders, the
// workers and the browser alike. Imported first by the package's index.
z.config(z.locales.fr());
