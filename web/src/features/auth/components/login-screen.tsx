import { useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { Banner } from '../../../components/ui/banner';
import { TextField } from '../../../components/ui/text-field';
import { saveSession, sessionExpiredByServer, useSession } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { homePathFor } from '../../../lib/access';
import { useLogin } from '../api/login';
import { LOGIN_MESSAGES, loginErrorMessage } from '../login-messages';
import { returnPathFrom } from '../return-path';

export function LoginScreen() {
  useDocumentTitle('Connexion');
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const returnPath = returnPathFrom(location.search);
  const loginMutation = useLogin();
  const [email, setEmail] = useState('');
  const [motdepasse, setMotdepasse] = useState('');
  // Sent here because the server refused the token (spec §7: 'Session expirée').
  const [expired] = useState(sessionExpiredByServer);

  // Already signed in (another tab, or the back button): go where the user was, else home.
  if (session && !loginMutation.isPending && !loginMutation.isSuccess) {
    return <Navigate to={returnPath ?? homePathFor(session.user)} replace />;
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (loginMutation.isPending) return;
    loginMutation.mutate(
      { email: email.trim(), motdepasse },
      {
        onSuccess: (newSession) => {
          saveSession(newSession);
          void navigate(returnPath ?? homePathFor(newSession.user), { replace: true });
        },
      },
    );
  };

  const busy = loginMutation.isPending;
  const error = loginMutation.isError ? loginErrorMessage(loginMutation.error) : null;

  return (
    <main className="auth-page">
      <form className="card auth-card" onSubmit={onSubmit} aria-labelledby="login-title" noValidate>
        <h1 id="login-title">Connexion</h1>
        {error ? <Banner tone="error">{error}</Banner> : expired ? <Banner tone="warning">{LOGIN_MESSAGES.sessionExpired}</Banner> : null}
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="username"
          inputMode="email"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          invalid={error !== null}
        />
        <TextField
          label="Mot de passe"
          type="password"
          name="motdepasse"
          autoComplete="current-password"
          required
          value={motdepasse}
          onChange={(e) => setMotdepasse(e.target.value)}
          invalid={error !== null}
        />
        <button type="submit" className="btn btn--primary btn--block" disabled={busy} aria-busy={busy || undefined}>
          {busy ? 'Connexion…' : 'Se connecter'}
        </button>
      </form>
    </main>
  );
}
