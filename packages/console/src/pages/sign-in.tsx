import { useEffect, useState } from 'react';
import { api } from '../api/client.js';
import { Form, TextField, useAction } from '../ui/form.js';

/** Local accounts; the answers for a locked account and for too many attempts are explained in words. */
export function SignInPage({ onSignedIn }: { onSignedIn(): Promise<void> }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction(async () => {
    await api.session.signIn(username, password);
    setPassword(''); // never keep a password around longer than the call
    await onSignedIn();
  });
  useEffect(() => {
    document.title = 'Sign in · Margin';
  }, []);
  return (
    <main id="main" className="sign-in">
      <h1>Sign in to Margin</h1>
      <Form action={action} submitLabel="Sign in" pendingLabel="Signing in…" label="Sign in">
        <TextField
          label="Username"
          name="username"
          value={username}
          onChange={setUsername}
          required
          maxLength={200}
          autoComplete="username"
          autoFocus
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          value={password}
          onChange={setPassword}
          required
          maxLength={1024}
          autoComplete="current-password"
        />
      </Form>
      <p className="hint">
        Five wrong passwords in a row lock the account for 15 minutes. Single sign-on needs the Commercial edition.
      </p>
    </main>
  );
}
