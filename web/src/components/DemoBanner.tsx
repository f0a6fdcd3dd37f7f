import { useEffect, useState } from 'react';

type CloudProvider = 'aws' | 'sandbox';

// Asked once per page load: a running service does not change its cloud provider.
let asked: Promise<CloudProvider | null> | null = null;

/**
 * Which cloud the service scans, from /readyz (public, same origin). Its 503 body names the provider too; anything
 * unreadable is null, and shows nothing rather than a wrong banner.
 */
function cloudProvider(): Promise<CloudProvider | null> {
  asked ??= fetch('/readyz', { headers: { Accept: 'application/json' } })
    .then((res) => res.json() as Promise<{ cloud_provider?: unknown }>)
    .then(({ cloud_provider: provider }) => (provider === 'aws' || provider === 'sandbox' ? provider : null))
    .catch(() => null);
  return asked;
}

/** On every page of a service that scans the sandbox's simulated accounts, so nobody takes its findings for real ones. */
export function DemoBanner() {
  const [provider, setProvider] = useState<CloudProvider | null>(null);
  useEffect(() => {
    let current = true;
    void cloudProvider().then((p) => current && setProvider(p));
    return () => {
      current = false;
    };
  }, []);
  if (provider !== 'sandbox') return null;
  return (
    <p className="demo-banner" role="note">
      <strong>Demo data:</strong> this Sentinel scans simulated accounts (sandbox provider), not real AWS accounts.
    </p>
  );
}
