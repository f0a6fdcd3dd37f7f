import { trpc } from '../api';
import { ErrorBox, Loading } from '../components/ui';
import { useAction, useLoad } from '../hooks';
import { useCan, useMe } from '../me';
import { BASE } from '../router';

// Stripe sends the user back here after checkout or the portal (the service's own default is the same page).
const here = () => `${window.location.origin}${BASE}/billing`;

export function BillingPage() {
  const me = useMe();
  const isOwner = useCan('owner');
  const plans = useLoad(() => trpc.billing.plans.query(), []);
  const checkout = useAction((planId: 'solo' | 'team' | 'agency' | 'enterprise') =>
    trpc.billing.checkout.mutate({ plan_id: planId, success_url: here(), cancel_url: here() }),
  );
  const portal = useAction(() => trpc.billing.portal.mutate({ return_url: here() }));
  const current = me.tenant.plan;
  return (
    <section>
      <h1>Billing</h1>
      <p>
        Your organisation is on the{' '}
        <strong data-testid="current-plan">{plans.data?.plans.find((p) => p.id === current)?.name ?? current}</strong>{' '}
        plan.
      </p>
      {!isOwner && <p className="muted">Only the owner can change the plan.</p>}
      {isOwner && (
        <button
          type="button"
          disabled={portal.busy}
          onClick={() =>
            void portal.run().then((r) => {
              if (r) window.location.assign(r.portal_url);
            })
          }
        >
          Manage subscription and invoices
        </button>
      )}
      <ErrorBox message={checkout.error ?? portal.error} />
      <ErrorBox message={plans.error} onRetry={plans.reload} />
      {plans.loading && !plans.data && <Loading what="Loading plans" />}
      <div className="cards">
        {plans.data?.plans.map((p) => (
          <div key={p.id} className={p.id === current ? 'card current' : 'card'}>
            <h3>{p.name}</h3>
            <p className="big">
              ${p.price_usd_month}
              <span className="muted">/month</span>
            </p>
            <p>
              {p.account_limit} accounts · scans every {p.scan_interval_minutes} minutes
            </p>
            <ul>
              {p.features.map((f) => (
                <li key={f}>{f.replaceAll('_', ' ')}</li>
              ))}
            </ul>
            {p.id === current ? (
              <p className="muted">Current plan</p>
            ) : (
              isOwner && (
                <button
                  type="button"
                  disabled={checkout.busy}
                  onClick={() =>
                    void checkout.run(p.id).then((r) => {
                      if (r) window.location.assign(r.checkout_url);
                    })
                  }
                >
                  Switch to {p.name}
                </button>
              )
            )}
          </div>
        ))}
      </div>
    </section>
  );
}
