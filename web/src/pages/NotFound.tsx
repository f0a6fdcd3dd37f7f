import { BASE, Link } from '../router';

export function NotFoundPage() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        There is no page at this address. <Link to={`${BASE}/accounts`}>Go to your accounts</Link>.
      </p>
    </section>
  );
}
