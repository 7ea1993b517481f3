import './lib/strict-csp';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import './styles/index.css';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

const root = createRoot(container);
// A transition: React renders the first screen in slices of a few milliseconds, yielding to the
// browser between them, instead of one long task on a slow phone (issue 32, item 7: total blocking
// time). index.html's 'Chargement…' stays until the screen is ready.
startTransition(() => {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
