import { useEffect, useRef, useState } from 'react';
import { trpc } from '../api';
import { ErrorBox, Notice } from '../components/ui';
import { useAction, usePublicAction } from '../hooks';
import { BASE, Link } from '../router';

// Where the links mailed by the service lead. Each token stays in the fragment (`#token=...`): it never reaches
// a server log or a Referer header, and is sent only in a request body or query the page makes itself.

function tokenFromFragment(): string | null {
  return new URLSearchParams(window.location.hash.slice(1)).get('token');
}

/** The sign-up's verification link: verifies at once (the link is single-use and proves only the mailbox). */
export function VerifyEmailPage() {
  const [token] = useState(tokenFromFragment);
  const [done, setDone] = useState<string | null>(null);
  const verify = usePublicAction(async (link: string) =>
    setDone((await trpc.auth.verifyEmail.mutate({ token: link })).message),
  );
  const started = useRef(false);
  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    void verify.run(token);
  }, [token, verify]);
  return (
    <div className="auth">
      <h1>Sentinel</h1>
      <section aria-label="Verify your e-mail address">
        <h2>Verify your e-mail address</h2>
        {!token && (
          <ErrorBox message="This verification link is incomplete. Open the link from the e-mail again, or ask for a new one from the dashboard." />
        )}
        {token && !done && !verify.error && <p>Verifying…</p>}
        {done && <p role="status">{done}</p>}
        <ErrorBox message={verify.error} />
      </section>
      <p>
        <Link to={`${BASE}/accounts`}>Open the dashboard</Link>
      </p>
    </div>
  );
}

/**
 * A link from an alert e-mail, for somebody who may have no account: confirm the alerts, or stop them. It asks
 * before acting, since mail scanners open every link in a message.
 */
export function EmailPreferencesPage() {
  const [token] = useState(tokenFromFragment);
  const [done, setDone] = useState<string | null>(null);
  const act = usePublicAction(async (kind: 'confirm' | 'unsubscribe', link: string) => {
    const answer =
      kind === 'confirm'
        ? await trpc.auth.confirmAlertRecipient.mutate({ token: link })
        : await trpc.auth.unsubscribeAlertRecipient.mutate({ token: link });
    setDone(answer.message);
  });
  // The token says what it is for (notify/recipient-links.ts); the service checks its signature.
  const purpose = token?.split('.')[0];
  return (
    <div className="auth">
      <h1>Sentinel</h1>
      <section aria-label="Alert e-mails">
        <h2>Alert e-mails</h2>
        {!token || (purpose !== 'confirm' && purpose !== 'unsubscribe') ? (
          <ErrorBox message="This link is incomplete. Open the link from the e-mail again." />
        ) : done ? (
          <p role="status">{done}</p>
        ) : (
          <>
            <p>
              {purpose === 'confirm'
                ? "Do you want this team's Sentinel security alerts by e-mail?"
                : "Stop this team's Sentinel alert e-mails to you?"}
            </p>
            <ErrorBox message={act.error} />
            {purpose === 'confirm' ? (
              <button type="button" disabled={act.busy} onClick={() => void act.run('confirm', token)}>
                Yes, send me these alerts
              </button>
            ) : (
              <button type="button" disabled={act.busy} onClick={() => void act.run('unsubscribe', token)}>
                Unsubscribe
              </button>
            )}
          </>
        )}
      </section>
    </div>
  );
}

/** Shown to a signed-in user who has not verified their address, with a way to get a new link. */
export function VerifyEmailBanner() {
  const [sent, setSent] = useState<string | null>(null);
  const resend = useAction(async () => setSent((await trpc.me.resendVerificationEmail.mutate()).message));
  return (
    <section aria-label="E-mail not verified">
      <Notice>
        {sent ??
          'Verify your e-mail address with the link we sent you. Until the owner has, this team sends no alert e-mails (not even to the owner) and no invitations.'}
        {!sent && (
          <>
            {' '}
            <button type="button" className="link" disabled={resend.busy} onClick={() => void resend.run()}>
              Send a new link
            </button>
          </>
        )}
      </Notice>
      <ErrorBox message={resend.error} />
    </section>
  );
}
